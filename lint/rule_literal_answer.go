package lint

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/shellcmd"
)

type literalAnswer struct{ RuleBase }

func newLiteralAnswer() Rule {
	return &literalAnswer{newBase("literal-answer", Error,
		"an inline command that prints a fixed answer (echo '{...}', printf, cat <<EOF) the agent cannot take: {} or no decision on PreToolUse, an unknown key, a wrong value")}
}

// Severities are those of the rule's findings, most serious first.
func (r *literalAnswer) Severities() []Severity { return []Severity{Error, Warning} }

func (r *literalAnswer) Check(f *File) {
	for _, h := range f.allHandlers() {
		c := f.command(h)
		if c == nil {
			continue
		}
		out := c.parsed.Output()
		if len(out.Prints) == 0 {
			continue
		}
		if out.Whole {
			r.whole(f, h, c, out.Prints)
			continue
		}
		for _, p := range out.Prints {
			t := strings.TrimSpace(p.Text)
			if strings.HasPrefix(t, "{") && strings.HasSuffix(t, "}") {
				r.answer(f, h, c, []shellcmd.Print{p}, p.Text, true)
			}
		}
	}
}

// whole checks what a command prints when that is all it prints.
func (r *literalAnswer) whole(f *File, h handlerRef, c *command, prints []shellcmd.Print) {
	differs := false
	for _, p := range prints {
		differs = differs || p.Differs
	}
	if len(prints) == 1 && !differs {
		r.answer(f, h, c, prints, prints[0].Text, false)
		return
	}
	var dash, bash strings.Builder
	for _, p := range prints {
		dash.WriteString(p.Text)
		if !differs {
			continue // bash prints the same: no second copy
		}
		if p.Differs {
			bash.WriteString(p.Alt)
		} else {
			bash.WriteString(p.Text)
		}
	}
	if differs && dash.String() != bash.String() {
		r.differs(f, h, prints, dash.String(), bash.String())
		return
	}
	r.answer(f, h, c, prints, dash.String(), false)
}

// differs reports an echo whose text depends on which shell /bin/sh is,
// when that decides whether the answer is valid JSON.
func (r *literalAnswer) differs(f *File, h handlerRef, prints []shellcmd.Print, dash, bash string) {
	_, _, derr := schema.ParseJSONBounded([]byte(dash))
	_, _, berr := schema.ParseJSONBounded([]byte(bash))
	if (derr == nil) == (berr == nil) || strings.TrimSpace(dash) == "" || derr != nil && derr.Bound || berr != nil && berr.Bound {
		return
	}
	which := "dash (/bin/sh on Debian and Ubuntu) reads its backslash escapes (\\n becomes a line break) and bash does not"
	r.reportSeverity(f, Warning, f.strSpan(h.Command, prints[0].From, prints[len(prints)-1].To), "",
		"this echo prints another answer under each /bin/sh: %s, so the answer is valid JSON under one and not the other; write printf '%%s\\n' '...' instead, which every shell prints as written", which)
}

