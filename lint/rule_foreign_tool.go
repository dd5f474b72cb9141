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
		for _, h := range f.fs.matcher(g.Matcher.Str).foreignTools(g.Matcher.Str) {
			span := f.strSpan(g.Matcher, h.at, h.at+len(h.ft.Name))
			var fix *Fix
			if h.ft.Tool != "" {
				// One edit writes the tool meant and drops the glob stars
				// after the name, which matcher-no-tool explains.
				desc := "write " + quoted(h.ft.Tool)
				if written := g.Matcher.Str[h.at:h.end]; written != h.ft.Name {
					desc += " for " + quoted(written)
				}
				repl := asAlternative(g.Matcher.Str, h.at, h.end, h.ft.Tool)
				fix = replaceFix(desc, f.strSpan(g.Matcher, h.at, h.end), jsonInner(repl))
			}
			r.reportTool(f, span, h.ft, fix)
		}
	}
}

func (r *foreignTool) reportTool(f *File, span schema.Span, ft schema.ForeignTool, fix *Fix) {
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
	r.reportFix(f, span, fix, ft.Tool, "%s", msg)
}
