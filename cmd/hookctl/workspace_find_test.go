//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/lint/doctor"
	"github.com/hookctl/hookctl/runtime"
)

// subfolderRun runs the real hookctl (this test binary, as a process) in
// dir with env, and returns its stdout, stderr and exit status.
func subfolderRun(t *testing.T, bin, dir string, env []string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Env = dir, env
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("hookctl %s: %v", strings.Join(args, " "), err)
	}
	return out.String(), errOut.String(), code
}

// TestEveryCommandFindsTheWorkspaceFromASubfolder runs each command that
// works on a workspace, given none, from a folder two levels below the
// root of a git repository, as a new user would: each finds the workspace
// (the git top level, then the folder holding .agents) and names its files
// from where the user is.
func TestEveryCommandFindsTheWorkspaceFromASubfolder(t *testing.T) {
	t.Parallel()
	git, err := exec.LookPath("git")
	if err != nil {
		if os.Getenv("HOOKCTL_CI") != "" {
			t.Fatal("git is not on PATH, and HOOKCTL_CI says this is CI, where it must be: install it (.ci/run does)")
		}
		t.Skip("git is not on PATH")
	}
	bin := filepath.Join(hookctlOnPath(t), "hookctl")
	top, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(top, "home")
	proj := filepath.Join(top, "proj")
	deep := filepath.Join(proj, "scripts", "deep")
	for _, d := range []string{home, deep} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// Nothing above the test's folder takes part.
	env := append(machineOf(home, filepath.Dir(bin)), "GIT_CEILING_DIRECTORIES="+top)
	gitInit := exec.Command(git, "init", "-q", proj)
	gitInit.Env = env
	if out, err := gitInit.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	hooksJSON := filepath.Join(proj, ".agents", "hooks.json")
	shown := filepath.Join("..", "..", ".agents", "hooks.json")
	run := func(args ...string) (string, string, int) {
		t.Helper()
		return subfolderRun(t, bin, deep, env, args...)
	}
	want := func(what, got, sub string) {
		t.Helper()
		if !strings.Contains(got, sub) {
			t.Errorf("%s: want %q in:\n%s", what, sub, got)
		}
	}

	// init: no .agents yet, so the git top level.
	out, errOut, code := run("init", "--template", "block-dangerous", "--yes")
	if code != 0 {
		t.Fatalf("init: exit %d\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(hooksJSON); err != nil {
		t.Fatalf("init wrote no %s: %v\n%s", hooksJSON, err, out)
	}
	if _, err := os.Stat(filepath.Join(deep, ".agents")); err == nil {
		t.Error("init wrote a .agents in the current folder")
	}
	want("init", out, "Created "+shown+" with the hook")
	// From here on, the folder that holds .agents. A second hook with a
	// timeout in milliseconds gives lint something to say.
	if out, errOut, code = run("init", "--name", "slow", "--template", "block-dangerous", "--timeout", "5000", "--yes"); code != 0 {
		t.Fatalf("second init: exit %d\n%s%s", code, out, errOut)
	}
	want("second init", out, "Added the hook \"slow\" to "+shown)

	out, errOut, code = run("lint")
	if code != 0 {
		t.Errorf("lint: exit %d\n%s%s", code, out, errOut)
	}
	want("lint", out, shown+":")
	want("lint", out, "[timeout-value]")

	out, _, code = run("list", "--json")
	var entries []runtime.Entry
	if err := json.Unmarshal([]byte(out), &entries); err != nil || code != 0 {
		t.Fatalf("list --json: exit %d, %v\n%s", code, err, out)
	}
	hooks := map[string]bool{}
	for _, e := range entries {
		if e.File == hooksJSON && e.Trusted {
			hooks[e.Hook] = true
		}
	}
	if !hooks["block-dangerous"] || !hooks["slow"] {
		t.Errorf("list: the workspace's hooks, trusted, are not listed:\n%s", out)
	}

	out, errOut, code = run("run", "PreToolUse", "--tool", "run_command", "--args", `{"CommandLine": "sudo rm -rf /"}`)
	if code != 0 || !strings.HasPrefix(out, `{"decision":"deny"`) {
		t.Errorf("run: exit %d, %s%s; want the workspace's gate to deny", code, out, errOut)
	}
	out, _, _ = run("run", "PreToolUse", "--tool", "run_command", "--explain")
	want("run --explain", out, "in workspace "+proj+"\n")
	want("run --explain", out, "2 handlers would run")

	out, errOut, code = run("test")
	if code != 0 {
		t.Errorf("test: exit %d\n%s%s", code, out, errOut)
	}
	want("test", out, "2 passed, 0 failed")

	out, _, _ = run("doctor", "--offline", "--format", "json")
	var checks []doctor.Result
	if err := json.Unmarshal([]byte(out), &checks); err != nil {
		t.Fatalf("doctor --format json: %v\n%s", err, out)
	}
	found := false
	for _, c := range checks {
		if c.Check == "workspace-file" {
			found = true
			want("doctor", c.Message, shown+": 2 enabled hooks")
		}
	}
	if !found {
		t.Errorf("doctor checked no workspace file:\n%s", out)
	}

	if out, errOut, code = run("trust", "--revoke"); code != 0 {
		t.Fatalf("trust --revoke: exit %d\n%s%s", code, out, errOut)
	}
	out, errOut, code = run("trust", "--yes")
	if code != 0 {
		t.Errorf("trust --yes: exit %d\n%s%s", code, out, errOut)
	}
	want("trust", out, "Trusted "+proj+":")

	out, errOut, code = run("export", "--to", "cursor")
	if code != 0 {
		t.Errorf("export: exit %d\n%s%s", code, out, errOut)
	}
	want("export", out, "+++ "+filepath.Join("..", "..", ".cursor", "hooks.json"))

	claude := filepath.Join(proj, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(claude), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(claude, []byte(`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = run("import")
	if code != 0 {
		t.Errorf("import: exit %d\n%s%s", code, out, errOut)
	}
	want("import", errOut, "("+filepath.Join("..", "..", ".claude", "settings.json")+", recognised by its path)")
}
