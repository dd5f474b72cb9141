package lint

import (
	"fmt"
	"strings"

	"github.com/hookctl/hookctl/schema"
)

type unknownEvent struct{ RuleBase }

func newUnknownEvent() Rule {
	return &unknownEvent{newBase(schema.RuleUnknownEvent, Error,
		"a key in a hook definition that is neither \"enabled\" nor an event")}
}

func (r *unknownEvent) Check(f *File) {
	for _, p := range f.problems(r.id) {
		msg, sugg := unknownEventMessage(p.Key)
		var fix *Fix
		if e, ok := eventFix(p.Key); ok {
			if obj, m := memberAt(f.Config.Root, p.Span); m != nil {
				fix = renameFix(obj, m, "hook", string(e))
			}
		}
		r.reportProblem(f, &p, p.Span, fix, sugg, "%s", msg)
	}
}

// eventFix returns the event an unknown key certainly means: a near-miss
// spelling of it, or another agent's name for it that means the same here
// (no note on what differs, no matcher to add).
func eventFix(key string) (schema.Event, bool) {
	e, ok := schema.EventMeant(key)
	if !ok {
		return "", false
	}
	if fe, foreign := schema.LookupForeignEvent(key); foreign && (fe.Note != "" || fe.Matcher != "") {
		return "", false
	}
	return e, true
}

// unknownEventMessage explains a key that is not an event and names the
// event meant: another agent's name for it, or the nearest spelling.
func unknownEventMessage(key string) (msg, suggestion string) {
	if fe, ok := schema.LookupForeignEvent(key); ok && !schema.Event(key).Valid() {
		who := agentsTitle(fe.Agents)
		if fe.Event == "" {
			return fmt.Sprintf("%q is a %s event with no equivalent here: %s", key, who, fe.Note), ""
		}
		msg = fmt.Sprintf("%q is a %s event: here it is %s", key, who, fe.Event)
		if fe.Matcher != "" {
			msg += fmt.Sprintf(" with the matcher %q", fe.Matcher)
		}
		if fe.Note != "" {
			msg += " (" + fe.Note + ")"
		}
		return msg, string(fe.Event)
	}
	near := schema.Nearest(key, schema.HookKeys)
	if near != "" {
		return fmt.Sprintf("%q is not an event: did you mean %q?", key, near), near
	}
	return fmt.Sprintf("%q is not an event: a hook definition holds \"enabled\" and the events %s", key, strings.Join(schema.EventNames(), ", ")), ""
}

func agentsTitle(agents []schema.Agent) string {
	if len(agents) == 0 {
		return "another agent's"
	}
	names := make([]string, len(agents))
	for i, a := range agents {
		names[i] = a.Title()
	}
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
