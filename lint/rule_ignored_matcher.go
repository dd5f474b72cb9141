package lint

import "github.com/hookctl/hookctl/schema"

type ignoredMatcher struct{ RuleBase }

func newIgnoredMatcher() Rule {
	return &ignoredMatcher{newBase("ignored-matcher", Warning,
		"\"matcher\" where it is ignored (SessionStart, PreInvocation, PostInvocation, Stop)")}
}

func (r *ignoredMatcher) Check(f *File) {
	for _, p := range f.problems(schema.RuleUnknownField) {
		if p.Key != "matcher" || p.Context != "handler" || len(p.Events) != 1 || p.Events[0].IsTool() {
			continue
		}
		r.reportProblem(f, &p, p.Span, nil, "",
			"%s has no matcher: its handlers run on every %s, so this \"matcher\" is ignored; remove it, or move the hook to PreToolUse or PostToolUse to select tools",
			p.Events[0], p.Events[0])
	}
}
