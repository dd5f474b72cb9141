package trust

import (
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/internal/testenv"
)

// codeRan runs command as the handler would, with shell -c in the hooks'
// folder of root (payload on stdin), and returns the files of the
// workspace whose "MARK:" line it printed.
func codeRan(t *testing.T, shell, root, command string) []string {
	t.Helper()
	cmd := exec.Command(shell, "-c", command)
	cmd.Dir = filepath.Join(root, ".agents")
	cmd.Env = append(os.Environ(), "HOOKCTL_WORKSPACE="+root)
	cmd.Stdin = strings.NewReader("echo MARK:payload\n")
	out, _ := cmd.CombinedOutput()
	var ran []string
	for _, l := range strings.Split(string(out), "\n") {
		if m, ok := strings.CutPrefix(l, "MARK:"); ok && !slices.Contains(ran, m) {
			ran = append(ran, m)
		}
	}
	return ran
}

// TestCodeFedThroughInput: a shell (or another interpreter) whose code
// comes through a redirection, a here-document, a here-string, a pipe or
// a descriptor, in a command and in a script, runs exactly the file the
// real shells run, covered (editing it withdraws the trust), or is named
// at its line; nothing that runs is silent.
func TestCodeFedThroughInput(t *testing.T) {
	needTools(t, "dash", "bash", "xargs")
	files := map[string]string{
		"f":         "echo MARK:f\n",
		"list":      ". ../f\n",
		"p.py":      "print('MARK:p.py')\n",
		"n.js":      "console.log('MARK:n.js')\n",
		"p.pl":      "print \"MARK:p.pl\\n\";\n",
		"run.sh":    "#!/bin/sh\necho MARK:run.sh\n",
		"inner.txt": "echo MARK:inner.txt\n",
	}
	for _, c := range []struct {
		name, command string
		bashOnly      bool
		needs         string // another program the form runs
		covers        string // the file covered, "" when the form is named
		named         string // what the review says, "" when it covers
	}{
		{name: "sh /dev/stdin", command: "sh /dev/stdin < ../f", covers: "f"},
		{name: ". /dev/stdin", command: ". /dev/stdin < ../f", covers: "f"},
		{name: "/proc/self/fd/0", command: "sh /proc/self/fd/0 < ../f", covers: "f"},
		{name: "/dev/fd/0", command: "sh /dev/fd/0 < ../f", covers: "f"},
		{name: "/dev/fd/3", command: "sh /dev/fd/3 3< ../f", covers: "f"},
		{name: "heredoc", command: "sh <<X\n. ../f\nX", covers: "f"},
		{name: "heredoc on fd 3", command: "sh /dev/fd/3 3<<'X'\n. ../f\nX", covers: "f"},
		{name: "herestring", command: "bash <<< '. ../f'", bashOnly: true, covers: "f"},
		{name: "exec fd", command: "exec 3< ../f; . /dev/fd/3", covers: "f"},
		{name: "exec stdin", command: "exec < ../f; sh", covers: "f"},
		{name: "exec maybe", command: "true && exec 3< ../f; . /dev/fd/3", named: "reads its code from descriptor 3, which an exec may have opened"},
		{name: "cat pipe", command: "cat ../f | sh", covers: "f"},
		{name: "cat pipe source", command: "cat ../f | . /dev/stdin", covers: "f"},
		{name: "block", command: "{ sh; } < ../f", covers: "f"},
		{name: "sh -s", command: "bash -s x y < ../f", covers: "f"},
		{name: "nested", command: "sh -c '. /dev/stdin' < ../f", covers: "f"},
		{name: "dup", command: "sh 3< ../f < /dev/fd/3", covers: "f"},
		// Redirections are made in order: /dev/fd/3 is opened before 3<.
		{name: "dup before", command: "sh < /dev/fd/3 3< ../f", named: "sh reads its code from descriptor 3, which the command does not open"},
		{name: "pipe", command: "sed s/x/x/ ../f | sh", named: "sh runs the code that another command of the pipeline prints"},
		{name: "payload", command: "sh < /dev/stdin", named: "sh reads its code on stdin, where the agent's payload is"},
		{name: "heredoc built", command: "sh <<X\n$(cat ../f)\nX", named: "sh runs the code of a here-document built only when the command runs"},
		{name: "heredoc subst", command: "cat <<X\n$(../run.sh)\nX", covers: "run.sh"},
		{name: "xargs -I", command: "xargs -a ../list -I{} sh -c '{}'", needs: "xargs", named: "hands the shell code built only when the command runs"},
		{name: "xargs code", command: "xargs -a ../list -d '\\n' sh -c", needs: "xargs", named: "xargs gives sh the code it runs"},
		{name: "xargs braces", command: "xargs -a ../list sh -c '{}'", needs: "xargs"},
		{name: "fd of another process", command: "sh /proc/1/fd/0", named: "a descriptor of another process"},
		{name: "python", command: "python3 /dev/stdin < ../p.py", needs: "python3", covers: "p.py"},
		{name: "node", command: "node /dev/stdin < ../n.js", needs: "node", covers: "n.js"},
		{name: "perl", command: "cat ../p.pl | perl", needs: "perl", covers: "p.pl"},
		{name: "perl heredoc", command: "perl <<'X'\nprint \"MARK:payload\\n\";\nX", needs: "perl", named: "perl runs the code of a here-document, and what that code loads is not followed"},
		// The substitution runs before the redirection is made: it reads
		// the payload, not inner.txt.
		{name: "cat of sh -c", command: `sh -c "$(cat /dev/stdin)" < ../inner.txt`, named: "hands the shell the code cat reads from /dev/stdin"},
	} {
		if c.needs != "" {
			if testenv.Want(t, c.needs, "the cases of "+c.needs) == "" {
				continue
			}
		}
		if strings.Contains(c.command, "/proc/") && runtime.GOOS != "linux" {
			continue
		}
		// The same line in a hooks.json command and in a script the
		// command runs.
		for _, script := range []bool{false, true} {
			t.Run(c.name, func(t *testing.T) {
				t.Parallel()
				fs := maps.Clone(files)
				command, named, at := c.command, c.named, ""
				if script {
					fs[".agents/gate.sh"] = "#!/bin/bash\n" + c.command + "\n"
					command = "bash ./gate.sh"
					named = strings.ReplaceAll(named, "when the command runs", "when the script runs")
					at = ".agents/gate.sh:2 "
				}
				root, stillTrusted := trusted(t, command, fs)
				shells := []string{"dash", "bash"}
				if c.bashOnly || script {
					shells = []string{"bash"}
				}
				var ran []string
				for _, sh := range shells {
					for _, f := range codeRan(t, sh, root, command) {
						if !slices.Contains(ran, f) {
							ran = append(ran, f)
						}
					}
				}
				snap := take(t, root)
				cmd := snap.Commands[0]
				for _, f := range ran {
					if !slices.Contains(cmd.Files, f) && c.named == "" {
						t.Errorf("%q ran %s, which is not covered (covered %q, named %q)", command, f, cmd.Files, cmd.Gaps)
					}
				}
				if c.covers != "" {
					if !slices.Contains(ran, c.covers) {
						t.Errorf("%q: the shells ran %q, not %s", command, ran, c.covers)
					}
					if !slices.Contains(cmd.Files, c.covers) || len(cmd.Gaps) != 0 {
						t.Errorf("%q: covered %q, named %q; want %s covered and nothing named", command, cmd.Files, cmd.Gaps, c.covers)
					}
					write(t, root, c.covers, "echo changed\n")
					if ok, _ := stillTrusted(); ok {
						t.Errorf("%q: %s changed and the workspace is still trusted", command, c.covers)
					}
				}
				if c.named != "" && !slices.ContainsFunc(cmd.Gaps, func(g string) bool { return strings.HasPrefix(g, at) && strings.Contains(g, named) }) {
					t.Errorf("%q: named %q, want %q (the shells ran %q)", command, cmd.Gaps, named, ran)
				}
				if c.covers == "" && c.named == "" && (len(ran) > 0 || len(cmd.Gaps) > 0) {
					t.Errorf("%q: ran %q, named %q; want neither", command, ran, cmd.Gaps)
				}
				for _, p := range append(cmd.Outside, cmd.Files...) {
					if strings.HasPrefix(p, "/dev/") || strings.HasPrefix(p, "/proc/") || strings.HasPrefix(p, "/sys/") {
						t.Errorf("%q: names %s, a file of hookctl's own process", command, p)
					}
				}
			})
		}
	}
}

