package templates

import (
	"bytes"
	"regexp"
)

// NamePattern is what a hook name that init writes into a template may
// be: a slug of letters, digits, dots, dashes and underscores, starting
// with a letter or digit, at most 64 characters. Such a name can stand in
// any string or comment of a template without changing its code.
var NamePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// placeholder is what Script replaces by the hook's name.
var placeholder = []byte("{{name}}")

// Own reports whether content is byte for byte one of the handler scripts
// hookctl init writes, for a hook name NamePattern accepts: hookctl's own
// code, whose reading its tests pin down, not code a workspace wrote.
func Own(content []byte) bool {
	for _, t := range all {
		for _, l := range Languages {
			raw, err := files.ReadFile("files/" + t.ID + l.Ext)
			if err != nil {
				continue
			}
			i := bytes.Index(raw, placeholder)
			if i < 0 {
				if bytes.Equal(raw, content) {
					return true
				}
				continue
			}
			if !bytes.HasPrefix(content, raw[:i]) {
				continue
			}
			// The name runs to the first byte a name cannot hold: every
			// template follows it with a quote or a colon.
			end := i
			for end < len(content) && end-i < 64 && nameByte(content[end]) {
				end++
			}
			name := content[i:end]
			if !NamePattern.Match(name) {
				continue
			}
			if bytes.Equal(bytes.ReplaceAll(raw, placeholder, name), content) {
				return true
			}
		}
	}
	return false
}

func nameByte(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || b == '.' || b == '_' || b == '-'
}
