package tracelog

import "testing"

func TestInfer(t *testing.T) {
	const common = `"conversationId":"c","workspacePaths":["/w"],"transcriptPath":"/t","artifactDirectoryPath":"/a","modelName":"m"`
	for _, c := range []struct {
		name, payload, answer string
		want                  Facts
	}{
		{"tool call, no answer", `{"toolCall":{"name":"run_command","args":{}},"stepIdx":1,` + common + `}`, "",
			Facts{Event: "PreToolUse or PostToolUse", Tool: "run_command"}},
		{"tool call with error", `{"toolCall":{"name":"view_file"},"stepIdx":1,"error":"",` + common + `}`, "",
			Facts{Event: "PostToolUse", Tool: "view_file"}},
		{"tool call answered with a decision", `{"toolCall":{"name":"run_command"},` + common + `}`, `{"decision":"deny"}`,
			Facts{Event: "PreToolUse", Tool: "run_command"}},
		{"tool call answered {}", `{"toolCall":{"name":"run_command"}}`, `{}`,
			Facts{Event: "PreToolUse or PostToolUse", Tool: "run_command"}},
		{"invocation", `{"invocationNum":3,"initialNumSteps":10,` + common + `}`, "",
			Facts{Event: "PreInvocation or PostInvocation"}},
		{"invocation with a termination", `{"invocationNum":3,` + common + `}`, `{"terminationBehavior":""}`,
			Facts{Event: "PostInvocation"}},
		{"stop", `{"executionNum":1,"terminationReason":"model_stop","fullyIdle":true,` + common + `}`, "",
			Facts{Event: "Stop"}},
		{"session start", `{` + common + `}`, "", Facts{Event: "SessionStart"}},
		{"another agent's payload", `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{}}`, "",
			Facts{Event: "PreToolUse", Tool: "Bash"}},
		{"unknown fields", `{"something":1,` + common + `}`, "", Facts{}},
		{"empty object", `{}`, "", Facts{}},
		{"not an object", `[1]`, "", Facts{}},
		{"not JSON", `toolCall`, "", Facts{}},
		{"toolCall not an object", `{"toolCall":"run_command"}`, "", Facts{Event: "PreToolUse or PostToolUse"}},
	} {
		if got := Infer([]byte(c.payload), []byte(c.answer)); got != c.want {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}
}
