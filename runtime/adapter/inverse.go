package adapter

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/hookctl/hookctl/schema"
)

// Adapted is a handler written for another agent, about to run under this
// format (hookctl adapt): the agent's payload it reads, made from this
// format's, and what is needed to read its answer back. It is the inverse
// of Call, through the same tables.
type Adapted struct {
	Agent schema.Agent
	// Foreign is the agent's event, Event this format's.
	Foreign string
	Event   schema.Event
	// Payload is what the handler reads on stdin.
	Payload []byte
	// Verbatim says that Payload is the agent's own, as hookctl run --from
	// received it.
	Verbatim bool
	// Skip says why the handler does not run at all (the call is not one
	// the agent's event is about), "" when it runs. It then answers
	// nothing: no opinion.
	Skip string
	// Env are variables the agent sets for its hooks and the handler
	// may read (CLAUDE_PROJECT_DIR, ...), as NAME=VALUE.
	Env []string

	// call is this format's tool call, for a tool event; tool the agent's
	// row for it, nil for a name kept as it is.
	call     *schema.ToolCall
	tool     *schema.ForeignTool
	toolName string
}

// nativeInput is what hookctl adapt reads of this format's payload.
type nativeInput struct {
	ToolCall *struct {
		Name string         `json:"name"`
		Args map[string]any `json:"args"`
	} `json:"toolCall"`
	StepIdx           *int     `json:"stepIdx"`
	Error             *string  `json:"error"`
	ExecutionNum      *int     `json:"executionNum"`
	TerminationReason *string  `json:"terminationReason"`
	InvocationNum     *int     `json:"invocationNum"`
	ConversationID    string   `json:"conversationId"`
	WorkspacePaths    []string `json:"workspacePaths"`
	TranscriptPath    string   `json:"transcriptPath"`
	ModelName         string   `json:"modelName"`
}

// AdaptError is a handler hookctl adapt cannot serve: an event that does
// not fit, a payload that is not this format's.
type AdaptError struct{ Msg string }

func (e *AdaptError) Error() string { return e.Msg }

func adaptErrorf(format string, args ...any) error {
	return &AdaptError{Msg: fmt.Sprintf(format, args...)}
}

