package schema

import "testing"

// Status 2 decides for PreToolUse and Stop only: every other event takes
// it as a failure.
func TestExit2Decision(t *testing.T) {
	for _, e := range Events {
		want := map[Event]string{PreToolUse: "deny", Stop: "continue"}[e]
		if got := e.Exit2Decision(); got != want {
			t.Errorf("%s: exit 2 decides %q, want %q", e, got, want)
		}
	}
}
