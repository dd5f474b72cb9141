package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/hookctl/hookctl/schema"
)

// Payload is an event's input as the agent sends it: the exact bytes, which
// every handler receives unchanged, and the few fields dispatch reads.
type Payload struct {
	// Raw is the payload as received.
	Raw []byte
	// Tool is toolCall.name, for tool events.
	Tool string
	// WorkspacePaths are the workspaces the payload names.
	WorkspacePaths []string
	// ExecutionNum is the Stop payload's executionNum, 0 when absent.
	ExecutionNum int
}

// ParsePayload reads the payload of an event. It must be one JSON object,
// and for PreToolUse and PostToolUse it must name the tool in toolCall.name.
// Fields the dispatch does not read are left to the handlers, whatever they
// hold.
func ParsePayload(e schema.Event, raw []byte) (*Payload, error) {
	start := bytes.TrimLeft(raw, " \t\r\n")
	if len(start) == 0 {
		return nil, emptyPayload(e)
	}
	if start[0] != '{' {
		return nil, fmt.Errorf("the payload must be a JSON object, not %s", describeJSON(start))
	}
	// The project's own parser reads a payload of megabytes (a file's
	// content in write_to_file) several times faster than encoding/json;
	// what it refuses goes to encoding/json, which decides.
	root, _, serr := schema.ParseJSON(raw)
	if serr != nil {
		return parsePayloadLeniently(e, raw)
	}
	p := &Payload{Raw: raw}
	// A payload that gets these fields wrong still dispatches: the
	// workspace then comes from the flags or the current folder.
	if ws := root.Get("workspacePaths"); ws != nil && ws.Value.Kind == schema.Array {
		for _, el := range ws.Value.Elems {
			if el.Kind != schema.String {
				p.WorkspacePaths = nil
				break
			}
			p.WorkspacePaths = append(p.WorkspacePaths, el.Str)
		}
	}
	if n := root.Get("executionNum"); n != nil && n.Value.Kind == schema.Number {
		if f, err := strconv.ParseFloat(n.Value.Str, 64); err == nil && f > 0 {
			p.ExecutionNum = int(min(f, 1<<31))
		}
	}
	if e.IsTool() {
		var name *schema.Member
		if call := root.Get("toolCall"); call != nil {
			name = call.Value.Get("name")
		}
		if name == nil || name.Value.Kind != schema.String || name.Value.Str == "" {
			return nil, fmt.Errorf("a %s payload must name the tool in toolCall.name, as {\"toolCall\": {\"name\": \"run_command\", \"args\": {...}}}; to try a hook by hand, pass --tool NAME --args JSON", e)
		}
		p.Tool = name.Value.Str
	}
	return p, nil
}

// emptyPayload says how to give the event a payload: only a tool event
// takes --tool.
func emptyPayload(e schema.Event) error {
	if e.IsTool() {
		return fmt.Errorf("the payload is empty: pass the %s payload, a JSON object, on stdin, or let hookctl build one with --tool NAME --args JSON", e)
	}
	return fmt.Errorf("the payload is empty: pass the %s payload, a JSON object, on stdin (hookctl schema example %s prints one), or run hookctl run %s from a terminal, which builds one", e, e, e)
}

// parsePayloadLeniently reads a payload with encoding/json, which accepts
// what the project's parser refuses (invalid UTF-8, deeper nesting) and
// words the errors of what neither accepts.
func parsePayloadLeniently(e schema.Event, raw []byte) (*Payload, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(raw, &top); err != nil {
		return nil, fmt.Errorf("the payload is not valid JSON: %s", jsonError(raw, err))
	}
	p := &Payload{Raw: raw}
	if ws, ok := top["workspacePaths"]; ok {
		if json.Unmarshal(ws, &p.WorkspacePaths) != nil {
			p.WorkspacePaths = nil
		}
	}
	if n, ok := top["executionNum"]; ok {
		if f, err := strconv.ParseFloat(string(n), 64); err == nil && f > 0 {
			p.ExecutionNum = int(min(f, 1<<31))
		}
	}
	if e.IsTool() {
		// Exact keys, unlike decoding into a struct, which ignores case.
		var call map[string]json.RawMessage
		var name string
		if json.Unmarshal(top["toolCall"], &call) != nil || json.Unmarshal(call["name"], &name) != nil || name == "" {
			return nil, fmt.Errorf("a %s payload must name the tool in toolCall.name, as {\"toolCall\": {\"name\": \"run_command\", \"args\": {...}}}; to try a hook by hand, pass --tool NAME --args JSON", e)
		}
		p.Tool = name
	}
	return p, nil
}

