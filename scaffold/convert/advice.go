package convert

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"

	"github.com/hookctl/hookctl/schema"
)

// The advice of the report: what converting a handler changed, what in it
// will not work here and what to do about it, in the words the report
// gives. The walk through the source (convert.go) decides; this file says.

// commandReport lists what converting a command changed, and what in it
// or in its scripts (u) will not work here.
func (c *converter) commandReport(target schema.Event, pos schema.Pos, original string, ch commandChange, u *usage) {
	if strings.ContainsRune(original, 0) {
		c.report.warn(pos, "the command holds a NUL character (\\u0000), which no command can carry: the handler fails on every call; remove it")
	}
	if ch.Unparsed {
		c.report.note(pos, "the command is not shell syntax hookctl can read: only the agent's variables were replaced; check its paths, which now start from %s", c.targetName)
	}
	var vars []string
	for _, v := range ch.Vars {
		vars = appendNew(vars, "$"+v)
	}
	switch {
	case ch.Same:
	case len(vars) > 0 && len(ch.Rebased) > 0:
		c.report.note(pos, "this agent does not set %s, and handlers run in %s here: %s", strings.Join(vars, ", "), c.targetName, strings.Join(ch.Rebased, ", "))
	case len(ch.Rebased) > 0:
		c.report.note(pos, "handlers run in %s here, not in the project root: %s", c.targetName, strings.Join(ch.Rebased, ", "))
	}
	switch {
	case ch.Same:
	case ch.ToRoot && ch.Tool == "cd":
		c.report.note(pos, "the command changes folder with a path from the project root, so it goes to the project root first (cd ..)")
	case ch.ToRoot && ch.Tool != "":
		c.report.note(pos, "%s works from the project root, so the command goes there first (cd ..)", ch.Tool)
	}
	for _, miss := range ch.Missing {
		// Once per script: many handlers often share one.
		if !c.noted["missing:"+miss] {
			c.noted["missing:"+miss] = true
			c.report.warn(pos, "the script %s does not exist: copy it there or fix the path", displayPath(miss, cmp.Or(c.src.Dir, "/")))
		}
	}
	for _, v := range ch.Unset {
		c.report.warn(pos, "$%s is not set by this agent: %s", v, unsetAdvice(v))
	}
	for _, s := range ch.Scripts {
		// What a script runs is reported at the first handler that runs
		// it.
		su := c.scripts[s]
		if c.noted["script:"+s] || su == nil || ch.ToRoot || c.opts.Root == "" || c.src.Shape == Named {
			continue
		}
		c.noted["script:"+s] = true
		if len(su.tools) > 0 {
			c.report.note(pos, "%s runs %s, which looks for the project from the folder it starts in: handlers start in %s here, so have the script go to the workspace root first (cd ..)", displayPath(s, c.places.project), strings.Join(su.tools, ", "), c.targetName)
		}
		if len(su.paths) > 0 {
			c.report.note(pos, "%s names %s from the project root, but handlers start in %s here: have the script go to the workspace root first (cd ..), or write the paths from %s", displayPath(s, c.places.project), strings.Join(su.paths, ", "), c.targetName, c.targetName)
		}
	}
	if u.empty() {
		return
	}
	// A script shared by several handlers is reported at the first.
	where := strings.Join(u.where, ", ")
	if c.noted["usage:"+where] && where != "the command" {
		return
	}
	c.noted["usage:"+where] = true
	agent := c.src.Agent.Title()
	if len(u.inputs) > 0 {
		c.report.warn(pos, "%s %s %s's payload (%s): here the handler reads %s (hookctl schema input %s); rewrite it, or import without --no-adapt", where, reads(u.where), agent, strings.Join(u.inputs, ", "), inputShape(target), target)
	}
	if len(u.outputs) > 0 {
		c.report.warn(pos, "%s %s in %s's way (%s): %s (hookctl schema output %s); rewrite it, or import without --no-adapt", where, answers(u.where), agent, strings.Join(u.outputs, ", "), outputShape(target), target)
	}
	if len(u.env) > 0 {
		c.report.warn(pos, "%s %s %s, which this agent does not set: use the workspace root (the parent of %s) or the payload's fields", where, reads(u.where), strings.Join(prefixed(u.sortedEnv()), ", "), c.targetName)
	}
	if u.exit2 && target != schema.PreToolUse && target != schema.Stop {
		c.report.warn(pos, "%s %s with status 2, which %s takes as a block but %s takes as a failure: %s", where, exits(u.where), agent, target, exit2Advice(target))
	}
}

