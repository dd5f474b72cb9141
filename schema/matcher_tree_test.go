package schema

import (
	"fmt"
	"slices"
	"testing"
)

// TestParseMatcherRoundTrip: parsing and printing a matcher gives it back
// byte for byte, whatever it holds.
func TestParseMatcherRoundTrip(t *testing.T) {
	for _, m := range []string{"", "a|b", "^(?:a|(b|c))$", `\(x|[)|]`, "(?i)bash", "(?P<n>x)|y", "((", "a)", `\`, "[", "(?", "[]|]x", "a)|b(|"} {
		if got := ParseMatcher(m).String(); got != m {
			t.Errorf("%q prints back as %q", m, got)
		}
	}
}

func TestMatcherIdents(t *testing.T) {
	got := slices.Collect(ParseMatcher(`^(?:Bash|(Read|x\w))$|browser_.*|[Edit]`).Idents())
	if want := []string{"Bash", "Read", "x", "browser_"}; !slices.Equal(got, want) {
		t.Errorf("Idents = %q, want %q", got, want)
	}
	for id := range ParseMatcher("a|b|c").Idents() {
		if id != "a" {
			t.Errorf("the loop went on after its break, to %q", id)
		}
		break
	}
}

// TestSplitMatcher splits at the top-level "|" only, inside a whole
// anchored or grouped matcher, with each alternative's offsets.
func TestSplitMatcher(t *testing.T) {
	for m, want := range map[string]string{
		"run_command":                 `[run_command 0 11]`,
		"run_command|Bash":            `[run_command 0 11] [Bash 12 16]`,
		"a||b":                        `[a 0 1] [ 2 2] [b 3 4]`,
		"^(?:Bash|Read)$":             `[Bash 4 8] [Read 9 13]`,
		"(Bash|Read)":                 `[Bash 1 5] [Read 6 10]`,
		"((a|b))":                     `[a 2 3] [b 4 5]`,
		"^a|b$":                       `[a 1 2] [b 3 4]`,
		"^(a)|(b)$":                   `[(a) 1 4] [(b) 5 8]`,
		"^$":                          `[ 1 1]`,
		`a\$`:                         `[a\$ 0 3]`,
		"(?P<n>a|b)":                  `[(?P<n>a|b) 0 10]`,
		"view_(file|dir)|run_command": `[view_(file|dir) 0 15] [run_command 16 27]`,
		// A ] first in a class is one of its characters, so the | after
		// it is inside the class: the class does not end there.
		"[]|]x|run_command": `[[]|]x 0 5] [run_command 6 17]`,
		`[\]|]x|y`:          `[[\]|]x 0 6] [y 7 8]`,
	} {
		var got []string
		for _, a := range SplitMatcher(m) {
			got = append(got, fmt.Sprint([]any{a.Text, a.From, a.To}))
			if a.Text != m[a.From:a.To] {
				t.Errorf("%q: %q is not the text at %d:%d", m, a.Text, a.From, a.To)
			}
		}
		if s := fmt.Sprint(got); s != "["+want+"]" {
			t.Errorf("SplitMatcher(%q) = %s, want [%s]", m, s, want)
		}
	}
}
