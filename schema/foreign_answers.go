package schema

import (
	"slices"
	"strings"
)

// AnswerEffect is what a field of another agent's hook answer does there,
// in this format's terms.
type AnswerEffect string

// The effects of other agents' answer fields.
const (
	// AnswerAllow approves a tool call (allow here).
	AnswerAllow AnswerEffect = "allow"
	// AnswerDeny blocks a tool call (deny here).
	AnswerDeny AnswerEffect = "deny"
	// AnswerAsk asks the user whatever the settings say (force_ask here).
	AnswerAsk AnswerEffect = "ask"
	// AnswerNoOpinion leaves the call to the agent's own permission
	// settings: no decision here.
	AnswerNoOpinion AnswerEffect = "no opinion"
	// AnswerContinue keeps the agent from stopping (a Stop continue here),
	// the reason being what it is told next.
	AnswerContinue AnswerEffect = "continue"
	// AnswerStop lets the agent stop: no continue here.
	AnswerStop AnswerEffect = "stop"
	// AnswerReason is the reason of the decision the answer gives.
	AnswerReason AnswerEffect = "reason"
	// AnswerContext is text for the model (an ephemeral message here).
	AnswerContext AnswerEffect = "context"
	// AnswerRewrite is the tool's input rewritten (an overwrite here).
	AnswerRewrite AnswerEffect = "rewrite"
	// AnswerIgnored changes nothing anywhere: it is read and dropped.
	AnswerIgnored AnswerEffect = "ignored"
	// AnswerLost does something there that nothing here does: it is
	// dropped with a line that says so, and never changes the decision.
	AnswerLost AnswerEffect = "no equivalent"
)

// The answer fields that are not fields: how the handler ended.
const (
	// AnswerExit2 is the handler exiting with status 2, its stderr the
	// text the agent reads.
	AnswerExit2 = "exit 2"
	// AnswerPlainText is stdout that is not a JSON object, on exit 0.
	AnswerPlainText = "plain text"
)

// ForeignAnswer is one field of another agent's hook answer, on some of its
// events, and what it becomes here. hookctl adapt reads a handler's answer
// by these rows; hookctl run --from writes only fields they list; import
// and lint recognise a handler that answers in another agent's way by
// their field names.
type ForeignAnswer struct {
	// Field is the field as a dotted path in the JSON the handler prints
	// ("hookSpecificOutput.permissionDecision"), or AnswerExit2 or
	// AnswerPlainText.
	Field string
	// Value is the value the row is about ("deny"), "" for any value.
	Value string
	// Agents are the agents whose answers have the field.
	Agents []Agent
	// Events are the agents' events that read it; nil means every event.
	Events []string
	// Effect is what it does there, in this format's terms.
	Effect AnswerEffect
	// Needs is a field without which the agent does not take this one: it
	// marks the hook failed and goes on (Codex reads an allow only with
	// updatedInput); here that is no opinion.
	Needs string
	// Note says what it does in the agent where Effect is AnswerLost or
	// AnswerNoOpinion, or what differs.
	Note string
	// Source is the key of the document the row comes from.
	Source string
}

var (
	claudeTools   = []string{"PreToolUse"}
	claudeContext = []string{"UserPromptSubmit", "SessionStart"}
	geminiPrompt  = []string{"BeforeAgent", "SessionStart"}
	cursorGates   = []string{"preToolUse", "beforeShellExecution", "beforeMCPExecution", "beforeReadFile"}
	cursorAsks    = []string{"preToolUse", "beforeShellExecution", "beforeMCPExecution"}
	afterTools    = []string{"PostToolUse", "PostToolUseFailure"}
	stopEvents    = []string{"Stop", "SubagentStop"}
	claudeOnly    = []Agent{Claude}
	geminiOnly    = []Agent{Gemini}
	cursorOnly    = []Agent{Cursor}
	codexOnly     = []Agent{Codex}
)