// Adapt turns a payload of this format into the payload a handler written
// for agent a reads for its event (its own name for it; "" to take it
// from the payload's "from", from HOOKCTL_EVENT, or from the payload's
// shape). When the payload came through hookctl run --from of the same
// agent and event, and no hook rewrote the call since, the handler reads
// the agent's payload byte for byte.
func Adapt(a schema.Agent, event string, native []byte, env Env) (*Adapted, error) {
	trimmed := bytes.TrimSpace(native)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, adaptErrorf("the payload on stdin is not a JSON object of this format (hookctl schema input EVENT shows one)")
	}
	var in nativeInput
	d := json.NewDecoder(bytes.NewReader(trimmed))
	d.UseNumber()
	if err := d.Decode(&in); err != nil {
		return nil, adaptErrorf("the payload on stdin is not valid JSON: %v", jsonError(trimmed, err))
	}
	origin, hasOrigin := ReadOrigin(trimmed)
	shape := shapeOf(&in)
	envEvent := schema.Event(env.getenv("HOOKCTL_EVENT"))
	if !envEvent.Valid() {
		envEvent = ""
	}

	var fe schema.ForeignEvent
	switch {
	case event != "":
		e, ok := schema.LookupAgentEvent(a, event)
		if !ok {
			return nil, &EventError{Agent: a, Name: event, Near: schema.Nearest(event, EventNames(a))}
		}
		fe = e
	case hasOrigin && origin.Agent == a:
		e, ok := schema.LookupAgentEvent(a, origin.Event)
		if !ok {
			return nil, &EventError{Agent: a, Name: origin.Event, Near: schema.Nearest(origin.Event, EventNames(a))}
		}
		fe = e
	default:
		ev := envEvent
		if ev == "" {
			ev = shape
		}
		if ev == "" {
			return nil, adaptErrorf("which %s event the handler serves cannot be told: HOOKCTL_EVENT is not set and the payload fits more than one event; name it with --event (%s)", a.Title(), strings.Join(EventNames(a), ", "))
		}
		x, ok := schema.LookupExportedEvent(a, ev)
		if !ok || x.Foreign == "" {
			return nil, adaptErrorf("%s has no event for %s (%s): name the event the handler was written for with --event", a.Title(), ev, x.Note)
		}
		fe, _ = schema.LookupAgentEvent(a, x.Foreign)
	}
	if fe.Event == "" {
		return nil, adaptErrorf("%s's %s has no equivalent here (%s): no hook of this format runs for it", a.Title(), fe.Name, fe.Note)
	}
	actual := envEvent
	if actual == "" && shape != "" {
		actual = shape
	}
	if actual != "" && actual != fe.Event {
		return nil, adaptErrorf("the handler is for %s's %s, which is %s here, but it runs for %s: fix --event, or the event of the hook", a.Title(), fe.Name, fe.Event, actual)
	}
	if fe.Event.IsTool() && (in.ToolCall == nil || in.ToolCall.Name == "") {
		return nil, adaptErrorf("a %s payload names its tool in toolCall.name, and this one names none", fe.Event)
	}

	ad := &Adapted{Agent: a, Foreign: fe.Name, Event: fe.Event}
	ws := workspaceOf(&in, env)
	ad.Env = agentEnv(a, ws, env)
	if in.ToolCall != nil {
		args := in.ToolCall.Args
		if args == nil {
			args = map[string]any{}
		}
		ad.call = &schema.ToolCall{Name: in.ToolCall.Name, Args: args}
	}
	if fe.Matcher != "" && ad.call != nil {
		if m, err := schema.CompileMatcher(fe.Matcher); err == nil && !m.Match(ad.call.Name) {
			ad.Skip = fmt.Sprintf("%s's %s is about %s, not %s: the handler does not run for this call", a.Title(), fe.Name, fe.Matcher, ad.call.Name)
			return ad, nil
		}
	}
	if ad.call != nil {
		ad.tool, ad.toolName = foreignTool(a, ad.call.Name)
	}

	if hasOrigin && origin.Agent == a && origin.Event == fe.Name && ad.sameCall(origin, env) {
		ad.Payload, ad.Verbatim = origin.Payload, true
		return ad, nil
	}
	var base *object
	if hasOrigin && origin.Agent == a {
		// The same agent's payload for another event, or for a call a
		// hook has rewritten since: its common fields still hold.
		base = objectOf(origin.Payload)
	}
	ad.Payload = ad.build(base, &in, ws, origin, hasOrigin)
	return ad, nil
}

// shapeOf tells this format's event from a payload's fields, "" when they
// fit more than one.
func shapeOf(in *nativeInput) schema.Event {
	switch {
	case in.ToolCall != nil && in.Error != nil && in.ExecutionNum == nil:
		return schema.PostToolUse
	case in.ToolCall != nil:
		return "" // PreToolUse or PostToolUse
	case in.ExecutionNum != nil || in.TerminationReason != nil:
		return schema.Stop
	case in.InvocationNum != nil:
		return "" // PreInvocation or PostInvocation
	}
	return schema.SessionStart
}

// sameCall reports whether the call the payload holds is one that the
// agent's original payload makes: no hook rewrote it on the way.
func (ad *Adapted) sameCall(o Origin, env Env) bool {
	if ad.call == nil {
		return true
	}
	c, err := Translate(o.Agent, o.Event, o.Payload, env)
	if err != nil {
		return false
	}
	for _, nc := range c.calls {
		if nc.tool == ad.call.Name && sameJSONValue(nc.args, ad.call.Args) {
			return true
		}
	}
	return false
}

