package schema

import "testing"

func TestPlural(t *testing.T) {
	for _, tc := range []struct {
		n    int
		word string
		many []string
		want string
	}{
		{0, "file", nil, "0 files"},
		{1, "file", nil, "1 file"},
		{2, "other call", nil, "2 other calls"},
		{-1, "line", nil, "-1 lines"},
		{1, "entry", []string{"entries"}, "1 entry"},
		{3, "entry", []string{"entries"}, "3 entries"},
		{1, "handler is", []string{"handlers are"}, "1 handler is"},
		{0, "handler is", []string{"handlers are"}, "0 handlers are"},
	} {
		if got := Plural(tc.n, tc.word, tc.many...); got != tc.want {
			t.Errorf("Plural(%d, %q, %q) = %q, want %q", tc.n, tc.word, tc.many, got, tc.want)
		}
	}
}
