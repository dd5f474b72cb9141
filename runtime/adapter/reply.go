package adapter

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/hookctl/hookctl/schema"
)

// Reply is what the agent reads back: its stdout, stderr and exit status
// together, and hookctl's own notes about the translation.
type Reply struct {
	Stdout []byte
	// Stderr is what the agent reads on stderr: the reason of a block, or
	// why the invocation failed.
	Stderr string
	Exit   int
	// Notes are hookctl's remarks: what had no equivalent, what failed in
	// the dispatch. They go on stderr where the agent keeps stderr out of
	// sight (NotesOnStderr), else to the log.
	Notes []string
}

// NotesOnStderr reports whether hookctl's notes may go on stderr: not
// where stderr is the reason the agent reads (a block with exit 2), nor
// where the agent shows it to the user as a message (Gemini CLI, when
// stdout is empty: its source reads stderr as the answer then, and shows
// it as a system message).
func (r Reply) NotesOnStderr(a schema.Agent) bool {
	if r.Exit == ExitBlock {
		return false
	}
	return a != schema.Gemini || len(r.Stdout) > 0
}

// The exit statuses a reply uses.
const (
	// ExitOK is an answer (or no opinion) the agent reads on stdout.
	ExitOK = 0
	// ExitError is a hook that failed: every agent goes on with a warning
	// (Gemini CLI, Claude Code and Codex read 1 as a non-blocking error;
	// Cursor fails open unless the hook has failClosed).
	ExitError = 1
	// ExitBlock is Claude Code's block: the reason on stderr, stdout not
	// read by the releases before 2.1.214 and not needed by the later ones.
	ExitBlock = 2
)

// Failed is the reply to an invocation hookctl could not read: the exit
// status the agent takes for a failed hook, never for a block, and the
// message on stderr.
func Failed(err error) Reply {
	return Reply{Stderr: "hookctl: " + err.Error() + "\n", Exit: ExitError}
}

// reply collects an answer and the lines for stderr.
type reply struct {
	c     *Call
	out   any
	block string
	notes []string
}

func (r *reply) notef(format string, args ...any) {
	r.notes = append(r.notes, fmt.Sprintf(format, args...))
}

func (r *reply) finish() Reply {
	if r.block != "" {
		// Claude Code shows stderr to the model as the reason of a block:
		// it holds the reason alone.
		return Reply{Stderr: r.block + "\n", Exit: ExitBlock, Notes: r.notes}
	}
	rep := Reply{Notes: r.notes}
	if r.out != nil {
		rep.Stdout = append(encode(r.out), '\n')
	}
	return rep
}

// Reply translates the merged answers to c.Payloads, in their order, into
// the agent's answer; notes are the runtime's lines for stderr. This
// format's "ask", and no answer at all, leave the call to the agent's own
// permission settings: "no opinion", nothing on stdout.
func (c *Call) Reply(answers []json.RawMessage, notes []string) Reply {
	r := &reply{c: c, notes: append(append([]string(nil), c.Notes...), notes...)}
	if c.Event == "" || len(answers) == 0 {
		return r.finish()
	}
	switch c.Event {
	case schema.PreToolUse:
		r.preToolUse(combine(r, answers))
	case schema.SessionStart, schema.PreInvocation:
		var out schema.PreInvocationOutput
		_ = json.Unmarshal(answers[0], &out)
		r.context(r.messages(out.InjectSteps))
	case schema.PostInvocation:
		var out schema.PostInvocationOutput
		_ = json.Unmarshal(answers[0], &out)
		r.postInvocation(out)
	case schema.Stop:
		var out schema.StopOutput
		_ = json.Unmarshal(answers[0], &out)
		if out.Decision == schema.Continue {
			r.continueLoop(out.Reason)
		}
	}
	return r.finish()
}

// preAnswer is a PreToolUse answer reduced to what the agents read.
type preAnswer struct {
	decision  schema.Decision
	reason    string
	overwrite map[string]any
	// dropped says an overwrite was left out on the way (one file of a
	// patch): an allow was given for arguments the agent will not run.
	dropped bool
	// rewrite is the overwrite in the agent's words, as its whole tool
	// input, once preToolUse has found that the agent takes it whole.
	rewrite map[string]any
}