// sameJSONValue compares two decoded JSON values as JSON: numbers by
// their text.
func sameJSONValue(a, b any) bool {
	return bytes.Equal(encode(a), encode(b)) || reflect.DeepEqual(a, b)
}

// workspaceOf is the project folder: the payload's first workspace, else
// HOOKCTL_WORKSPACE, else the current folder.
func workspaceOf(in *nativeInput, env Env) string {
	if len(in.WorkspacePaths) > 0 && filepath.IsAbs(in.WorkspacePaths[0]) {
		return filepath.Clean(in.WorkspacePaths[0])
	}
	if ws := env.getenv("HOOKCTL_WORKSPACE"); filepath.IsAbs(ws) {
		return filepath.Clean(ws)
	}
	dir, _ := os.Getwd()
	return dir
}

// agentEnv returns the variables the agent sets for its hooks that the
// environment lacks: its project folder.
func agentEnv(a schema.Agent, ws string, env Env) []string {
	vars := map[schema.Agent][]string{
		schema.Claude: {"CLAUDE_PROJECT_DIR"},
		schema.Gemini: {"GEMINI_PROJECT_DIR", "GEMINI_CWD", "CLAUDE_PROJECT_DIR"},
		schema.Cursor: {"CURSOR_PROJECT_DIR"},
	}
	var out []string
	for _, v := range vars[a] {
		if ws != "" && env.getenv(v) == "" {
			out = append(out, v+"="+ws)
		}
	}
	return out
}

// foreignTool returns the agent's name for one of this format's tools, and
// the table's row for it: the agent's first row that becomes the tool.
// Codex names its shell Bash and edits files with apply_patch in its
// hooks. A tool no row gives the agent keeps its name.
func foreignTool(a schema.Agent, native string) (*schema.ForeignTool, string) {
	if a == schema.Codex {
		switch native {
		case "run_command":
			row, _ := schema.LookupForeignCall(schema.Codex, "Bash")
			return &row, "Bash"
		case "write_to_file", "replace_file_content", "multi_replace_file_content":
			row, _ := schema.LookupForeignCall(schema.Codex, "apply_patch")
			return &row, "apply_patch"
		}
	}
	for i := range schema.ForeignTools {
		t := &schema.ForeignTools[i]
		if t.Tool == native && !t.Patch && slices.Contains(t.Agents, a) {
			return t, t.Name
		}
	}
	return nil, native
}

// build writes the agent's payload for the event from this format's, in
// the order of the agent's own fields. base, when not nil, is the same
// agent's original payload, whose fields are kept where the event does
// not set them. Another agent's original (origin) lends the facts this
// format's payload has no place for: the prompt, the last message.
func (ad *Adapted) build(base *object, in *nativeInput, ws string, origin Origin, hasOrigin bool) []byte {
	o := base
	if o == nil {
		o = &object{}
	}
	keep := func(key string, v any) {
		if !o.has(key) {
			o.set(key, v)
		}
	}
	a, ev := ad.Agent, ad.Foreign
	lent := lentFacts(origin, hasOrigin && origin.Agent != a)
	switch a {
	case schema.Cursor:
		keep("conversation_id", in.ConversationID)
		keep("generation_id", "")
		keep("model", in.ModelName)
		o.set("hook_event_name", ev)
		keep("cursor_version", "")
		keep("workspace_roots", []string{ws})
		keep("user_email", nil)
		keep("transcript_path", nullable(in.TranscriptPath))
	case schema.Gemini:
		keep("session_id", in.ConversationID)
		keep("transcript_path", in.TranscriptPath)
		keep("cwd", ws)
		o.set("hook_event_name", ev)
		keep("timestamp", time.Now().UTC().Format(time.RFC3339))
	case schema.Codex:
		keep("session_id", in.ConversationID)
		keep("turn_id", "")
		keep("transcript_path", nullable(in.TranscriptPath))
		keep("cwd", ws)
		o.set("hook_event_name", ev)
		keep("model", in.ModelName)
		keep("permission_mode", "default")
	default:
		keep("session_id", in.ConversationID)
		keep("transcript_path", in.TranscriptPath)
		keep("cwd", ws)
		keep("permission_mode", "default")
		o.set("hook_event_name", ev)
	}
	switch ad.Event {
	case schema.PreToolUse, schema.PostToolUse:
		ad.toolFields(o, in, ws)
	case schema.PreInvocation:
		o.set("prompt", lent.prompt)
	case schema.Stop:
		n := 1
		if in.ExecutionNum != nil {
			n = *in.ExecutionNum
		}
		switch a {
		case schema.Cursor:
			status := "completed"
			if in.TerminationReason != nil && (*in.TerminationReason == "error" || *in.TerminationReason == "aborted") {
				status = *in.TerminationReason
			}
			o.set("status", status)
			o.set("loop_count", max(n-1, 0))
		case schema.Gemini:
			o.set("prompt", lent.prompt)
			o.set("prompt_response", lent.response)
			o.set("stop_hook_active", n > 1)
		default:
			o.set("stop_hook_active", n > 1)
			o.set("last_assistant_message", lent.response)
		}
	case schema.SessionStart:
		switch a {
		case schema.Cursor:
			keep("session_id", in.ConversationID)
			keep("is_background_agent", false)
			keep("composer_mode", "agent")
		default:
			keep("source", "startup")
			if a != schema.Gemini {
				keep("model", in.ModelName)
			}
		}
	}
	return o.bytes()
}

