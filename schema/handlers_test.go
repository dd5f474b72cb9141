package schema

import (
	"fmt"
	"testing"
)

// TestAllHandlers walks every handler of a file in order: hook by hook,
// event by event in the order of Events, then as written, with its group
// for a tool event.
func TestAllHandlers(t *testing.T) {
	cfg := Parse("hooks.json", []byte(`{
  "a": {
    "Stop": [{"command": "a-stop"}],
    "PreToolUse": [
      {"matcher": "run_command", "hooks": [{"command": "a-pre-1"}, {"command": "a-pre-2"}]},
      {"hooks": [{"command": "a-pre-3"}]}
    ],
    "SessionStart": [{"command": "a-start"}]
  },
  "b": {"PostToolUse": [{"matcher": "view_file", "hooks": [{"command": "b-post"}]}]}
}`))
	var got []string
	for at, hd := range cfg.File.AllHandlers() {
		got = append(got, fmt.Sprintf("%s %s %q %s", at.Hook.Name, at.Event, at.MatcherText(), hd.Command))
		if (at.Group != nil) != at.Event.IsTool() {
			t.Errorf("%s: group %v for %s", hd.Command, at.Group, at.Event)
		}
	}
	want := []string{
		`a SessionStart "" a-start`,
		`a PreToolUse "run_command" a-pre-1`,
		`a PreToolUse "run_command" a-pre-2`,
		`a PreToolUse "" a-pre-3`,
		`a Stop "" a-stop`,
		`b PostToolUse "view_file" b-post`,
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}

	// A handler changes through its pointer; a loop may stop early.
	n := 0
	for _, hd := range cfg.File.AllHandlers() {
		hd.Command = "changed"
		if n++; n == 2 {
			break
		}
	}
	if c := cfg.File.Hooks[0].PreToolUse[0].Hooks[0].Command; n != 2 || c != "changed" {
		t.Errorf("after a break at 2: %d handlers seen, the first tool handler is %q", n, c)
	}
	var none *File
	for range none.AllHandlers() {
		t.Error("a nil file has no handlers")
	}
}
