package runtime

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/hookctl/hookctl/schema"
)

// answer is a handler's answer, read and checked for its event.
type answer struct {
	decision    string
	reason      string
	overrides   []string
	overwrite   []keyValue
	steps       []json.RawMessage
	termination string
}

// answerKeys are the fields each event's answer may hold, in the
// documented order.
func answerKeys(e schema.Event) []string {
	switch e {
	case schema.PreToolUse:
		return []string{"decision", "reason", "permissionOverrides", "overwrite"}
	case schema.SessionStart, schema.PreInvocation:
		return []string{"injectSteps"}
	case schema.PostInvocation:
		return []string{"injectSteps", "terminationBehavior"}
	case schema.Stop:
		return []string{"decision", "reason"}
	}
	return nil
}

// ParseAnswer reads what a handler of the event printed on stdout after
// exiting 0. Output that is empty or white space is no answer: it returns
// nil. Otherwise the output must be one JSON object valid for the event; the
// answer comes back as compact JSON holding the known fields in documented
// order, and notes name the unknown keys it ignored.
func ParseAnswer(e schema.Event, stdout []byte) (json.RawMessage, []string, error) {
	a, notes, err := parseAnswer(e, stdout)
	if err != nil || a == nil {
		return nil, notes, err
	}
	return encodeAnswer(e, a), notes, nil
}

func parseAnswer(e schema.Event, stdout []byte) (*answer, []string, error) {
	if len(bytes.TrimSpace(stdout)) == 0 {
		return nil, nil, nil
	}
	root, _, serr := schema.ParseJSON(stdout)
	if serr != nil {
		return nil, nil, fmt.Errorf("printed something that is not a JSON answer (stdout:%d:%d: %s): %s",
			serr.Pos.Line, serr.Pos.Col, serr.Msg, excerpt(stdout))
	}
	if root.Kind != schema.Object {
		return nil, nil, fmt.Errorf("printed %s, not a JSON object", root.Describe())
	}
	a := &answer{}
	var notes []string
	known := answerKeys(e)
	for i := range root.Members {
		m := &root.Members[i]
		if root.Get(m.Key) != m {
			continue
		}
		v := m.Value
		if !contains(known, m.Key) {
			if e == schema.PostToolUse {
				notes = append(notes, fmt.Sprintf("ignoring %q in its answer: PostToolUse answers are {}", m.Key))
			} else {
				notes = append(notes, fmt.Sprintf("ignoring %q in its answer: a %s answer holds %s", m.Key, e, listKeys(known)))
			}
			continue
		}
		if v.Kind == schema.Null && m.Key != "decision" {
			continue // an optional field given as null is a field left out
		}
		raw := stdout[v.Span.Start.Offset:v.Span.End.Offset]
		var err error
		switch m.Key {
		case "decision":
			err = a.readDecision(e, v)
		case "reason":
			a.reason, err = str(m.Key, v)
		case "permissionOverrides":
			a.overrides, err = strs(m.Key, v)
		case "overwrite":
			a.overwrite, err = object(m.Key, v, stdout)
		case "injectSteps":
			a.steps, notes, err = steps(v, stdout, notes)
		case "terminationBehavior":
			a.termination, err = str(m.Key, v)
			if err == nil && terminationRank(a.termination) < 0 {
				err = fmt.Errorf(`"terminationBehavior" must be "force_continue", "terminate" or "", not %s`, raw)
			}
		}
		if err != nil {
			return nil, notes, fmt.Errorf("printed an answer that is not valid for %s: %v", e, err)
		}
	}
	if (e == schema.PreToolUse || e == schema.Stop) && root.Get("decision") == nil {
		want := `"allow", "deny", "ask", "force_ask" or "deny_unless_prior_grant"`
		if e == schema.Stop {
			want = `"continue" or "allow"`
		}
		return nil, notes, fmt.Errorf(`printed an answer that is not valid for %s: "decision" is required (%s)`, e, want)
	}
	return a, notes, nil
}

