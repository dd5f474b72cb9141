package schema

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// How the agent itself (agy) loads a hooks.json, as third-party probes of
// agy 1.1.x show: it decodes the whole file at once into typed structures
// with Go's encoding/json. That decoder
//   - matches keys to fields ignoring case (with Unicode folding: "stop",
//     "STOP" and "ſtop" are all Stop), the last of several keys that match
//     one field winning;
//   - ignores keys that match no field, without a word, and never looks at
//     their values;
//   - takes null for any field as "left out": a null leaves a string, a
//     number or a boolean field as it was (an earlier key of the same
//     field may have set it), and empties a list or a pointer field;
//   - reads a byte of invalid UTF-8 in a string as U+FFFD (AgentReplaced);
//   - refuses a value nested deeper than 10000 arrays and objects
//     ("exceeded max depth"): MaxDepth;
//   - fails on a value of the wrong JSON type anywhere (a string timeout,
//     "enabled": "false", a number that is not a whole int64): then the
//     agent loads none of the file's hooks, and says so only in its log.
// AgentErrors finds every such value, in the order encoding/json meets
// them, so that the first is the one the agent's log names. A test holds
// it to encoding/json itself, decoding into types shaped as the agent's.

// AgentError is a value the agent's decoder cannot put into its field; one
// is enough for the agent to drop the whole file.
type AgentError struct {
	// Span is the value at fault.
	Span Span
	// Field is the path of struct fields as encoding/json names it in its
	// error, without the hook's name: "PreToolUse.hooks.timeout", "" for a
	// hook definition itself.
	Field string
	// Value is what the value is, as encoding/json says it: "string",
	// "number 1e1", "object".
	Value string
	// Type is the Go type the agent decodes the field into: "int",
	// "bool", "[]handler", "hook definition".
	Type string
	// Key is the key whose value it is, when it is an object's member.
	Key Span
}

// Offset is where encoding/json's error puts the value: just after it for
// a string, number, boolean or null, just after its opening bracket for an
// array or an object (it stops reading there).
func (e AgentError) Offset() int {
	if e.Value == "array" || e.Value == "object" {
		return e.Span.Start.Offset + 1
	}
	return e.Span.End.Offset
}

// Message says what the agent's decoder meets, in a user's words: "the
// agent's decoder cannot read a string as "timeout", which must be a whole
// number".
func (e AgentError) Message() string {
	var what string
	switch v := e.Value; {
	case strings.HasPrefix(v, "number "):
		what = "the number " + strings.TrimPrefix(v, "number ")
	case v == "bool":
		what = "true or false"
	case v == "array", v == "object":
		what = "an " + v
	default:
		what = "a " + v
	}
	where, want := "a hook definition", "an object of events"
	if e.Field != "" {
		where = strconv.Quote(e.Field[strings.LastIndexByte(e.Field, '.')+1:])
		want = map[string]string{
			"int": "a whole number", "bool": "true or false", "string": "a string",
			"[]handler": "an array of handlers", "[]group": "an array of matcher groups",
			"handler": "a handler object", "group": "a matcher group object",
		}[e.Type]
		if e.Type == "handler" || e.Type == "group" {
			where = "an entry of " + where
		}
	}
	if e.Type == "map of hook definitions" {
		where, want = "the file", "an object of hooks"
	}
	return fmt.Sprintf("the agent's decoder cannot read %s as %s, which must be %s", what, where, want)
}

// The agent's fields, by kind of object.
var (
	agentHookFields    = []string{"enabled", string(SessionStart), string(PreToolUse), string(PostToolUse), string(PreInvocation), string(PostInvocation), string(Stop)}
	agentGroupFields   = []string{"matcher", "hooks"}
	agentHandlerFields = []string{"type", "command", "timeout"}
)

// AgentScalar reports whether the agent decodes the field into a string or
// a number, where a null changes nothing, rather than into a list or a
// pointer, which a null empties. The agent's "enabled" is taken as a
// pointer (it defaults to true): what a null after an earlier "enabled"
// does is not known.
func AgentScalar(field string) bool {
	switch field {
	case "type", "command", "timeout", "matcher":
		return true
	}
	return false
}

// AgentReplaced returns where src, a document that parses, holds a byte of
// invalid UTF-8: the agent's decoder (encoding/json) reads each as U+FFFD,
// so the text it runs differs from what the file shows. Each span covers
// one byte. Strings never span lines, so the position is counted on the
// byte's own line.
func AgentReplaced(src []byte) []Span {
	if utf8.Valid(src) {
		return nil
	}
	var out []Span
	line, lineStart := 1, 0
	for off := 0; off < len(src); {
		c := src[off]
		switch {
		case c == '\n' || c == '\r':
			off++
			if c == '\r' && off < len(src) && src[off] == '\n' {
				off++
			}
			line, lineStart = line+1, off
			continue
		case c < utf8.RuneSelf:
			off++
			continue
		}
		r, size := utf8.DecodeRune(src[off:])
		if r == utf8.RuneError && size == 1 {
			col := utf8.RuneCount(src[lineStart:off]) + 1
			out = append(out, Span{Start: Pos{Offset: off, Line: line, Col: col}, End: Pos{Offset: off + 1, Line: line, Col: col + 1}})
		}
		off += size
	}
	return out
}