// combine adds up the answers to several calls made from one (the files of
// a patch) as the runtime merges handlers: the strictest decision wins,
// with the reasons of the calls that gave it.
func combine(r *reply, answers []json.RawMessage) preAnswer {
	var best preAnswer
	var reasons []string
	for i, raw := range answers {
		var out schema.PreToolUseOutput
		_ = json.Unmarshal(raw, &out)
		if out.Decision == "" {
			out.Decision = schema.Ask
		}
		if len(out.PermissionOverrides) > 0 {
			r.notef("permissionOverrides has no equivalent in %s, so %s is left out", r.c.Agent.Title(), strings.Join(out.PermissionOverrides, ", "))
		}
		if len(out.Overwrite) > 0 {
			if len(answers) > 1 {
				r.notef("an overwrite of one file of a patch cannot be told back to %s, so it is left out", r.c.Agent.Title())
				best.dropped = true
			} else {
				best.overwrite = out.Overwrite
			}
		}
		switch s := out.Decision.Strictness(); {
		case i == 0 || s > best.decision.Strictness():
			best.decision, reasons = out.Decision, nil
			fallthrough
		case s == best.decision.Strictness():
			reasons = appendLines(reasons, out.Reason)
		}
	}
	best.reason = strings.Join(reasons, "\n")
	return best
}

// appendLines adds the lines of a merged reason that are not there yet:
// one gate that denies two files of a patch gives its reason once.
func appendLines(lines []string, reason string) []string {
	if reason == "" {
		return lines
	}
	for _, l := range strings.Split(reason, "\n") {
		if !slices.Contains(lines, l) {
			lines = append(lines, l)
		}
	}
	return lines
}

// updated tells an overwrite back as the agent's whole tool input. It
// returns nil, with a note, when the overwrite cannot be told back whole:
// the agent would run a call that is not the one the hooks judged.
func (r *reply) updated(ow map[string]any) map[string]any {
	a := r.c.Agent.Title()
	if len(r.c.calls) != 1 || r.c.calls[0].synthetic {
		r.notef("the overwrite cannot be told back to %s's %s, which has no arguments to rewrite, so it is not sent", a, r.c.Foreign)
		return nil
	}
	nc := r.c.calls[0]
	var args []schema.ForeignArg
	if nc.row != nil {
		args = nc.row.Args
	}
	out, lost := back(args, nc.foreignArgs, ow, r.c.Agent, nc.foreignName)
	if len(lost) > 0 {
		r.notes = append(r.notes, lost...)
		return nil
	}
	return out
}

// takesRewrite says why the agent's event cannot take a rewritten input
// with this decision, or "" when it can.
func (r *reply) takesRewrite(d schema.Decision) string {
	c := r.c
	switch {
	case c.Foreign == "PermissionRequest" && c.Agent == schema.Codex:
		return "Codex's PermissionRequest takes no rewritten input"
	case c.Foreign == "PermissionRequest" && d != schema.Allow:
		return "PermissionRequest takes a rewrite only with an allow"
	case c.Agent == schema.Codex && d != schema.Allow:
		return "Codex reads updatedInput only with allow, and no hook allowed the call"
	case c.Agent == schema.Cursor && c.Foreign != "preToolUse":
		return fmt.Sprintf("Cursor's %s takes no rewritten input (only preToolUse does)", c.Foreign)
	}
	return ""
}

// tellOverwrite sets p.rewrite when the agent takes the overwrite whole.
// When it cannot, the overwrite is refused with a note and an allow is
// withdrawn: the hooks allowed the rewritten call, not the one the agent
// would run, so the call is left to the agent's own permission settings
// (no opinion), never approved. No opinion, not a prompt: the hooks did
// not ask for one, and a call the user's settings refuse stays refused.
func (r *reply) tellOverwrite(p *preAnswer) {
	if p.decision == schema.Deny {
		return
	}
	told := !p.dropped
	if len(p.overwrite) > 0 {
		if why := r.takesRewrite(p.decision); why != "" {
			r.notef("the overwrite is not sent: %s", why)
			told = false
		} else if p.rewrite = r.updated(p.overwrite); p.rewrite == nil {
			told = false
		}
	}
	if !told && p.decision == schema.Allow {
		a := r.c.Agent.Title()
		r.notef("the allow is withdrawn, since it was given for the rewritten arguments: the call as %s sent it is left to %s's own permission settings", a, a)
		p.decision = schema.Ask
	}
}