// commandUsage is what a command and the scripts it runs use of the other
// agent's conventions; each script is read once.
func (c *converter) commandUsage(original string, ch commandChange) *usage {
	u := &usage{}
	u.scanText([]byte(original), "the command", false)
	for _, s := range ch.Scripts {
		su, ok := c.scripts[s]
		if !ok {
			su = &usage{}
			su.scanFile(s, displayPath(s, c.places.project))
			c.scripts[s] = su
		}
		u.merge(su)
	}
	return u
}

func reads(where []string) string {
	if len(where) == 1 {
		return "reads"
	}
	return "read"
}

func answers(where []string) string {
	if len(where) == 1 {
		return "answers"
	}
	return "answer"
}

func exits(where []string) string {
	if len(where) == 1 {
		return "exits"
	}
	return "exit"
}

func prefixed(vars []string) []string {
	out := make([]string, len(vars))
	for i, v := range vars {
		out[i] = "$" + v
	}
	return out
}

// The payloads and answers of this format, as the advice describes them,
// spelt as schema's types spell their fields.

// fields quotes the JSON names of the fields of the struct v, for a
// payload or an answer described as {"a", "b", ...}.
func fields(v any, goFields ...string) string {
	q := make([]string, len(goFields))
	for i, f := range goFields {
		q[i] = strconv.Quote(schema.FieldName(v, f))
	}
	return strings.Join(q, ", ")
}

// inputShape describes the payload an event's handler reads here.
func inputShape(e schema.Event) string {
	switch e {
	case schema.PreToolUse, schema.PostToolUse:
		call := schema.FieldName(schema.PreToolUseInput{}, "ToolCall")
		args := call + "." + schema.FieldName(schema.ToolCall{}, "Args")
		return fmt.Sprintf(`{%q: {%s}} on stdin, the file in %s.%s and the command in %s.%s`, call, fields(schema.ToolCall{}, "Name", "Args"),
			args, schema.FieldName(schema.WriteToFileArgs{}, "TargetFile"), args, schema.FieldName(schema.RunCommandArgs{}, "CommandLine"))
	case schema.Stop:
		return "{" + fields(schema.StopInput{}, "ExecutionNum", "TerminationReason", "FullyIdle") + ", ...} on stdin"
	case schema.SessionStart:
		return "{" + fields(schema.Common{}, "ConversationID", "WorkspacePaths", "ModelName") + ", ...} on stdin"
	}
	return "{" + fields(schema.InvocationInput{}, "InvocationNum", "InitialNumSteps") + ", ...} on stdin"
}

// injectSteps is an answer that gives the model a message:
// {"injectSteps": [{"ephemeralMessage": ...}]}.
func injectSteps() string {
	return fmt.Sprintf(`{%q: [{%q: ...}]}`, schema.FieldName(schema.PreInvocationOutput{}, "InjectSteps"), schema.FieldName(schema.Step{}, "EphemeralMessage"))
}

// outputShape describes the answer an event's handler gives here.
func outputShape(e schema.Event) string {
	switch e {
	case schema.PreToolUse:
		return fmt.Sprintf(`a PreToolUse handler prints {%q: %q|%q|%q, %q: ...} or exits 2 with the reason on stderr`,
			schema.FieldName(schema.PreToolUseOutput{}, "Decision"), schema.Allow, schema.Ask, schema.Deny, schema.FieldName(schema.PreToolUseOutput{}, "Reason"))
	case schema.PostToolUse:
		return "a PostToolUse handler prints {} or nothing"
	case schema.Stop:
		return fmt.Sprintf(`a Stop handler prints {%q: %q, %q: ...} to keep the agent going, or exits 2 with the reason on stderr`,
			schema.FieldName(schema.StopOutput{}, "Decision"), schema.Continue, schema.FieldName(schema.StopOutput{}, "Reason"))
	case schema.PreInvocation, schema.SessionStart:
		return fmt.Sprintf(`a %s handler prints %s`, e, injectSteps())
	}
	return fmt.Sprintf(`a PostInvocation handler prints {%q: [...], %q: ...}`,
		schema.FieldName(schema.PostInvocationOutput{}, "InjectSteps"), schema.FieldName(schema.PostInvocationOutput{}, "TerminationBehavior"))
}

