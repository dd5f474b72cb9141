package schema

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Visible returns s as it is safe to show on a terminal: every character
// that a terminal would act on instead of showing (escape sequences, a
// carriage return that rewrites the line, backspace, a NUL), every one
// that reorders or hides text (see Hides) and every byte that is not UTF-8
// is written as an escape, \x1b, \u202e or \U000e0041, so that a command
// cannot hide behind a decoy. Tabs and newlines are escaped too: what is
// shown stays on one line. Backslashes are left as they are.
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
		case Hides(r) && r > 0xffff:
			fmt.Fprintf(&b, `\U%08x`, r)
		case Hides(r):
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

// Hides reports whether r, a character beyond the C0 controls and DEL,
// acts on the text around it instead of showing, or shows as nothing: the
// C1 controls (U+009B starts an escape sequence as ESC [ does), the format
// characters (bidirectional overrides and isolates, zero-width spaces and
// joiners, the soft hyphen, the tag characters that spell hidden ASCII),
// the line and paragraph separators, the characters Unicode lists as
// ignorable by default (the Hangul fillers among them) and the variation
// selectors of the supplement, which carry no glyph. The variation
// selectors U+FE00 to U+FE0F show as they are: they pick an emoji's style.
func Hides(r rune) bool {
	switch {
	case r < 0x80:
		return false
	case r <= 0x9f, r == 0x2028, r == 0x2029:
		return true
	case r >= 0xe0100 && r <= 0xe01ef:
		return true
	}
	return unicode.In(r, unicode.Cf, unicode.Other_Default_Ignorable_Code_Point)
}
