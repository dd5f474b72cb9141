package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/internal/testenv"
	"github.com/hookctl/hookctl/templates"
)

// TestEveryTemplateIsTrustedAndRuns writes every template in every
// language with the real hookctl, as a new user would, in a fresh
// workspace and in one whose hooks were trusted before: trust covers it
// with only real files, and names nothing "not covered" but, once, what a
// template runs that the project decides (Template.Runs), run gets the template's
// answer, and test, test --contract, lint and doctor --offline pass. In
// the trusted workspace, init keeps the trust: the hook it adds and the
// gate there before both answer at once. -short runs two templates, in
// fresh workspaces.
func TestEveryTemplateIsTrustedAndRuns(t *testing.T) {
	t.Parallel()
	bin := hookctlBinary(t)
	for _, tool := range []string{"jq", "python3", "node", "git"} {
		testenv.Need(t, tool)
	}
	shellcheck := noShellcheck
	if p, err := exec.LookPath("shellcheck"); err == nil {
		shellcheck = p
	}
	for _, added := range []bool{false, true} {
		for i, tmpl := range templates.All() {
			for j, lang := range templates.Languages {
				if testing.Short() && (added || tmpl.ID != "protect-paths" && tmpl.ID != "block-dangerous") {
					continue
				}
				// Added to a trusted workspace, each template in one
				// language, the languages in turn: what a language
				// changes (the script trust reads, its run) the fresh
				// workspace checks in every one; what adding changes
				// (the trust kept, both gates run) is the same in all.
				if added && j != i%len(templates.Languages) {
					continue
				}
				name := "fresh/"
				if added {
					name = "added/"
				}
				t.Run(name+tmpl.ID+"/"+lang.ID, func(t *testing.T) {
					t.Parallel()
					templateInWorkspace(t, bin, shellcheck, tmpl, lang, added)
				})
			}
		}
	}
}

// hookctlIn runs the binary in the folder ws with a home of its own.
type hookctlIn struct {
	t             *testing.T
	bin, ws, home string
	shellcheck    string
}

func (h hookctlIn) run(stdin string, args ...string) (int, string, string) {
	h.t.Helper()
	cmd := exec.Command(h.bin, args...)
	cmd.Dir = h.ws
	cmd.Env = append(os.Environ(), "HOME="+h.home, "XDG_CONFIG_HOME="+filepath.Join(h.home, ".config"),
		"XDG_STATE_HOME="+filepath.Join(h.home, ".local", "state"), "HOOKCTL_LOG=", "NO_COLOR=1",
		"HOOKCTL_SHELLCHECK="+h.shellcheck)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), out.String(), errb.String()
	}
	if err != nil {
		h.t.Fatal(err)
	}
	return 0, out.String(), errb.String()
}

