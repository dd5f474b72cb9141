package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hookctl/hookctl/schema"
)

type jsonSyntax struct{ RuleBase }

func newJSONSyntax() Rule {
	return &jsonSyntax{newBase("json-syntax", Error,
		"not valid JSON: trailing comma, comment, truncated file, empty file, BOM")}
}

func (r *jsonSyntax) Check(f *File) {
	e := f.Config.Syntax
	if e == nil {
		return
	}
	end := e.Pos
	if end.Offset < len(f.Config.Src) {
		end.Offset++
		end.Col++
	}
	span := schema.Span{Start: e.Pos, End: end}
	r.reportFix(f, span, trailingCommas(f.Config.Src, e), "", "%s", e.Msg)
}

// maxCommas bounds how many trailing commas one fix removes: the parser
// stops at the first, so each further one costs a parse.
const maxCommas = 200

// trailingCommas returns the fix that removes a trailing comma the parser
// stopped at and every trailing comma after it, up to maxCommas, nil when
// e is not a trailing comma.
func trailingCommas(src []byte, e *schema.SyntaxError) *Fix {
	isComma := func(b []byte, e *schema.SyntaxError) bool {
		return e != nil && strings.HasPrefix(e.Msg, "trailing comma") && e.Pos.Offset < len(b) && b[e.Pos.Offset] == ','
	}
	if !isComma(src, e) {
		return nil
	}
	fix := &Fix{Description: "remove the trailing comma"}
	// Each removal leaves the text after it one byte, and on its line one
	// column, earlier: an edit is given back in the file's own places.
	cur := src
	removed := map[int]int{} // by line
	for n := 0; n < maxCommas && isComma(cur, e); n++ {
		p := e.Pos
		at := schema.Pos{Offset: p.Offset + n, Line: p.Line, Col: p.Col + removed[p.Line]}
		fix.Edits = append(fix.Edits, Edit{Span: schema.Span{Start: at, End: schema.Pos{Offset: at.Offset + 1, Line: at.Line, Col: at.Col + 1}}})
		removed[p.Line]++
		cur = slices.Concat(cur[:p.Offset], cur[p.Offset+1:])
		// Read as the file was, within the bound on values: a file of
		// millions past its trailing comma costs no tree of them.
		_, _, e = schema.ParseJSONBounded(cur)
	}
	if len(fix.Edits) > 1 {
		fix.Description = fmt.Sprintf("remove the %d trailing commas", len(fix.Edits))
	}
	return fix
}
