package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/internal/testenv"
	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/templates"
)

// TestComplete asks hookctl __complete what the shells ask it: the words
// typed so far, the last one being completed.
func TestComplete(t *testing.T) {
	// Every command the help lists, in its order.
	var cmds []string
	for _, c := range newApp(newFactory(streams{})).VisibleCommands() {
		cmds = append(cmds, c.Name)
	}
	if !strings.Contains(strings.Join(cmds, " "), "init lint run") {
		t.Fatalf("commands %q", cmds)
	}
	for _, c := range []struct {
		words string // the last word, after the final space, is completed
		want  string // the candidates, one per line, then :files or :dirs
	}{
		{"", strings.Join(cmds, " ")},
		{"r", "run"},
		{"run Pre", "PreToolUse PreInvocation"},
		{"run ", strings.Join(schema.EventNames(), " ")},
		{"run PreToolUse ", ""},
		{"run PreToolUse --tool run_", "run_command"},
		{"run PreToolUse --tool ", strings.Join(schema.ToolNames(), " ")},
		{"run --tool ", strings.Join(schema.ToolNames(), " ")},
		// Stop names no tool, and with --from the payload is the agent's:
		// run refuses --tool there.
		{"run Stop --tool ", ""},
		{"run Stop --tool=", ""},
		{"run --from claude PreToolUse --tool ", ""},
		{"run --from claude Pre", "PreToolUse PreCompact"},
		{"run --from=cursor beforeS", "beforeShellExecution beforeSubmitPrompt"},
		{"adapt --from ", "claude gemini cursor codex"},
		{"adapt --from gemini --event Before", "BeforeTool BeforeAgent BeforeModel BeforeToolSelection"},
		{"adapt --event ", ""},
		{"adapt --from claude -- ", ":files"},
		{"export --to ", "claude gemini cursor codex"},
		{"export --on-error ", "deny ignore"},
		{"export --to=g", "--to=gemini"},
		{"init --matcher run_", "run_command"},
		{"init --matcher run_command|view_file_", "run_command|view_file_outline"},
		{"init --matcher=list_d", "--matcher=list_dir"},
		{"run --tool=run_", "--tool=run_command"},
		{"run --tool", "--tool"},
		{"run PreToolUse --on-error ", "deny ask ignore"},
		{"run --config ", ":files"},
		{"run --workspace ", ":dirs"},
		{"run --sequential Po", "PostToolUse PostInvocation"},
		{"run --max-continues 3 S", "SessionStart Stop"},
		{"run -- --", ""},
		{"--color ", "auto always never"},
		{"--color=n", "--color=never"},
		{"--color never r", "run"},
		{"--v", "--version"},
		{"lint --v", ""},
		{"lint --f", "--format --fail-on --fix"},
		{"lint --fix --d", "--disable --diff"},
		{"lint --format ", "github json sarif text"},
		{"lint --fail-on w", "warning"},
		{"lint --disable platform-", "platform-specific"},
		{"lint --enable shad", "shadowed-hook"},
		{"lint ", ":files"},
		{"lint --format json ", ":files"},
		{"list --event ", strings.Join(schema.EventNames(), " ")},
		{"list --tool browser", "browser_subagent"},
		{"init --template ", strings.Join(templates.IDs(), " ")},
		{"init --lang ", strings.Join(templates.LanguageIDs(), " ")},
		{"init --scope ", "workspace user"},
		{"init --event Stop --template t", "tests-must-pass"},
		{"import --from c", "claude cursor codex"},
		{"import ", ":files"},
		{"trust ", ":dirs"},
		{"trust . ", ""},
		{"schema ", "input output example config test help"},
		{"schema example P", "PreToolUse PostToolUse PreInvocation PostInvocation"},
		{"schema input ", strings.Join(schema.EventNames(), " ")},
		{"schema input Stop ", ""},
		{"schema test ", ""},
		{"schema --out ", ":files"},
		{"help ", strings.Join(cmds, " ")},
		{"help schema ", "input output example config test help"},
		{"help lint ", ""},
		{"completion ", "bash zsh fish"},
		{"completion bash ", ""},
		{"nosuch ", ""},
	} {
		words := strings.Split(c.words, " ")
		var out bytes.Buffer
		code := run(append([]string{"hookctl", "__complete"}, words...), streams{strings.NewReader(""), &out, &out})
		var got []string
		for _, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
			if line != "" {
				v, _, _ := strings.Cut(line, "\t")
				got = append(got, v)
			}
		}
		if code != 0 || strings.Join(got, " ") != c.want {
			t.Errorf("hookctl %s<TAB>: exit %d, got\n%s\nwant %s", c.words, code, out.String(), c.want)
		}
	}
}

