package lsp

import (
	"sort"
	"unicode/utf8"

	"github.com/hookctl/hookctl/lint"
	"github.com/hookctl/hookctl/schema"
)

// shift moves findings of the text old to the document's new text: a
// finding before the part that changed stays, one after it moves by the
// change in length, and one that meets the changed part is dropped, since
// the text it is about is not there any more. The changed part is what
// lies between the texts' common beginning and common end, so a client
// that sends the whole text on every change keeps its findings as well as
// one that sends the range.
func shift(findings []lint.Finding, old []byte, doc *Document) []lint.Finding {
	text := doc.Text
	n := min(len(old), len(text))
	pre := 0
	for pre < n && old[pre] == text[pre] {
		pre++
	}
	suf := 0
	for suf < n-pre && old[len(old)-1-suf] == text[len(text)-1-suf] {
		suf++
	}
	oldEnd := len(old) - suf // the changed part is old[pre:oldEnd]
	delta := len(text) - len(old)
	out := make([]lint.Finding, 0, len(findings))
	for _, f := range findings {
		from, to := f.Span.Start.Offset, f.Span.End.Offset
		switch {
		case from < 0 || to < from || to > len(old):
			continue // not a span of old: nowhere to move it
		case to <= pre:
		case from >= oldEnd:
			f.Span.Start = doc.pos(from + delta)
			f.Span.End = doc.pos(to + delta)
		default:
			continue
		}
		out = append(out, f)
	}
	return out
}

// pos is the place of a byte offset as lint counts it: a 1-based line and
// a 1-based column in characters.
func (d *Document) pos(off int) schema.Pos {
	l := sort.Search(len(d.lines), func(i int) bool { return d.lines[i] > off }) - 1
	return schema.Pos{Line: l + 1, Col: utf8.RuneCount(d.Text[d.lines[l]:off]) + 1, Offset: off}
}