// nullable is a string, or null when empty, as Cursor and Codex send a
// path they do not have.
func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// lent are the facts another agent's original payload holds that this
// format's payload has no place for.
type lent struct {
	prompt, response string
}

func lentFacts(o Origin, use bool) lent {
	if !use {
		return lent{}
	}
	in, err := readInput(o.Payload)
	if err != nil {
		return lent{}
	}
	return lent{prompt: in.str("prompt"), response: in.str("last_assistant_message", "prompt_response")}
}

// toolFields sets the tool call of a tool event in the agent's words.
func (ad *Adapted) toolFields(o *object, in *nativeInput, ws string) {
	call := ad.call
	input := ad.foreignArgs(ws)
	switch ad.Foreign {
	case "beforeShellExecution", "afterShellExecution":
		o.set("command", stringArg(call.Args, "CommandLine"))
		o.set("cwd", cwdOf(call.Args, ws))
		if ad.Foreign == "afterShellExecution" {
			o.set("output", "")
		}
		return
	case "beforeReadFile":
		path := stringArg(call.Args, "AbsolutePath")
		o.set("file_path", path)
		o.set("content", fileContent(path))
		o.set("attachments", []any{})
		return
	case "afterFileEdit":
		o.set("file_path", stringArg(call.Args, "TargetFile"))
		o.set("edits", editsOf(call.Args))
		return
	case "beforeMCPExecution", "afterMCPExecution":
		o.set("tool_name", ad.toolName)
		o.set("tool_input", string(encode(input)))
		return
	}
	o.set("tool_name", ad.toolName)
	o.set("tool_input", input)
	if ad.Agent == schema.Cursor {
		o.set("cwd", ws)
	}
	if ad.Event == schema.PostToolUse {
		resp := map[string]any{}
		if in.Error != nil && *in.Error != "" {
			resp["error"] = *in.Error
			o.set("error", *in.Error)
		}
		if ad.Agent != schema.Cursor {
			o.set("tool_response", resp)
		}
	}
}

