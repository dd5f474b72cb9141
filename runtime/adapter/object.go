package adapter

import (
	"bytes"

	"github.com/hookctl/hookctl/schema"
)

// object is a JSON object under construction, its keys in the order they
// were first set, each value encoded already: a payload written in the
// order the agent writes its own, or an agent's payload with a few fields
// replaced and every other byte kept.
type object struct {
	keys []string
	vals [][]byte
}

// objectOf reads the members of a JSON object, their values' bytes as
// they stand; nil when src is not one.
func objectOf(src []byte) *object {
	root, _, err := schema.ParseJSON(src)
	if err != nil || root.Kind != schema.Object {
		return nil
	}
	o := &object{}
	for i := range root.Members {
		m := &root.Members[i]
		if root.Get(m.Key) != m {
			continue // a later occurrence counts, as encoding/json reads it
		}
		o.setRaw(m.Key, src[m.Value.Span.Start.Offset:m.Value.Span.End.Offset])
	}
	return o
}

// set sets key to v, encoded as JSON.
func (o *object) set(key string, v any) { o.setRaw(key, encode(v)) }

// setRaw sets key to the JSON text raw.
func (o *object) setRaw(key string, raw []byte) {
	for i, k := range o.keys {
		if k == key {
			o.vals[i] = raw
			return
		}
	}
	o.keys = append(o.keys, key)
	o.vals = append(o.vals, raw)
}

// has reports whether key is set.
func (o *object) has(key string) bool {
	for _, k := range o.keys {
		if k == key {
			return true
		}
	}
	return false
}

// bytes encodes the object.
func (o *object) bytes() []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(encode(k))
		b.WriteByte(':')
		b.Write(o.vals[i])
	}
	b.WriteByte('}')
	return b.Bytes()
}
