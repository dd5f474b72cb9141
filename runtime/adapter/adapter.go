package adapter

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/scope"
)

// Call is another agent's hook invocation in this format's terms.
type Call struct {
	// Agent is the agent that called, Foreign its name for the event.
	Agent   schema.Agent
	Foreign string
	// Event is this format's event, "" when the agent's event has none.
	Event schema.Event
	// Workspace is the agent's project folder, "" when the payload does
	// not say (the caller then uses its own default).
	Workspace string
	// Payloads are this format's payloads to dispatch, in order: usually
	// one; one per file for a patch that touches several; none when
	// nothing here corresponds (then Reply is "no opinion").
	Payloads [][]byte
	// Notes are remarks for stderr about the translation: what has no
	// equivalent and was left out.
	Notes []string

	calls []*nativeCall
	// event is the agent's event as the table knows it.
	event schema.ForeignEvent
	// original is the agent's payload as it came.
	original []byte
}

// nativeCall is one tool call as this format sees it, and what it came
// from, to tell an overwrite back.
type nativeCall struct {
	tool string
	args map[string]any
	// row is the table's row for the agent's tool, nil for a name the
	// table does not know (kept as written).
	row         *schema.ForeignTool
	foreignName string
	foreignArgs map[string]any
	// synthetic marks a call made up from part of the agent's (one file
	// of a patch, a shell command's text): it cannot be rewritten.
	synthetic bool
}

// Env is what the agent gave the hook besides its payload.
type Env struct {
	// Getenv reads the hook's environment; nil means the process's.
	Getenv func(string) string
}

func (e Env) getenv(k string) string {
	if e.Getenv == nil {
		return os.Getenv(k)
	}
	return e.Getenv(k)
}

// EventError is an event name the agent does not have, as far as the table
// knows: a mistake in the agent's settings, reported so that a gate never
// goes silently missing.
type EventError struct {
	Agent schema.Agent
	Name  string
	// Near is the agent's event whose name is nearest, "" when none is.
	Near string
}

func (e *EventError) Error() string {
	msg := fmt.Sprintf("%q is not a %s hook event hookctl knows", e.Name, e.Agent.Title())
	if e.Near != "" {
		msg += fmt.Sprintf(": did you mean %s?", e.Near)
	} else {
		msg += fmt.Sprintf(" (%s)", strings.Join(EventNames(e.Agent), ", "))
	}
	return msg
}

// PayloadError is a payload that cannot be read as the agent's.
type PayloadError struct {
	Agent schema.Agent
	Event string
	Msg   string
}

func (e *PayloadError) Error() string {
	return fmt.Sprintf("the %s %s payload on stdin %s", e.Agent.Title(), e.Event, e.Msg)
}

// EventNames lists the agent's events the table knows, in table order.
func EventNames(a schema.Agent) []string {
	var out []string
	for _, e := range schema.ForeignEvents {
		for _, x := range e.Agents {
			if x == a {
				out = append(out, e.Name)
			}
		}
	}
	return out
}

