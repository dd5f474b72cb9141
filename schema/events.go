package schema

// Common holds the fields every handler receives on stdin, whatever the event.
type Common struct {
	// The unique UUID of the active agent conversation.
	ConversationID string `json:"conversationId"`

	// Absolute paths of the user's mounted workspaces.
	WorkspacePaths []string `json:"workspacePaths"`

	// The absolute path to the conversation's transcript.jsonl log, under
	// <app_data_dir>/brain/<conversationId>/.system_generated/logs/, where
	// <app_data_dir> is ~/.gemini/antigravity (or ~/.gemini/antigravity-cli for
	// the CLI).
	TranscriptPath string `json:"transcriptPath"`

	// The absolute path to the folder that holds the conversation's artifacts
	// and screenshots.
	ArtifactDirectoryPath string `json:"artifactDirectoryPath"`

	// The name of the model handling the invocation, such as
	// gemini-3.6-flash-medium.
	ModelName string `json:"modelName"`

	// Set only by hookctl run --from, when another agent (Claude Code,
	// Gemini CLI, Cursor or Codex) calls the hooks of this format: that
	// agent, its event and its payload as it sent it, so that a handler can
	// read what this format's payload has no place for, such as the prompt.
	From *From `json:"from,omitempty"`
}

// From is the other agent's invocation a payload was made from by hookctl
// run --from.
type From struct {
	// The agent: claude, gemini, cursor or codex.
	Agent string `json:"agent"`

	// The agent's name for the event, such as UserPromptSubmit.
	Event string `json:"event"`

	// The agent's payload, byte for byte as it sent it.
	Payload map[string]any `json:"payload"`
}

// ToolCall is a tool call: the tool's name and its arguments.
type ToolCall struct {
	// The name of the tool, such as run_command.
	Name string `json:"name"`

	// The arguments of the call; their names depend on the tool (run_command
	// takes CommandLine and Cwd, write_to_file takes TargetFile and
	// CodeContent, ...).
	Args map[string]any `json:"args"`
}

// PreToolUseInput is what a PreToolUse handler reads on stdin.
type PreToolUseInput struct {
	// The proposed tool call.
	ToolCall ToolCall `json:"toolCall"`

	// The 0-based index of the current step in the trajectory.
	StepIdx int `json:"stepIdx"`

	Common
}

// Decision controls how a tool call is gated.
type Decision string

// The decisions a PreToolUse handler can give, from the most permissive.
const (
	Allow                Decision = "allow"
	Ask                  Decision = "ask"
	ForceAsk             Decision = "force_ask"
	DenyUnlessPriorGrant Decision = "deny_unless_prior_grant"
	Deny                 Decision = "deny"
)

// Decisions lists the PreToolUse decisions from the most permissive to the
// strictest.
var Decisions = []Decision{Allow, Ask, ForceAsk, DenyUnlessPriorGrant, Deny}

// Strictness orders decisions: a higher number is stricter. It is 0 for a
// value that is not a decision.
func (d Decision) Strictness() int {
	for i, v := range Decisions {
		if v == d {
			return i + 1
		}
	}
	return 0
}

// PreToolUseOutput is what a PreToolUse handler prints on stdout.
type PreToolUseOutput struct {
	// How the tool call is gated: "allow" runs it without asking; "deny" blocks
	// it; "ask" prompts the user but respects "Always Allow" settings;
	// "force_ask" always prompts, ignoring cached permissions;
	// "deny_unless_prior_grant" denies unless the resource was approved in a
	// prior user grant.
	Decision Decision `json:"decision" jsonschema:"enum=allow,enum=deny,enum=ask,enum=force_ask,enum=deny_unless_prior_grant"`

	// The explanation shown to the agent or the user for the decision.
	Reason string `json:"reason,omitempty"`

	// Resource strings that override the tool's default permissions, such as
	// "read_file(/path)" or "command(npm test)".
	PermissionOverrides []string `json:"permissionOverrides,omitempty"`

	// An object shallow-merged into the tool's arguments before the tool runs,
	// such as {"CommandLine": "npm test -- --ci"}: each key replaces the
	// argument of the same name.
	Overwrite map[string]any `json:"overwrite,omitempty"`
}

// PostToolUseInput is what a PostToolUse handler reads on stdin.
type PostToolUseInput struct {
	// The executed tool call.
	ToolCall ToolCall `json:"toolCall"`

	// The 0-based index of the completed step.
	StepIdx int `json:"stepIdx"`

	// The runtime error message if the tool call failed; empty if it
	// succeeded.
	Error string `json:"error,omitempty"`

	Common
}

