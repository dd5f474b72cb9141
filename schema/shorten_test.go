package schema

import (
	"strings"
	"testing"
)

// TestShorten: Shorten cuts as slicing the characters would.
func TestShorten(t *testing.T) {
	old := func(s string, most int) string {
		if r := []rune(s); len(r) > most {
			return string(r[:most-3]) + "..."
		}
		return s
	}
	for _, s := range []string{"", "abc", strings.Repeat("é", 40), strings.Repeat("é", 41), strings.Repeat("ツa", 30), strings.Repeat("x", 1<<20)} {
		if got, want := Shorten(s, 40), old(s, 40); got != want {
			t.Errorf("Shorten(%.20q…, 40) = %q, want %q", s, got, want)
		}
	}
}

// TestLongWord: a word outside quotes of megabytes is named by its start.
func TestLongWord(t *testing.T) {
	_, _, err := ParseJSON([]byte(strings.Repeat("x", 1<<20)))
	want := `1:1: unexpected word "` + strings.Repeat("x", maxWord-3) + `..." where a value should start`
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %v, want it to start %q", err, want)
	}
}
