package adapter

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// input is another agent's payload, its fields read one by one and
// defensively: a field of an unexpected type is taken as absent, and fields
// hookctl does not read are ignored, so that a newer agent that adds or
// changes fields still gets an answer.
type input map[string]json.RawMessage

func readInput(payload []byte) (input, error) {
	trimmed := bytes.TrimSpace(payload)
	if len(trimmed) == 0 {
		return nil, errors.New("is empty: the agent sends its payload, a JSON object, on stdin")
	}
	if trimmed[0] != '{' {
		return nil, fmt.Errorf("is not a JSON object (it starts with %q)", firstBytes(trimmed, 16))
	}
	var in input
	if err := json.Unmarshal(trimmed, &in); err != nil {
		return nil, fmt.Errorf("is not valid JSON: %v", jsonError(trimmed, err))
	}
	return in, nil
}

// str returns the first of the keys that holds a string.
func (in input) str(keys ...string) string {
	for _, k := range keys {
		if s, ok := in.strOK(k); ok {
			return s
		}
	}
	return ""
}

func (in input) strOK(key string) (string, bool) {
	raw, ok := in[key]
	if !ok {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

func (in input) boolean(key string) (bool, bool) {
	var b bool
	if raw, ok := in[key]; ok && json.Unmarshal(raw, &b) == nil {
		return b, true
	}
	return false, false
}

func (in input) number(key string) (float64, bool) {
	var f float64
	if raw, ok := in[key]; ok && json.Unmarshal(raw, &f) == nil {
		return f, true
	}
	return 0, false
}

func (in input) strings(key string) []string {
	var out []string
	if raw, ok := in[key]; ok && json.Unmarshal(raw, &out) == nil {
		return out
	}
	return nil
}

// object reads a tool's input: an object, or a string that holds one, as
// Cursor's MCP events send it. An absent or null input is no arguments.
func (in input) object(key string) (map[string]any, error) {
	raw, ok := in[key]
	if !ok || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return map[string]any{}, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if s == "" {
			return map[string]any{}, nil
		}
		raw = []byte(s)
	}
	var out map[string]any
	if err := decode(raw, &out); err != nil || out == nil {
		return nil, fmt.Errorf("has a %q that is not a JSON object of arguments", key)
	}
	return out, nil
}

// decode reads JSON keeping numbers as they were written, so that an
// argument goes back to the agent exactly as it came.
func decode(raw []byte, v any) error {
	if len(raw) == 0 {
		return errors.New("empty")
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	return d.Decode(v)
}

// jsonError words a decoding error with the line and column it is at.
func jsonError(src []byte, err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := 1, 1
		for _, b := range src[:min(int(se.Offset), len(src))] {
			if b == '\n' {
				line, col = line+1, 1
			} else {
				col++
			}
		}
		return fmt.Sprintf("%s at line %d, column %d", se.Error(), line, col)
	}
	return err.Error()
}

func firstBytes(b []byte, n int) string {
	if len(b) > n {
		b = b[:n]
	}
	return string(b)
}
