package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/internal/testenv"
	"github.com/hookctl/hookctl/schema/shellcmd"
)

// TestInitNextStepsWork runs init as a new user would, then every command
// its "Next steps" print, as printed, in a shell: each one works for the
// hook just written. try it runs the hook (its --explain shows it would
// run), test it passes, and edit it names the script.
func TestInitNextStepsWork(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds hookctl")
	}
	bin := hookctlBinary(t)
	pathDir := t.TempDir()
	if err := os.Symlink(bin, filepath.Join(pathDir, "hookctl")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		// setup prepares the workspace ws; cwd is where init runs,
		// relative to ws.
		setup func(t *testing.T, ws string)
		cwd   string
		args  []string
		// hook is the name that --explain must show running.
		hook string
	}{
		{"a gate", nil, "", []string{"--template", "block-dangerous"}, "block-dangerous"},
		{"a gate for an MCP server's tools", nil, "", []string{"--template", "protect-paths", "--matcher", "mcp_files_.*", "--name", "mcp-gate"}, "mcp-gate"},
		{"every tool", nil, "", []string{"--event", "PostToolUse", "--template", "audit-log", "--matcher", ".*"}, "audit-log"},
		{"an audit log from a subfolder of a repository whose .gitignore has no last newline", func(t *testing.T, ws string) {
			git := testenv.Need(t, "git")
			if out, err := exec.Command(git, "init", "-q", ws).CombinedOutput(); err != nil {
				t.Fatalf("git init: %v\n%s", err, out)
			}
			writeFile(t, filepath.Join(ws, ".gitignore"), "node_modules")
		}, "sub", []string{"--dir", "..", "--template", "audit-log", "--name", "audit"}, "audit"},
		{"a Stop hook", nil, "", []string{"--template", "notify", "--lang", "sh"}, "notify"},
		{"a PreInvocation hook", nil, "", []string{"--template", "reminder"}, "reminder"},
		{"from another folder", nil, "sub", []string{"--dir", "..", "--template", "block-dangerous", "--name", "far"}, "far"},
		{"a workspace never trusted, with a failing case", func(t *testing.T, ws string) {
			writeFile(t, filepath.Join(ws, ".agents", "hooks.json"), `{"theirs": {"Stop": [{"command": "true"}]}}`)
			writeFile(t, filepath.Join(ws, ".agents", "hooks.test.json"), `{"tests": [{"name": "theirs fails", "event": "Stop", "expect": {"decision": "continue"}}]}`)
		}, "", []string{"--template", "block-dangerous", "--name", "mine"}, "mine"},
		{"the user's scope", nil, "", []string{"--scope", "user", "--template", "reminder", "--name", "mine"}, "mine"},
		{"a gate through hookctl trace", nil, "", []string{"--template", "block-dangerous", "--name", "traced", "--trace"}, "traced"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ws, home := t.TempDir(), t.TempDir()
			if err := os.MkdirAll(filepath.Join(ws, "sub"), 0o755); err != nil {
				t.Fatal(err)
			}
			if tc.setup != nil {
				tc.setup(t, ws)
			}
			cwd := filepath.Join(ws, tc.cwd)
			sh := func(line string) (int, string) {
				cmd := exec.Command("sh", "-c", line)
				cmd.Dir = cwd
				cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
					"XDG_STATE_HOME="+filepath.Join(home, ".local", "state"), "HOOKCTL_LOG=",
					"PATH="+pathDir+string(os.PathListSeparator)+os.Getenv("PATH"))
				cmd.Stdin = nil
				out, err := cmd.CombinedOutput()
				if ee, ok := err.(*exec.ExitError); ok {
					return ee.ExitCode(), string(out)
				}
				if err != nil {
					t.Fatal(err)
				}
				return 0, string(out)
			}
			code, out := sh("hookctl init --yes " + strings.Join(quoteAll(tc.args), " "))
			if code != 0 {
				t.Fatalf("init: exit %d\n%s", code, out)
			}
			// init ran the contract check on the user's hook already; in a
			// workspace the user never trusted, it names the check instead.
			want := `(?m)^Contract check: not run: .+ run hookctl test --contract --hook ` + regexp.QuoteMeta(tc.hook) + `( --workspace \S+)?$`
			if tc.name == "the user's scope" {
				want = `(?m)^Contract check: passed \(\d+ calls?\)$`
			}
			if !regexp.MustCompile(want).MatchString(out) {
				t.Errorf("init printed no contract check, or not the one wanted (%s):\n%s", want, out)
			}
			_, stepsText, ok := strings.Cut(out, "\nNext steps:\n")
			if !ok {
				t.Fatalf("init printed no next steps:\n%s", out)
			}
			labels := map[string]bool{}
			for _, line := range strings.Split(strings.TrimRight(stepsText, "\n"), "\n") {
				m := regexp.MustCompile(`^  (trust it|try it|test it|check it|watch it|ignore it|edit it) +(.+)$`).FindStringSubmatch(line)
				if m == nil {
					t.Errorf("a step that is not one: %q", line)
					continue
				}
				label, cmd := m[1], m[2]
				labels[label] = true
				switch label {
				case "trust it":
					// On a terminal trust asks, and the person answers yes;
					// without one, --yes is that answer.
					if cmd != "hookctl trust" && !strings.HasPrefix(cmd, "hookctl trust ") {
						t.Errorf("the trust step is %q", cmd)
					}
					if code, out := sh(cmd + " --yes"); code != 0 {
						t.Errorf("%s: exit %d\n%s", cmd, code, out)
					}
				case "try it":
					code, out := sh(cmd)
					if code != 0 || !strings.HasPrefix(strings.TrimSpace(out), "{") {
						t.Errorf("%s: exit %d\n%s", cmd, code, out)
					}
					_, explain := sh(cmd + " --explain")
					if !regexp.MustCompile(`(?m)^  run +` + regexp.QuoteMeta(tc.hook) + ` `).MatchString(explain) {
						t.Errorf("%s does not run the hook %s:\n%s", cmd, tc.hook, explain)
					}
				case "test it":
					if code, out := sh(cmd); code != 0 || !strings.Contains(out, "1 passed, 0 failed") {
						t.Errorf("%s: exit %d\n%s", cmd, code, out)
					}
				case "check it":
					// The budget is the machine's, not the hook's: on a busy
					// machine a cold interpreter takes longer than 500ms.
					code, out := sh(cmd + " --budget 10m")
					want := "1 passed, 0 failed\n"
					if tc.hook == "mcp-gate" {
						want = "0 passed, 0 failed, 1 not checked\n"
					}
					if code != 0 || !strings.HasSuffix(out, want) || !strings.Contains(out, tc.hook) {
						t.Errorf("%s: exit %d, want %q at the end\n%s", cmd, code, want, out)
					}
				case "watch it":
					// The run of try it, recorded by trace with its hook
					// and event; test it's runs are not recorded.
					code, out := sh(cmd + " --json")
					if code != 0 || strings.Count(out, `"kind":"trace"`) != 1 || !strings.Contains(out, `"hook":"`+tc.hook+`","hookFrom":"flag","event":"PreToolUse","eventFrom":"flag"`) {
						t.Errorf("%s: exit %d\n%s", cmd, code, out)
					}
				case "ignore it":
					// The audit log stays out of git; the lines already
					// in .gitignore stay as they were.
					if code, out := sh(cmd); code != 0 {
						t.Errorf("%s: exit %d\n%s", cmd, code, out)
					}
					b, err := os.ReadFile(filepath.Join(ws, ".gitignore"))
					lines := strings.Split(string(b), "\n")
					if err != nil || !slices.Contains(lines, "/.agents/audit.jsonl") || tc.setup != nil && lines[0] != "node_modules" {
						t.Errorf("%s: .gitignore holds %q (%v)", cmd, b, err)
					}
					if _, err := os.Stat(filepath.Join(ws, ".git")); err == nil {
						if err := exec.Command("git", "-C", ws, "check-ignore", "-q", ".agents/audit.jsonl").Run(); err != nil {
							t.Errorf("%s: git does not ignore .agents/audit.jsonl: %v", cmd, err)
						}
					}
				case "edit it":
					path := cmd
					if strings.HasPrefix(path, "~/") {
						path = filepath.Join(home, path[2:])
					} else if !filepath.IsAbs(path) {
						path = filepath.Join(cwd, path)
					}
					if fi, err := os.Stat(path); err != nil || fi.Mode().Perm()&0o100 == 0 {
						t.Errorf("edit it names %s: %v", cmd, err)
					}
				}
			}
			for _, want := range []string{"try it", "test it", "check it", "edit it"} {
				if !labels[want] {
					t.Errorf("no %q step:\n%s", want, stepsText)
				}
			}
			if audit := slices.Contains(tc.args, "audit-log"); labels["ignore it"] != audit {
				t.Errorf("an ignore step: %v, want one for an audit log in a workspace (%v):\n%s", labels["ignore it"], audit, stepsText)
			}
		})
	}
}

func quoteAll(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = shellcmd.Quote(a)
	}
	return out
}
