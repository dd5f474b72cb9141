package lint

import (
	"fmt"

	"github.com/hookctl/hookctl/schema"
)

type foreignTool struct{ RuleBase }

func newForeignTool() Rule {
	return &foreignTool{newBase("foreign-tool", Warning,
		"a matcher names another agent's tool (Bash, Write, Edit, write_file, apply_patch, ...); suggests the equivalent tool")}
}

func (r *foreignTool) Check(f *File) {
	for _, g := range f.groups() {
		if g.Matcher == nil || g.Matcher.Kind != schema.String || !validMatcher(g.Matcher.Str) {
			continue
		}
		for _, a := range alternatives(g.Matcher.Str) {
			ft, ok := schema.LookupForeignTool(a.text)
			if !ok || schema.IsKnownTool(a.text) {
				continue
			}
			span := f.strSpan(g.Matcher, a.from, a.to)
			who := "another agent's tool"
			if len(ft.Agents) > 0 {
				who = "a " + agentsTitle(ft.Agents) + " tool"
			}
			if ft.Tool == "" {
				r.report(f, span, "", "%q is %s with no equivalent here: %s", a.text, who, ft.Note)
				continue
			}
			msg := fmt.Sprintf("%q is %s, which this agent does not have: write %q", a.text, who, ft.Tool)
			if ft.Note != "" {
				msg += " (" + ft.Note + ")"
			}
			r.report(f, span, ft.Tool, "%s", msg)
		}
	}
}