// answer checks text, what the command prints (or one branch of it
// prints), as the event's answer.
func (r *literalAnswer) answer(f *File, h handlerRef, c *command, prints []shellcmd.Print, text string, branch bool) {
	e := h.Event
	trimmed := strings.TrimSpace(text)
	if trimmed == "" {
		return // no answer, which every event takes
	}
	whole := f.strSpan(h.Command, prints[0].From, prints[len(prints)-1].To)
	// Text that cannot start a JSON value is not copied to be parsed: the
	// messages about it need no syntax error.
	var root *schema.Node
	serr := &schema.SyntaxError{}
	if strings.IndexByte(`{["-0123456789tfn`, trimmed[0]) >= 0 {
		// Within the bound on a hooks.json's values: an echo may print
		// millions, whose tree would cost many times the file.
		root, _, serr = schema.ParseJSONBounded([]byte(text))
	}
	if serr != nil && serr.Bound {
		return // more values than any answer needs: not read further, not known
	}
	if serr != nil {
		if strings.HasPrefix(trimmed, "{") || strings.HasPrefix(trimmed, "[") {
			msg := fmt.Sprintf("the command prints %s, which is not valid JSON (%s): %s", excerptOf(trimmed), serr.Msg, rejected(e))
			if quotesEaten(c.src, prints) {
				msg += `; the shell removed the double quotes, so put the JSON in single quotes`
			}
			r.report(f, whole, "", "%s", msg)
			return
		}
		if e == schema.PreToolUse {
			r.report(f, whole, "", "the command prints text, not a JSON answer (%s): %s; print messages on stderr (>&2)", excerptOf(trimmed), rejected(e))
			return
		}
		r.reportSeverity(f, Warning, whole, "", "the command prints text, not a JSON answer (%s): the agent rejects it, so nobody sees it; %s", excerptOf(trimmed), showText(e))
		return
	}
	if root.Kind != schema.Object {
		r.report(f, whole, "", "the command prints %s, not a JSON object: %s", root.Describe(), rejected(e))
		return
	}
	at := func(span schema.Span) schema.Span { return printedSpan(f, h, prints, span, whole) }
	decisionTypo := false
	for _, k := range schema.UnknownAnswerKeys(e, root) {
		near := schema.Nearest(k.Member.Key, k.Known)
		decisionTypo = decisionTypo || near == "decision" && k.Path == k.Member.Key
		holds := "is {}"
		if len(k.Known) > 0 {
			holds = "holds " + quoteList(k.Known)
		}
		where := fmt.Sprintf("a %s answer", e)
		if strings.Contains(k.Path, ".") || strings.Contains(k.Path, "[") {
			where = "this part of the answer"
		}
		msg := fmt.Sprintf("%s is not a key of %s, which %s: the agent aborts the invocation on it", strconv.Quote(k.Path), where, holds)
		span := at(inner(k.Member.KeySpan))
		var fix *Fix
		sugg := ""
		if near != "" {
			msg += fmt.Sprintf("; did you mean %q?", near)
			if span != whole {
				sugg = near
				fix = &Fix{Description: "write " + strconv.Quote(near), Edits: []Edit{{Span: span, Text: near}}}
			}
		}
		r.reportFix(f, span, fix, sugg, "%s", msg)
	}
	for _, v := range schema.AnswerValues(e, root) {
		msg := fmt.Sprintf("%s %s: %s", strconv.Quote(v.Path), v.Why, rejected(e))
		span, sugg := at(v.Value.Span), ""
		if v.Nearest != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", v.Nearest)
			if span = at(inner(v.Value.Span)); span != whole {
				sugg = v.Nearest
			}
		}
		r.report(f, span, sugg, "%s", msg)
	}
	d := root.Get("decision")
	switch {
	case e == schema.PreToolUse && d == nil && !decisionTypo:
		what := "{}"
		if len(root.Members) > 0 {
			what = "an answer without \"decision\""
		}
		when := "the command"
		if branch {
			when = "this part of the command"
		}
		r.report(f, whole, "",
			"%s prints %s on PreToolUse: without a decision the agent denies every call the hook matches; print {\"decision\":\"ask\"} (or nothing) to leave the call to the user's settings, or give the decision you mean",
			when, what)
	case e == schema.Stop && d != nil && d.Value.Kind == schema.String && d.Value.Str != schema.Continue && d.Value.Str != string(schema.Allow):
		span, sugg := at(inner(d.Value.Span)), ""
		if span != whole {
			sugg = schema.Continue
		}
		r.reportSeverity(f, Warning, span, sugg,
			"%s is not a Stop decision: like every decision but \"continue\" it lets the agent stop; write \"continue\" to keep it going, or \"allow\"", strconv.Quote(d.Value.Str))
	}
}

// printedSpan maps a span of the printed text to hooks.json, through the
// print it stands in when that print stands in the command byte for byte;
// else it is otherwise.
func printedSpan(f *File, h handlerRef, prints []shellcmd.Print, s, otherwise schema.Span) schema.Span {
	start := 0
	for _, p := range prints {
		end := start + len(p.Text)
		if s.Start.Offset >= start && s.End.Offset <= end {
			if !p.Exact {
				return otherwise
			}
			return f.strSpan(h.Command, p.Base+s.Start.Offset-start, p.Base+s.End.Offset-start)
		}
		start = end
	}
	return otherwise
}

// inner is the span of a key's text without its quotes.
func inner(key schema.Span) schema.Span {
	key.Start.Offset++
	key.End.Offset--
	return key
}

// showText says how a handler of the event gets a message to the model.
func showText(e schema.Event) string {
	switch e {
	case schema.Stop:
		return `to keep the agent going with a message, answer {"decision":"continue","reason":"..."}; print logs on stderr (>&2)`
	case schema.PostToolUse:
		return "a PostToolUse answer is {}, so print logs on stderr (>&2)"
	}
	return `to give the model a message, answer {"injectSteps":[{"ephemeralMessage":"..."}]}; print logs on stderr (>&2)`
}

// rejected says what the agent does with an answer it cannot take.
func rejected(e schema.Event) string {
	if e == schema.PreToolUse {
		return "the agent fails closed and denies every call the hook matches"
	}
	return "the agent rejects the answer"
}

// quotesEaten reports whether the printed words hold double quotes that
// the shell removes: echo {"decision":"allow"} prints {decision:allow}.
func quotesEaten(src string, prints []shellcmd.Print) bool {
	for _, p := range prints {
		raw := src[p.From:min(p.To, len(src))]
		if !strings.HasPrefix(raw, "'") && strings.Contains(raw, `"`) && !strings.Contains(p.Text, `"`) {
			return true
		}
	}
	return false
}

func quoteList(keys []string) string {
	if len(keys) == 1 {
		return "only " + strconv.Quote(keys[0])
	}
	return schema.QuoteList(keys, "and")
}

// excerptOf quotes the start of printed text for a message.
func excerptOf(s string) string {
	const most, head = 60, 8 * 60
	if !utf8.ValidString(s) {
		// Of a long text, the start is enough when it holds more than
		// most characters once its invalid bytes are replaced.
		t := strings.ToValidUTF8(s[:min(len(s), head)], "\uFFFD")
		if len(s) > head && utf8.RuneCountInString(t) <= most {
			t = strings.ToValidUTF8(s, "\uFFFD")
		}
		s = t
	}
	return strconv.Quote(schema.Shorten(s, most))
}
