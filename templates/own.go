package templates

import (
	"bytes"
	"sync"

	"github.com/hookctl/hookctl/internal/lazyre"
)

// NamePattern returns the expression of what a hook name that init
// writes into a template may be: a slug of letters, digits, dots, dashes
// and underscores, starting with a letter or digit, at most 64 characters.
// Such a name can stand in any string or comment of a template without
// changing its code. It is compiled on first use.
var NamePattern = lazyre.New(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// placeholder is what Script replaces by the hook's name.
var placeholder = []byte("{{name}}")

// ownScript is the raw script of a template in one language, split at
// the placeholder.
type ownScript struct {
	t     Template
	parts [][]byte
}

// own are the raw scripts of every template in every language, read once.
var own = sync.OnceValue(func() []ownScript {
	var out []ownScript
	for _, t := range all() {
		for _, l := range Languages {
			if raw, err := files.ReadFile("files/" + t.ID + l.Ext); err == nil {
				out = append(out, ownScript{t, bytes.Split(raw, placeholder)})
			}
		}
	}
	return out
})

// Own reports whether content is byte for byte one of the handler scripts
// hookctl init writes, for a hook name NamePattern accepts: hookctl's own
// code, whose reading its tests pin down, not code a workspace wrote. It
// returns the template it is.
func Own(content []byte) (Template, bool) {
	for _, s := range own() {
		parts := s.parts
		if !bytes.HasPrefix(content, parts[0]) {
			continue
		}
		if len(parts) == 1 {
			if len(content) == len(parts[0]) {
				return s.t, true
			}
			continue
		}
		// The name runs to the first byte a name cannot hold: every
		// template follows it with a quote or a colon.
		i := len(parts[0])
		end := i
		for end < len(content) && end-i < 64 && nameByte(content[end]) {
			end++
		}
		name := content[i:end]
		if filled(parts, name, content) && NamePattern().Match(name) {
			return s.t, true
		}
	}
	return Template{}, false
}

// filled reports whether content is parts joined by name, without
// building the joined script: a content of another length is refused at
// once, and the others are compared piece by piece.
func filled(parts [][]byte, name, content []byte) bool {
	n := (len(parts) - 1) * len(name)
	for _, p := range parts {
		n += len(p)
	}
	if n != len(content) {
		return false
	}
	rest := content
	for i, p := range parts {
		if i > 0 {
			if !bytes.HasPrefix(rest, name) {
				return false
			}
			rest = rest[len(name):]
		}
		if !bytes.HasPrefix(rest, p) {
			return false
		}
		rest = rest[len(p):]
	}
	return len(rest) == 0
}

func nameByte(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || b == '.' || b == '_' || b == '-'
}