const defaultDeny = "denied by a hook (hookctl run)"

func (r *reply) preToolUse(p preAnswer) {
	c, a := r.c, r.c.Agent.Title()
	if p.decision == schema.Deny && p.reason == "" {
		p.reason = defaultDeny
	}
	if p.decision == schema.DenyUnlessPriorGrant {
		r.notef("deny_unless_prior_grant has no equivalent in %s: the call is left to %s's own permission rules (what they allow runs, the rest is asked or refused as they say)", a, a)
		p.decision = schema.Ask
	}
	r.tellOverwrite(&p)
	switch {
	case c.Foreign == "PermissionRequest":
		r.permissionRequest(p)
	case c.Agent == schema.Claude:
		r.claudePreToolUse(p)
	case c.Agent == schema.Codex:
		r.codexPreToolUse(p)
	case c.Agent == schema.Gemini:
		r.geminiBeforeTool(p)
	case c.Agent == schema.Cursor:
		r.cursorPermission(p)
	}
}

func (r *reply) claudePreToolUse(p preAnswer) {
	hso := map[string]any{"hookEventName": r.c.Foreign}
	switch p.decision {
	case schema.Deny:
		r.block = p.reason
		return
	case schema.Allow:
		hso["permissionDecision"] = "allow"
	case schema.ForceAsk:
		hso["permissionDecision"] = "ask"
	default:
		// No decision: Claude Code replaces the input and runs its own
		// permission rules on the rewritten call, so the user's settings
		// decide it as they would the call itself. An "ask" would prompt
		// on every call, an "allow" approve past those settings.
		if p.rewrite == nil {
			return
		}
	}
	if p.reason != "" {
		hso["permissionDecisionReason"] = p.reason
	}
	if p.rewrite != nil {
		hso["updatedInput"] = p.rewrite
	}
	r.out = map[string]any{"hookSpecificOutput": hso}
}

func (r *reply) codexPreToolUse(p preAnswer) {
	switch p.decision {
	case schema.Deny:
		r.out = map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": "PreToolUse",
			"permissionDecision": "deny", "permissionDecisionReason": p.reason}}
	case schema.Allow:
		if p.rewrite != nil {
			r.out = map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": "PreToolUse",
				"permissionDecision": "allow", "updatedInput": p.rewrite}}
		}
	case schema.ForceAsk:
		r.notef("force_ask has no equivalent in Codex, which supports no ask from a hook: the call is left to Codex's own approvals")
	}
}

func (r *reply) geminiBeforeTool(p preAnswer) {
	out := map[string]any{}
	switch p.decision {
	case schema.Deny:
		r.out = map[string]any{"decision": "deny", "reason": p.reason}
		return
	case schema.Allow:
		out["decision"] = "allow"
	case schema.ForceAsk:
		out["decision"] = "ask"
		if p.reason != "" {
			out["systemMessage"] = p.reason
		}
	}
	if p.rewrite != nil {
		out["hookSpecificOutput"] = map[string]any{"tool_input": p.rewrite}
	}
	if len(out) > 0 {
		r.out = out
	}
}