func (a *answer) readDecision(e schema.Event, v *schema.Node) error {
	if v.Kind != schema.String {
		return fmt.Errorf(`"decision" must be a string, not %s`, v.Describe())
	}
	if e == schema.PreToolUse && schema.Decision(v.Str).Strictness() == 0 {
		msg := fmt.Sprintf(`"decision" must be "allow", "deny", "ask", "force_ask" or "deny_unless_prior_grant", not %q`, v.Str)
		names := make([]string, len(schema.Decisions))
		for i, d := range schema.Decisions {
			names[i] = string(d)
		}
		if near := schema.Nearest(v.Str, names); near != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", near)
		}
		return fmt.Errorf("%s", msg)
	}
	a.decision = v.Str
	return nil
}

func str(key string, v *schema.Node) (string, error) {
	if v.Kind != schema.String {
		return "", fmt.Errorf("%q must be a string, not %s", key, v.Describe())
	}
	return v.Str, nil
}

func strs(key string, v *schema.Node) ([]string, error) {
	if v.Kind != schema.Array {
		return nil, fmt.Errorf("%q must be an array of strings, not %s", key, v.Describe())
	}
	out := make([]string, 0, len(v.Elems))
	for _, el := range v.Elems {
		if el.Kind != schema.String {
			return nil, fmt.Errorf("%q must be an array of strings, but holds %s", key, el.Describe())
		}
		out = append(out, el.Str)
	}
	return out, nil
}

func object(key string, v *schema.Node, src []byte) ([]keyValue, error) {
	if v.Kind != schema.Object {
		return nil, fmt.Errorf("%q must be an object of tool arguments, not %s", key, v.Describe())
	}
	var kvs []keyValue
	for i := range v.Members {
		m := &v.Members[i]
		if v.Get(m.Key) != m {
			continue
		}
		kvs = append(kvs, keyValue{m.Key, compact(src[m.Value.Span.Start.Offset:m.Value.Span.End.Offset])})
	}
	return kvs, nil
}

// steps reads injectSteps: objects holding exactly one of toolCall,
// userMessage and ephemeralMessage.
func steps(v *schema.Node, src []byte, notes []string) ([]json.RawMessage, []string, error) {
	if v.Kind != schema.Array {
		return nil, notes, fmt.Errorf(`"injectSteps" must be an array of steps, not %s`, v.Describe())
	}
	const kinds = `"toolCall", "userMessage" or "ephemeralMessage"`
	var out []json.RawMessage
	for i, el := range v.Elems {
		if el.Kind != schema.Object {
			return nil, notes, fmt.Errorf(`injectSteps[%d] must be an object holding one of %s, not %s`, i, kinds, el.Describe())
		}
		var key string
		var val *schema.Node
		for j := range el.Members {
			m := &el.Members[j]
			if el.Get(m.Key) != m {
				continue
			}
			switch m.Key {
			case "toolCall", "userMessage", "ephemeralMessage":
				if m.Value.Kind == schema.Null {
					continue
				}
				if key != "" {
					return nil, notes, fmt.Errorf(`injectSteps[%d] holds both %q and %q: a step is one of %s`, i, key, m.Key, kinds)
				}
				key, val = m.Key, m.Value
			default:
				notes = append(notes, fmt.Sprintf("ignoring %q in injectSteps[%d]: a step holds one of %s", m.Key, i, kinds))
			}
		}
		switch {
		case key == "":
			return nil, notes, fmt.Errorf(`injectSteps[%d] holds none of %s`, i, kinds)
		case key == "toolCall":
			if val.Kind != schema.Object {
				return nil, notes, fmt.Errorf(`injectSteps[%d].toolCall must be an object {"name": ..., "args": {...}}, not %s`, i, val.Describe())
			}
			if n := val.Get("name"); n == nil || n.Value.Kind != schema.String || n.Value.Str == "" {
				return nil, notes, fmt.Errorf(`injectSteps[%d].toolCall needs a "name" string`, i)
			}
			if a := val.Get("args"); a != nil && a.Value.Kind != schema.Object && a.Value.Kind != schema.Null {
				return nil, notes, fmt.Errorf(`injectSteps[%d].toolCall.args must be an object, not %s`, i, a.Value.Describe())
			}
		case val.Kind != schema.String:
			return nil, notes, fmt.Errorf(`injectSteps[%d].%s must be a string, not %s`, i, key, val.Describe())
		}
		var b bytes.Buffer
		b.WriteByte('{')
		b.Write(quote(key))
		b.WriteByte(':')
		b.Write(compact(src[val.Span.Start.Offset:val.Span.End.Offset]))
		b.WriteByte('}')
		out = append(out, b.Bytes())
	}
	return out, notes, nil
}

