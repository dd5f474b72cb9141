package schema

import "testing"

// TestParseEvent accepts the six events and suggests the nearest for a
// mistake.
func TestParseEvent(t *testing.T) {
	if e, err := ParseEvent("Stop"); e != Stop || err != nil {
		t.Errorf("ParseEvent(Stop) = %q, %v", e, err)
	}
	_, err := ParseEvent("PreTooluse")
	want := `unknown event "PreTooluse": did you mean "PreToolUse"? (the events are ` + "SessionStart, PreToolUse, PostToolUse, PreInvocation, PostInvocation, Stop)"
	if err == nil || err.Error() != want {
		t.Errorf("ParseEvent(PreTooluse): %v\nwant %s", err, want)
	}
}
