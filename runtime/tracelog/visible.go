package tracelog

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Visible returns s with everything a terminal would act on made visible,
// for printing text from the log, which hooks write: control characters
// as \n, \r, \t or \xNN (ESC as \x1b), DEL as \x7f, bytes that are not
// UTF-8 as \xNN, and the C1 controls, line separators and the
// characters that reorder text (U+202E and its kin) as \uNNNN.
func Visible(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case acts(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// acts reports whether a terminal acts on r, beyond the C0 controls: the
// C1 controls (U+0080 to U+009F: CSI is U+009B), the line and paragraph
// separators, and the characters that change the direction of text.
func acts(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r == 0x2028, r == 0x2029:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// SafeJSON returns valid JSON with what a terminal would act on inside its
// strings escaped: DEL, the C1 controls and the characters of acts as
// \uNNNN, and bytes that are not UTF-8 as \ufffd. encoding/json already
// escapes the C0 controls; outside strings, valid JSON holds only ASCII.
// The result decodes to the same value, but for the bytes that were not
// UTF-8, which JSON cannot carry anyway.
func SafeJSON(js []byte) []byte {
	clean := true
	for _, c := range js {
		if c >= 0x7f {
			clean = false
			break
		}
	}
	if clean {
		return js
	}
	out := make([]byte, 0, len(js)+16)
	for i := 0; i < len(js); {
		r, size := utf8.DecodeRune(js[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			out = append(out, `\ufffd`...)
		case r == 0x7f || acts(r):
			out = fmt.Appendf(out, `\u%04x`, r)
		default:
			out = append(out, js[i:i+size]...)
		}
		i += size
	}
	return out
}
