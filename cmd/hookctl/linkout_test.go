//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// linkSecret is the content of a file of the user's that a repository's
// link leads to: no command may show any of it.
const linkSecret = "machine github.com login me password s3cr3t-token"

// linkMachine makes a home folder, a git repository and a folder outside
// both under a fresh folder, and returns them with the environment of
// hookctl processes that use that home.
func linkMachine(t *testing.T) (bin, home, repo, outside string, env []string) {
	t.Helper()
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not on PATH")
	}
	bin = filepath.Join(hookctlOnPath(t), "hookctl")
	top, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home, repo, outside = filepath.Join(top, "home"), filepath.Join(top, "repo"), filepath.Join(top, "outside")
	for _, d := range []string{home, filepath.Join(repo, ".agents"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command(git, "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	writeFile(t, filepath.Join(outside, "netrc"), linkSecret+"\n")
	env = append(machineOf(home, filepath.Dir(bin)), "GIT_CEILING_DIRECTORIES="+top)
	return bin, home, repo, outside, env
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// A repository whose .agents/hooks.json, hooks.test.json and
// .claude/settings.json are links to a file of the user's out of it: every
// command names the file and why it is not read, and none shows a byte of
// it, in any output format; run runs none of its hooks.
func TestCommandsDoNotReadALinkOutOfTheRepository(t *testing.T) {
	bin, _, repo, outside, env := linkMachine(t)
	symlink(t, "../../outside/netrc", filepath.Join(repo, ".agents", "hooks.json"))
	symlink(t, "../../outside/netrc", filepath.Join(repo, ".agents", "hooks.test.json"))
	symlink(t, "../../outside/netrc", filepath.Join(repo, ".claude", "settings.json"))
	reason := func(name string) string {
		return name + " is a symbolic link to ../../outside/netrc, which leads out of the repository " + repo +
			", to " + filepath.Join(outside, "netrc") + ": hookctl does not read a repository's file through it"
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"lint"}, 1, ".agents/hooks.json:1:1: error: " + reason(".agents/hooks.json")},
		{[]string{"lint", "--format", "json"}, 1, `"rule": "outside-link"`},
		{[]string{"lint", "--format", "sarif"}, 1, `"ruleId": "outside-link"`},
		{[]string{"lint", "--format", "github"}, 1, "::error file=.agents/hooks.json,line=1,col=1,endLine=1,endColumn=1,title=outside-link::" + reason(".agents/hooks.json")},
		{[]string{"lint", ".agents/hooks.json"}, 1, reason(".agents/hooks.json")},
		{[]string{"list"}, 0, "invalid: it " + strings.TrimPrefix(reason(""), " ")},
		{[]string{"trust", "--yes"}, 2, "hookctl: .agents/hooks.json " + strings.TrimPrefix(reason(""), " ")},
		{[]string{"doctor", "--offline"}, 1, reason(".agents/hooks.json")},
		{[]string{"doctor", "--offline"}, 1, "fix: see where the link leads, and put a file of the repository's own in its place: ls -l .agents/hooks.json"},
		{[]string{"test"}, 2, ".agents/hooks.test.json: " + strings.TrimPrefix(reason(""), " ")},
		{[]string{"export", "--to", "claude"}, 2, "hookctl: .agents/hooks.json " + strings.TrimPrefix(reason(""), " ")},
		{[]string{"import", "--from", "claude", ".claude/settings.json"}, 2, "hookctl: .claude/settings.json: it " + strings.TrimPrefix(reason(""), " ")},
		{[]string{"run", "--config", ".agents/hooks.json", "Stop"}, 0, filepath.Join(repo, ".agents", "hooks.json") + ": it " + strings.TrimPrefix(reason(""), " ")},
	} {
		cmd := exec.Command(bin, tc.args...)
		cmd.Dir, cmd.Env, cmd.Stdin = repo, env, strings.NewReader("{}")
		outB, err := cmd.CombinedOutput()
		out, code := string(outB), 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		name := "hookctl " + strings.Join(tc.args, " ")
		if strings.Contains(out, "s3cr3t") || strings.Contains(out, "machine github.com") {
			t.Errorf("%s shows the file it leads to:\n%s", name, out)
		}
		// Trust refuses such a workspace: nothing may send the user to it.
		if strings.Contains(out, "hookctl trust ") {
			t.Errorf("%s advises hookctl trust, which refuses this workspace:\n%s", name, out)
		}
		if code != tc.code || !strings.Contains(out, tc.want) {
			t.Errorf("%s: exit %d, want %d and\n%s\ngot:\n%s", name, code, tc.code, tc.want, out)
		}
	}
	// run, as the agent calls it: none of its hooks, and the reason said.
	cmd := exec.Command(bin, "run", "Stop")
	cmd.Dir, cmd.Env, cmd.Stdin = repo, env, strings.NewReader("{}")
	out, err := cmd.CombinedOutput()
	if err != nil || strings.Contains(string(out), "s3cr3t") || strings.Contains(string(out), "hookctl trust ") ||
		!strings.Contains(string(out), "skipping the hooks of "+filepath.Join(repo, ".agents", "hooks.json")+": untrusted workspace (never trusted, and it "+strings.TrimPrefix(reason(""), " ")) {
		t.Errorf("run Stop: %v\n%s", err, out)
	}
}

// A script a hook runs through a link out of the repository is named by
// lint and refused by trust, unread.
func TestScriptLinkedOutOfTheRepository(t *testing.T) {
	bin, _, repo, outside, env := linkMachine(t)
	writeFile(t, filepath.Join(repo, ".agents", "hooks.json"), `{"gate": {"Stop": [{"command": "sh ./hooks/gate.sh"}, {"command": "../scripts/x.sh"}]}}`)
	symlink(t, "../../../outside/netrc", filepath.Join(repo, ".agents", "hooks", "gate.sh"))
	// Out of the hooks' folder, where trust covers only what commands name.
	symlink(t, "../../outside/netrc", filepath.Join(repo, "scripts", "x.sh"))
	reason := "is a symbolic link to ../../../outside/netrc, which leads out of the repository " + repo + ", to " + filepath.Join(outside, "netrc")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"lint"}, 1, "error: ./hooks/gate.sh " + reason},
		{[]string{"lint"}, 1, "error: ../scripts/x.sh is a symbolic link to ../../outside/netrc, which leads out of the repository"},
		{[]string{"trust", "--yes"}, 2, "cannot be trusted: .agents/hooks/gate.sh " + reason},
		{[]string{"trust", "--yes"}, 2, "  scripts/x.sh           unreadable  not read: a symbolic link on its way leads out of the repository\n"},
	} {
		out, errOut, code := subfolderRun(t, bin, repo, env, tc.args...)
		name := "hookctl " + strings.Join(tc.args, " ")
		if strings.Contains(out+errOut, "s3cr3t") {
			t.Errorf("%s shows the file it leads to:\n%s%s", name, out, errOut)
		}
		if code != tc.code || !strings.Contains(out+errOut, tc.want) {
			t.Errorf("%s: exit %d, want %d and\n%s\ngot:\n%s%s", name, code, tc.code, tc.want, out, errOut)
		}
	}
}

