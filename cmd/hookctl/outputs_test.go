package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// outputCommands are the commands whose every byte TestOutputsOnRealFiles
// keeps: what a user reads of a hooks.json, from each command that reads
// one without running it.
var outputCommands = []struct {
	name string
	args []string
}{
	{"lint", []string{"lint"}},
	{"lint-json", []string{"lint", "--format", "json"}},
	{"list", []string{"list"}},
	{"list-json", []string{"list", "--json"}},
	{"explain-pretooluse", []string{"run", "PreToolUse", "--tool", "run_command", "--explain"}},
	{"explain-stop", []string{"run", "Stop", "--explain"}},
	{"doctor", []string{"doctor", "--offline"}},
}

// TestOutputsOnRealFiles runs every command above on each real hooks.json
// of testdata/realworld, as the .agents/hooks.json of a workspace of its
// own, and on the bundled example, and compares what each prints (stdout,
// stderr and exit status) with testdata/outputs: a change of the code's
// shape keeps every byte; a change of what a command says updates the
// golden file on purpose (go test ./cmd/hookctl -run TestOutputsOnRealFiles
// -update), and the diff shows what changed.
func TestOutputsOnRealFiles(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs seven commands on 111 workspaces")
	}
	bin := hookctlBinary(t)
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "realworld", "*.json"))
	if len(files) < 110 {
		t.Fatalf("found %d real files, want 110", len(files))
	}
	type workspace struct{ name, dir string }
	var spaces []workspace
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ws := t.TempDir()
		if err := os.Mkdir(filepath.Join(ws, ".agents"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(ws, ".agents", "hooks.json"), src, 0o644); err != nil {
			t.Fatal(err)
		}
		spaces = append(spaces, workspace{"realworld/" + filepath.Base(f), ws})
	}
	examples, err := filepath.Abs(filepath.Join("..", "..", "examples"))
	if err != nil {
		t.Fatal(err)
	}
	spaces = append(spaces, workspace{"examples", examples})
	home := t.TempDir()
	for _, c := range outputCommands {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var got bytes.Buffer
			for _, w := range spaces {
				cmd := exec.Command(bin, c.args...)
				cmd.Dir = w.dir
				cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
					"XDG_STATE_HOME="+filepath.Join(home, ".state"), "HOOKCTL_LOG=", "NO_COLOR=1",
					"HOOKCTL_SHELLCHECK="+noShellcheck, "COLUMNS=100")
				var out, errb bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &errb
				code := 0
				if err := cmd.Run(); err != nil {
					ee, ok := err.(*exec.ExitError)
					if !ok {
						t.Fatal(err)
					}
					code = ee.ExitCode()
				}
				clean := func(s string) string {
					s = strings.ReplaceAll(s, w.dir, "$WORK")
					return strings.ReplaceAll(s, home, "$HOME")
				}
				fmt.Fprintf(&got, "=== %s: exit %d\n%s", w.name, code, clean(out.String()))
				if errb.Len() > 0 {
					fmt.Fprintf(&got, "--- stderr\n%s", clean(errb.String()))
				}
			}
			golden := filepath.Join("testdata", "outputs", c.name+".golden")
			if *updateScripts {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v: write it with -update", err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				diffOutputs(t, golden, string(want), got.String())
			}
		})
	}
}

// diffOutputs reports the first workspaces whose output differs from the
// golden file's.
func diffOutputs(t *testing.T, golden, want, got string) {
	t.Helper()
	split := func(s string) map[string]string {
		m := map[string]string{}
		for _, part := range strings.Split(s, "=== ")[1:] {
			name, _, _ := strings.Cut(part, ":")
			m[name] = part
		}
		return m
	}
	w, g := split(want), split(got)
	shown := 0
	for name, part := range g {
		if w[name] != part && shown < 3 {
			shown++
			t.Errorf("%s: %s differs:\n--- want\n%s--- got\n%s", golden, name, w[name], part)
		}
	}
	if shown == 0 {
		t.Errorf("%s differs (in the workspaces it lists)", golden)
	}
}