// ForeignAnswers are the answer fields of the other agents' hooks, per
// event, in the order a reader takes them: the first row that gives a
// decision decides, so an agent's current form comes before its older
// one.
var ForeignAnswers = []ForeignAnswer{
	// Claude Code.
	{Field: "hookSpecificOutput.permissionDecision", Value: "allow", Agents: claudeOnly, Events: claudeTools, Effect: AnswerAllow, Source: "claude-hooks"},
	{Field: "hookSpecificOutput.permissionDecision", Value: "deny", Agents: claudeOnly, Events: claudeTools, Effect: AnswerDeny, Source: "claude-hooks"},
	{Field: "hookSpecificOutput.permissionDecision", Value: "ask", Agents: claudeOnly, Events: claudeTools, Effect: AnswerAsk, Source: "claude-hooks"},
	{Field: "hookSpecificOutput.permissionDecision", Value: "defer", Agents: claudeOnly, Events: claudeTools, Effect: AnswerNoOpinion, Source: "claude-hooks",
		Note: "defer leaves the call to Claude Code's own permission flow"},
	{Field: "hookSpecificOutput.permissionDecisionReason", Agents: claudeOnly, Events: claudeTools, Effect: AnswerReason, Source: "claude-hooks"},
	{Field: "hookSpecificOutput.updatedInput", Agents: claudeOnly, Events: claudeTools, Effect: AnswerRewrite, Source: "claude-hooks"},
	{Field: "hookSpecificOutput.decision.behavior", Value: "allow", Agents: claudeCodex, Events: []string{"PermissionRequest"}, Effect: AnswerAllow, Source: "claude-hooks"},
	{Field: "hookSpecificOutput.decision.behavior", Value: "deny", Agents: claudeCodex, Events: []string{"PermissionRequest"}, Effect: AnswerDeny, Source: "claude-hooks"},
	{Field: "hookSpecificOutput.decision.message", Agents: claudeCodex, Events: []string{"PermissionRequest"}, Effect: AnswerReason, Source: "claude-hooks"},
	{Field: "hookSpecificOutput.decision.updatedInput", Agents: claudeOnly, Events: []string{"PermissionRequest"}, Effect: AnswerRewrite, Source: "claude-hooks"},
	{Field: "decision", Value: "approve", Agents: claudeOnly, Events: claudeTools, Effect: AnswerAllow, Source: "claude-hooks",
		Note: "the older form of permissionDecision allow"},
	{Field: "decision", Value: "block", Agents: claudeOnly, Events: claudeTools, Effect: AnswerDeny, Source: "claude-hooks",
		Note: "the older form of permissionDecision deny"},
	{Field: "decision", Value: "block", Agents: claudeCodex, Events: stopEvents, Effect: AnswerContinue, Source: "claude-hooks"},
	{Field: "decision", Value: "block", Agents: claudeCodex, Events: afterTools, Effect: AnswerLost, Source: "claude-hooks",
		Note: "it shows the reason to the model about a call that already ran, and PostToolUse here answers nothing"},
	{Field: "decision", Value: "block", Agents: claudeCodex, Events: []string{"UserPromptSubmit"}, Effect: AnswerLost, Source: "claude-hooks",
		Note: "it blocks the prompt, and PreInvocation here cannot block"},
	{Field: "reason", Agents: claudeCodex, Effect: AnswerReason, Source: "claude-hooks"},
	{Field: "hookSpecificOutput.additionalContext", Agents: claudeCodex, Events: claudeContext, Effect: AnswerContext, Source: "claude-hooks"},
	{Field: "hookSpecificOutput.additionalContext", Agents: claudeCodex, Events: append(append([]string{}, claudeTools...), afterTools...), Effect: AnswerLost, Source: "claude-hooks",
		Note: "it adds context to the model beside a tool call, and tool events here take none"},
	{Field: "continue", Value: "false", Agents: claudeCodex, Events: stopEvents, Effect: AnswerStop, Source: "claude-hooks"},
	{Field: "continue", Value: "false", Agents: claudeCodex, Effect: AnswerLost, Source: "claude-hooks",
		Note: "it stops the agent altogether, which no answer here does"},
	{Field: "stopReason", Agents: claudeCodex, Effect: AnswerIgnored, Source: "claude-hooks"},
	{Field: "systemMessage", Agents: claudeCodex, Effect: AnswerLost, Source: "claude-hooks",
		Note: "it shows a message to the user, which no answer here does"},
	{Field: "suppressOutput", Agents: claudeCodex, Effect: AnswerIgnored, Source: "claude-hooks"},
	{Field: AnswerExit2, Agents: claudeCodex, Events: []string{"PreToolUse", "PermissionRequest"}, Effect: AnswerDeny, Source: "claude-hooks"},
	{Field: AnswerExit2, Agents: claudeCodex, Events: stopEvents, Effect: AnswerContinue, Source: "claude-hooks"},
	{Field: AnswerExit2, Agents: claudeCodex, Events: []string{"UserPromptSubmit"}, Effect: AnswerLost, Source: "claude-hooks",
		Note: "it blocks the prompt, and PreInvocation here cannot block"},
	{Field: AnswerExit2, Agents: claudeCodex, Events: afterTools, Effect: AnswerLost, Source: "claude-hooks",
		Note: "it shows stderr to the model about a call that already ran, and PostToolUse here answers nothing"},
	{Field: AnswerExit2, Agents: claudeCodex, Effect: AnswerLost, Source: "claude-hooks",
		Note: "it shows stderr to the user, which no answer here does"},
	{Field: AnswerPlainText, Agents: claudeCodex, Events: claudeContext, Effect: AnswerContext, Source: "claude-hooks"},
	{Field: AnswerPlainText, Agents: claudeCodex, Effect: AnswerIgnored, Source: "claude-hooks"},
	// Codex takes Claude Code's forms above, with these differences.
	{Field: "hookSpecificOutput.permissionDecision", Value: "deny", Agents: codexOnly, Events: claudeTools, Effect: AnswerDeny, Source: "codex-engine"},
	{Field: "hookSpecificOutput.permissionDecision", Value: "allow", Agents: codexOnly, Events: claudeTools, Effect: AnswerAllow,
		Needs: "hookSpecificOutput.updatedInput", Note: "Codex takes an allow only with updatedInput, and marks the hook failed without it", Source: "codex-engine"},
	{Field: "hookSpecificOutput.permissionDecision", Value: "ask", Agents: codexOnly, Events: claudeTools, Effect: AnswerNoOpinion, Source: "codex-engine",
		Note: "Codex parses ask but does not support it: it marks the hook failed and goes on"},
	{Field: "hookSpecificOutput.permissionDecisionReason", Agents: codexOnly, Events: claudeTools, Effect: AnswerReason, Source: "codex-engine"},
	{Field: "hookSpecificOutput.updatedInput", Agents: codexOnly, Events: claudeTools, Effect: AnswerRewrite, Needs: "hookSpecificOutput.permissionDecision", Source: "codex-engine"},
	{Field: "decision", Value: "block", Agents: codexOnly, Events: claudeTools, Effect: AnswerDeny, Source: "codex-engine",
		Note: "the older form of permissionDecision deny"},
	{Field: "decision", Value: "approve", Agents: codexOnly, Events: claudeTools, Effect: AnswerNoOpinion, Source: "codex-engine",
		Note: "Codex does not support approve: it marks the hook failed and goes on"},
	// Gemini CLI.
	{Field: "decision", Value: "allow", Agents: geminiOnly, Events: []string{"BeforeTool"}, Effect: AnswerAllow, Source: "gemini-hooks"},
	{Field: "decision", Value: "approve", Agents: geminiOnly, Events: []string{"BeforeTool"}, Effect: AnswerAllow, Source: "gemini-hooks"},
	{Field: "decision", Value: "deny", Agents: geminiOnly, Events: []string{"BeforeTool"}, Effect: AnswerDeny, Source: "gemini-hooks"},
	{Field: "decision", Value: "block", Agents: geminiOnly, Events: []string{"BeforeTool"}, Effect: AnswerDeny, Source: "gemini-hooks"},
	{Field: "decision", Value: "ask", Agents: geminiOnly, Events: []string{"BeforeTool"}, Effect: AnswerAsk, Source: "gemini-hooks"},
	{Field: "decision", Value: "deny", Agents: geminiOnly, Events: []string{"AfterAgent"}, Effect: AnswerContinue, Source: "gemini-hooks"},
	{Field: "decision", Value: "block", Agents: geminiOnly, Events: []string{"AfterAgent"}, Effect: AnswerContinue, Source: "gemini-hooks"},
	{Field: "decision", Value: "deny", Agents: geminiOnly, Effect: AnswerLost, Source: "gemini-hooks",
		Note: "it blocks what the event is about (the turn, the model call, the tool's result), which this event here cannot"},
	{Field: "decision", Value: "block", Agents: geminiOnly, Effect: AnswerLost, Source: "gemini-hooks",
		Note: "it blocks what the event is about (the turn, the model call, the tool's result), which this event here cannot"},
	{Field: "decision", Agents: geminiOnly, Effect: AnswerIgnored, Source: "gemini-hooks"},
	{Field: "reason", Agents: geminiOnly, Effect: AnswerReason, Source: "gemini-hooks"},
	{Field: "hookSpecificOutput.tool_input", Agents: geminiOnly, Events: []string{"BeforeTool"}, Effect: AnswerRewrite, Source: "gemini-hooks"},
	{Field: "hookSpecificOutput.additionalContext", Agents: geminiOnly, Events: geminiPrompt, Effect: AnswerContext, Source: "gemini-hooks"},
	{Field: "hookSpecificOutput.additionalContext", Agents: geminiOnly, Effect: AnswerLost, Source: "gemini-hooks",
		Note: "it adds context to the model after a tool call, and tool events here take none"},
	{Field: "continue", Value: "false", Agents: geminiOnly, Events: []string{"AfterAgent"}, Effect: AnswerStop, Source: "gemini-hooks"},
	{Field: "continue", Value: "false", Agents: geminiOnly, Effect: AnswerLost, Source: "gemini-hooks",
		Note: "it stops the whole agent loop, which no answer here does"},
	{Field: "stopReason", Agents: geminiOnly, Effect: AnswerIgnored, Source: "gemini-hooks"},
	{Field: "systemMessage", Agents: geminiOnly, Effect: AnswerLost, Source: "gemini-hooks",
		Note: "it shows a message to the user, which no answer here does"},
	{Field: "suppressOutput", Agents: geminiOnly, Effect: AnswerIgnored, Source: "gemini-hooks"},
	{Field: AnswerExit2, Agents: geminiOnly, Events: []string{"BeforeTool"}, Effect: AnswerDeny, Source: "gemini-runner",
		Note: "every status but 0 and 1 blocks, the text (stdout, else stderr) being the reason"},
	{Field: AnswerExit2, Agents: geminiOnly, Events: []string{"AfterAgent"}, Effect: AnswerContinue, Source: "gemini-hooks"},
	{Field: AnswerExit2, Agents: geminiOnly, Effect: AnswerLost, Source: "gemini-hooks",
		Note: "it blocks what the event is about, which this event here cannot"},
	{Field: AnswerPlainText, Agents: geminiOnly, Effect: AnswerLost, Source: "gemini-runner",
		Note: "Gemini CLI shows the text to the user as a system message"},
	// Cursor.
	{Field: "permission", Value: "allow", Agents: cursorOnly, Events: cursorGates, Effect: AnswerAllow, Source: "cursor-hooks"},
	{Field: "permission", Value: "deny", Agents: cursorOnly, Events: cursorGates, Effect: AnswerDeny, Source: "cursor-hooks"},
	{Field: "permission", Value: "ask", Agents: cursorOnly, Events: cursorAsks, Effect: AnswerAsk, Source: "cursor-hooks"},
	{Field: "agent_message", Agents: cursorOnly, Events: cursorGates, Effect: AnswerReason, Source: "cursor-hooks"},
	{Field: "user_message", Agents: cursorOnly, Events: cursorGates, Effect: AnswerReason, Source: "cursor-hooks"},
	{Field: "updated_input", Agents: cursorOnly, Events: []string{"preToolUse"}, Effect: AnswerRewrite, Source: "cursor-hooks"},
	{Field: "followup_message", Agents: cursorOnly, Events: []string{"stop", "subagentStop"}, Effect: AnswerContinue, Source: "cursor-hooks"},
	{Field: "additional_context", Agents: cursorOnly, Events: []string{"sessionStart"}, Effect: AnswerContext, Source: "cursor-hooks"},
	{Field: "continue", Value: "false", Agents: cursorOnly, Events: []string{"beforeSubmitPrompt"}, Effect: AnswerLost, Source: "cursor-hooks",
		Note: "it blocks the prompt, and PreInvocation here cannot block"},
	{Field: "user_message", Agents: cursorOnly, Events: []string{"beforeSubmitPrompt"}, Effect: AnswerIgnored, Source: "cursor-hooks"},
	{Field: "env", Agents: cursorOnly, Events: []string{"sessionStart"}, Effect: AnswerLost, Source: "cursor-hooks",
		Note: "it sets variables for the session's later hooks, which nothing here does"},
	{Field: AnswerExit2, Agents: cursorOnly, Events: cursorGates, Effect: AnswerDeny, Source: "cursor-hooks"},
	{Field: AnswerPlainText, Agents: cursorOnly, Effect: AnswerIgnored, Source: "cursor-hooks"},
}

