package convert

import (
	"testing"

	"github.com/hookctl/hookctl/schema"
)

// TestShapes: the payloads and answers the advice describes, for every
// event, spelt as schema's types spell their fields.
func TestShapes(t *testing.T) {
	for _, c := range []struct {
		e                   schema.Event
		input, output, exit string
	}{
		{schema.PreToolUse,
			`{"toolCall": {"name", "args"}} on stdin, the file in toolCall.args.TargetFile and the command in toolCall.args.CommandLine`,
			`a PreToolUse handler prints {"decision": "allow"|"ask"|"deny", "reason": ...} or exits 2 with the reason on stderr`,
			"a tool that already ran cannot be blocked; move the check to a PreToolUse hook"},
		{schema.PostToolUse,
			`{"toolCall": {"name", "args"}} on stdin, the file in toolCall.args.TargetFile and the command in toolCall.args.CommandLine`,
			"a PostToolUse handler prints {} or nothing",
			"a tool that already ran cannot be blocked; move the check to a PreToolUse hook"},
		{schema.Stop,
			`{"executionNum", "terminationReason", "fullyIdle", ...} on stdin`,
			`a Stop handler prints {"decision": "continue", "reason": ...} to keep the agent going, or exits 2 with the reason on stderr`,
			"a tool that already ran cannot be blocked; move the check to a PreToolUse hook"},
		{schema.SessionStart,
			`{"conversationId", "workspacePaths", "modelName", ...} on stdin`,
			`a SessionStart handler prints {"injectSteps": [{"ephemeralMessage": ...}]}`,
			`to give the model a message, print {"injectSteps": [{"ephemeralMessage": ...}]} and exit 0`},
		{schema.PreInvocation,
			`{"invocationNum", "initialNumSteps", ...} on stdin`,
			`a PreInvocation handler prints {"injectSteps": [{"ephemeralMessage": ...}]}`,
			`to give the model a message, print {"injectSteps": [{"ephemeralMessage": ...}]} and exit 0`},
		{schema.PostInvocation,
			`{"invocationNum", "initialNumSteps", ...} on stdin`,
			`a PostInvocation handler prints {"injectSteps": [...], "terminationBehavior": ...}`,
			`to stop the agent, print {"terminationBehavior": "terminate"} and exit 0`},
	} {
		if got := inputShape(c.e); got != c.input {
			t.Errorf("%s: the payload is described as\n%s\nnot\n%s", c.e, got, c.input)
		}
		if got := outputShape(c.e); got != c.output {
			t.Errorf("%s: the answer is described as\n%s\nnot\n%s", c.e, got, c.output)
		}
		if got := exit2Advice(c.e); got != c.exit {
			t.Errorf("%s: exit 2 is advised as\n%s\nnot\n%s", c.e, got, c.exit)
		}
	}
}
