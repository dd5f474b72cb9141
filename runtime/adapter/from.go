package adapter

import (
	"bytes"

	"github.com/hookctl/hookctl/schema"
)

// Origin is the other agent's invocation a payload of this format was made
// from by hookctl run --from: its "from" field.
type Origin struct {
	Agent schema.Agent
	// Event is the agent's name for the event.
	Event string
	// Payload is the agent's payload as it sent it, byte for byte, the
	// white space around it included.
	Payload []byte
}

// withFrom adds the "from" field to a payload of this format (a JSON
// object encoded by encode): the agent, its event and its payload, whose
// bytes go in as they came, the white space around them included, so
// that hookctl adapt can hand them on unchanged.
func withFrom(native []byte, a schema.Agent, event string, original []byte) []byte {
	native = bytes.TrimRight(native, " \t\r\n")
	if len(native) < 2 || native[len(native)-1] != '}' {
		return native
	}
	out := make([]byte, 0, len(native)+len(original)+64)
	out = append(out, native[:len(native)-1]...)
	if len(bytes.TrimSpace(native[1:len(native)-1])) > 0 {
		out = append(out, ',')
	}
	out = append(out, `"from":{"agent":`...)
	out = append(out, encode(string(a))...)
	out = append(out, `,"event":`...)
	out = append(out, encode(event)...)
	out = append(out, `,"payload":`...)
	out = append(out, original...)
	return append(out, "}}"...)
}

// ReadOrigin returns the "from" field of a payload of this format, when
// hookctl run --from put one there: the agent's payload is the bytes of
// its value with the white space around it, exactly as the agent sent
// them. A payload without one, or with one hookctl did not write (no
// known agent, no object), has none.
func ReadOrigin(native []byte) (Origin, bool) {
	if !bytes.Contains(native, []byte(`"from"`)) {
		return Origin{}, false
	}
	root, _, err := schema.ParseJSON(native)
	if err != nil || root.Kind != schema.Object {
		return Origin{}, false
	}
	m := root.Get("from")
	if m == nil || m.Value.Kind != schema.Object {
		return Origin{}, false
	}
	from := m.Value
	agent, event, payload := from.Get("agent"), from.Get("event"), from.Get("payload")
	if agent == nil || event == nil || payload == nil || agent.Value.Kind != schema.String || event.Value.Kind != schema.String || payload.Value.Kind != schema.Object {
		return Origin{}, false
	}
	a, ok := agentNamed(agent.Value.Str)
	if !ok {
		return Origin{}, false
	}
	start, end := payload.Value.Span.Start.Offset, payload.Value.Span.End.Offset
	// The white space between the colon and the value, and between the
	// value and what follows it, was the agent's.
	for start > 0 && isSpace(native[start-1]) {
		start--
	}
	for end < len(native) && isSpace(native[end]) {
		end++
	}
	return Origin{Agent: a, Event: event.Value.Str, Payload: native[start:end]}, true
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\r' || b == '\n' }

func agentNamed(s string) (schema.Agent, bool) {
	for _, a := range schema.Agents {
		if string(a) == s {
			return a, true
		}
	}
	return "", false
}
