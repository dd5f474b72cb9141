package lint

import (
	"strings"
	"unicode/utf8"

	"github.com/hookctl/hookctl/schema"
)

type controlCharacter struct{ RuleBase }

func newControlCharacter() Rule {
	return &controlCharacter{newBase("control-character", Error,
		"a NUL in a command or hook name (the handler cannot start), or a character that hides text when the command is shown (an escape sequence, a bidirectional override)")}
}

func (r *controlCharacter) Check(f *File) {
	r.invalidUTF8(f)
	for _, h := range f.hooks() {
		r.check(f, h.Member.KeySpan, h.Member.Key, "the hook's name", true)
	}
	for _, h := range f.allHandlers() {
		if h.Command != nil {
			r.check(f, h.Command.Span, h.Command.Str, "the command", false)
		}
	}
}

// check reports the first NUL, or else the first hiding character, in s,
// a key (whose span covers the quotes) or a string value.
func (r *controlCharacter) check(f *File, span schema.Span, s, what string, key bool) {
	at, c := -1, rune(0)
	for i, ch := range s {
		if ch == 0 {
			at, c = i, ch
			break
		}
		if at < 0 && hides(ch) {
			at, c = i, ch
		}
	}
	if at < 0 {
		return
	}
	node := &schema.Node{Kind: schema.String, Str: s, Span: span}
	where := f.strSpan(node, at, at+utf8.RuneLen(c))
	shown := strings.TrimPrefix(schema.Visible(string(c)), `\`)
	switch {
	case c == 0 && key:
		r.report(f, where, "", "%s holds a NUL character (\\u0000), which no environment variable can carry: handlers cannot be told their hook's name (HOOKCTL_HOOK), and tools show it garbled; rename the hook", what)
		return
	case c == 0:
		r.report(f, where, "", "%s holds a NUL character (\\u0000), which no command can carry: the handler fails on every call; remove it", what)
		return
	}
	r.reportSeverity(f, Warning, where, "", "%s holds the invisible character \\%s, which changes what a terminal shows: a review sees other text than what runs; remove it%s",
		what, shown, hint(c))
}

// hides reports whether a character changes how the text around it is
// shown: a control character (an escape sequence starts with one), a
// bidirectional override, a zero-width character.
func hides(r rune) bool {
	if r == '\t' || r == '\n' {
		return false
	}
	v := schema.Visible(string(r))
	return v != string(r) && r != utf8.RuneError
}

func hint(c rune) string {
	if c == 0x1b {
		return " (it starts an escape sequence, which can erase or recolour what came before)"
	}
	return ""
}

// Severities are those of the rule's findings, most serious first.
func (r *controlCharacter) Severities() []Severity { return []Severity{Error, Warning} }