// Translate reads an invocation of the agent's event with its payload.
func Translate(a schema.Agent, event string, payload []byte, env Env) (*Call, error) {
	fe, ok := schema.LookupAgentEvent(a, event)
	if !ok {
		return nil, &EventError{Agent: a, Name: event, Near: schema.Nearest(event, EventNames(a))}
	}
	in, err := readInput(payload)
	if err != nil {
		return nil, &PayloadError{Agent: a, Event: event, Msg: err.Error()}
	}
	c := &Call{Agent: a, Foreign: event, Event: fe.Event, event: fe, original: payload}
	c.Workspace = c.workspace(in, env)
	if fe.Event == "" {
		c.notef("%s's %s has no equivalent here (%s): no hook runs for it, and %s goes on as it would without hooks", a.Title(), event, fe.Note, a.Title())
		return c, nil
	}
	common := schema.Common{
		ConversationID: in.str("session_id", "conversation_id"),
		TranscriptPath: in.str("transcript_path"),
		ModelName:      in.str("model"),
		WorkspacePaths: []string{},
	}
	if c.Workspace != "" {
		common.WorkspacePaths = []string{c.Workspace}
	}
	switch fe.Event {
	case schema.PreToolUse, schema.PostToolUse:
		if err := c.toolCalls(in, fe); err != nil {
			return nil, &PayloadError{Agent: a, Event: event, Msg: err.Error()}
		}
		errText := ""
		if fe.Event == schema.PostToolUse {
			errText = failure(in)
		}
		for _, nc := range c.calls {
			var v any
			call := schema.ToolCall{Name: nc.tool, Args: nc.args}
			if fe.Event == schema.PreToolUse {
				v = schema.PreToolUseInput{ToolCall: call, Common: common}
			} else {
				v = schema.PostToolUseInput{ToolCall: call, Error: errText, Common: common}
			}
			c.add(v)
		}
	case schema.SessionStart:
		c.add(schema.SessionStartInput{Common: common})
	case schema.PreInvocation, schema.PostInvocation:
		c.add(schema.InvocationInput{Common: common})
	case schema.Stop:
		c.add(stopInput(in, common))
	}
	return c, nil
}

// add appends a payload of this format, with the agent's own under
// "from": a handler that decides on a field this format has no place for
// (the prompt, the assistant's last message, a file's content) finds it
// there, and hookctl adapt hands it on byte for byte.
func (c *Call) add(v any) {
	c.Payloads = append(c.Payloads, withFrom(encode(v), c.Agent, c.Foreign, c.original))
}

// stopInput reads the agent's end of turn: a turn the agent already
// continued because of a hook counts as the second execution, so that the
// loop guard sees it.
func stopInput(in input, common schema.Common) schema.StopInput {
	s := schema.StopInput{ExecutionNum: 1, TerminationReason: "model_stop", FullyIdle: true, Common: common}
	if active, ok := in.boolean("stop_hook_active"); ok && active {
		s.ExecutionNum = 2
	}
	if n, ok := in.number("loop_count"); ok && n >= 0 && n < 1<<30 {
		s.ExecutionNum = int(n) + 1
	}
	switch in.str("status") {
	case "error":
		s.TerminationReason = "error"
	case "aborted":
		s.TerminationReason = "aborted"
	}
	if tasks, ok := in["background_tasks"]; ok && len(bytes.TrimSpace(tasks)) > 2 && !bytes.Equal(bytes.TrimSpace(tasks), []byte("null")) {
		s.FullyIdle = false
	}
	return s
}

// failure reads why a tool call failed, from the failure events.
func failure(in input) string {
	if e := in.str("error", "error_message"); e != "" {
		return e
	}
	var resp map[string]json.RawMessage
	if json.Unmarshal(in["tool_response"], &resp) == nil {
		return input(resp).str("error")
	}
	return ""
}

// workspace finds the agent's project folder: the folder its own variable
// names, else Cursor's first workspace root, else the workspace of the
// payload's cwd as every hookctl command finds its own (scope.Find: the
// nearest folder above that holds .agents, else the git top level), else
// that cwd: a workspace found there that another user owns is not taken.
func (c *Call) workspace(in input, env Env) string {
	vars := map[schema.Agent]string{schema.Claude: "CLAUDE_PROJECT_DIR", schema.Gemini: "GEMINI_PROJECT_DIR", schema.Cursor: "CURSOR_PROJECT_DIR"}
	if v := vars[c.Agent]; v != "" {
		if dir := env.getenv(v); filepath.IsAbs(dir) {
			return filepath.Clean(dir)
		}
	}
	if roots := in.strings("workspace_roots"); len(roots) > 0 && filepath.IsAbs(roots[0]) {
		return filepath.Clean(roots[0])
	}
	cwd := in.str("cwd")
	if !filepath.IsAbs(cwd) {
		return ""
	}
	if f, err := scope.Find(cwd); err == nil {
		return f.Root
	}
	return filepath.Clean(cwd)
}