// cursorPermission answers Cursor's preToolUse, beforeShellExecution,
// beforeMCPExecution and beforeReadFile: each reads "permission", and only
// preToolUse reads updated_input.
func (r *reply) cursorPermission(p preAnswer) {
	out := map[string]any{}
	ev := r.c.Foreign
	switch p.decision {
	case schema.Deny:
		out["permission"] = "deny"
		out["user_message"] = p.reason
		if ev != "beforeReadFile" {
			out["agent_message"] = p.reason
		}
	case schema.Allow:
		out["permission"] = "allow"
	case schema.ForceAsk:
		switch ev {
		case "beforeReadFile":
			r.notef("force_ask has no equivalent in Cursor's beforeReadFile, which reads allow or deny: the read is left to Cursor")
		case "preToolUse":
			out["permission"] = "ask"
			if p.reason != "" {
				out["user_message"] = p.reason
			}
			r.notef("Cursor accepts ask on preToolUse but does not enforce it there today (its hooks page): wire beforeShellExecution for a prompt Cursor shows")
		default:
			out["permission"] = "ask"
			if p.reason != "" {
				out["user_message"] = p.reason
				out["agent_message"] = p.reason
			}
		}
	}
	if p.rewrite != nil {
		out["updated_input"] = p.rewrite
	}
	if len(out) > 0 {
		r.out = out
	}
}

// permissionRequest answers Claude Code's and Codex's PermissionRequest,
// which decide for the user in the permission dialog; ask shows the
// dialog, as no answer does.
func (r *reply) permissionRequest(p preAnswer) {
	decision := map[string]any{}
	switch p.decision {
	case schema.Deny:
		decision["behavior"] = "deny"
		decision["message"] = p.reason
	case schema.Allow:
		decision["behavior"] = "allow"
		if p.rewrite != nil {
			decision["updatedInput"] = p.rewrite
		}
	default:
		return
	}
	r.out = map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": "PermissionRequest", "decision": decision}}
}

// messages returns the text of injected steps; a step that is a tool call
// has no equivalent in any of the agents.
func (r *reply) messages(steps []schema.Step) string {
	var texts []string
	for _, s := range steps {
		switch {
		case s.EphemeralMessage != nil:
			texts = append(texts, *s.EphemeralMessage)
		case s.UserMessage != nil:
			texts = append(texts, *s.UserMessage)
		case s.ToolCall != nil:
			r.notef("an injected tool call (%s) has no equivalent in %s, so it is left out", s.ToolCall.Name, r.c.Agent.Title())
		}
	}
	return strings.Join(texts, "\n")
}

// context gives the model the injected messages, as the agent's event
// reads context.
func (r *reply) context(text string) {
	if text == "" {
		return
	}
	switch r.c.Foreign {
	case "SessionStart", "UserPromptSubmit", "BeforeAgent":
		r.out = map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": r.c.Foreign, "additionalContext": text}}
	case "sessionStart":
		r.out = map[string]any{"additional_context": text}
	default:
		r.notef("%s's %s reads no context, so the injected message is left out: %s", r.c.Agent.Title(), r.c.Foreign, firstLine(text))
	}
}

func (r *reply) postInvocation(out schema.PostInvocationOutput) {
	text := r.messages(out.InjectSteps)
	if out.TerminationBehavior == schema.Terminate && r.c.Foreign == "AfterModel" {
		reason := text
		if reason == "" {
			reason = "a hook asked to stop"
		}
		r.out = map[string]any{"continue": false, "stopReason": reason}
		return
	}
	if out.TerminationBehavior != "" || text != "" {
		r.notef("%s's %s reads no answer, so %s is left out", r.c.Agent.Title(), r.c.Foreign, describePost(out, text))
	}
}

func describePost(out schema.PostInvocationOutput, text string) string {
	var parts []string
	if out.TerminationBehavior != "" {
		parts = append(parts, fmt.Sprintf("terminationBehavior %q", out.TerminationBehavior))
	}
	if text != "" {
		parts = append(parts, fmt.Sprintf("the message %q", firstLine(text)))
	}
	return strings.Join(parts, " and ")
}

// continueLoop keeps the agent going after a Stop continue.
func (r *reply) continueLoop(reason string) {
	if reason == "" {
		reason = "a Stop hook asked to keep going"
	}
	switch r.c.Agent {
	case schema.Claude:
		r.block = reason
	case schema.Codex:
		r.out = map[string]any{"decision": "block", "reason": reason}
	case schema.Gemini:
		r.out = map[string]any{"decision": "deny", "reason": reason}
	case schema.Cursor:
		r.out = map[string]any{"followup_message": reason}
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	if len(line) > 80 {
		line = line[:77] + "..."
	}
	return line
}