// A folder of the repository linked to a repository of the user's beside
// it (one with a .git of its own) does not make that repository the
// boundary: lint names the script reached through it, unread, and shows no
// byte of it, neither its #! line nor shellcheck's snippets.
func TestScriptThroughALinkToAnotherRepository(t *testing.T) {
	bin, _, repo, outside, env := linkMachine(t)
	if err := os.MkdirAll(filepath.Join(outside, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(outside, "netrc"), "#!/"+linkSecret+"\r\nif [ x ]; then\n")
	if err := os.Chmod(filepath.Join(outside, "netrc"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(repo, ".agents", "hooks.json"), `{"gate": {"Stop": [{"command": "../sub/netrc"}, {"command": "bash ../sub/netrc"}]}}`)
	symlink(t, "../outside", filepath.Join(repo, "sub"))
	want := "../sub/netrc goes through " + filepath.Join(repo, "sub") + ", a symbolic link to ../outside, which leads out of the repository " + repo + ", to " + filepath.Join(outside, "netrc")
	for _, format := range []string{"text", "json"} {
		out, errOut, code := subfolderRun(t, bin, repo, env, "lint", "--format", format)
		if strings.Contains(out+errOut, "s3cr3t") {
			t.Errorf("lint --format %s shows the file the link leads to:\n%s%s", format, out, errOut)
		}
		if format == "text" && (code != 1 || !strings.Contains(out+errOut, want)) {
			t.Errorf("lint: exit %d, want 1 and\n%s\ngot:\n%s%s", code, want, out, errOut)
		}
	}
}

// A script a repository's hooks.json names by a path out of the
// repository (absolute, or with ..) is not read by lint: its author chose
// which file of the user's it names, and its #! line, or ShellCheck's
// snippets of it, would show that file.
func TestScriptNamedOutOfTheRepositoryIsNotShown(t *testing.T) {
	bin, _, repo, outside, env := linkMachine(t)
	if sc, err := exec.LookPath("shellcheck"); err == nil {
		env = append(env, "HOOKCTL_SHELLCHECK="+sc)
	}
	writeFile(t, filepath.Join(outside, "netrc"), "#!/"+linkSecret+"\r\necho\n")
	if err := os.Chmod(filepath.Join(outside, "netrc"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(outside, "credentials"), "["+linkSecret+"]\n")
	writeFile(t, filepath.Join(repo, ".agents", "hooks.json"), `{"gate": {"Stop": [{"command": "`+filepath.Join(outside, "netrc")+`"}, {"command": "bash ../../outside/credentials"}]}}`)
	for _, format := range []string{"text", "json", "sarif", "github"} {
		out, errOut, code := subfolderRun(t, bin, repo, env, "lint", "--format", format)
		if strings.Contains(out+errOut, "s3cr3t") || code != 0 {
			t.Errorf("lint --format %s: exit %d, and shows the file named out of the repository:\n%s%s", format, code, out, errOut)
		}
	}
}

// A script named with ".." after a link, whose text cleaned lies in the
// home folder (./L/../../../home/x), leads where the link took it: lint
// names the link out of the repository it meets there, and shows nothing
// of the file it leads to.
func TestScriptDotDotAfterALink(t *testing.T) {
	bin, _, repo, outside, env := linkMachine(t)
	writeFile(t, filepath.Join(outside, "netrc"), "#!/"+linkSecret+"\r\necho\n")
	if err := os.Chmod(filepath.Join(outside, "netrc"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(repo, ".agents", "d1", "d2", "d3"), 0o755); err != nil {
		t.Fatal(err)
	}
	symlink(t, "d1/d2/d3", filepath.Join(repo, ".agents", "L"))
	symlink(t, filepath.Join(outside, "netrc"), filepath.Join(repo, ".agents", "home", "x"))
	writeFile(t, filepath.Join(repo, ".agents", "hooks.json"), `{"gate": {"Stop": [{"command": "./L/../../../home/x"}]}}`)
	out, errOut, code := subfolderRun(t, bin, repo, env, "lint")
	want := "error: ./L/../../../home/x goes through " + filepath.Join(repo, ".agents", "home", "x") + ", a symbolic link to " + filepath.Join(outside, "netrc") + ", which leads out of the repository " + repo
	if strings.Contains(out+errOut, "s3cr3t") || code != 1 || !strings.Contains(out+errOut, want) {
		t.Errorf("lint: exit %d, want 1 and\n%s\ngot:\n%s%s", code, want, out, errOut)
	}
}

// Links that stay within the repository are followed: a monorepo's
// package sharing one hooks.json and its script; and so are the user's own
// files, linked into a dotfiles folder out of any repository.
func TestLinksWithinTheRepositoryAndTheUsersOwnAreFollowed(t *testing.T) {
	bin, home, repo, outside, env := linkMachine(t)
	writeFile(t, filepath.Join(repo, "shared", "hooks.json"), `{"shared-gate": {"Stop": [{"command": "./hooks/gate.sh"}]}}`)
	ran := filepath.Join(outside, "ran")
	writeFile(t, filepath.Join(repo, "shared", "gate.sh"), "#!/bin/sh\ntouch '"+ran+"'\necho '{}'\n")
	if err := os.Chmod(filepath.Join(repo, "shared", "gate.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	pkg := filepath.Join(repo, "packages", "a")
	symlink(t, "../../../shared/hooks.json", filepath.Join(pkg, ".agents", "hooks.json"))
	symlink(t, "../../../../shared/gate.sh", filepath.Join(pkg, ".agents", "hooks", "gate.sh"))
	writeFile(t, filepath.Join(outside, "dotfiles", "hooks.json"), `{"mine": {"Stop": [{"command": "true"}]}}`)
	symlink(t, filepath.Join(outside, "dotfiles", "hooks.json"), filepath.Join(home, ".gemini", "config", "hooks.json"))

	out, errOut, code := subfolderRun(t, bin, pkg, env, "lint")
	if code != 0 || strings.Contains(out+errOut, "outside-link") {
		t.Errorf("lint: exit %d\n%s%s", code, out, errOut)
	}
	out, errOut, code = subfolderRun(t, bin, pkg, env, "list")
	if code != 0 || !strings.Contains(out, "shared-gate") || !strings.Contains(out, "mine") {
		t.Errorf("list: exit %d\n%s%s", code, out, errOut)
	}
	if out, errOut, code = subfolderRun(t, bin, pkg, env, "trust", "--yes"); code != 0 {
		t.Fatalf("trust: exit %d\n%s%s", code, out, errOut)
	}
	cmd := exec.Command(bin, "run", "Stop")
	cmd.Dir, cmd.Env, cmd.Stdin = pkg, env, strings.NewReader("{}")
	runOut, err := cmd.CombinedOutput()
	if _, serr := os.Stat(ran); err != nil || serr != nil {
		t.Errorf("run Stop did not run the shared gate: %v\n%s", err, runOut)
	}
	// The user's own hooks.json, a link into dotfiles, is linted as any.
	out, errOut, code = subfolderRun(t, bin, pkg, env, "lint", filepath.Join(home, ".gemini", "config", "hooks.json"))
	if code != 0 || strings.Contains(out+errOut, "outside-link") {
		t.Errorf("lint of the user's file: exit %d\n%s%s", code, out, errOut)
	}
}
