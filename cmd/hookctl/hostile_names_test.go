//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/schema"
)

// A test file's name is the workspace's (a glob such as */*.test.json
// names it): test shows it with its escape sequences made visible, never
// sent to the terminal.
func TestTestShowsHostileSuiteNames(t *testing.T) {
	bin := filepath.Join(hookctlOnPath(t), "hookctl")
	top, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home, ws := filepath.Join(top, "home"), filepath.Join(top, "ws")
	for _, d := range []string{home, filepath.Join(ws, ".agents")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := append(machineOf(home, filepath.Dir(bin)), "GIT_CEILING_DIRECTORIES="+top)
	if _, errOut, code := subfolderRun(t, bin, ws, env, "init", "--template", "notify", "--lang", "sh", "--yes"); code != 0 {
		t.Fatalf("init: %d %s", code, errOut)
	}
	src, err := os.ReadFile(filepath.Join(ws, ".agents", "hooks.test.json"))
	if err != nil {
		t.Fatal(err)
	}
	hostile := "x\x1b]0;owned\x07\x1b[2Jy.test.json"
	if err := os.WriteFile(filepath.Join(ws, hostile), src, 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := subfolderRun(t, bin, ws, env, "test", filepath.Join(".agents", "hooks.test.json"), hostile)
	if code != 0 {
		t.Fatalf("test: %d\n%s%s", code, out, errOut)
	}
	if strings.ContainsRune(out+errOut, '\x1b') {
		t.Errorf("an escape sequence reached the terminal:\n%q", out+errOut)
	}
	if !strings.Contains(out, schema.Visible(hostile)+"\n") {
		t.Errorf("the file is not named as %s:\n%s", schema.Visible(hostile), out)
	}
}

// hookctl refuses, and names, a .agents that another user planted in a
// folder above the current one, whatever the command: none of them reads
// its hooks, writes beside it, or runs it.
func TestCommandsRefuseAWorkspaceAnotherUserOwns(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("giving a file to another user takes root")
	}
	bin := filepath.Join(hookctlOnPath(t), "hookctl")
	top, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home, shared := filepath.Join(top, "home"), filepath.Join(top, "shared")
	here := filepath.Join(shared, "x")
	agents := filepath.Join(shared, ".agents")
	for _, d := range []string{home, here, agents} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	witness := filepath.Join(top, "ran")
	hooks := `{"planted":{"PostToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"touch ` + witness + `"}]}]}}`
	if err := os.WriteFile(filepath.Join(agents, "hooks.json"), []byte(hooks), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("chown", "-R", "65534:65534", agents).CombinedOutput(); err != nil {
		t.Fatalf("chown: %v %s", err, out)
	}
	env := append(machineOf(home, filepath.Dir(bin)), "GIT_CEILING_DIRECTORIES="+top, "SUDO_UID=")
	for _, args := range [][]string{
		{"lint"}, {"list"}, {"doctor", "--offline"}, {"test"}, {"trust", "--yes"},
		{"init", "--template", "notify", "--lang", "sh", "--yes"},
	} {
		out, errOut, code := subfolderRun(t, bin, here, env, args...)
		if code != 2 || !strings.Contains(errOut, `"`+agents+`" is owned by`) {
			t.Errorf("hookctl %s: exit %d, want 2 and the planted folder named:\n%s%s", strings.Join(args, " "), code, out, errOut)
		}
	}
	if _, err := os.Stat(filepath.Join(agents, "hooks", "notify.sh")); err == nil {
		t.Error("init wrote into the planted folder")
	}
	// run, which the agent calls, does not fail: it takes the current
	// folder instead, and says why.
	cmd := exec.Command(bin, "run", "PostToolUse", "--tool", "run_command")
	cmd.Dir, cmd.Env, cmd.Stdin = here, env, strings.NewReader("{}")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("run: %v %s", err, out)
	}
	if _, err := os.Stat(witness); err == nil {
		t.Error("run ran the planted hook")
	}
	if !strings.Contains(string(out), `"`+agents+`" is owned by`) || !strings.Contains(string(out), `takes the current folder "`+here+`"`) {
		t.Errorf("run does not name the workspace it refused, and what it took instead:\n%s", out)
	}
}

// The commands init and test print name the workspace's folder, whose
// name may hold escape sequences: they are shown made visible.
func TestCommandsShownForAHostileFolderName(t *testing.T) {
	bin := filepath.Join(hookctlOnPath(t), "hookctl")
	top, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home, ws := filepath.Join(top, "home"), filepath.Join(top, "a\x1b]0;owned\x07b")
	for _, d := range []string{home, filepath.Join(ws, ".agents")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A hooks.json of the workspace's own, never trusted.
	hooks := `{"mine":{"Stop":[{"type":"command","command":"echo {}"}]}}`
	if err := os.WriteFile(filepath.Join(ws, ".agents", "hooks.json"), []byte(hooks), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(machineOf(home, filepath.Dir(bin)), "GIT_CEILING_DIRECTORIES="+top)
	out, errOut, code := subfolderRun(t, bin, ws, env, "init", "--template", "notify", "--lang", "sh", "--yes")
	if code != 0 {
		t.Fatalf("init: %d %s", code, errOut)
	}
	if strings.ContainsRune(out+errOut, '\x1b') || !strings.Contains(out, "hookctl trust '"+schema.Visible(ws)+"'") {
		t.Errorf("init:\n%q", out+errOut)
	}
	out, errOut, _ = subfolderRun(t, bin, ws, env, "test")
	if strings.ContainsRune(out+errOut, '\x1b') || !strings.Contains(errOut, "hookctl trust '"+schema.Visible(ws)+"'") {
		t.Errorf("test:\n%q", out+errOut)
	}
	// import, from a folder below, names hooks.json by its whole path.
	sub := filepath.Join(ws, "sub")
	writeFile(t, filepath.Join(ws, ".claude", "settings.json"), `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"true"}]}]}}`)
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = subfolderRun(t, bin, sub, env, "import", "--write", "--from", "claude", "../.claude/settings.json")
	if code != 0 || strings.ContainsRune(out+errOut, '\x1b') || !strings.Contains(out, "to "+schema.Visible(filepath.Join(ws, ".agents", "hooks.json"))+"\n") {
		t.Errorf("import: %d\n%q", code, out+errOut)
	}
}