// AgentOptions say which agent is emulated.
type AgentOptions struct {
	// NoSessionStart emulates an agent older than SessionStartSince, which
	// has no SessionStart field: the key is ignored.
	NoSessionStart bool
}

// AgentErrors returns the values of a parsed hooks.json that the agent's
// decoder cannot read, in document order. Empty means the agent loads the
// file.
func AgentErrors(root *Node, opts AgentOptions) []AgentError {
	a := &agentWalk{opts: opts}
	if root.Kind != Object && root.Kind != Null {
		a.fail(root, "", "map of hook definitions")
		return a.errs
	}
	for i := range root.Members {
		v := root.Members[i].Value
		switch v.Kind {
		case Null:
		case Object:
			a.hook(v)
		default:
			a.key = root.Members[i].KeySpan
			a.fail(v, "", "hook definition")
		}
	}
	return a.errs
}

// AgentField returns the agent's field a key of an object of the kind
// given ("hook", "group" or "handler") goes into, as encoding/json matches
// it: the exact name, else one equal ignoring case; "" when the agent
// ignores the key.
func AgentField(context, key string, opts AgentOptions) string {
	fields := agentFields(context)
	for _, f := range fields {
		if f == key {
			return f
		}
	}
	for _, f := range fields {
		if strings.EqualFold(f, key) {
			if f == string(SessionStart) && opts.NoSessionStart {
				return ""
			}
			return f
		}
	}
	return ""
}

// agentFields are the agent's fields of an object of the kind given.
func agentFields(context string) []string {
	switch context {
	case "hook":
		return agentHookFields
	case "group":
		return agentGroupFields
	}
	return agentHandlerFields
}

type agentWalk struct {
	opts AgentOptions
	errs []AgentError
	// key is the key of the member whose value is being read, while one is.
	key Span
}

func (a *agentWalk) fail(n *Node, field, typ string) {
	v := n.Kind.String()
	switch n.Kind {
	case Number:
		v = "number " + n.Str
	case Bool:
		v = "bool"
	}
	a.errs = append(a.errs, AgentError{Span: n.Span, Field: field, Value: v, Type: typ, Key: a.key})
}

func (a *agentWalk) hook(n *Node) {
	for i := range n.Members {
		m := &n.Members[i]
		a.key = m.KeySpan
		f := AgentField("hook", m.Key, a.opts)
		if f == string(SessionStart) && a.opts.NoSessionStart {
			f = ""
		}
		switch {
		case f == "":
		case f == "enabled":
			a.scalar(m.Value, f, Bool, "bool")
		case Event(f).IsTool():
			a.array(m.Value, f, "[]group", func(e *Node) { a.object(e, f, "group", a.group) })
		default:
			a.array(m.Value, f, "[]handler", func(e *Node) { a.object(e, f, "handler", a.handler) })
		}
	}
}

func (a *agentWalk) group(n *Node, path string) {
	for i := range n.Members {
		m := &n.Members[i]
		a.key = m.KeySpan
		switch AgentField("group", m.Key, a.opts) {
		case "matcher":
			a.scalar(m.Value, path+".matcher", String, "string")
		case "hooks":
			p := path + ".hooks"
			a.array(m.Value, p, "[]handler", func(e *Node) { a.object(e, p, "handler", a.handler) })
		}
	}
}

func (a *agentWalk) handler(n *Node, path string) {
	for i := range n.Members {
		m := &n.Members[i]
		a.key = m.KeySpan
		switch f := AgentField("handler", m.Key, a.opts); f {
		case "type", "command":
			a.scalar(m.Value, path+"."+f, String, "string")
		case "timeout":
			v := m.Value
			switch {
			case v.Kind == Null:
			case v.Kind != Number:
				a.fail(v, path+".timeout", "int")
			default:
				if _, err := strconv.ParseInt(v.Str, 10, 64); err != nil {
					a.fail(v, path+".timeout", "int")
				}
			}
		}
	}
}

func (a *agentWalk) scalar(n *Node, path string, want Kind, typ string) {
	if n.Kind != Null && n.Kind != want {
		a.fail(n, path, typ)
	}
}

func (a *agentWalk) array(n *Node, path, typ string, elem func(*Node)) {
	switch n.Kind {
	case Null:
	case Array:
		for _, e := range n.Elems {
			a.key = Span{} // an element is no member's value
			elem(e)
		}
	default:
		a.fail(n, path, typ)
	}
}

func (a *agentWalk) object(n *Node, path, typ string, fields func(*Node, string)) {
	switch n.Kind {
	case Null:
	case Object:
		fields(n, path)
	default:
		a.fail(n, path, typ)
	}
}
