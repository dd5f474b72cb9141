package lint

import "github.com/hookctl/hookctl/schema"

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
	r.report(f, schema.Span{Start: e.Pos, End: end}, "", "%s", e.Msg)
}
