package lint

import (
	"strings"

	"github.com/hookctl/hookctl/schema"
)

type duplicateHandler struct{ RuleBase }

func newDuplicateHandler() Rule {
	return &duplicateHandler{newBase("duplicate-handler", Warning,
		"the same command twice on one event with overlapping matchers")}
}

func (r *duplicateHandler) Check(f *File) {
	type seen struct {
		h       handlerRef
		matcher string
	}
	byKey := map[string][]seen{}
	for _, h := range f.allHandlers() {
		if h.Command == nil {
			continue
		}
		matcher := ""
		if h.Group != nil && h.Group.Matcher != nil && h.Group.Matcher.Kind == schema.String {
			matcher = h.Group.Matcher.Str
		}
		key := string(h.Event) + "\x00" + strings.Join(strings.Fields(h.Command.Str), " ")
		for _, s := range byKey[key] {
			if !h.Event.IsTool() || overlap(s.matcher, matcher) {
				where := ""
				if s.h.Hook != h.Hook {
					where = " in the hook \"" + s.h.Hook + "\""
				}
				r.report(f, h.Command.Span, "",
					"the same command already runs on %s at %s%s for overlapping tools: remove one, or merge their matchers into one group",
					h.Event, s.h.Command.Span.Start, where)
				break
			}
		}
		byKey[key] = append(byKey[key], seen{h, matcher})
	}
}

// overlap reports whether two matchers select a common tool: both select
// every tool, they are written alike, or a known tool satisfies both.
func overlap(a, b string) bool {
	if a == b || selectsAll(a) || selectsAll(b) {
		return true
	}
	ma, err1 := schema.CompileMatcher(a)
	mb, err2 := schema.CompileMatcher(b)
	if err1 != nil || err2 != nil {
		return false
	}
	for _, t := range append(schema.ToolNames(), browserSamples...) {
		if ma.Match(t) && mb.Match(t) {
			return true
		}
	}
	return false
}
