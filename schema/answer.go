package schema

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// AnswerKey is a key of an answer that the event's answer does not have.
type AnswerKey struct {
	// Path is the key with the keys above it, such as "reason" or
	// "injectSteps[0].userMesage".
	Path string
	// Member is the key and its value in the answer.
	Member *Member
	// Known are the keys that the object holding it may have, in the
	// documented order.
	Known []string
}

// UnknownAnswerKeys returns the keys of an answer (a JSON object a handler
// of the event printed) that the event's answer does not have, looking into
// nested objects (injectSteps' steps, a step's toolCall) too. Keys are
// exact: "Decision" is not "decision". The agent aborts the invocation on
// any of them.
func UnknownAnswerKeys(e Event, answer *Node) []AnswerKey {
	var out []AnswerKey
	t := reflect.TypeOf(OutputType(e))
	if t == nil {
		return nil
	}
	unknownKeys(answer, t, "", &out)
	return out
}

func unknownKeys(obj *Node, t reflect.Type, path string, out *[]AnswerKey) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || obj.Kind != Object {
		return
	}
	fields, order := jsonFields(t)
	for i := range obj.Members {
		m := &obj.Members[i]
		ft, ok := fields[m.Key]
		if !ok {
			*out = append(*out, AnswerKey{Path: path + m.Key, Member: m, Known: order})
			continue
		}
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		switch {
		case ft.Kind() == reflect.Struct:
			unknownKeys(m.Value, ft, path+m.Key+".", out)
		case ft.Kind() == reflect.Slice && m.Value.Kind == Array:
			for j, el := range m.Value.Elems {
				unknownKeys(el, ft.Elem(), fmt.Sprintf("%s%s[%d].", path, m.Key, j), out)
			}
		}
	}
}

// jsonFields maps the JSON names of a struct's fields, the fields of
// embedded structs included, to their types, and lists the names in
// order.
func jsonFields(t reflect.Type) (map[string]reflect.Type, []string) {
	out := map[string]reflect.Type{}
	var order []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			m, o := jsonFields(f.Type)
			for k, v := range m {
				out[k] = v
			}
			order = append(order, o...)
			continue
		}
		if !f.IsExported() || name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
		order = append(order, name)
	}
	return out, order
}

// FieldName returns the JSON name of the field goField of the struct v (a
// value or a pointer; fields of embedded structs included), as a payload
// or an answer spells it, for messages that describe them. It panics on a
// field v does not have: a mistake of the caller's code.
func FieldName(v any, goField string) string {
	t := reflect.TypeOf(v)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	f, ok := t.FieldByName(goField)
	if !ok {
		panic(fmt.Sprintf("schema.FieldName: %s has no field %s", t, goField))
	}
	if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != "" && name != "-" {
		return name
	}
	return f.Name
}

// AnswerKeys returns the keys of the event's answer, in the documented
// order: none for PostToolUse, whose answer is {}.
func AnswerKeys(e Event) []string {
	t := reflect.TypeOf(OutputType(e))
	if t == nil {
		return nil
	}
	_, order := jsonFields(t.Elem())
	return order
}

// AnswerValue is a known key of an answer whose value the agent cannot
// take.
type AnswerValue struct {
	// Path is the key, such as "decision" or "injectSteps[1]".
	Path string
	// Value is the value at fault.
	Value *Node
	// Why says what the value must be: "must be a string, not the number
	// 1".
	Why string
	// Nearest is the valid value that a string most likely meant, "" when
	// none is near.
	Nearest string
}