// encodeAnswer writes an answer as compact JSON with the event's fields in
// documented order, leaving out the empty ones (a PreToolUse or Stop
// decision is always written).
func encodeAnswer(e schema.Event, a *answer) json.RawMessage {
	var w objectWriter
	switch e {
	case schema.PreToolUse, schema.Stop:
		w.str("decision", a.decision)
		if a.reason != "" {
			w.str("reason", a.reason)
		}
		if len(a.overrides) > 0 {
			w.key("permissionOverrides")
			w.b.WriteByte('[')
			for i, s := range a.overrides {
				if i > 0 {
					w.b.WriteByte(',')
				}
				w.b.Write(quote(s))
			}
			w.b.WriteByte(']')
		}
		if len(a.overwrite) > 0 {
			w.key("overwrite")
			var o objectWriter
			for _, kv := range a.overwrite {
				o.raw(kv.Key, kv.Value)
			}
			w.b.Write(o.bytes())
		}
	case schema.SessionStart, schema.PreInvocation, schema.PostInvocation:
		if len(a.steps) > 0 {
			w.key("injectSteps")
			w.b.WriteByte('[')
			for i, s := range a.steps {
				if i > 0 {
					w.b.WriteByte(',')
				}
				w.b.Write(s)
			}
			w.b.WriteByte(']')
		}
		if a.termination != "" {
			w.str("terminationBehavior", a.termination)
		}
	}
	return w.bytes()
}

// objectWriter writes a JSON object member by member.
type objectWriter struct {
	b bytes.Buffer
	n int
}

func (w *objectWriter) key(k string) {
	if w.n == 0 {
		w.b.WriteByte('{')
	} else {
		w.b.WriteByte(',')
	}
	w.n++
	w.b.Write(quote(k))
	w.b.WriteByte(':')
}

func (w *objectWriter) str(k, v string) { w.key(k); w.b.Write(quote(v)) }

func (w *objectWriter) raw(k string, v []byte) { w.key(k); w.b.Write(v) }

func (w *objectWriter) bytes() []byte {
	if w.n == 0 {
		return []byte("{}")
	}
	return append(w.b.Bytes(), '}')
}

// compact returns JSON without insignificant white space.
func compact(src []byte) json.RawMessage {
	var b bytes.Buffer
	if err := json.Compact(&b, src); err != nil {
		return append(json.RawMessage(nil), src...)
	}
	return b.Bytes()
}

// excerpt quotes the start of a handler's output for a message.
func excerpt(b []byte) string {
	s := strings.TrimSpace(string(b))
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " ..."
	}
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return strconv.Quote(s)
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func listKeys(keys []string) string {
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = strconv.Quote(k)
	}
	switch len(q) {
	case 0:
		return "nothing"
	case 1:
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

// terminationRank orders termination behaviours, the strongest highest; it
// is -1 for a value that is not one.
func terminationRank(s string) int {
	switch schema.TerminationBehavior(s) {
	case schema.DefaultBehavior:
		return 0
	case schema.ForceContinue:
		return 1
	case schema.Terminate:
		return 2
	}
	return -1
}
