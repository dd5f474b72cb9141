package lint

import (
	"github.com/hookctl/hookctl/schema"
)

type agentVersion struct{ RuleBase }

func newAgentVersion() Rule {
	return &agentVersion{newBase("agent-version", Info,
		"an event that only newer versions of the agent fire (SessionStart: agy "+schema.SessionStartSince+" or later)")}
}

// Check reports once per file, at the first SessionStart: the file is
// right, but an older agent loads it without ever running those handlers.
func (r *agentVersion) Check(f *File) {
	var first *schema.Member
	hooks := 0
	for _, h := range f.hooks() {
		if h.Member.Value.Kind != schema.Object {
			continue
		}
		// A SessionStart that is not an array (null) has no handler to
		// run: event-shape says so, and the agent's version does not matter.
		if m := h.Member.Value.Get(string(schema.SessionStart)); m != nil && m.Value.Kind == schema.Array {
			if first == nil {
				first = m
			}
			hooks++
		}
	}
	if first == nil {
		return
	}
	which := "this hook's SessionStart handlers"
	if hooks > 1 {
		which = "the SessionStart handlers of these hooks"
	}
	r.report(f, first.KeySpan, "",
		"SessionStart fires from agy %s on: an older agy loads this file but never runs %s (agy --version tells which you have)",
		schema.SessionStartSince, which)
}