// AnswerRows returns the rows of ForeignAnswers for one agent's event, in
// table order.
func AnswerRows(a Agent, event string) []ForeignAnswer {
	var out []ForeignAnswer
	for _, r := range ForeignAnswers {
		if hasAgent(r.Agents, a) && (r.Events == nil || slices.Contains(r.Events, event)) {
			out = append(out, r)
		}
	}
	return out
}

// AnswerFieldNames returns every name that appears in the answer fields
// of ForeignAnswers ("hookSpecificOutput", "permissionDecision", ...),
// for recognising a handler that answers in another agent's way. Names
// too common to tell anything (decision, reason, message: this format's
// own answers and many a script use them) are left out, and so is
// Gemini CLI's tool_input, a payload field first.
func AnswerFieldNames() []string {
	seen := map[string]bool{"decision": true, "reason": true, "continue": true, "env": true, "permission": true,
		"behavior": true, "message": true, "tool_input": true}
	var out []string
	for _, r := range ForeignAnswers {
		if r.Field == AnswerExit2 || r.Field == AnswerPlainText {
			continue
		}
		for _, part := range strings.Split(r.Field, ".") {
			if !seen[part] {
				seen[part] = true
				out = append(out, part)
			}
		}
	}
	return out
}

// ForeignInput is a field of another agent's hook payload: a handler that
// reads it was written for that agent.
type ForeignInput struct {
	// Name is the field's name.
	Name string
	// Agents are the agents whose payloads have it.
	Agents []Agent
	// Instead says where this format's payload has the same fact, "" when
	// it has none.
	Instead string
	// Source is the key of the document the row comes from.
	Source string
}