// foreignArgs tells this format's arguments in the agent's words, through
// the row: renamed, a list of one unwrapped, and the arguments of this
// format's tool that the agent's does not have left out. An argument
// neither side names (one the agent sent, kept on the way in) keeps its
// name.
func (ad *Adapted) foreignArgs(ws string) map[string]any {
	args := ad.call.Args
	if ad.toolName == "apply_patch" {
		return map[string]any{"command": patchOf(ad.call, ws)}
	}
	if ad.tool == nil {
		return args
	}
	own := map[string]bool{}
	if t, ok := schema.LookupTool(ad.call.Name); ok {
		for _, n := range t.ArgNames() {
			own[n] = true
		}
	}
	out := make(map[string]any, len(args))
	for k, v := range args {
		a, renamed := argTo(ad.tool.Args, k)
		switch {
		case renamed && a.Format != "":
		case renamed:
			list, isList := v.([]any)
			switch {
			case isList && a.List && len(list) == 1:
				v = list[0]
			case isList && len(a.Elems) > 0:
				elems := make([]any, len(list))
				for i, el := range list {
					elems[i] = el
					if obj, ok := el.(map[string]any); ok {
						elems[i], _ = back(a.Elems, map[string]any{}, obj, ad.Agent, ad.toolName)
					}
				}
				v = elems
			}
			out[a.From] = v
		case !own[k]:
			out[k] = v
		}
	}
	return out
}

// patchOf writes a file call of this format as a Codex patch.
func patchOf(call *schema.ToolCall, ws string) string {
	path := stringArg(call.Args, "TargetFile")
	if rel, err := filepath.Rel(ws, path); err == nil && ws != "" && !strings.HasPrefix(rel, "..") {
		path = rel
	}
	var b strings.Builder
	b.WriteString("*** Begin Patch\n")
	lines := func(prefix, text string) {
		if text == "" {
			return
		}
		for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
			b.WriteString(prefix + l + "\n")
		}
	}
	switch call.Name {
	case "write_to_file":
		b.WriteString("*** Add File: " + path + "\n")
		lines("+", stringArg(call.Args, "CodeContent"))
	case "replace_file_content":
		b.WriteString("*** Update File: " + path + "\n@@\n")
		lines("-", stringArg(call.Args, "TargetContent"))
		lines("+", stringArg(call.Args, "ReplacementContent"))
	default:
		b.WriteString("*** Update File: " + path + "\n")
		chunks, _ := call.Args["ReplacementChunks"].([]any)
		for _, ch := range chunks {
			m, _ := ch.(map[string]any)
			b.WriteString("@@\n")
			lines("-", stringArg(m, "TargetContent"))
			lines("+", stringArg(m, "ReplacementContent"))
		}
	}
	b.WriteString("*** End Patch\n")
	return b.String()
}

func stringArg(args map[string]any, key string) string {
	s, _ := args[key].(string)
	return s
}

func cwdOf(args map[string]any, ws string) string {
	if c := stringArg(args, "Cwd"); c != "" {
		return c
	}
	return ws
}

// editsOf writes an edit of this format as Cursor's afterFileEdit edits.
func editsOf(args map[string]any) []any {
	row, _ := schema.LookupForeignCall(schema.Cursor, "StrReplace")
	if chunks, ok := args["ReplacementChunks"].([]any); ok {
		out := make([]any, 0, len(chunks))
		for _, ch := range chunks {
			if m, ok := ch.(map[string]any); ok {
				e, _ := back(row.Args, map[string]any{}, m, schema.Cursor, "StrReplace")
				out = append(out, e)
			}
		}
		return out
	}
	if _, ok := args["CodeContent"]; ok {
		return []any{map[string]any{"old_string": "", "new_string": args["CodeContent"]}}
	}
	return []any{map[string]any{"old_string": args["TargetContent"], "new_string": args["ReplacementContent"]}}
}

// maxContent bounds the file Cursor's beforeReadFile payload carries.
const maxContent = 4 << 20

// fileContent reads the file a beforeReadFile handler judges, as Cursor
// sends it: "" when it is not a regular file or cannot be read.
func fileContent(path string) string {
	if path == "" {
		return ""
	}
	f, _, err := schema.OpenRegular(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	b, _ := io.ReadAll(io.LimitReader(f, maxContent))
	return string(b)
}