// TestOwnDescriptorsNeverResolved: /dev/stdin, /dev/fd/N and /proc/self
// name hookctl's own files in hookctl's process; a command that names
// them, or a link of the workspace that leads there, never makes trust
// list (or hash) what hookctl itself has open.
func TestOwnDescriptorsNeverResolved(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("no /proc/self/fd here")
	}
	// A file of ours open on a descriptor that a command names.
	own, err := os.CreateTemp(t.TempDir(), "own")
	if err != nil {
		t.Fatal(err)
	}
	defer own.Close()
	n := strconv.Itoa(int(own.Fd()))
	root, _ := trusted(t, "sh /dev/fd/"+n+"; cat /dev/stdin; ./link.sh", map[string]string{".agents/x": ""})
	if err := os.Symlink("/proc/self/fd/"+n, filepath.Join(root, ".agents/link.sh")); err != nil {
		t.Fatal(err)
	}
	snap := take(t, root)
	cmd := snap.Commands[0]
	for _, p := range append(append([]string{}, cmd.Outside...), cmd.Files...) {
		if p == own.Name() || strings.HasPrefix(p, "/dev/") || strings.HasPrefix(p, "/proc/") || strings.HasPrefix(p, "/sys/") {
			t.Errorf("names %s, hookctl's own", p)
		}
	}
	for _, p := range snap.probed {
		if p == own.Name() {
			t.Errorf("asked about %s, hookctl's own", p)
		}
	}
	for _, pr := range observeAll(snap.probed) {
		if pr.Real == own.Name() {
			t.Errorf("resolved %s to %s, hookctl's own", pr.Path, pr.Real)
		}
	}
	if !strings.Contains(snap.Refused, ".agents/link.sh is a link into /proc") {
		t.Errorf("refused %q, want the link into /proc refused", snap.Refused)
	}
	if want := "sh /dev/fd/" + n + " reads its code from descriptor " + n + ", which the command does not open"; !slices.Contains(cmd.Gaps, want) {
		t.Errorf("gaps %q, want %q", cmd.Gaps, want)
	}
}
