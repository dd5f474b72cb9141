package runtime

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/schema"
)

func TestExplainRunsNothingAndSaysWhy(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	user := e.user(hooks(hookEntry{name: "gate", event: pre, command: `touch ran`, matcher: "run_command"}))
	ws := e.workspace(`{
  "w": {"PreToolUse": [{"hooks": [{"command": "touch ran"}]}]},
  "bad": {"PreToolUse": [{"hooks": [{"command": ""}]}]}
}`)
	opts := e.opts()
	opts.Trusted = func(*Source) (bool, string) { return false, "never trusted" }
	plan, err := NewPlan(pre, e.payload(pre, "run_command"), opts)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := plan.Explain(&b); err != nil {
		t.Fatal(err)
	}
	userDir := filepath.Dir(user)
	width := len(user + ":2:64")
	want := strings.Join([]string{
		"PreToolUse for tool run_command in workspace " + e.ws,
		"user file " + user + " (handlers run in " + userDir + ")",
		"  run   gate  " + pad(user+":2:64", width) + "  touch ran (timeout 30s, matcher \"run_command\")",
		"workspace file " + ws + " (untrusted: never trusted; run 'hookctl trust " + e.ws + "' to let its hooks run)",
		"  skip  w     " + pad(ws+":2:35", width) + "  touch ran (timeout 30s, every tool): untrusted",
		"  skip  bad   " + pad(ws+":3:49", width) + "  untrusted",
		"1 handler would run; 1 more would run if the workspace were trusted.",
		"If the answers' overwrite changes the tool's arguments, the user file's 1 handler runs again on the new arguments.",
	}, "\n") + "\n"
	if b.String() != want {
		t.Errorf("explain\n%s\nwant\n%s", b.String(), want)
	}
	for _, dir := range []string{userDir, filepath.Dir(ws)} {
		if _, err := os.Stat(filepath.Join(dir, "ran")); err == nil {
			t.Errorf("explaining ran a handler in %s", dir)
		}
	}
}

// TestExplainUntrustedAsTrusted checks that an untrusted workspace is
// explained as the trusted one is, hook by hook and handler by handler,
// what would have run being marked untrusted.
func TestExplainUntrustedAsTrusted(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.workspace(`{
  "gate": {"PreToolUse": [{"matcher": "run_command", "hooks": [{"command": "touch a"}, {"command": "touch b"}]},
                          {"matcher": "view_file", "hooks": [{"command": "touch c"}]}]},
  "log": {"PostToolUse": [{"hooks": [{"command": "touch d"}]}]},
  "off": {"enabled": false, "PreToolUse": [{"hooks": [{"command": "touch e"}]}]},
  "bad": {"PreToolUse": [{"hooks": [{"command": "", "timeout": 1}]}]},
  "remind": {"PreInvocation": [{"command": "touch f"}]},
  "again": {"Stop": [{"command": "touch g"}]}
}`)
	for _, ev := range schema.Events {
		steps := map[bool][]string{}
		for _, trusted := range []bool{true, false} {
			opts := e.opts()
			opts.Trusted = func(*Source) (bool, string) { return trusted, "" }
			plan, err := NewPlan(ev, e.payload(ev, "run_command"), opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range plan.Steps {
				st := s.State
				if !trusted && st == Untrusted {
					st = Run // compared with the trusted plan's Run or Broken
				}
				if trusted && st == Broken {
					st = Run
				}
				steps[trusted] = append(steps[trusted], fmt.Sprintf("%s@%d:%d=%d", s.Hook, s.Pos.Line, s.Pos.Col, st))
			}
			var b strings.Builder
			if err := plan.Explain(&b); err != nil {
				t.Fatal(err)
			}
			// Every hook of the file shows, whatever the event.
			for _, h := range []string{"gate", "log", "off", "bad", "remind", "again"} {
				if !strings.Contains(b.String(), "  "+h+" ") {
					t.Errorf("%s, trusted %v: the explanation leaves out %s:\n%s", ev, trusted, h, b.String())
				}
			}
		}
		if got, want := strings.Join(steps[false], " "), strings.Join(steps[true], " "); got != want {
			t.Errorf("%s: untrusted steps\n%s\nwant, as trusted,\n%s", ev, got, want)
		}
	}
}
