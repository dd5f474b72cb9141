package schema

// TestFile is a hooks.test.json: unit tests for hooks, run by hookctl test.
// Each case sends one event's payload through the same dispatch as hookctl
// run and compares the merged answer with what it expects.
type TestFile struct {
	// Associates a JSON Schema with this file for editors.
	Schema string `json:"$schema,omitempty"`

	// The test cases, run in order.
	Tests []TestCase `json:"tests"`
}

// TestCase is one event sent through the hooks, and the answer expected
// back.
type TestCase struct {
	// What the case checks, shown in hookctl test's output. Unique in the
	// file.
	Name string `json:"name" jsonschema:"minLength=1"`

	// The event to dispatch. Defaults to PreToolUse when tool is given.
	Event Event `json:"event,omitempty"`

	// Shorthand for payload.toolCall.name: the tool the call is for.
	Tool string `json:"tool,omitempty"`

	// Shorthand for payload.toolCall.args: the tool's arguments.
	Args map[string]any `json:"args,omitempty"`

	// The event's payload. It may be partial: the common fields
	// (conversationId, workspacePaths, transcriptPath, ...) and the event's
	// counters are filled in, so {"toolCall": {"name": "run_command", "args":
	// {"CommandLine": "rm -rf /"}}} is a complete PreToolUse case.
	Payload map[string]any `json:"payload,omitempty"`

	// A subset of the merged answer: every key given must be in the answer
	// with the same value, such as {"decision": "deny"}. Leave it out to
	// expect nothing in particular.
	Expect map[string]any `json:"expect,omitempty"`

	// Text the merged answer's reason must contain.
	ExpectReason string `json:"expectReason,omitempty"`

	// The hooks whose handlers are expected to fail (exit with another
	// status than 0 or 2, time out, print something that is not an answer).
	// A failure of any other hook fails the case.
	ExpectFailures []string `json:"expectFailures,omitempty"`
}

// TestSchemaID is the $id of the hooks.test.json schema.
const TestSchemaID = "https://hookctl.dev/schema/hooks.test.schema.json"
