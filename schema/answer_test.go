package schema

import (
	"strings"
	"testing"
)

func TestAnswerChecks(t *testing.T) {
	for _, tt := range []struct {
		event  Event
		answer string
		// want lists "unknown PATH" and "value PATH: WHY", one a line.
		want string
	}{
		{PreToolUse, `{"decision": "allow", "reason": "ok", "permissionOverrides": ["command(ls)"], "overwrite": {"CommandLine": "ls"}}`, ""},
		{PreToolUse, `{"decison": "allow"}`, "unknown decison"},
		{PreToolUse, `{"decision": "maybe"}`, `value decision: must be "allow", "ask", "force_ask", "deny_unless_prior_grant" or "deny", not "maybe"`},
		{PreToolUse, `{"decision": "Deny"}`, `value decision: must be "allow", "ask", "force_ask", "deny_unless_prior_grant" or "deny", not "Deny" (deny)`},
		{PreToolUse, `{"decision": true, "reason": 1, "permissionOverrides": [1], "overwrite": []}`,
			"value decision: must be a string, not true\nvalue reason: must be a string, not the number 1\nvalue permissionOverrides[0]: must be a string, not the number 1\nvalue overwrite: must be an object of tool arguments, not an array"},
		{PostToolUse, `{}`, ""},
		{PostToolUse, `{"status": "ok"}`, "unknown status"},
		{Stop, `{"decision": "block"}`, ""},
		{Stop, `{"Decision": "continue"}`, "unknown Decision"},
		{PreInvocation, `{"injectSteps": [{"ephemeralMessage": "hi"}, {"toolCall": {"name": "view_file", "args": {}}}]}`, ""},
		{PreInvocation, `{"injectSteps": [{"userMessage": "a", "ephemeralMessage": "b"}]}`, `value injectSteps[0]: holds both "userMessage" and "ephemeralMessage": a step is one of "toolCall", "userMessage" or "ephemeralMessage"`},
		{PreInvocation, `{"injectSteps": [{}, {"userMesage": "x"}, {"toolCall": {"args": {}, "nme": 1}}]}`,
			"unknown injectSteps[1].userMesage\nunknown injectSteps[2].toolCall.nme\nvalue injectSteps[0]: holds none of \"toolCall\", \"userMessage\" or \"ephemeralMessage\"\nvalue injectSteps[2].toolCall: needs a \"name\" string, the tool to call"},
		{PostInvocation, `{"terminationBehavior": "stop"}`, `value terminationBehavior: must be "force_continue", "terminate" or "", not "stop"`},
		{PostInvocation, `{"terminationBehavior": "", "injectSteps": null}`, ""},
		{SessionStart, `{"injectSteps": "x"}`, `value injectSteps: must be an array of steps, such as [{"ephemeralMessage": "..."}], not the string "x"`},
	} {
		root, _, err := ParseJSON([]byte(tt.answer))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, k := range UnknownAnswerKeys(tt.event, root) {
			got = append(got, "unknown "+k.Path)
		}
		for _, v := range AnswerValues(tt.event, root) {
			line := "value " + v.Path + ": " + v.Why
			if v.Nearest != "" {
				line += " (" + v.Nearest + ")"
			}
			got = append(got, line)
		}
		if g := strings.Join(got, "\n"); g != tt.want {
			t.Errorf("%s %s:\n got %s\nwant %s", tt.event, tt.answer, g, tt.want)
		}
	}
	if got := strings.Join(AnswerKeys(PostInvocation), ","); got != "injectSteps,terminationBehavior" {
		t.Errorf("AnswerKeys(PostInvocation) = %s", got)
	}
}
