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
// a key that names a token, a key, a password or passphrase, a secret, an
// authorization, a credential or a cookie, in any case and spelling
// ("apiKey", "GITHUB_TOKEN", "client-secret", "Authorization", "passwd",
// "private_keys", "keyId", "KEY_FILE", "Set-Cookie"), has pwd as a word
// ("DB_PWD"), or ends with auth or session ("basicAuth", "SESSION"; not
// "author", "auth_mode" or "sessionId"). It errs on the side of
// redacting: "monkey" is redacted too, "keyboard" is not.
func IsSecretKey(key string) bool {
	// The key's letters and digits, lower case, on the stack: lint
	// redacts every word of a payload's strings on a traced handler's
	// path.
	var buf [64]byte
	lower := buf[:0]
	for i := 0; i < len(key); i++ {
		switch c := key[i]; {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
			lower = append(lower, c)
		case 'A' <= c && c <= 'Z':
			lower = append(lower, c+('a'-'A'))
		}
	}
	if len(lower) < 3 {
		return false
	}
	for _, w := range secretWordBytes {
		if bytes.Contains(lower, w) {
			return true
		}
	}
	k := lower
	if n := len(k); k[n-3] == 'k' && k[n-2] == 'e' && k[n-1] == 'y' || n >= 4 && string(k[n-4:]) == "keys" {
		return true
	}
	// "key" and "pwd" as words of their own anywhere: keyId, key_file,
	// SSH_KEY_PATH, DB_PWD.
	for _, w := range [...]string{"key", "pwd"} {
		for i := 0; i+len(w) <= len(key); i++ {
			if strings.EqualFold(key[i:i+len(w)], w) && wordStart(key, i) && wordEnd(key, i+len(w)) {
				return true
			}
		}
	}
	// "auth" and "session" as the last word: basicAuth, SESSION.
	for _, w := range [...]string{"auth", "session"} {
		if i := len(key) - len(w); i >= 0 && strings.EqualFold(key[i:], w) && wordStart(key, i) {
			return true
		}
	}
	return false
}

// secretWords are the words that make a key look secret wherever they
// stand in it.
var secretWords = [...]string{"token", "password", "passwd", "passphrase", "secret", "authorization", "credential", "cookie"}

var secretWordBytes = func() (b [len(secretWords)][]byte) {
	for i, w := range secretWords {
		b[i] = []byte(w)
	}
	return b
}()

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

// RedactText returns s with what looks secret in it replaced by
// "[redacted]":
//   - the value of a secret-looking setting: NAME=VALUE (GITHUB_TOKEN=...
//     ./deploy, --api-key=..., SECRET_KEY = "..."), NAME: VALUE to the end
//     of the line (an "Authorization: Bearer ..." header, "password":
//     "..." in JSON written in a string) and --name VALUE (--password
//     ...), a VALUE in quotes up to its closing quote;
//   - the password of a URL (https://user:PASSWORD@host), of curl's -u
//     user:PASSWORD, and of mysql's -pPASSWORD;
//   - a token of a known shape (scanToken), wherever it stands.
//
// Secrets written any other way are not found.
func RedactText(s string) string {
	var b []byte // nil until something is redacted
	last := 0
	curl := strings.Contains(s, "curl")
	mysql := strings.Contains(s, "mysql") || strings.Contains(s, "mariadb")
	for i := 0; i < len(s); {
		if c := s[i]; c == ':' || c == '-' {
			if from, to := passwordAt(s, i, curl, mysql); to > from {
				b = append(append(b, s[last:from]...), Redacted...)
				last, i = to, to
				continue
			}
		}
		if i > 0 && isNameByte(s[i-1]) {
			i++
			continue
		}
		if n := scanToken(s, i); n > 0 {
			b = append(append(b, s[last:i]...), Redacted...)
			last, i = i+n, i+n
			continue
		}
		if !isNameByte(s[i]) {
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
		// A name in quotes ("password": ...), and blanks around = or :.
		k := j
		if q := s[i-min(i, 1)]; i > 0 && (q == '"' || q == '\'') && s[k] == q {
			k++
		}
		for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
			k++
		}
		var from, to int
		switch {
		case k < len(s) && s[k] == '=' && !strings.HasPrefix(s[k:], "=="):
			from = skipBlanks(s, k+1)
			to = valueEnd(s, from, false)
		case k < len(s) && s[k] == ':' && !strings.HasPrefix(s[k:], "://"):
			from = skipBlanks(s, k+1)
			to = valueEnd(s, from, true)
		case k == j+1 && (s[j] == ' ' || s[j] == '\t') && strings.HasPrefix(s[i:j], "--"):
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

func skipBlanks(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
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
