package lint

import (
	"github.com/hookctl/hookctl/schema"
)

type emptyHook struct{ RuleBase }

func newEmptyHook() Rule {
	return &emptyHook{newBase("empty-hook", Warning,
		"a hook with no events, an event with no entries, a group with no handlers")}
}

func (r *emptyHook) Check(f *File) {
	for _, h := range f.hooks() {
		v := h.Member.Value
		if v.Kind != schema.Object {
			continue
		}
		others := false
		for i := range v.Members {
			m := &v.Members[i]
			if m.Key != "enabled" {
				others = true
			}
			if !schema.Event(m.Key).Valid() || m.Value.Kind != schema.Array {
				continue
			}
			if len(m.Value.Elems) == 0 {
				r.report(f, m.Value.Span, "", "%s of the hook %q has no entries, so it does nothing: add a handler or remove the event", m.Key, h.Name)
			}
		}
		if !others {
			r.report(f, h.Member.KeySpan, "", "the hook %q has no events, so it does nothing: add one, such as \"PreToolUse\": [...], or remove the hook", h.Name)
		}
	}
	for _, g := range f.groups() {
		hs := g.Node.Get("hooks")
		if hs.Value.Kind == schema.Array && len(hs.Value.Elems) == 0 {
			r.report(f, hs.Value.Span, "", "this matcher group of %s has no handlers, so it does nothing: add one, such as {\"command\": \"./scripts/check.sh\"}", g.Event)
		}
	}
}