// PostToolUseOutput is what a PostToolUse handler prints on stdout: an empty
// object, or nothing at all.
type PostToolUseOutput struct{}

// SessionStartInput is what a SessionStart handler reads on stdin: the
// fields every handler receives, once when a conversation starts.
type SessionStartInput struct {
	Common
}

// SessionStartOutput is what a SessionStart handler prints on stdout: steps
// to inject before the conversation's first model call, as a PreInvocation
// handler's answer.
type SessionStartOutput struct {
	// Steps to inject into the trajectory when the conversation starts, such
	// as [{"ephemeralMessage": "This project uses pnpm, not npm."}].
	InjectSteps []Step `json:"injectSteps,omitempty"`
}

// InvocationInput is what a PreInvocation or PostInvocation handler reads on
// stdin.
type InvocationInput struct {
	// The 0-based sequence number of the current model invocation.
	InvocationNum int `json:"invocationNum"`

	// The number of steps currently in the trajectory.
	InitialNumSteps int `json:"initialNumSteps"`

	Common
}

// Step is a step injected into the conversation's trajectory. Give exactly
// one of its fields.
type Step struct {
	// A tool call to execute.
	ToolCall *ToolCall `json:"toolCall,omitempty"`

	// A message from the user.
	UserMessage *string `json:"userMessage,omitempty"`

	// A transient system message.
	EphemeralMessage *string `json:"ephemeralMessage,omitempty"`
}

// PreInvocationOutput is what a PreInvocation handler prints on stdout.
type PreInvocationOutput struct {
	// Steps to inject into the trajectory before the model is called.
	InjectSteps []Step `json:"injectSteps,omitempty"`
}

// TerminationBehavior controls the execution loop after a model invocation.
type TerminationBehavior string

// The termination behaviours, from the weakest.
const (
	DefaultBehavior TerminationBehavior = ""
	ForceContinue   TerminationBehavior = "force_continue"
	Terminate       TerminationBehavior = "terminate"
)

// PostInvocationOutput is what a PostInvocation handler prints on stdout.
type PostInvocationOutput struct {
	// Steps to inject after the invocation completes.
	InjectSteps []Step `json:"injectSteps,omitempty"`

	// Controls the loop after injection: "force_continue" forces it to
	// continue, "terminate" forces it to end, "" (or leaving it out) keeps the
	// default behaviour.
	TerminationBehavior TerminationBehavior `json:"terminationBehavior,omitempty" jsonschema:"enum=,enum=force_continue,enum=terminate"`
}

// StopInput is what a Stop handler reads on stdin.
type StopInput struct {
	// The sequence number of the execution attempt.
	ExecutionNum int `json:"executionNum"`

	// Why the execution is stopping, such as "model_stop",
	// "max_steps_exceeded" or "error".
	TerminationReason string `json:"terminationReason"`

	// The error message if a system error caused the termination.
	Error string `json:"error,omitempty"`

	// True if the agent is completely finished and every background command
	// or task has completed; false if background tasks are still running.
	FullyIdle bool `json:"fullyIdle"`

	Common
}

// StopOutput is what a Stop handler prints on stdout.
type StopOutput struct {
	// "continue" keeps the agent from stopping and re-enters the execution
	// loop. Any other value (such as "allow") lets it stop.
	Decision string `json:"decision" jsonschema:"example=continue,example=allow"`

	// When the decision is "continue", this message is injected into the
	// conversation as a system message.
	Reason string `json:"reason,omitempty"`
}

// Continue is the Stop decision that keeps the agent going.
const Continue = "continue"

// InputType returns a zero value of the type an event's handler reads on
// stdin.
func InputType(e Event) any {
	switch e {
	case SessionStart:
		return &SessionStartInput{}
	case PreToolUse:
		return &PreToolUseInput{}
	case PostToolUse:
		return &PostToolUseInput{}
	case PreInvocation, PostInvocation:
		return &InvocationInput{}
	case Stop:
		return &StopInput{}
	}
	return nil
}

// OutputType returns a zero value of the type an event's handler prints on
// stdout.
func OutputType(e Event) any {
	switch e {
	case SessionStart:
		return &SessionStartOutput{}
	case PreToolUse:
		return &PreToolUseOutput{}
	case PostToolUse:
		return &PostToolUseOutput{}
	case PreInvocation:
		return &PreInvocationOutput{}
	case PostInvocation:
		return &PostInvocationOutput{}
	case Stop:
		return &StopOutput{}
	}
	return nil
}
