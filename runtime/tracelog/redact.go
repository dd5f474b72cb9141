package tracelog

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"

	"github.com/hookctl/hookctl/schema"
)

// Redacted replaces the value of a key that looks secret.
const Redacted = "[redacted]"

// IsSecretKey reports whether a key's value should be kept out of the log:
// a key that names a token, a key, a password, a secret, an authorization
// or a credential, in any case and spelling ("apiKey", "GITHUB_TOKEN",
// "client-secret", "Authorization", "passwd", "private_keys", "keyId",
// "KEY_FILE"). It errs on the side of redacting: "monkey" is redacted too,
// "keyboard" is not.
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
	for _, w := range secretWords {
		if strings.Contains(k, w) {
			return true
		}
	}
	if strings.HasSuffix(k, "key") || strings.HasSuffix(k, "keys") {
		return true
	}
	// "key" as a word of its own anywhere: keyId, key_file, SSH_KEY_PATH.
	for i := 0; i+3 <= len(key); i++ {
		if strings.EqualFold(key[i:i+3], "key") && wordStart(key, i) && wordEnd(key, i+3) {
			return true
		}
	}
	return false
}

// secretWords are the words that make a key look secret wherever they
// stand in it.
var secretWords = [...]string{"token", "password", "passwd", "secret", "authorization", "credential"}

// wordStart reports whether a word starts at key[i]: at the start, after
// a character that is not a letter or digit, or a capital after a small
// letter (camelCase).
func wordStart(key string, i int) bool {
	if i == 0 {
		return true
	}
	p, c := key[i-1], key[i]
	return !isAlnum(p) || 'a' <= p && p <= 'z' && 'A' <= c && c <= 'Z'
}

// wordEnd reports whether a word ends before key[i] ("s" of a plural
// included: keys, KEYS).
func wordEnd(key string, i int) bool {
	if i < len(key) && (key[i] == 's' || key[i] == 'S') {
		i++
	}
	if i == len(key) {
		return true
	}
	p, c := key[i-1], key[i]
	return !isAlnum(c) || 'a' <= p && p <= 'z' && 'A' <= c && c <= 'Z'
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// namesSecret reports whether an object is a named value whose name looks
// secret: {"name": "GITHUB_TOKEN", "value": "..."}.
func namesSecret(n *schema.Node) bool {
	for _, m := range n.Members {
		if (m.Key == "name" || m.Key == "key") && m.Value.Kind == schema.String && IsSecretKey(m.Value.Str) {
			return true
		}
	}
	return false
}

// RedactText returns s with the value of every secret-looking setting in
// it replaced by "[redacted]": NAME=VALUE (GITHUB_TOKEN=... ./deploy,
// --api-key=...), NAME: VALUE to the end of the line (an
// "Authorization: Bearer ..." header) and --name VALUE (--password ...),
// a VALUE in quotes up to its closing quote. Secrets written any other way
// are not found.
func RedactText(s string) string {
	var b []byte // nil until something is redacted
	last := 0
	for i := 0; i < len(s); {
		if !isNameByte(s[i]) || i > 0 && isNameByte(s[i-1]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isNameByte(s[j]) {
			j++
		}
		name := strings.TrimLeft(s[i:j], "-")
		if name == "" || !IsSecretKey(name) || j == len(s) {
			i = j
			continue
		}
		var from, to int
		switch {
		case s[j] == '=':
			from = j + 1
			to = valueEnd(s, from, false)
		case s[j] == ':' && !strings.HasPrefix(s[j:], "://"):
			from = j + 1
			for from < len(s) && (s[from] == ' ' || s[from] == '\t') {
				from++
			}
			to = valueEnd(s, from, true)
		case (s[j] == ' ' || s[j] == '\t') && strings.HasPrefix(s[i:j], "--"):
			from = j + 1
			to = valueEnd(s, from, false)
		default:
			i = j
			continue
		}
		if to == from || strings.HasPrefix(s[from:], Redacted) {
			i = j
			continue
		}
		keep, end := from, to
		if q := s[from]; (q == '"' || q == '\'') && to-from >= 2 && s[to-1] == q {
			// The quotes stay, around the redacted value.
			keep, end = from+1, to-1
		}
		b = append(append(b, s[last:keep]...), Redacted...)
		last, i = end, to
	}
	if b == nil {
		return s
	}
	return string(append(b, s[last:]...))
}

// isNameByte reports whether c may be part of a setting's name.
func isNameByte(c byte) bool { return isAlnum(c) || c == '_' || c == '-' }

// valueEnd returns where the value starting at s[from] ends: at its
// closing quote when it starts with one, else at the first blank (or, for
// a header, the end of the line), a quote or a ';' or '&' or '|'.
func valueEnd(s string, from int, header bool) int {
	if from >= len(s) {
		return from
	}
	if q := s[from]; q == '"' || q == '\'' {
		if k := strings.IndexByte(s[from+1:], q); k >= 0 {
			return from + 1 + k + 1
		}
		return len(s)
	}
	for k := from; k < len(s); k++ {
		switch s[k] {
		case '\n', '\r', '"', '\'':
			return k
		case ' ', '\t', ';', '&', '|':
			if !header {
				return k
			}
		}
	}
	return len(s)
}

// Redact returns the payload as compact JSON with what looks secret
// replaced by "[redacted]", at any depth:
//   - the value of each key that looks secret (IsSecretKey), whatever that
//     value was;
//   - the "value" of an object that names a secret-looking key in its
//     "name" or "key" ({"name": "Authorization", "value": "..."}, as
//     headers and environments are often listed);
//   - in a string, the value of a secret-looking setting written in it
//     (see RedactText).
//
// A payload that is not JSON is refused with what is wrong with it: a
// record keeps that instead of the bytes, in which no key can be told.
func Redact(payload []byte) (json.RawMessage, error) {
	root, _, serr := schema.ParseJSON(payload)
	if serr != nil {
		return nil, errors.New("not JSON: " + serr.Error())
	}
	var b bytes.Buffer
	w := rewriter{b: &b, redact: true}
	w.value(root)
	return b.Bytes(), nil
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
	// scratch is reused for each string's encoding.
	scratch []byte
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
		if w.redact {
			s = RedactText(s)
		}
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
		named := w.redact && namesSecret(n)
		for i, m := range n.Members {
			if i > 0 {
				w.b.WriteByte(',')
			}
			w.str(m.Key)
			w.b.WriteByte(':')
			if w.redact && (IsSecretKey(m.Key) || named && m.Key == "value") {
				w.str(Redacted)
				continue
			}
			w.value(m.Value)
		}
		w.b.WriteByte('}')
	}
}

func (w *rewriter) str(s string) {
	w.scratch = schema.AppendJSONString(w.scratch[:0], s)
	w.b.Write(w.scratch)
}