// exit2Advice says what a handler of the event does here in place of
// exiting 2.
func exit2Advice(e schema.Event) string {
	switch e {
	case schema.PreInvocation, schema.SessionStart:
		return "to give the model a message, print " + injectSteps() + " and exit 0"
	case schema.PostInvocation:
		return fmt.Sprintf("to stop the agent, print {%q: %q} and exit 0", schema.FieldName(schema.PostInvocationOutput{}, "TerminationBehavior"), schema.Terminate)
	}
	return "a tool that already ran cannot be blocked; move the check to a PreToolUse hook"
}

func unsetAdvice(v string) string {
	switch v {
	case "CLAUDE_TOOL_INPUT", "CLAUDE_FILE_PATHS", "CLAUDE_TOOL_NAME":
		return "the tool call arrives as JSON on stdin (toolCall.name and toolCall.args); read it from there"
	case "CLAUDE_ENV_FILE":
		return "there is no file of variables for later commands"
	}
	if isOneOf(v, pluginVars) {
		return "the file is not in a plugin's hooks/ folder, so hookctl cannot tell which folder it names: write the path of the plugin's files instead"
	}
	return "read what it held from the payload on stdin, or from $HOOKCTL_WORKSPACE when hookctl runs the hook"
}

func displayPath(path, project string) string {
	if rel, ok := within(project, path); ok {
		return rel
	}
	return path
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

func agentNames(agents []schema.Agent) string {
	names := make([]string, len(agents))
	for i, a := range agents {
		names[i] = a.Title()
	}
	return strings.Join(names, " and ")
}

// nearEvent suggests the agent's own event a mistaken name was meant as.
func nearEvent(key string, names []string, a schema.Agent) string {
	if near := schema.Nearest(key, names); near != "" {
		return fmt.Sprintf(" (%s's own is %s)", a.Title(), near)
	}
	return ""
}

// handlerField says what becomes of a field of a handler other than its
// command and timeout: its name, its own matcher, and what this format has
// no place for.
func (c *converter) handlerField(m schema.Member, inGroup bool) {
	switch m.Key {
	case "type", "command", "timeout", "timeout_ms", "timeoutMs", "args":
	case "matcher":
		if inGroup {
			c.report.note(m.KeySpan.Start, "a handler's own matcher is left out: the group's matcher decides")
		}
	case "name", "id":
	case "description":
		c.report.note(m.KeySpan.Start, "the handler's description is left out: JSON has no comments; the hook's name says what it does")
	case "statusMessage", "status_message":
		c.report.note(m.KeySpan.Start, "statusMessage is left out: this agent shows no message while a hook runs")
	case "async":
		if m.Value.Kind == schema.Bool && m.Value.Bool {
			c.report.warn(m.KeySpan.Start, "async is not carried over: the agent waits for every handler here; to keep it from slowing the agent, start the slow work in the background inside the command (slow-job &) or give it a short timeout")
		}
	case "once":
		c.report.warn(m.KeySpan.Start, "once is not carried over: the hook runs every time its event fires; make the script remember that it ran (a marker file) if it must run once")
	case "if":
		c.report.warn(m.KeySpan.Start, "the %q filter is not carried over: the hook runs for every call its matcher selects; filter in the script", m.Key)
	case "failClosed":
		c.report.note(m.KeySpan.Start, "failClosed is left out: a PreToolUse handler that fails here denies the call by default (hookctl run --on-error)")
	case "loop_limit":
		c.report.note(m.KeySpan.Start, "loop_limit is left out: the agent bounds how often a Stop hook can make it continue (hookctl run --max-continues)")
	default:
		c.report.note(m.KeySpan.Start, "%q has no equivalent and is left out", m.Key)
	}
}

// countEntries says how many handlers n holds, for a message about
// them all.
func countEntries(n *schema.Node) string {
	count := 0
	walkObjects(n, func(o *schema.Node) {
		if o.Get("command") != nil || o.Get("prompt") != nil {
			count++
		}
	})
	return schema.Plural(count, "handler is", "handlers are")
}
