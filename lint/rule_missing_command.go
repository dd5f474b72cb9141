package lint

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hookctl/hookctl/schema"
)

type missingCommand struct{ RuleBase }

func newMissingCommand() Rule {
	return &missingCommand{newBase(schema.RuleMissingCommand, Error,
		"a handler with no \"command\", an empty one, or one that is not a string")}
}

// commandLike are keys that people use for the command.
var commandLike = []string{"cmd", "script", "run", "exec", "shell", "path", "file"}

func (r *missingCommand) Check(f *File) {
	for _, p := range f.problems(r.id) {
		msg, sugg := p.Msg, ""
		var fix *Fix
		if n := nodeAt(f.Config.Root, p.Span); n != nil && n.Kind == schema.Object {
			for _, k := range commandLike {
				if m := n.Get(k); m != nil && m.Value.Kind == schema.String {
					sugg = fmt.Sprintf("\"command\": %s", strconv.Quote(m.Value.Str))
					msg = fmt.Sprintf("the handler has no \"command\": rename %q to \"command\"", k)
					if strings.TrimSpace(m.Value.Str) != "" {
						fix = renameFix(n, m, "handler", "command")
					}
					break
				}
			}
		}
		r.reportProblem(f, &p, p.Span, fix, sugg, "%s", msg)
	}
}
