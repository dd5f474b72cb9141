package tracelog

import (
	"fmt"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/hookctl/hookctl/schema"
)

// SafeJSON returns valid JSON with what a terminal would act on inside its
// strings escaped: DEL and the characters of schema.Hides as \uNNNN (a
// surrogate pair beyond U+FFFF), and bytes that are not UTF-8 as \ufffd.
// encoding/json already escapes the C0 controls; outside strings, valid
// JSON holds only ASCII.
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
		case r > 0xffff && schema.Hides(r):
			hi, lo := utf16.EncodeRune(r)
			out = fmt.Appendf(out, `\u%04x\u%04x`, hi, lo)
		case r == 0x7f || schema.Hides(r):
			out = fmt.Appendf(out, `\u%04x`, r)
		default:
			out = append(out, js[i:i+size]...)
		}
		i += size
	}
	return out
}
