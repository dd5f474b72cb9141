package lint

import (
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
	var fix *Fix
	if src := f.Config.Src; strings.HasPrefix(e.Msg, "trailing comma") && e.Pos.Offset < len(src) && src[e.Pos.Offset] == ',' {
		fix = replaceFix("remove the trailing comma", span, "")
	}
	r.reportFix(f, span, fix, "", "%s", e.Msg)
}
