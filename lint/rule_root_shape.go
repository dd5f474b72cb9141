package lint

import (
	"fmt"

	"github.com/hookctl/hookctl/schema"
)

type rootShape struct{ RuleBase }

func newRootShape() Rule {
	return &rootShape{newBase(schema.RuleRootShape, Error,
		"top level not an object; a hook definition not an object")}
}

func (r *rootShape) Check(f *File) {
	for _, p := range f.problems(r.id) {
		msg, sugg, span := p.Msg, "", p.Span
		if p.Context == "file" && (schema.Event(p.Key).Valid() || p.Key == "enabled") {
			if m := f.Config.Root.Get(p.Key); m != nil {
				span = m.KeySpan
			}
		}
		switch {
		case p.Context == "file" && schema.Event(p.Key).Valid():
			msg = fmt.Sprintf("%q is an event, not a hook name: the top level maps hook names to definitions, so put the event inside a named hook, as {\"my-hook\": {%q: [...]}}", p.Key, p.Key)
			sugg = fmt.Sprintf("{\"my-hook\": {%q: [...]}}", p.Key)
		case p.Context == "file" && p.Key == "enabled":
			msg = "\"enabled\" belongs inside a hook definition, not at the top level, where it reads as a hook: move it into the hook it turns on or off"
			sugg = "{\"my-hook\": {\"enabled\": false, ...}}"
		}
		r.reportProblem(f, &p, span, nil, sugg, "%s", msg)
	}
}
