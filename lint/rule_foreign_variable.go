package lint

import (
	"strings"

	"github.com/hookctl/hookctl/internal/lazyre"
)

type foreignVariable struct{ RuleBase }

func newForeignVariable() Rule {
	return &foreignVariable{newBase("foreign-variable", Warning,
		"a command that uses another agent's environment variable ($CLAUDE_PROJECT_DIR), which is empty here")}
}

var foreignVar = lazyre.New(`\$\{?((CLAUDE|GEMINI|CURSOR|CODEX)_[A-Z0-9_]+)\}?`)

// varOwner names the agent that sets a variable prefix.
var varOwner = map[string]string{"CLAUDE": "Claude Code", "GEMINI": "Gemini CLI", "CURSOR": "Cursor", "CODEX": "Codex"}

func (r *foreignVariable) Check(f *File) {
	for _, h := range f.allHandlers() {
		if h.Command == nil {
			continue
		}
		loc := foreignVar().FindStringSubmatchIndex(h.Command.Str)
		if loc == nil {
			continue
		}
		s := h.Command.Str
		name := s[loc[2]:loc[3]]
		owner := varOwner[s[loc[4]:loc[5]]]
		sugg := ""
		msg := name + " is set by " + owner + ", not by this agent, so it is empty here"
		if strings.HasSuffix(name, "_PROJECT_DIR") {
			sugg = ".."
			msg += "; handlers run in " + f.dirName() + ", so the workspace root is .. (or read workspacePaths[0] from the payload)"
		} else {
			msg += "; handlers read the event as JSON on stdin instead"
		}
		r.report(f, f.strSpan(h.Command, loc[0], loc[1]), sugg, "%s", msg)
	}
}
