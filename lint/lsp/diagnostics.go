package lsp

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/hookctl/hookctl/lint"
	"github.com/hookctl/hookctl/schema"
)

// source names hookctl as the origin of its diagnostics.
const source = "hookctl"

// diagnosticData is what a diagnostic carries besides its message: what
// the mistake does to the agent.
type diagnosticData struct {
	Impact lint.Impact `json:"impact,omitempty"`
}

// diagnostic turns a finding into a diagnostic of the document it was
// found in. Its range comes from the finding's byte offsets, so that lines
// and characters are counted as the client counts them.
func diagnostic(doc *Document, f lint.Finding) Diagnostic {
	from, to := spanOffsets(doc, f.Span)
	d := Diagnostic{
		Range:           doc.Range(from, to),
		Severity:        severity(f.Severity),
		Code:            f.Rule,
		CodeDescription: &codeDescription{Href: lint.RuleDoc(f.Rule)},
		Source:          source,
		Message:         f.Message,
	}
	if f.Impact != "" {
		d.Data, _ = json.Marshal(diagnosticData{Impact: f.Impact})
	}
	return d
}

// spanOffsets returns a span's byte offsets, clamped to the text; a span
// without an end is empty.
func spanOffsets(doc *Document, sp schema.Span) (from, to int) {
	if !sp.Start.IsValid() {
		return 0, 0
	}
	from = max(0, min(sp.Start.Offset, len(doc.Text)))
	to = from
	if sp.End.IsValid() {
		to = max(from, min(sp.End.Offset, len(doc.Text)))
	}
	return from, to
}

func severity(s lint.Severity) int {
	switch s {
	case lint.Error:
		return severityError
	case lint.Warning:
		return severityWarning
	}
	return severityInformation
}

// checkTestFile returns the diagnostics of a hooks.test.json: the test
// runner's own checks when the server has them, else JSON syntax.
func (s *server) checkTestFile(doc *Document) []Diagnostic {
	var problems []Problem
	if s.opts.CheckTestFile != nil {
		path := doc.Path
		if path == "" {
			path = "hooks.test.json"
		}
		problems = s.opts.CheckTestFile(path, doc.Text)
	} else {
		_, dups, syn := schema.ParseJSONWithin(doc.Text, schema.MaxOtherValues)
		if syn != nil {
			problems = append(problems, Problem{Pos: syn.Pos, Message: syn.Msg})
		}
		for _, d := range dups {
			problems = append(problems, Problem{Pos: d.Again.Start, Message: "\"" + d.Key + "\" is repeated in this object: only the last one counts"})
		}
	}
	diags := []Diagnostic{}
	for _, p := range problems {
		from := 0
		if p.Pos.IsValid() {
			from = max(0, min(p.Pos.Offset, len(doc.Text)))
		}
		diags = append(diags, Diagnostic{
			Range:    doc.Range(from, tokenEnd(doc.Text, from)),
			Severity: severityError,
			Source:   source + " test",
			Message:  p.Message,
		})
	}
	return diags
}

// tokenEnd returns where the JSON token at off ends: after a string's
// closing quote, after a word or number, or one character on.
func tokenEnd(text []byte, off int) int {
	if off >= len(text) {
		return off
	}
	switch c := text[off]; {
	case c == '"':
		for i := off + 1; i < len(text); i++ {
			switch text[i] {
			case '\\':
				i++
			case '"':
				return i + 1
			case '\n', '\r':
				return i
			}
		}
		return len(text)
	case isWordByte(c):
		i := off
		for i < len(text) && isWordByte(text[i]) {
			i++
		}
		return i
	}
	_, size := utf8.DecodeRune(text[off:])
	return off + size
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == '_'
}

// CodeActions returns a quick fix for each finding that carries a fix and
// whose span meets rng. Each fix changes only the spans its edits name;
// a fix whose edits fall outside the text or inside a character is left
// out rather than offered wrong. With documentChanges the edits name the
// document's version, so a client refuses them once the text has moved on.
func CodeActions(doc *Document, findings []lint.Finding, rng Range, documentChanges bool) []CodeAction {
	rFrom, rTo := doc.Offset(rng.Start), doc.Offset(rng.End)
	actions := []CodeAction{}
	for _, f := range findings {
		if f.Fix == nil || len(f.Fix.Edits) == 0 {
			continue
		}
		from, to := spanOffsets(doc, f.Span)
		if from > rTo || rFrom > to {
			continue
		}
		edits, ok := textEdits(doc, f.Fix.Edits)
		if !ok {
			continue
		}
		title := f.Fix.Description
		if title == "" {
			title = "Fix: " + f.Message
		}
		a := CodeAction{
			Title:       title,
			Kind:        kindQuickFix,
			Diagnostics: []Diagnostic{diagnostic(doc, f)},
			IsPreferred: true,
			Edit:        &WorkspaceEdit{},
		}
		if documentChanges {
			a.Edit.DocumentChanges = []TextDocumentEdit{{
				TextDocument: versionedTextDocumentIdentifier{URI: doc.URI, Version: doc.Version},
				Edits:        edits,
			}}
		} else {
			a.Edit.Changes = map[string][]TextEdit{doc.URI: edits}
		}
		actions = append(actions, a)
	}
	return actions
}

// FixAll returns one action that applies every fix of the findings that
// does not clash with a fix before it, in file order: the set
// lint.NonOverlapping picks, as one pass of hookctl lint --fix; nil when
// no finding carries a fix. Editors run it on request or on save
// (source.fixAll).
func FixAll(doc *Document, findings []lint.Finding, documentChanges bool) *CodeAction {
	var usable []lint.Finding
	for _, f := range findings {
		if f.Fix != nil && len(f.Fix.Edits) > 0 {
			if _, ok := textEdits(doc, f.Fix.Edits); ok {
				usable = append(usable, f)
			}
		}
	}
	var all []TextEdit
	var diags []Diagnostic
	for _, f := range lint.NonOverlapping(doc.Text, usable) {
		edits, _ := textEdits(doc, f.Fix.Edits)
		all = append(all, edits...)
		diags = append(diags, diagnostic(doc, f))
	}
	if len(all) == 0 {
		return nil
	}
	a := &CodeAction{Title: "Apply every certain fix of hookctl lint", Kind: kindFixAll, Diagnostics: diags, Edit: &WorkspaceEdit{}}
	if documentChanges {
		a.Edit.DocumentChanges = []TextDocumentEdit{{TextDocument: versionedTextDocumentIdentifier{URI: doc.URI, Version: doc.Version}, Edits: all}}
	} else {
		a.Edit.Changes = map[string][]TextEdit{doc.URI: all}
	}
	return a
}

// textEdits converts a fix's edits, refusing any whose offsets are not
// places in the text.
func textEdits(doc *Document, edits []lint.Edit) ([]TextEdit, bool) {
	out := make([]TextEdit, 0, len(edits))
	for _, e := range edits {
		from, to := e.Span.Start.Offset, e.End().Offset
		if from < 0 || to < from || to > len(doc.Text) || !boundary(doc.Text, from) || !boundary(doc.Text, to) {
			return nil, false
		}
		out = append(out, TextEdit{Range: doc.Range(from, to), NewText: e.Text})
	}
	return out, true
}

// boundary reports whether off is between two characters of text.
func boundary(text []byte, off int) bool {
	return off == len(text) || utf8.RuneStart(text[off])
}