// toolCalls reads the tool call of a tool event: from tool_name and
// tool_input, or, for Cursor's events about one kind of tool, from the
// fields they carry.
func (c *Call) toolCalls(in input, fe schema.ForeignEvent) error {
	cwd := in.str("cwd")
	switch fe.Name {
	case "beforeShellExecution", "afterShellExecution":
		cmd, ok := in.strOK("command")
		if !ok {
			return fmt.Errorf("has no \"command\" string: Cursor sends the shell command there")
		}
		args := map[string]any{"CommandLine": cmd}
		if cwd != "" {
			args["Cwd"] = cwd
		}
		c.calls = append(c.calls, &nativeCall{tool: "run_command", args: args, foreignName: "Shell", synthetic: true})
		return nil
	case "beforeReadFile":
		path, ok := in.strOK("file_path")
		if !ok {
			return fmt.Errorf("has no \"file_path\" string: Cursor sends the file to read there")
		}
		c.calls = append(c.calls, &nativeCall{tool: "view_file", args: map[string]any{"AbsolutePath": path}, foreignName: "Read", synthetic: true})
		return nil
	case "afterFileEdit":
		path, ok := in.strOK("file_path")
		if !ok {
			return fmt.Errorf("has no \"file_path\" string: Cursor sends the edited file there")
		}
		c.calls = append(c.calls, editCall(path, in["edits"]))
		return nil
	}
	name, ok := in.strOK("tool_name")
	if !ok || name == "" {
		return fmt.Errorf("names no tool: %s sends it in \"tool_name\"", c.Agent.Title())
	}
	args, err := in.object("tool_input")
	if err != nil {
		return err
	}
	row, known := schema.LookupForeignCall(c.Agent, name)
	switch {
	case !known:
		// A name the table does not know (an MCP tool, a tool newer than
		// the table) is kept as written, so that a matcher that selects
		// every tool still sees the call.
		c.calls = append(c.calls, &nativeCall{tool: name, args: args, foreignName: name, foreignArgs: args})
	case row.Tool == "":
		c.notef("%s's tool %s has no equivalent here (%s): no hook runs for it, and %s decides as it would without hooks", c.Agent.Title(), name, row.Note, c.Agent.Title())
	case row.Patch:
		c.patchCalls(name, args, cwd)
	default:
		nc := &nativeCall{tool: row.Tool, row: &row, foreignName: name, foreignArgs: args}
		nc.args = forward(row.Args, args)
		if nc.tool == "run_command" && cwd != "" {
			if _, has := nc.args["Cwd"]; !has {
				nc.args["Cwd"] = cwd
			}
		}
		c.calls = append(c.calls, nc)
	}
	return nil
}

// editCall builds the call for Cursor's afterFileEdit: one edit is a
// replace_file_content, several a multi_replace_file_content.
func editCall(path string, raw json.RawMessage) *nativeCall {
	var edits []map[string]any
	_ = decode(raw, &edits)
	// Cursor's edits hold the old and new strings of its StrReplace.
	row, _ := schema.LookupForeignCall(schema.Cursor, "StrReplace")
	chunks := make([]any, 0, len(edits))
	for _, e := range edits {
		chunks = append(chunks, forward(row.Args, e))
	}
	nc := &nativeCall{foreignName: "Write", synthetic: true}
	if len(chunks) == 1 {
		args := chunks[0].(map[string]any)
		args["TargetFile"] = path
		nc.tool, nc.args = "replace_file_content", args
		return nc
	}
	nc.tool, nc.args = "multi_replace_file_content", map[string]any{"TargetFile": path, "ReplacementChunks": chunks}
	return nc
}

func (c *Call) notef(format string, args ...any) {
	c.Notes = append(c.Notes, fmt.Sprintf(format, args...))
}

// Env returns the variables handlers get besides this format's own, so
// that a script can tell which agent it serves.
func (c *Call) Env() []string {
	return []string{"HOOKCTL_FROM=" + string(c.Agent), "HOOKCTL_FROM_EVENT=" + c.Foreign}
}

// encode marshals a payload with <, > and & kept as they are.
func encode(v any) []byte {
	b, err := schema.Marshal(v)
	if err != nil {
		// The values come from JSON that decoded: they encode.
		panic(err)
	}
	return b
}
