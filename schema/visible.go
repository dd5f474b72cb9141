package schema

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Visible returns s as it is safe to show on a terminal: every character
// that a terminal would act on instead of showing (escape sequences, a
// carriage return that rewrites the line, backspace, a NUL), every one
// that reorders or hides text (bidirectional overrides, zero-width
// characters) and every byte that is not UTF-8 is written as an escape,
// \x1b or \u202e, so that a command cannot hide behind a decoy. Tabs and
// newlines are escaped too: what is shown stays on one line. Backslashes
// are left as they are.
func Visible(s string) string { return visible(s, false, false) }

// VisibleLine is Visible for a line shown as it is, a source line or a line
// of a diff: tabs stay tabs.
func VisibleLine(s string) string { return visible(s, true, false) }

// VisibleText is Visible for text of several lines: tabs, newlines and
// carriage returns stay as they are.
func VisibleText(s string) string { return visible(s, true, true) }

func visible(s string, keepTabs, keepLines bool) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case (r == '\n' || r == '\r') && keepLines:
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t' && keepTabs:
			b.WriteByte('\t')
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case hidden(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// isPlain reports whether s is printable ASCII, the common case.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// hidden reports whether a character acts on the text around it instead of
// showing: C1 controls, bidirectional controls, zero-width characters.
func hidden(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x200b && r <= 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2060 && r <= 0x2069, r == 0xfeff, r == 0x061c:
		return true
	}
	return false
}
