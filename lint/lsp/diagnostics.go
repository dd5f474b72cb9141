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

// publish sends a document's diagnostics, encoded by appendPublish.
func (s *server) publish(p publishDiagnosticsParams) {
	select {
	case <-s.conn.DisconnectNotify():
		return
	default:
	}
	if err := s.stream.writeRaw(appendPublish(nil, p)); err != nil {
		s.log.Printf("publishing diagnostics of %s: %v", p.URI, err)
	}
}

// diagnostics turns findings into the document's diagnostics; a panic is
// logged and leaves the document without diagnostics.
func (s *server) diagnostics(doc *Document, findings []lint.Finding) (diags []Diagnostic) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Printf("reporting the findings of %s failed: %v", doc.URI, r)
			diags = []Diagnostic{}
		}
	}()
	diags = make([]Diagnostic, 0, len(findings))
	for _, f := range findings {
		diags = append(diags, diagnostic(doc, f))
	}
	return diags
}
