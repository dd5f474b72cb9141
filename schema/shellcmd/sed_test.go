package shellcmd

import (
	"strings"
	"testing"
)

// A sed script runs a program by the e command or the s command's e
// flag, wherever its addresses, texts, labels and other commands put
// them; what does not read as a script may too.
func TestSedScriptRuns(t *testing.T) {
	for _, tc := range []struct {
		script string
		runs   bool
	}{
		{"s/a/b/g", false},
		{"s|.*|sh x|e", true},
		{"s/a/b/ge", true},
		{"s/a/b/w out.txt\np", false},
		{"s/a\\/e/b/g", false},
		{`s/.*"k"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p`, false},
		{"1e sh x", true},
		{"e", true},
		{"/x/,/y/ e date", true},
		{"$!{ e\n}", true},
		{"1,2d", false},
		{"1p", false},
		{"a\\\nline e\n", false},
		{"a text with e; p", false},
		{"i\\\ncontinued \\\nstill e\np", false},
		{"y/abc/xyz/", false},
		{"b end; :end", false},
		{"# e in a comment\np", false},
		{"r e.txt", false},
		{"0~2 q 5", false},
		{"\\%e%d", false},
		{"s/a/b", true},
		{"k", true},
	} {
		if got := sedScriptRuns(tc.script); got != tc.runs {
			t.Errorf("%q: runs %v, want %v", tc.script, got, tc.runs)
		}
	}
}

// A sed call is named when its script may run a program, is not literal
// or is a file's; --sandbox refuses e.
func TestSedCalls(t *testing.T) {
	for _, tc := range []struct{ src, gap string }{
		{`sed -n 's/a/b/p' f`, ""},
		{`sed -e 's/a/b/' -e 's|.*|sh x|e' f`, "sed runs a program from its script (the e command or flag)"},
		{`sed -ne '1e date' f`, "sed runs a program from its script"},
		{`sed --expression='1e date'`, "sed runs a program from its script"},
		{`sed -i.bak 's/a/b/' f`, ""},
		{`sed -f script.sed f`, "sed runs the script of a file"},
		{`sed -nf script.sed f`, "sed runs the script of a file"},
		{`sed "$S" f`, "sed is given an option or script built only when the command runs"},
		{`sed -n "s/$k/v/p" f`, "sed is given an option or script built only when the command runs"},
		{`sed -e 's/a/b/' -e "$S" f`, "sed is given a script built only when the command runs"},
		{`sed --sandbox "$S" f`, ""},
		{`sed 's/a/b/' "$F"`, ""},
	} {
		_, gaps := Parse(tc.src, "/w/.agents", "/w").Refs()
		var whys []string
		for _, g := range gaps {
			whys = append(whys, g.Why)
		}
		got := strings.Join(whys, "; ")
		if tc.gap == "" && got != "" || !strings.Contains(got, tc.gap) {
			t.Errorf("%s: gaps %q, want %q", tc.src, got, tc.gap)
		}
	}
}
