package lint

import (
	"fmt"

	"github.com/hookctl/hookctl/schema"
)

type handlerType struct{ RuleBase }

func newHandlerType() Rule {
	return &handlerType{newBase(schema.RuleHandlerType, Error,
		"a handler \"type\" other than \"command\"")}
}

func (r *handlerType) Check(f *File) {
	for _, p := range f.problems(r.id) {
		msg := p.Msg
		if n := nodeAt(f.Config.Root, p.Span); n != nil && n.Kind == schema.String {
			switch {
			case schema.Event(n.Str).Valid():
				msg = fmt.Sprintf("the handler type must be \"command\": %s is an event, which goes in the hook definition as a key, {\"my-hook\": {%q: [...]}}", n.Str, n.Str)
			case n.Str == "prompt" || n.Str == "agent":
				msg = fmt.Sprintf("the handler type must be \"command\": %q handlers belong to Claude Code; here a handler is a shell command, so the hook needs a script that does the check", n.Str)
			}
		}
		r.reportProblem(f, &p, p.Span, nil, `"command"`, "%s", msg)
	}
}