// ForeignInputs are the payload fields of the other agents' hooks that
// only those payloads have.
var ForeignInputs = []ForeignInput{
	{Name: "tool_input", Agents: []Agent{Claude, Codex, Gemini, Cursor}, Instead: "toolCall.args", Source: "claude-hooks"},
	{Name: "tool_name", Agents: []Agent{Claude, Codex, Gemini, Cursor}, Instead: "toolCall.name", Source: "claude-hooks"},
	{Name: "tool_response", Agents: []Agent{Claude, Codex, Gemini}, Instead: "the error field (PostToolUse has no tool output)", Source: "claude-hooks"},
	{Name: "tool_use_id", Agents: []Agent{Claude, Codex, Cursor}, Source: "claude-hooks"},
	{Name: "hook_event_name", Agents: []Agent{Claude, Codex, Gemini, Cursor}, Instead: "$HOOKCTL_EVENT", Source: "claude-hooks"},
	{Name: "session_id", Agents: []Agent{Claude, Codex, Gemini}, Instead: "conversationId", Source: "claude-hooks"},
	{Name: "transcript_path", Agents: []Agent{Claude, Codex, Gemini, Cursor}, Instead: "transcriptPath", Source: "claude-hooks"},
	{Name: "stop_hook_active", Agents: []Agent{Claude, Codex, Gemini}, Instead: "executionNum", Source: "claude-hooks"},
	{Name: "last_assistant_message", Agents: []Agent{Claude, Codex}, Source: "claude-hooks"},
	{Name: "file_path", Agents: []Agent{Claude, Codex, Gemini, Cursor}, Instead: "toolCall.args.TargetFile", Source: "claude-hooks"},
	{Name: "llm_request", Agents: []Agent{Gemini}, Source: "gemini-hooks"},
	{Name: "prompt_response", Agents: []Agent{Gemini}, Source: "gemini-hooks"},
	{Name: "conversation_id", Agents: []Agent{Cursor}, Instead: "conversationId", Source: "cursor-hooks"},
	{Name: "generation_id", Agents: []Agent{Cursor}, Source: "cursor-hooks"},
	{Name: "workspace_roots", Agents: []Agent{Cursor}, Instead: "workspacePaths", Source: "cursor-hooks"},
}

// InputFieldNames returns the names of ForeignInputs.
func InputFieldNames() []string {
	out := make([]string, len(ForeignInputs))
	for i, f := range ForeignInputs {
		out[i] = f.Name
	}
	return out
}
