package convert

import (
	"fmt"
	"strings"

	"github.com/hookctl/hookctl/schema"
)

// EventTable renders schema.ForeignEvents as the Markdown table that
// docs/import.md shows, one row per event, with the key of its source.
func EventTable() string {
	var b strings.Builder
	b.WriteString("| event | agents | becomes | what differs | source |\n| --- | --- | --- | --- | --- |\n")
	for _, e := range schema.ForeignEvents {
		to := "—"
		if e.Event != "" {
			to = string(e.Event)
			if e.Matcher != "" {
				to += " on " + code(e.Matcher)
			}
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", e.Name, agentList(e.Agents), to, cell(e.Note), e.Source)
	}
	return b.String()
}

// ToolTable renders schema.ForeignTools, with the arguments each renames.
func ToolTable() string {
	var b strings.Builder
	b.WriteString("| tool | agents | becomes | arguments | note | source |\n| --- | --- | --- | --- | --- | --- |\n")
	for _, t := range schema.ForeignTools {
		to := "—"
		if t.Tool != "" {
			to = code(t.Tool)
		}
		var args []string
		for _, a := range t.Args {
			args = append(args, argCell(a))
		}
		if t.Patch {
			args = append(args, "each file of the patch: `write_to_file` (added, deleted, moved to), `replace_file_content` (updated, moved from)")
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s |\n", t.Name, agentList(t.Agents), to, strings.Join(args, ", "), cell(t.Note), t.Source)
	}
	return b.String()
}

// AnswerTable renders schema.ForeignAnswers: each field of the other
// agents' answers, the events that read it, and what it is here.
func AnswerTable() string {
	var b strings.Builder
	b.WriteString("| field | value | agents | events | here | note | source |\n| --- | --- | --- | --- | --- | --- | --- |\n")
	for _, r := range schema.ForeignAnswers {
		field := code(r.Field)
		if r.Field == schema.AnswerExit2 || r.Field == schema.AnswerPlainText {
			field = r.Field
		}
		value, events := "", "every event"
		if r.Value != "" {
			value = code(r.Value)
		}
		if r.Events != nil {
			var es []string
			for _, e := range r.Events {
				es = append(es, "`"+e+"`")
			}
			events = strings.Join(es, ", ")
		}
		note := r.Note
		if r.Needs != "" {
			note = strings.TrimSpace("only with `" + r.Needs + "`; " + note)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s |\n", field, value, agentList(r.Agents), events, r.Effect, cell(note), r.Source)
	}
	return b.String()
}

// SourceTable renders schema.ForeignSources.
func SourceTable() string {
	var b strings.Builder
	b.WriteString("| source | document | version |\n| --- | --- | --- |\n")
	for _, s := range schema.ForeignSources {
		doc := s.Title
		if s.URL != "" {
			doc = fmt.Sprintf("[%s](%s)", s.Title, s.URL)
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", s.Key, doc, cell(s.Version))
	}
	return b.String()
}

func argCell(a schema.ForeignArg) string {
	from := "`" + a.From + "`"
	for _, also := range a.Also {
		from += " (or `" + also + "`)"
	}
	to := "`" + a.To + "`"
	switch {
	case a.Format != "":
		to = "`" + a.To + "` as `" + a.Format + "`"
	case a.List:
		to += " (a list of one)"
	case len(a.Elems) > 0:
		var elems []string
		for _, e := range a.Elems {
			elems = append(elems, argCell(e))
		}
		to += " (each: " + strings.Join(elems, ", ") + ")"
	}
	return from + " → " + to
}

func agentList(agents []schema.Agent) string {
	if len(agents) == 0 {
		return "other agents"
	}
	names := make([]string, len(agents))
	for i, a := range agents {
		names[i] = a.Title()
	}
	return strings.Join(names, ", ")
}

// code writes a code span in a table cell, whose pipes must be escaped.
func code(s string) string {
	return "`" + strings.ReplaceAll(s, "|", `\|`) + "`"
}

func cell(s string) string {
	return strings.ReplaceAll(s, "|", `\|`)
}
