package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/hookctl/hookctl/lint"
	"github.com/hookctl/hookctl/schema"
)

var rules = sync.OnceValue(func() map[string]lint.RuleInfo {
	m := map[string]lint.RuleInfo{}
	for _, r := range lint.Catalogue() {
		m[r.ID] = r
	}
	return m
})

// impactText says what a finding's mistake does to the agent.
var impactText = sync.OnceValue(func() map[lint.Impact]string {
	return map[lint.Impact]string{
		lint.FileDropped: "The agent loads **none** of this file's hooks while this is wrong.",
		lint.Ignored:     "The agent silently ignores this part.",
		lint.Misbehaves:  "It runs, but not as meant.",
	}
})

func (s *server) hover(p textDocumentPositionParams) *hover {
	doc, res, kind := s.snapshot(p.TextDocument.URI)
	if doc == nil {
		return nil
	}
	var findings []lint.Finding
	if res != nil {
		findings = res.findings
	}
	text, rng := hoverText(doc, kind, findings, doc.Offset(p.Position))
	if text == "" {
		return nil
	}
	h := &hover{Contents: markupContent{Kind: "markdown", Value: text}, Range: rng}
	s.mu.Lock()
	if !s.markdown {
		h.Contents = markupContent{Kind: "plaintext", Value: plainText(text)}
	}
	s.mu.Unlock()
	return h
}

// hoverText returns the hover's text at a byte offset and the range it
// describes: the event, field or tool under the cursor, then the findings
// there.
func hoverText(doc *Document, kind fileKind, findings []lint.Finding, off int) (string, *Range) {
	var parts []string
	var rng *Range
	c := scan(doc.Text, off)
	if c.inString {
		str, _, _ := readString(doc.Text, c.from, len(doc.Text))
		pl, _ := where(&c, kind)
		text := ""
		from, to := c.from, min(c.to+1, len(doc.Text))
		switch {
		case c.isKey && pl == placeHook:
			if e := schema.Event(str); e.Valid() {
				text = eventDoc(e)
			} else {
				text = fieldDoc("hook", str)
			}
		case c.isKey && pl == placeGroup:
			text = fieldDoc("group", str)
		case c.isKey && pl == placeHandler:
			text = fieldDoc("handler", str)
		case !c.isKey && pl == placeGroup && c.key == "matcher":
			from, to = nameAround(doc.Text, off, c.from+1, c.to)
			text = toolText(string(doc.Text[from:to]))
		case !c.isKey && pl == placeCase && c.key == "tool":
			text = toolText(str)
		case !c.isKey && pl == placeCase && c.key == "event":
			if e := schema.Event(str); e.Valid() {
				text = eventDoc(e)
			}
		}
		if text != "" {
			parts = append(parts, text)
			r := doc.Range(from, to)
			rng = &r
		}
	}
	for _, f := range findings {
		from, to := spanOffsets(doc, f.Span)
		if off < from || off > to {
			continue
		}
		parts = append(parts, findingText(f))
	}
	return strings.Join(parts, "\n\n---\n\n"), rng
}

// nameAround returns the tool name in a matcher around off, within the
// string's content [lo, hi).
func nameAround(text []byte, off, lo, hi int) (int, int) {
	from, to := off, off
	for from > lo && isNameByte(text[from-1]) {
		from--
	}
	for to < hi && isNameByte(text[to]) {
		to++
	}
	return from, to
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// toolText describes a tool name: a documented tool, or another agent's
// tool and what it is called here.
func toolText(name string) string {
	if t := toolDoc(name); t != "" {
		return t
	}
	if ft, ok := schema.LookupForeignTool(name); ok {
		var agents []string
		for _, a := range ft.Agents {
			agents = append(agents, a.Title())
		}
		who := "another agent's tool"
		if len(agents) > 0 {
			who = "a tool of " + strings.Join(agents, ", ")
		}
		text := fmt.Sprintf("**%s** is %s, not of this agent.", name, who)
		if ft.Tool != "" {
			text += fmt.Sprintf(" Here it is `%s`.", ft.Tool)
		}
		if ft.Note != "" {
			text += " " + ft.Note + "."
		}
		return text
	}
	return ""
}

// findingText explains a finding: its rule, what the mistake does to the
// agent, and where the rule is documented.
func findingText(f lint.Finding) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** (%s)", f.Rule, f.Severity)
	if r, ok := rules()[f.Rule]; ok && r.Summary != "" {
		fmt.Fprintf(&b, ": %s", r.Summary)
	}
	b.WriteString("\n\n")
	b.WriteString(f.Message)
	if t := impactText()[f.Impact]; t != "" {
		b.WriteString("\n\n" + t)
	}
	if f.Fix != nil && f.Fix.Description != "" {
		fmt.Fprintf(&b, "\n\nQuick fix: %s.", strings.TrimSuffix(f.Fix.Description, "."))
	}
	fmt.Fprintf(&b, "\n\n[%s in docs/rules.md](%s)", f.Rule, lint.RuleDoc(f.Rule))
	return b.String()
}

func (s *server) definition(p textDocumentPositionParams) []Location {
	doc, _, kind := s.snapshot(p.TextDocument.URI)
	out := []Location{}
	if doc == nil || kind != hooksFile {
		return out
	}
	off := doc.Offset(p.Position)
	for _, sc := range s.scripts(doc) {
		from, to := spanOffsets(doc, sc.Command)
		if off < from || off > to {
			continue
		}
		if info, err := os.Stat(sc.Path); err != nil || info.IsDir() {
			continue
		}
		path := sc.Path
		if abs, err := filepath.Abs(path); err == nil {
			path = abs
		}
		out = append(out, Location{URI: pathURI(path)})
	}
	return out
}

// scripts returns the files a document's handlers run, nil when they
// cannot be found (a panic is logged).
func (s *server) scripts(doc *Document) (out []lint.Script) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Printf("finding the scripts of %s failed: %v", doc.URI, r)
			out = nil
		}
	}()
	return lint.Scripts(s.target(doc), doc.Text)
}
