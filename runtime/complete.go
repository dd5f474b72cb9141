package runtime

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"

	"github.com/hookctl/hookctl/schema"
)

// DefaultModel is the modelName of a payload built by hand.
const DefaultModel = "gemini-3.6-flash-medium"

// NewPayload builds an event's complete payload as the agent sends it for
// a new conversation in workspace: for PreToolUse and PostToolUse, a call
// to tool with args (a JSON object, "" meaning {}), then the common fields
// and the event's own (see CompletePayload). The other events take no tool.
// hookctl run --tool and hookctl test --contract build their payloads here.
func NewPayload(e schema.Event, tool, args, workspace, home string) ([]byte, error) {
	var partial []byte
	switch {
	case e.IsTool():
		p, err := ToolPayload(tool, args)
		if err != nil {
			return nil, err
		}
		partial = p
	case tool != "":
		return nil, fmt.Errorf("a %s payload names no tool", e)
	}
	return CompletePayload(e, partial, workspace, home)
}

// ExampleCommand is the command line of an example payload's tool call,
// the format's own documented example.
const ExampleCommand = "npm test"

// ExamplePayload is a realistic payload of the event, as hookctl schema
// example prints it: the agent's at the start of a conversation in
// workspace, and for PreToolUse and PostToolUse a run_command call of
// ExampleCommand in cwd.
func ExamplePayload(e schema.Event, cwd, workspace, home string) ([]byte, error) {
	var partial []byte
	if e.IsTool() {
		args, _ := json.Marshal(map[string]any{"CommandLine": ExampleCommand, "Cwd": cwd, "WaitMsBeforeAsync": 5000})
		var err error
		if partial, err = ToolPayload("run_command", string(args)); err != nil {
			return nil, err
		}
	}
	return CompletePayload(e, partial, workspace, home)
}

// ToolPayload returns the partial payload of a call to tool with args, a
// JSON object ("" means {}), to be completed by CompletePayload.
func ToolPayload(tool string, args string) ([]byte, error) {
	if tool == "" {
		return nil, errors.New("the tool name is empty")
	}
	if args == "" {
		args = "{}"
	}
	root, _, serr := schema.ParseJSON([]byte(args))
	if serr != nil {
		return nil, fmt.Errorf("the tool's arguments are not valid JSON: %d:%d: %s", serr.Pos.Line, serr.Pos.Col, serr.Msg)
	}
	if root.Kind != schema.Object {
		return nil, fmt.Errorf(`the tool's arguments must be a JSON object, such as {"CommandLine": "ls"}, not %s`, root.Describe())
	}
	var b bytes.Buffer
	b.WriteString(`{"toolCall":{"name":`)
	b.Write(quote(tool))
	b.WriteString(`,"args":`)
	b.Write(compact([]byte(args)))
	b.WriteString("}}")
	return b.Bytes(), nil
}

// CompletePayload fills in the fields a partial payload of the event leaves
// out, as the agent would send them for a new conversation: a fresh
// conversationId, workspacePaths naming workspace, the transcript and
// artifact paths under home's ~/.gemini/antigravity/brain/<id>, modelName,
// stepIdx 0, invocationNum 0, executionNum 1, terminationReason
// "model_stop" and fullyIdle true. Fields present keep their bytes; the
// missing ones are appended in documented order.
func CompletePayload(e schema.Event, partial []byte, workspace, home string) ([]byte, error) {
	if len(bytes.TrimSpace(partial)) == 0 {
		partial = []byte("{}")
	}
	root, _, serr := schema.ParseJSON(partial)
	if serr != nil {
		return nil, fmt.Errorf("the payload is not valid JSON: %d:%d: %s", serr.Pos.Line, serr.Pos.Col, serr.Msg)
	}
	if root.Kind != schema.Object {
		return nil, fmt.Errorf("the payload must be a JSON object, not %s", root.Describe())
	}
	id := newConversationID()
	if m := root.Get("conversationId"); m != nil && m.Value.Kind == schema.String && m.Value.Str != "" {
		id = m.Value.Str
	}
	brain := filepath.Join(home, ".gemini", "antigravity", "brain", id)
	ws, _ := json.Marshal([]string{workspace})
	var fields []keyValue
	add := func(k string, v []byte) {
		if root.Get(k) == nil {
			fields = append(fields, keyValue{k, v})
		}
	}
	switch e {
	case schema.PreToolUse, schema.PostToolUse:
		add("stepIdx", []byte("0"))
	case schema.PreInvocation, schema.PostInvocation:
		add("invocationNum", []byte("0"))
		add("initialNumSteps", []byte("0"))
	case schema.Stop:
		add("executionNum", []byte("1"))
		add("terminationReason", quote("model_stop"))
		add("fullyIdle", []byte("true"))
	}
	add("conversationId", quote(id))
	add("workspacePaths", ws)
	add("transcriptPath", quote(filepath.Join(brain, ".system_generated", "logs", "transcript.jsonl")))
	add("artifactDirectoryPath", quote(brain))
	add("modelName", quote(DefaultModel))
	if len(fields) == 0 {
		return partial, nil
	}

	at := root.Span.Start.Offset + 1 // just inside the opening brace
	if n := len(root.Members); n > 0 {
		at = root.Members[n-1].Value.Span.End.Offset
	}
	var b bytes.Buffer
	b.Write(partial[:at])
	for i, kv := range fields {
		if i > 0 || len(root.Members) > 0 {
			b.WriteByte(',')
		}
		b.Write(quote(kv.Key))
		b.WriteByte(':')
		b.Write(kv.Value)
	}
	b.Write(partial[at:])
	return b.Bytes(), nil
}

// newConversationID returns a random UUID (RFC 9562, version 4), as the
// agent names a new conversation. It is written here rather than taken
// from a UUID library: the one at hand links the net package, whose
// initialisation every start of hookctl would pay for this one call. The
// random bits are math/rand/v2's, the runtime's ChaCha8 generator seeded
// by the kernel (a cryptographically strong generator, as RFC 9562 asks),
// as tracelog.NewID's are: crypto/rand's first read in a process (0.1 to
// 0.2 ms) would be paid by every run of a payload that names no
// conversation.
func newConversationID() string {
	var b [16]byte
	binary.LittleEndian.PutUint64(b[0:8], rand.Uint64())
	binary.LittleEndian.PutUint64(b[8:16], rand.Uint64())
	b[6] = b[6]&0x0f | 0x40 // version 4
	b[8] = b[8]&0x3f | 0x80 // variant 10
	var s [36]byte
	hex.Encode(s[0:8], b[0:4])
	s[8] = '-'
	hex.Encode(s[9:13], b[4:6])
	s[13] = '-'
	hex.Encode(s[14:18], b[6:8])
	s[18] = '-'
	hex.Encode(s[19:23], b[8:10])
	s[23] = '-'
	hex.Encode(s[24:], b[10:])
	return string(s[:])
}
