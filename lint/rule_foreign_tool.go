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
		if g.Matcher == nil || g.Matcher.Kind != schema.String {
			continue
		}
		text := g.Matcher.Str
		m, err := schema.CompileMatcher(text)
		if err != nil || m.MatchesAll() {
			continue
		}
		// A foreign name counts when the matcher spells it out and selects
		// it: "run_command|Bash" and "^(?:Bash|Read)$" do, ".*" does not.
		for _, ft := range schema.ForeignTools {
			i := wordIndex(text, ft.Name)
			if i < 0 || !m.Match(ft.Name) || schema.IsKnownTool(ft.Name) {
				continue
			}
			r.reportTool(f, f.strSpan(g.Matcher, i, i+len(ft.Name)), ft)
		}
	}
}

func (r *foreignTool) reportTool(f *File, span schema.Span, ft schema.ForeignTool) {
	who := "another agent's tool"
	if len(ft.Agents) > 0 {
		who = "a " + agentsTitle(ft.Agents) + " tool"
	}
	if ft.Tool == "" {
		r.report(f, span, "", "%q is %s with no equivalent here: %s", ft.Name, who, ft.Note)
		return
	}
	msg := fmt.Sprintf("%q is %s, which this agent does not have: write %q", ft.Name, who, ft.Tool)
	if ft.Note != "" {
		msg += " (" + ft.Note + ")"
	}
	r.report(f, span, ft.Tool, "%s", msg)
}