// must runs hookctl and fails the test unless it exits 0.
func (h hookctlIn) must(stdin string, args ...string) (string, string) {
	h.t.Helper()
	code, out, errs := h.run(stdin, args...)
	if code != 0 {
		h.t.Fatalf("hookctl %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errs)
	}
	return out, errs
}

func templateInWorkspace(t *testing.T, bin, shellcheck string, tmpl templates.Template, lang templates.Language, added bool) {
	ws, home := t.TempDir(), t.TempDir()
	if out, err := exec.Command("git", "init", "-q", ws).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	h := hookctlIn{t: t, bin: bin, ws: ws, home: home, shellcheck: shellcheck}
	gate, _ := templates.Lookup("block-dangerous")
	if added {
		h.must("", "init", "--template", "block-dangerous", "--lang", "sh", "--name", "first-gate", "--yes")
		h.must("", "trust", "--yes")
	}
	args := []string{"init", "--template", tmpl.ID, "--lang", lang.ID, "--yes"}
	if tmpl.Matcher == "*" {
		// A hook on every tool gets one call per known tool from the
		// contract check (init's, and test --contract's), each a cold
		// interpreter: one tool runs the same code.
		args = append(args, "--matcher", "run_command")
	}
	h.must("", args...)
	script := filepath.Join(ws, ".agents", "hooks", tmpl.ID+lang.Ext)
	if info, err := os.Stat(script); err != nil || info.Mode().Perm()&0o111 == 0 {
		t.Fatalf("init wrote no executable %s: %v", script, err)
	}
	// Added to a trusted workspace, the new hook and the gate before it
	// run at once: init kept the trust.
	if added {
		answer(t, h, tmpl, "")
		answer(t, h, gate, "first-gate")
		code, out, errs := h.run(`{"tool_name": "Bash", "tool_input": {"command": "sudo rm -rf /"}, "cwd": "`+ws+`"}`, "run", "--from", "claude", "PreToolUse")
		if code != 2 {
			t.Errorf("run --from claude: the gate did not deny: exit %d\n%s%s", code, out, errs)
		}
	}
	// The review, shown afresh.
	h.must("", "trust", "--revoke")
	review, errs := h.must("", "trust", "--yes")
	// What the template runs that the project decides (tests-must-pass:
	// the project's tests) is named, once, in the template's words; the
	// rest is covered.
	named := ""
	if _, after, ok := strings.Cut(review, "\nNot covered:\n"); ok {
		named, _, _ = strings.Cut(after, "\n\n")
	}
	want := ""
	if tmpl.Runs != "" {
		want = " (" + tmpl.ID + "): .agents/hooks/" + tmpl.ID + lang.Ext + ":"
	}
	if n := strings.Count(named, "\n") + 1; want == "" && named != "" || want != "" && (n != 1 || !strings.Contains(named, want) || !strings.HasSuffix(named, " "+tmpl.Runs)) {
		t.Errorf("trust names what it does not cover:\n%s%s", review, errs)
	}
	if strings.Contains(review+errs, `\n`) {
		t.Errorf("the review shows an escaped line break:\n%s%s", review, errs)
	}
	files := false
	for _, l := range strings.Split(review, "\n") {
		switch {
		case l == "Files covered:":
			files = true
		case files && strings.HasPrefix(l, "  "):
			p := strings.Fields(l)[0]
			if _, err := os.Stat(filepath.Join(ws, p)); err != nil || len(l) > 120 {
				t.Errorf("the review covers a file that is not there: %q", l)
			}
		default:
			files = false
		}
	}
	if !strings.Contains(review, ".agents/hooks/"+tmpl.ID+lang.Ext+" ") {
		t.Errorf("the review does not cover the script:\n%s", review)
	}
	answer(t, h, tmpl, "")
	if out, _ := h.must("", "test"); !strings.Contains(out, " 0 failed") {
		t.Errorf("test:\n%s", out)
	}
	if added {
		// The contract, lint and doctor judge the hook and its script,
		// whatever else the workspace holds: checked in the fresh one.
		return
	}
	// The budget is the machine's: a cold interpreter on a busy machine
	// takes more than the default 500ms.
	if out, _ := h.must("", "test", "--contract", "--budget", "10m"); !strings.Contains(out, " 0 failed") {
		t.Errorf("test --contract:\n%s", out)
	}
	h.must("", "lint")
	h.must("", "doctor", "--offline")
}

// answer runs the template's first case through hookctl run and checks
// that the hook ran (it is trusted) and answered what the case expects.
func answer(t *testing.T, h hookctlIn, tmpl templates.Template, hook string) {
	t.Helper()
	c := tmpl.Cases[0]
	payload := map[string]any{"conversationId": "c1", "workspacePaths": []string{h.ws}, "transcriptPath": filepath.Join(h.home, "t.jsonl"), "artifactDirectoryPath": h.home}
	for k, v := range c.EventPayload() {
		payload[k] = v
	}
	in, err := json.Marshal(payload)
	if err != nil {
		t.Fatal(err)
	}
	out, errs := h.must(string(in), "run", string(tmpl.Event))
	if strings.Contains(errs, "skipping") || strings.Contains(errs, "untrusted") {
		t.Errorf("run %s: the workspace's hooks did not run:\n%s", tmpl.Event, errs)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("run %s: %v\n%s%s", tmpl.Event, err, out, errs)
	}
	want, _ := json.Marshal(c.Expect)
	var expect map[string]any
	json.Unmarshal(want, &expect)
	for k, v := range expect {
		if !reflect.DeepEqual(got[k], v) {
			t.Errorf("run %s (%s %s): %s is %v, want %v\n%s", tmpl.Event, tmpl.ID, hook, k, got[k], v, out)
		}
	}
}