// describeJSON names what src holds, for a payload that is not an object.
// The kind comes from the loader's own parser, not from the first byte, so
// that "nope" is not taken for null nor "fine" for a boolean.
func describeJSON(src []byte) string {
	root, _, err := schema.ParseJSON(src)
	if err != nil {
		return fmt.Sprintf("text starting with %q, which is not JSON", firstLine(src, 20))
	}
	switch root.Kind {
	case schema.Array:
		return "an array"
	case schema.String:
		return "a string"
	case schema.Bool:
		return "a boolean"
	case schema.Null:
		return "null"
	case schema.Number:
		return "a number"
	}
	return root.Describe()
}

// jsonError says where src stops being valid JSON, as LINE:COL.
func jsonError(src []byte, err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := lineCol(src, int(se.Offset)-1) // Offset counts the byte at fault
		return fmt.Sprintf("stdin:%d:%d: %v", line, col, err)
	}
	return err.Error()
}

// lineCol turns a byte offset into a 1-based line and a column counting
// characters.
func lineCol(src []byte, off int) (line, col int) {
	off = min(max(off, 0), len(src))
	line, col = 1, 1
	for _, r := range string(src[:off]) {
		if r == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}

// firstLine returns the start of src up to its first line break, at most n
// bytes.
func firstLine(src []byte, n int) string {
	if i := bytes.IndexByte(src, '\n'); i >= 0 {
		src = src[:i]
	}
	if len(src) > n {
		src = src[:n]
	}
	return string(src)
}

// keyValue is one member of a JSON object, its value kept as written.
type keyValue struct {
	Key   string
	Value json.RawMessage
}

// setKey replaces the value of key in kvs, or appends it, keeping the
// order in which keys first appeared. It reports whether it replaced one.
func setKey(kvs []keyValue, key string, v json.RawMessage) ([]keyValue, bool) {
	for i := range kvs {
		if kvs[i].Key == key {
			kvs[i].Value = v
			return kvs, true
		}
	}
	return append(kvs, keyValue{key, v}), false
}

// withOverwrite returns the payload with overwrite shallow-merged into
// toolCall.args, as the agent applies a PreToolUse answer's overwrite to the
// call. Every byte outside toolCall.args stays as received.
func withOverwrite(raw []byte, overwrite []keyValue) ([]byte, error) {
	if len(overwrite) == 0 {
		return raw, nil
	}
	root, _, serr := schema.ParseJSON(raw)
	if serr != nil {
		return nil, serr
	}
	call := root.Get("toolCall")
	if call == nil || call.Value.Kind != schema.Object {
		return nil, errors.New("the payload has no toolCall object")
	}
	var b bytes.Buffer
	b.WriteByte('{')
	n := 0
	member := func(k string, v []byte) {
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		b.Write(quote(k))
		b.WriteByte(':')
		b.Write(v)
	}
	args := call.Value.Get("args")
	done := map[string]bool{}
	if args != nil && args.Value.Kind == schema.Object {
		for i := range args.Value.Members {
			m := &args.Value.Members[i]
			if args.Value.Get(m.Key) != m {
				continue // a later occurrence counts
			}
			v := raw[m.Value.Span.Start.Offset:m.Value.Span.End.Offset]
			for _, kv := range overwrite {
				if kv.Key == m.Key {
					v = kv.Value
				}
			}
			done[m.Key] = true
			member(m.Key, v)
		}
	}
	for _, kv := range overwrite {
		if !done[kv.Key] {
			member(kv.Key, kv.Value)
		}
	}
	b.WriteByte('}')

	var out []byte
	if args != nil {
		out = append(out, raw[:args.Value.Span.Start.Offset]...)
		out = append(out, b.Bytes()...)
		return append(out, raw[args.Value.Span.End.Offset:]...), nil
	}
	at := call.Value.Span.Start.Offset + 1 // just after the toolCall's "{"
	out = append(out, raw[:at]...)
	out = append(out, `"args":`...)
	out = append(out, b.Bytes()...)
	if len(call.Value.Members) > 0 {
		out = append(out, ',')
	}
	return append(out, raw[at:]...), nil
}

// quote encodes s as a JSON string, leaving <, > and & as they are.
func quote(s string) []byte { return schema.AppendJSONString(nil, s) }
