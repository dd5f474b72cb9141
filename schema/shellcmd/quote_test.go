package shellcmd

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/internal/testenv"
)

// TestQuoteRoundTrip hands quoted words to real shells as part of a
// command line and checks that each comes back byte for byte: every byte
// but NUL alone, all of them at once, and the words that shells expand
// when left bare.
func TestQuoteRoundTrip(t *testing.T) {
	var words []string
	var all strings.Builder
	for b := 1; b < 256; b++ {
		words = append(words, string([]byte{byte(b)}), "a"+string([]byte{byte(b)})+"b")
		all.WriteByte(byte(b))
	}
	words = append(words, all.String(), "", "~", "~/x", "~root", "x=~/y", "a:~/b", "!", "!!", "*", "?", "[a]",
		"\n", "a\nb", "'", "''", `\`, `"`, "$HOME", "`id`", "$(id)", "{a,b}", "%1", "=ls", "-n", "--", "a b", "\t")
	for _, sh := range []string{"dash", "bash"} {
		path := testenv.Need(t, sh)
		// One shell reads every word, each a command line of its own,
		// printf %s: the quoted word as printf's second argument, after
		// the shell has read and expanded the whole line. A NUL, in no
		// word, ends each. One that does not come back is run again alone,
		// to say what the shell made of it.
		var script strings.Builder
		for _, w := range words {
			script.WriteString("printf %s " + Quote(w) + "; printf '\\0'\n")
		}
		out, err := exec.Command(path, "-c", script.String()).Output()
		if err != nil {
			t.Errorf("%s -c with every word: %v", sh, err)
		}
		got := strings.Split(string(out), "\x00")
		for i, w := range words {
			if err == nil && i < len(got) && got[i] == w {
				continue
			}
			out, err := exec.Command(path, "-c", "printf %s "+Quote(w)+"; printf .").Output()
			if err != nil {
				t.Fatalf("%s -c printf %%s %s: %v", sh, Quote(w), err)
			}
			if alone := strings.TrimSuffix(string(out), "."); alone != w {
				t.Errorf("%s read %q back as %q, not %q", sh, Quote(w), alone, w)
			} else if i < len(got) {
				t.Errorf("%s read %q back as %q among the other words, not %q (alone, as it is)", sh, Quote(w), got[i], w)
			}
		}
		if len(got) != len(words)+1 || got[len(words)] != "" {
			t.Errorf("%s printed %d words for %d", sh, len(got)-1, len(words))
		}
	}
}

// TestQuoteFirstWord checks that a word that would be an assignment as the
// first word of a command is quoted, so that it runs as a command name.
func TestQuoteFirstWord(t *testing.T) {
	path := testenv.Need(t, "dash")
	out, _ := exec.Command(path, "-c", Quote("A=b")+" 2>&1; echo $?").Output()
	if !strings.HasSuffix(string(out), "127\n") {
		t.Errorf("dash ran %s as %q, not as a command that is not found", Quote("A=b"), out)
	}
}

// TestQuoteBare leaves words of letters, digits and _-./ as they are and
// quotes every other.
func TestQuoteBare(t *testing.T) {
	for w, want := range map[string]string{
		"./hooks/x_1.sh": "./hooks/x_1.sh",
		"-v":             "-v",
		"":               "''",
		"~/x":            "'~/x'",
		"a=b":            "'a=b'",
		"it's":           `'it'\''s'`,
		"100%":           "'100%'",
		"a+b,c@d:e":      "'a+b,c@d:e'",
		"é":              "'é'",
	} {
		if got := Quote(w); got != want {
			t.Errorf("Quote(%q) = %s, want %s", w, got, want)
		}
	}
}

// TestQuoteHome keeps a leading ~/ bare, so that the shell reads it as the
// home folder, and the rest as written.
func TestQuoteHome(t *testing.T) {
	path := testenv.Need(t, "dash")
	for in, want := range map[string]string{
		"~/.gemini/config/hooks.test.json": "/home/u x/.gemini/config/hooks.test.json",
		"~/a b/~/$HOME":                    "/home/u x/a b/~/$HOME",
		"~/":                               "/home/u x/",
		"~root/x":                          "~root/x",
		"./~/x":                            "./~/x",
		"/abs/~":                           "/abs/~",
	} {
		cmd := exec.Command(path, "-c", "printf %s "+QuoteHome(in))
		cmd.Env = []string{"HOME=/home/u x"}
		out, err := cmd.Output()
		if err != nil || string(out) != want {
			t.Errorf("%s: dash printed %q (%v), want %q", QuoteHome(in), out, err, want)
		}
	}
}
