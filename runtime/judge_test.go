package runtime

import (
	"testing"

	"github.com/hookctl/hookctl/schema"
)

// TestJudge reads a handler's exit status and output by the rules of
// every dispatch, for a caller that has them without a process (a
// recorded run).
func TestJudge(t *testing.T) {
	for _, c := range []struct {
		e      schema.Event
		exit   int
		stdout string
		kind   Kind
		answer string
		cause  string
	}{
		{schema.PreToolUse, 0, ` {"reason": "r", "decision": "deny"} `, Answered, `{"decision":"deny","reason":"r"}`, ""},
		{schema.PreToolUse, 0, " \n", NoAnswer, "", ""},
		{schema.PreToolUse, 0, `{"reason": "r"}`, Failed, "", `printed an answer that is not valid for PreToolUse: "decision" is required ("allow", "deny", "ask", "force_ask" or "deny_unless_prior_grant")`},
		{schema.Stop, 2, "", Blocked, "", ""},
		{schema.PostToolUse, 2, "", Failed, "", "exit status 2, which blocks only PreToolUse and Stop: why"},
		{schema.Stop, 7, "", Failed, "", "exit status 7: why"},
		{schema.Stop, -1, "", Failed, "", "did not exit by itself: why"},
	} {
		o := Judge(c.e, c.exit, []byte(c.stdout), []byte("\nwhy\n"))
		if o.Kind != c.kind || string(o.Answer) != c.answer || o.Cause != c.cause || o.ExitCode != c.exit {
			t.Errorf("%s exit %d %q: %s %s %q, want %s %s %q", c.e, c.exit, c.stdout, o.Kind, o.Answer, o.Cause, c.kind, c.answer, c.cause)
		}
		if o.Kind == Blocked && o.Reason != "why" {
			t.Errorf("block reason %q", o.Reason)
		}
	}
}
