package lint

import (
	"github.com/hookctl/hookctl/schema"
)

type jsonSyntax struct{ RuleBase }

func newJSONSyntax() Rule {
	return &jsonSyntax{newBase(schema.RuleJSONSyntax, Error,
		"not valid JSON: comment, trailing or missing comma, single quotes, truncated file, empty file, BOM")}
}

// Check reports every syntax mistake the file's reading met (see
// schema.ParseRecovering), each at its place; the text that JSON forbids
// and that means nothing (a comment, a trailing comma, a byte order mark)
// comes with the fix that deletes it.
func (r *jsonSyntax) Check(f *File) {
	for _, e := range f.syntaxErrors() {
		span := e.Remove
		if span.End.Offset <= span.Start.Offset {
			span = schema.Span{Start: e.Pos, End: e.Pos}
			if e.Pos.Offset < len(f.Config.Src) {
				span.End.Offset++
				span.End.Col++
			}
		}
		r.reportFix(f, span, removeFix(f.Config.Src, e), "", "%s", e.Msg)
	}
}

// syntaxErrors returns the file's syntax mistakes: every one its reading
// met, or the one a strict reading stops at.
func (f *File) syntaxErrors() []*schema.SyntaxError {
	if f.Config.SyntaxErrors != nil {
		return f.Config.SyntaxErrors
	}
	if f.Config.Syntax != nil {
		return []*schema.SyntaxError{f.Config.Syntax}
	}
	return nil
}

// removeFix is the fix that deletes the text a syntax mistake names (see
// schema.SyntaxError.Remove), nil when there is none. A comment goes with
// the blanks it would leave behind: its whole line when it stands alone on
// it, the blanks before it when it ends its line, those after it
// otherwise.
func removeFix(src []byte, e *schema.SyntaxError) *Fix {
	from, to := e.Remove.Start, e.Remove.End
	if to.Offset <= from.Offset || to.Offset > len(src) {
		return nil
	}
	var what string
	switch src[from.Offset] {
	case ',':
		what = "the trailing comma"
	case 0xEF:
		what = "the byte order mark"
	case '/', '#':
		what = "the comment"
		before := from.Offset
		for before > 0 && (src[before-1] == ' ' || src[before-1] == '\t') {
			before--
		}
		after := to.Offset
		for after < len(src) && (src[after] == ' ' || src[after] == '\t') {
			after++
		}
		startsLine := before == 0 || src[before-1] == '\n' || src[before-1] == '\r'
		endsLine := after == len(src) || src[after] == '\n' || src[after] == '\r'
		// The blanks are one byte and one column each.
		switch {
		case startsLine && endsLine && after < len(src):
			brk := 1
			if src[after] == '\r' && after+1 < len(src) && src[after+1] == '\n' {
				brk = 2
			}
			from = schema.Pos{Offset: before, Line: from.Line, Col: 1}
			to = schema.Pos{Offset: after + brk, Line: to.Line + 1, Col: 1}
		case endsLine:
			from = schema.Pos{Offset: before, Line: from.Line, Col: from.Col - (from.Offset - before)}
			to = schema.Pos{Offset: after, Line: to.Line, Col: to.Col + (after - to.Offset)}
		default:
			to = schema.Pos{Offset: after, Line: to.Line, Col: to.Col + (after - to.Offset)}
		}
	default:
		return nil
	}
	return &Fix{Description: "remove " + what, Edits: []Edit{{Span: schema.Span{Start: from, End: to}}}}
}
