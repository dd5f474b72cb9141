package lint

import (
	"strings"

	"github.com/hookctl/hookctl/schema"
)

type matcherSyntax struct{ RuleBase }

func newMatcherSyntax() Rule {
	return &matcherSyntax{newBase(schema.RuleMatcherSyntax, Error,
		"a matcher that is not a valid RE2 regular expression; lookaround and backreferences named as such")}
}

func (r *matcherSyntax) Check(f *File) {
	for _, p := range f.problems(r.id) {
		sugg := ""
		n := nodeAt(f.Config.Root, p.Span)
		if n != nil && n.Str != "" {
			if g := globToRegexp(n.Str); g != n.Str && validMatcher(g) {
				sugg = g
			} else if strings.HasPrefix(n.Str, "*") || strings.Contains(n.Str, "|*") {
				sugg = strings.ReplaceAll(strings.ReplaceAll(n.Str, "|*", "|.*"), "^*", "^.*")
				if strings.HasPrefix(sugg, "*") {
					sugg = "." + sugg
				}
				if !validMatcher(sugg) {
					sugg = ""
				}
			}
		}
		r.reportProblem(f, &p, p.Span, nil, sugg, "%s", p.Msg)
	}
}
