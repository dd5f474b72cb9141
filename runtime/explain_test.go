package runtime

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	why := "untrusted workspace (never trusted): run 'hookctl trust " + e.ws + "' to let its hooks run"
	width := len(user + ":2:64")
	want := strings.Join([]string{
		"PreToolUse for tool run_command in workspace " + e.ws,
		"user file " + user + " (handlers run in " + userDir + ")",
		"  run   gate  " + pad(user+":2:64", width) + "  touch ran (timeout 30s, matcher \"run_command\")",
		"workspace file " + ws + " (untrusted)",
		"  skip  w     " + pad(ws+":2:3", width) + "  " + why,
		"  skip  bad   " + pad(ws+":3:3", width) + "  " + why,
		"1 handler would run.",
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
