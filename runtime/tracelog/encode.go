package tracelog

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"

	"github.com/hookctl/hookctl/schema"
)

// encodeLine returns the record as one line of JSON, its newline
// included: exactly what encoding/json's Encoder writes for it with HTML
// escaping off (SetEscapeHTML(false)). The record is written by hand, as
// hookctl trace writes one record per process and encoding/json's first
// Encode in a process builds its encoders by reflection, which takes far
// longer than the record itself. A record that encoding/json refuses (a
// time outside the years 0 to 9999, a duration that is not a number, an
// answer or payload that is not JSON) goes to encoding/json, so that the
// error is its own.
func encodeLine(r *Record) ([]byte, error) {
	if b, ok := appendRecord(make([]byte, 0, 512), r); ok {
		return append(b, '\n'), nil
	}
	return encodeLineReflect(r)
}

// encodeLineReflect is encodeLine by encoding/json itself.
func encodeLineReflect(r *Record) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// appendRecord appends r as encoding/json encodes it, the fields in the
// order of the struct, those marked omitempty left out when empty. It
// reports false, with what it appended so far, for a value encoding/json
// refuses.
func appendRecord(b []byte, r *Record) ([]byte, bool) {
	ok := true
	b = append(b, `{"id":`...)
	b = appendString(b, r.ID)
	b = append(b, `,"time":`...)
	t, err := r.Time.MarshalJSON()
	if err != nil {
		return b, false
	}
	b = append(b, t...)
	b = append(b, `,"durationMs":`...)
	if b, ok = appendMillis(b, r.Duration); !ok {
		return b, false
	}
	b = append(b, `,"kind":`...)
	b = appendString(b, r.Kind)
	b = appendStringField(b, `,"hook":`, r.Hook)
	b = appendStringField(b, `,"hookFrom":`, string(r.HookFrom))
	b = appendStringField(b, `,"event":`, r.Event)
	b = appendStringField(b, `,"eventFrom":`, string(r.EventFrom))
	b = appendStringField(b, `,"tool":`, r.Tool)
	b = appendStringsField(b, `,"command":`, r.Command)
	b = appendStringField(b, `,"dir":`, r.Dir)
	b = appendIntField(b, `,"pid":`, int64(r.PID))
	if r.Exit != nil {
		b = append(b, `,"exit":`...)
		b = strconv.AppendInt(b, int64(*r.Exit), 10)
	}
	b = appendStringField(b, `,"signal":`, r.Signal)
	b = appendStringField(b, `,"error":`, r.Error)
	if b, ok = appendRawField(b, `,"answer":`, r.Answer); !ok {
		return b, false
	}
	b = appendStringField(b, `,"output":`, r.Output)
	b = appendIntField(b, `,"stdoutBytes":`, r.StdoutBytes)
	b = appendStringField(b, `,"stderr":`, r.Stderr)
	b = appendIntField(b, `,"stderrBytes":`, r.StderrBytes)
	if b, ok = appendRawField(b, `,"payload":`, r.Payload); !ok {
		return b, false
	}
	b = appendIntField(b, `,"payloadBytes":`, r.PayloadBytes)
	b = appendStringField(b, `,"payloadError":`, r.PayloadError)
	if len(r.Handlers) > 0 {
		b = append(b, `,"handlers":[`...)
		for i := range r.Handlers {
			if i > 0 {
				b = append(b, ',')
			}
			if b, ok = appendHandler(b, &r.Handlers[i]); !ok {
				return b, false
			}
		}
		b = append(b, ']')
	}
	b = appendIntField(b, `,"handlersOmitted":`, int64(r.HandlersOmitted))
	b = appendStringsField(b, `,"notes":`, r.Notes)
	b = appendStringsField(b, `,"truncated":`, r.Truncated)
	return append(b, '}'), true
}

// appendHandler appends h as encoding/json encodes it.
func appendHandler(b []byte, h *Handler) ([]byte, bool) {
	ok := true
	b = append(b, '{')
	n := len(b)
	b = appendStringField(b, `,"hook":`, h.Hook)
	b = appendStringField(b, `,"command":`, h.Command)
	b = appendStringField(b, `,"where":`, h.Where)
	b = appendString(append(b, `,"outcome":`...), h.Outcome)
	// Outcome is always written, so a comma follows the brace: the first
	// field has none.
	b = append(b[:n], b[n+1:]...)
	if h.Exit != nil {
		b = append(b, `,"exit":`...)
		b = strconv.AppendInt(b, int64(*h.Exit), 10)
	}
	b = append(b, `,"durationMs":`...)
	if b, ok = appendMillis(b, h.Duration); !ok {
		return b, false
	}
	if b, ok = appendRawField(b, `,"answer":`, h.Answer); !ok {
		return b, false
	}
	b = appendStringField(b, `,"output":`, h.Output)
	b = appendStringField(b, `,"reason":`, h.Reason)
	b = appendStringField(b, `,"cause":`, h.Cause)
	b = appendStringField(b, `,"stderr":`, h.Stderr)
	return append(b, '}'), true
}

// appendStringField appends key and s, or nothing when s is empty
// (omitempty).
func appendStringField(b []byte, key, s string) []byte {
	if s == "" {
		return b
	}
	return appendString(append(b, key...), s)
}

// appendStringsField appends key and the array ss, or nothing when it is
// empty (omitempty).
func appendStringsField(b []byte, key string, ss []string) []byte {
	if len(ss) == 0 {
		return b
	}
	b = append(b, key...)
	for i, s := range ss {
		if i == 0 {
			b = append(b, '[')
		} else {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

// appendIntField appends key and n, or nothing when n is 0 (omitempty).
func appendIntField(b []byte, key string, n int64) []byte {
	if n == 0 {
		return b
	}
	return strconv.AppendInt(append(b, key...), n, 10)
}

// appendRawField appends key and raw, compacted, or nothing when raw is
// empty (omitempty). It reports false when raw is not JSON, which
// encoding/json refuses to encode. json.Compact is the function
// encoding/json compacts a json.RawMessage with: it validates as it goes
// and keeps strings byte for byte.
func appendRawField(b []byte, key string, raw json.RawMessage) ([]byte, bool) {
	if len(raw) == 0 {
		return b, true
	}
	buf := bytes.NewBuffer(append(b, key...))
	if err := json.Compact(buf, raw); err != nil {
		return b, false
	}
	return buf.Bytes(), true
}

// appendMillis appends m as encoding/json writes a float64: the shortest
// decimal that reads back as m, in exponent form below 1e-6 and from 1e21
// on, an exponent without a leading zero ("1e-7", not "1e-07"). It reports
// false for a NaN or an infinity, which encoding/json refuses.
func appendMillis(b []byte, m Millis) ([]byte, bool) {
	f := float64(m)
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return b, false
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, true
}

// appendString appends s as a JSON string as encoding/json writes it with
// HTML escaping off.
func appendString(b []byte, s string) []byte { return schema.AppendJSONString(b, s) }
