package tracelog

import (
	"github.com/hookctl/hookctl/schema"
)

// Facts are what a payload, and the answer to it, show about the run.
type Facts struct {
	// Event is the event, or two joined by " or " when the payload fits
	// both, or "" when it shows none.
	Event string
	// Tool is toolCall.name, or another agent's tool_name.
	Tool string
}

// The payload's fields that every event carries, which the runtime fills
// in when a test case leaves them out.
var commonFields = [...]string{"conversationId", "workspacePaths", "transcriptPath", "artifactDirectoryPath", "modelName"}

// IsCommonField reports whether key is one of the fields every payload
// carries (conversationId, workspacePaths, transcriptPath,
// artifactDirectoryPath, modelName).
func IsCommonField(key string) bool {
	for _, f := range commonFields {
		if f == key {
			return true
		}
	}
	return false
}

// Infer reads what the payload (and the handler's answer, when it printed
// one) show: the agent names neither the event nor the hook to a handler,
// so the event is told by the fields each event's payload has:
//
//   - toolCall: PreToolUse or PostToolUse. PostToolUse when the payload
//     has an "error" key (only PostToolUse's has one), PreToolUse when the
//     answer has a "decision" (PostToolUse answers {}), else both;
//   - invocationNum or initialNumSteps: PreInvocation or PostInvocation,
//     PostInvocation when the answer has a terminationBehavior;
//   - executionNum, terminationReason or fullyIdle: Stop;
//   - the common fields alone: SessionStart.
//
// A payload of another agent that names its event in hook_event_name
// (Claude Code's, for one) gives that name as it is, and its tool_name.
func Infer(payload, answer []byte) Facts {
	root, _, serr := schema.ParseJSON(payload)
	if serr != nil || root.Kind != schema.Object {
		return Facts{}
	}
	var f Facts
	if m := root.Get("hook_event_name"); m != nil && m.Value.Kind == schema.String {
		f.Event = m.Value.Str
		if t := root.Get("tool_name"); t != nil && t.Value.Kind == schema.String {
			f.Tool = t.Value.Str
		}
		return f
	}
	has := func(k string) bool { return root.Get(k) != nil }
	var ans *schema.Node
	if len(answer) > 0 {
		if a, _, err := schema.ParseJSON(answer); err == nil && a.Kind == schema.Object {
			ans = a
		}
	}
	answerHas := func(k string) bool { return ans != nil && ans.Get(k) != nil }
	switch {
	case has("toolCall"):
		if tc := root.Get("toolCall").Value; tc.Kind == schema.Object {
			if n := tc.Get("name"); n != nil && n.Value.Kind == schema.String {
				f.Tool = n.Value.Str
			}
		}
		switch {
		case has("error"):
			f.Event = string(schema.PostToolUse)
		case answerHas("decision"):
			f.Event = string(schema.PreToolUse)
		default:
			f.Event = string(schema.PreToolUse) + " or " + string(schema.PostToolUse)
		}
	case has("invocationNum") || has("initialNumSteps"):
		if answerHas("terminationBehavior") {
			f.Event = string(schema.PostInvocation)
		} else {
			f.Event = string(schema.PreInvocation) + " or " + string(schema.PostInvocation)
		}
	case has("executionNum") || has("terminationReason") || has("fullyIdle"):
		f.Event = string(schema.Stop)
	default:
		common := 0
		for _, m := range root.Members {
			if !IsCommonField(m.Key) {
				return f
			}
			common++
		}
		if common > 0 {
			f.Event = string(schema.SessionStart)
		}
	}
	return f
}
