package lint

import (
	"strings"

	"github.com/hookctl/hookctl/schema"
)

type enabledType struct{ RuleBase }

func newEnabledType() Rule {
	return &enabledType{newBase(schema.RuleEnabledType, Error,
		"\"enabled\" not a boolean (\"false\")")}
}

func (r *enabledType) Check(f *File) {
	for _, p := range f.problems(r.id) {
		sugg := ""
		if n := nodeAt(f.Config.Root, p.Span); n != nil {
			switch {
			case n.Kind == schema.String && strings.EqualFold(strings.TrimSpace(n.Str), "false"), n.Kind == schema.Number && n.Str == "0", n.Kind == schema.String && n.Str == "0":
				sugg = "false"
			case n.Kind == schema.String && strings.EqualFold(strings.TrimSpace(n.Str), "true"), n.Kind == schema.Number && n.Str == "1", n.Kind == schema.String && n.Str == "1":
				sugg = "true"
			}
		}
		msg := p.Msg
		var fix *Fix
		if sugg != "" {
			msg += ": write " + sugg
			fix = replaceFix("write "+sugg+" without quotes", p.Span, sugg)
		}
		r.reportProblem(f, &p, p.Span, fix, sugg, "%s", msg)
	}
}