func TestCompleteDescribes(t *testing.T) {
	var out bytes.Buffer
	run([]string{"hookctl", "__complete", "run", "PreToolUse", "--tool", "run_c"}, streams{strings.NewReader(""), &out, &out})
	if got, want := out.String(), "run_command\tPropose a bash command to run.\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	out.Reset()
	run([]string{"hookctl", "__complete", "lint", "--fail"}, streams{strings.NewReader(""), &out, &out})
	if got, want := out.String(), "--fail-on\texit 1 when a finding is at or above SEVERITY: error, warning or info\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// BenchmarkComplete is the work of one Tab, after hookctl has started.
func BenchmarkComplete(b *testing.B) {
	var out bytes.Buffer
	args := []string{"hookctl", "__complete", "run", "PreToolUse", "--tool", "run_"}
	for b.Loop() {
		out.Reset()
		run(args, streams{strings.NewReader(""), &out, &out})
	}
}

// TestCompletionInATerminal types in a real shell in tmux, presses Tab,
// and reads the line back: bash, zsh and fish (see testenv.Need).
func TestCompletionInATerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("starts shells in tmux")
	}
	testenv.Need(t, "tmux")
	bin := hookctlOnPath(t)
	for _, sh := range []struct {
		name, script string
		cmd          []string
		load         string
	}{
		{"bash", "hookctl.bash", []string{"bash", "--norc", "--noprofile"}, "source hookctl.bash"},
		{"zsh", "_hookctl", []string{"zsh", "-f"}, "autoload -U compinit && compinit -u -d compdump && source _hookctl"},
		{"fish", "hookctl.fish", []string{"fish", "--no-config"}, "source hookctl.fish"},
	} {
		t.Run(sh.name, func(t *testing.T) {
			testenv.Need(t, sh.name)
			t.Parallel()
			dir := t.TempDir()
			var script bytes.Buffer
			run([]string{"hookctl", "completion", sh.name}, streams{strings.NewReader(""), &script, os.Stderr})
			if err := os.WriteFile(filepath.Join(dir, sh.script), script.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			// A tmux server of the test's own, apart from any other.
			session := fmt.Sprintf("hookctl-complete-%s-%d", sh.name, os.Getpid())
			env := []string{"env", "PATH=" + bin + ":" + os.Getenv("PATH"), "HOME=" + dir, "XDG_CONFIG_HOME=" + dir, "PS1=$ ", "TERM=xterm"}
			tmux := func(args ...string) string {
				t.Helper()
				out, err := exec.Command("tmux", append([]string{"-L", session}, args...)...).CombinedOutput()
				if err != nil {
					t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
				}
				return string(out)
			}
			tmux(append([]string{"new-session", "-d", "-x", "200", "-y", "40", "-c", dir}, append(env, sh.cmd...)...)...)
			t.Cleanup(func() { exec.Command("tmux", "-L", session, "kill-server").Run() })

			// waitFor polls the screen for a line that ends with text (tmux
			// drops trailing spaces); the deadline only bounds a broken
			// case.
			waitFor := func(text string) {
				t.Helper()
				deadline := time.Now().Add(30 * time.Second)
				for {
					screen := tmux("capture-pane", "-p")
					for _, line := range strings.Split(screen, "\n") {
						if strings.HasSuffix(strings.TrimRight(line, " "), text) {
							return
						}
					}
					if time.Now().After(deadline) {
						t.Fatalf("waiting for %q, the screen shows:\n%s", text, screen)
					}
					time.Sleep(50 * time.Millisecond)
				}
			}
			tmux("send-keys", sh.load+" && echo load\"\"ed", "Enter")
			waitFor("loaded")
			for _, c := range []struct{ typed, want string }{
				{"hookctl run PreToolUse --tool run_c", "hookctl run PreToolUse --tool run_command"},
				{"hookctl --color=al", "hookctl --color=always"},
				{"hookctl init --template protect-", "hookctl init --template protect-paths"},
				{"hookctl schema inp", "hookctl schema input"},
			} {
				tmux("send-keys", c.typed, "Tab")
				waitFor(c.want)
				tmux("send-keys", "C-u")
			}
		})
	}
}
