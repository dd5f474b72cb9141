package lint

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hookctl/hookctl/schema"
)

type unknownField struct{ RuleBase }

func newUnknownField() Rule {
	return &unknownField{newBase(schema.RuleUnknownField, Error,
		"an unknown key in a matcher group or handler (cmd, timeoutMs, matchers)")}
}

// fieldMeant maps keys that other formats or guesses use to the field of
// this format they stand for, with why.
var fieldMeant = map[string]struct{ field, why string }{
	"cmd":        {"command", ""},
	"script":     {"command", ""},
	"run":        {"command", ""},
	"exec":       {"command", ""},
	"shell":      {"command", ""},
	"timeoutMs":  {"timeout", "in seconds, not milliseconds"},
	"timeout_ms": {"timeout", "in seconds, not milliseconds"},
	"timeoutSec": {"timeout", "in seconds"},
	"matchers":   {"matcher", "one regular expression, such as \"run_command|view_file\""},
	"tool":       {"matcher", "a regular expression of tool names"},
	"tools":      {"matcher", "a regular expression of tool names, such as \"run_command|view_file\""},
	"tool_name":  {"matcher", "a regular expression of tool names"},
	"toolName":   {"matcher", "a regular expression of tool names"},
	"handlers":   {"hooks", "the list of handlers"},
}

func (r *unknownField) Check(f *File) {
	// A handler without "command" whose command stands under another key
	// gets one finding, from missing-command, which says to rename it.
	var noCommand []schema.Span
	for _, p := range f.problems(schema.RuleMissingCommand) {
		if p.Key == "command" {
			noCommand = append(noCommand, p.Span)
		}
	}
	for _, p := range f.problems(r.id) {
		if p.Key == "matcher" && p.Context == "handler" && len(p.Events) == 1 && !p.Events[0].IsTool() {
			continue // ignored-matcher says it better
		}
		if p.Context == "handler" && contains(commandLike, p.Key) && within(p.Span, noCommand) {
			continue
		}
		msg, sugg := p.Msg, ""
		known := schema.HandlerKeys
		if p.Context == "group" {
			known = schema.GroupKeys
		}
		switch {
		case p.Key == "matcher" && p.Context == "handler":
			msg = "\"matcher\" belongs to the matcher group, not to a handler, where it is ignored: move it next to \"hooks\""
		case p.Context == "group" && (p.Key == "command" || p.Key == "type" || p.Key == "timeout"):
			msg = fmt.Sprintf("%q belongs to a handler, not to the matcher group: move it into the group's \"hooks\" array", p.Key)
		default:
			if m, ok := fieldMeant[p.Key]; ok && contains(known, m.field) {
				sugg = m.field
				msg = fmt.Sprintf("%q is not a field of a %s: write %q", p.Key, contextName(p.Context), m.field)
				if m.why != "" {
					msg += " (" + m.why + ")"
				}
			} else if near := schema.Nearest(p.Key, known); near != "" {
				sugg = near
				msg = fmt.Sprintf("%q is not a field of a %s: did you mean %q?", p.Key, contextName(p.Context), near)
			} else {
				msg += "; remove it (the agent may reject unknown fields)"
			}
		}
		r.reportProblem(f, &p, p.Span, fieldFix(f, p, sugg), sugg, "%s", msg)
	}
}

// fieldFix renames an unknown key to the field it stands for, when its
// value is of the field's kind and no other key fills the field: a
// timeout in milliseconds ("timeoutMs": 5000) also becomes seconds, when
// it is whole seconds.
func fieldFix(f *File, p schema.Problem, field string) *Fix {
	if field == "" {
		return nil
	}
	obj, m := memberAt(f.Config.Root, p.Span)
	if m == nil {
		return nil
	}
	v := m.Value
	switch field {
	case "matcher":
		if v.Kind == schema.Array {
			return matchersFix(obj, m, p.Context)
		}
		if v.Kind != schema.String {
			return nil
		}
	case "command":
		if v.Kind != schema.String {
			return nil
		}
	case "hooks":
		if v.Kind != schema.Array {
			return nil
		}
	case "timeout":
		if v.Kind != schema.Number {
			return nil
		}
	default:
		return nil
	}
	fix := renameFix(obj, m, p.Context, field)
	if fix == nil || field != "timeout" {
		return fix
	}
	secs, err := strconv.ParseInt(v.Str, 10, 32)
	if m.Key == "timeoutMs" || m.Key == "timeout_ms" {
		if err != nil || secs < 1000 || secs%1000 != 0 {
			return nil
		}
		secs /= 1000
		fix.Description = fmt.Sprintf("write \"timeout\": %d (seconds)", secs)
		fix.Edits = append(fix.Edits, Edit{Span: v.Span, Text: strconv.FormatInt(secs, 10)})
		return fix
	}
	if err != nil || secs < 1 {
		return nil
	}
	return fix
}

func contextName(c string) string {
	if c == "group" {
		return "matcher group"
	}
	return c
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// within reports whether span lies inside one of the spans.
func within(span schema.Span, spans []schema.Span) bool {
	for _, s := range spans {
		if span.Start.Offset >= s.Start.Offset && span.End.Offset <= s.End.Offset {
			return true
		}
	}
	return false
}

// matchersFix writes a list of tool names or expressions ("matchers":
// ["run_command", "view_file"]) as the one expression that matches any of
// them ("matcher": "run_command|view_file").
func matchersFix(obj *schema.Node, m *schema.Member, context string) *Fix {
	var alts []string
	for _, e := range m.Value.Elems {
		if e.Kind != schema.String || e.Str == "" {
			return nil
		}
		alts = append(alts, e.Str)
	}
	fix := renameFix(obj, m, context, "matcher")
	if fix == nil || len(alts) == 0 {
		return nil
	}
	joined := strings.Join(alts, "|")
	fix.Description = "write \"matcher\": " + quoted(joined)
	fix.Edits = append(fix.Edits, Edit{Span: m.Value.Span, Text: quoted(joined)})
	return fix
}