// AnswerValues returns the values of an answer that are not valid for the
// event: a value of the wrong type, a decision or termination behaviour
// that does not exist, a step that is not one of its kinds. Unknown keys
// are UnknownAnswerKeys'; a missing decision is the caller's to judge.
func AnswerValues(e Event, answer *Node) []AnswerValue {
	if answer.Kind != Object {
		return nil
	}
	var out []AnswerValue
	bad := func(path string, v *Node, format string, args ...any) {
		out = append(out, AnswerValue{Path: path, Value: v, Why: fmt.Sprintf(format, args...)})
	}
	keys := AnswerKeys(e)
	for i := range answer.Members {
		m := &answer.Members[i]
		v := m.Value
		known := false
		for _, k := range keys {
			known = known || k == m.Key
		}
		if !known || v.Kind == Null && m.Key != "decision" {
			continue // an optional field given as null is a field left out
		}
		switch m.Key {
		case "decision":
			if v.Kind != String {
				bad(m.Key, v, "must be a string, not %s", v.Describe())
				continue
			}
			if e == PreToolUse && Decision(v.Str).Strictness() == 0 {
				names := make([]string, len(Decisions))
				for i, d := range Decisions {
					names[i] = string(d)
				}
				out = append(out, AnswerValue{Path: m.Key, Value: v, Nearest: Nearest(v.Str, names),
					Why: fmt.Sprintf("must be %s, not %s", orList(names), strconv.Quote(v.Str))})
			}
		case "reason":
			if v.Kind != String {
				bad(m.Key, v, "must be a string, not %s", v.Describe())
			}
		case "permissionOverrides":
			if v.Kind != Array {
				bad(m.Key, v, "must be an array of strings, not %s", v.Describe())
				continue
			}
			for j, el := range v.Elems {
				if el.Kind != String {
					bad(fmt.Sprintf("%s[%d]", m.Key, j), el, "must be a string, not %s", el.Describe())
				}
			}
		case "overwrite":
			if v.Kind != Object {
				bad(m.Key, v, "must be an object of tool arguments, not %s", v.Describe())
			}
		case "terminationBehavior":
			valid := []string{string(ForceContinue), string(Terminate), ""}
			switch {
			case v.Kind != String:
				bad(m.Key, v, "must be a string, not %s", v.Describe())
			case TerminationBehavior(v.Str) != DefaultBehavior && TerminationBehavior(v.Str) != ForceContinue && TerminationBehavior(v.Str) != Terminate:
				out = append(out, AnswerValue{Path: m.Key, Value: v, Nearest: Nearest(v.Str, valid[:2]),
					Why: fmt.Sprintf(`must be "force_continue", "terminate" or "", not %s`, strconv.Quote(v.Str))})
			}
		case "injectSteps":
			out = append(out, stepValues(m.Key, v)...)
		}
	}
	return out
}

// stepValues checks injectSteps: objects holding exactly one of toolCall,
// userMessage and ephemeralMessage.
func stepValues(key string, v *Node) []AnswerValue {
	const kinds = `"toolCall", "userMessage" or "ephemeralMessage"`
	if v.Kind != Array {
		return []AnswerValue{{Path: key, Value: v, Why: "must be an array of steps, such as [{\"ephemeralMessage\": \"...\"}], not " + v.Describe()}}
	}
	var out []AnswerValue
	for i, el := range v.Elems {
		path := fmt.Sprintf("%s[%d]", key, i)
		if el.Kind != Object {
			out = append(out, AnswerValue{Path: path, Value: el, Why: "must be an object holding one of " + kinds + ", not " + el.Describe()})
			continue
		}
		var kind string
		before := len(out)
		unknown := false
		for j := range el.Members {
			m := &el.Members[j]
			switch m.Key {
			case "toolCall", "userMessage", "ephemeralMessage":
			default:
				unknown = true // UnknownAnswerKeys names it
				continue
			}
			if m.Value.Kind == Null {
				continue
			}
			if kind != "" {
				out = append(out, AnswerValue{Path: path, Value: el, Why: fmt.Sprintf("holds both %q and %q: a step is one of %s", kind, m.Key, kinds)})
				break
			}
			kind = m.Key
			switch {
			case m.Key != "toolCall" && m.Value.Kind != String:
				out = append(out, AnswerValue{Path: path + "." + m.Key, Value: m.Value, Why: "must be a string, not " + m.Value.Describe()})
			case m.Key == "toolCall" && m.Value.Kind != Object:
				out = append(out, AnswerValue{Path: path + "." + m.Key, Value: m.Value, Why: `must be an object {"name": ..., "args": {...}}, not ` + m.Value.Describe()})
			case m.Key == "toolCall":
				if n := m.Value.Get("name"); n == nil || n.Value.Kind != String || n.Value.Str == "" {
					out = append(out, AnswerValue{Path: path + ".toolCall", Value: m.Value, Why: `needs a "name" string, the tool to call`})
				}
			}
		}
		if kind == "" && len(out) == before && !unknown {
			out = append(out, AnswerValue{Path: path, Value: el, Why: "holds none of " + kinds})
		}
	}
	return out
}

func orList(names []string) string { return QuoteList(names, "or") }

// QuoteList quotes the names for a message and joins them with commas and
// the conjunction before the last: "a", "b" or "c".
func QuoteList(names []string, conj string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	if len(q) <= 1 {
		return strings.Join(q, "")
	}
	return strings.Join(q[:len(q)-1], ", ") + " " + conj + " " + q[len(q)-1]
}
