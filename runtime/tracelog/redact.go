package tracelog

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/hookctl/hookctl/schema"
)

// Redacted replaces the value of a key that looks secret.
const Redacted = "[redacted]"

// IsSecretKey reports whether a key's value should be kept out of the log:
// a key that names a token, a key, a password, a secret or an
// authorization, in any case and spelling ("apiKey", "GITHUB_TOKEN",
// "client-secret", "Authorization", "passwd", "private_keys"). It errs on
// the side of redacting: "monkey" is redacted too, "keyboard" is not.
func IsSecretKey(key string) bool {
	k := strings.Map(func(r rune) rune {
		switch {
		case 'a' <= r && r <= 'z', '0' <= r && r <= '9':
			return r
		case 'A' <= r && r <= 'Z':
			return r + ('a' - 'A')
		}
		return -1
	}, key)
	for _, w := range []string{"token", "password", "passwd", "secret", "authorization", "credential"} {
		if strings.Contains(k, w) {
			return true
		}
	}
	return strings.HasSuffix(k, "key") || strings.HasSuffix(k, "keys")
}

// Redact returns the payload as compact JSON, every object at any depth
// with the value of each key that looks secret (IsSecretKey) replaced by
// "[redacted]", whatever that value was. It returns false for a payload
// that is not JSON.
func Redact(payload []byte) (json.RawMessage, bool) {
	root, _, serr := schema.ParseJSON(payload)
	if serr != nil {
		return nil, false
	}
	var b bytes.Buffer
	w := rewriter{b: &b, redact: true}
	w.value(root)
	return b.Bytes(), true
}

// Shorten returns JSON with every string longer than max bytes cut to its
// start followed by Cut, and whether any was. It returns js unchanged when
// nothing is that long or js is not JSON.
func Shorten(js []byte, max int) (json.RawMessage, bool) {
	root, _, serr := schema.ParseJSON(js)
	if serr != nil {
		return js, false
	}
	var b bytes.Buffer
	w := rewriter{b: &b, max: max}
	w.value(root)
	if !w.cut {
		return js, false
	}
	return b.Bytes(), true
}

// rewriter writes a parsed value back as compact JSON, redacting secret
// keys' values and cutting long strings as asked.
type rewriter struct {
	b      *bytes.Buffer
	redact bool
	max    int // 0: no limit
	cut    bool
}

func (w *rewriter) value(n *schema.Node) {
	switch n.Kind {
	case schema.Null:
		w.b.WriteString("null")
	case schema.Bool:
		if n.Bool {
			w.b.WriteString("true")
		} else {
			w.b.WriteString("false")
		}
	case schema.Number:
		w.b.WriteString(n.Str)
	case schema.String:
		s := n.Str
		if w.max > 0 && len(s) > w.max {
			s = cutText(s, w.max)
			w.cut = true
		}
		w.str(s)
	case schema.Array:
		w.b.WriteByte('[')
		for i, e := range n.Elems {
			if i > 0 {
				w.b.WriteByte(',')
			}
			w.value(e)
		}
		w.b.WriteByte(']')
	case schema.Object:
		w.b.WriteByte('{')
		for i, m := range n.Members {
			if i > 0 {
				w.b.WriteByte(',')
			}
			w.str(m.Key)
			w.b.WriteByte(':')
			if w.redact && IsSecretKey(m.Key) {
				w.str(Redacted)
				continue
			}
			w.value(m.Value)
		}
		w.b.WriteByte('}')
	}
}

func (w *rewriter) str(s string) {
	w.b.Write(quote(s))
}

// quote encodes s as a JSON string as encoding/json does, but leaving <,
// > and & as they are: control characters escaped, bytes that are not
// UTF-8 replaced by U+FFFD, and U+2028 and U+2029 escaped.
func quote(s string) []byte {
	b := make([]byte, 0, len(s)+2)
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

const hex = "0123456789abcdef"
