package lint

import (
	"encoding/json"
	"io"
)

// JSONPrinter writes one JSON array of findings, sorted by file, line and
// column.
type JSONPrinter struct{}

type jsonFinding struct {
	File       string `json:"file"`
	Line       int    `json:"line"`
	Column     int    `json:"column"`
	EndLine    int    `json:"endLine"`
	EndColumn  int    `json:"endColumn"`
	Severity   string `json:"severity"`
	Rule       string `json:"rule"`
	Message    string `json:"message"`
	Suggestion string `json:"suggestion,omitempty"`
	Impact     Impact `json:"impact"`
}

// Print writes the findings.
func (JSONPrinter) Print(w io.Writer, r *Result) error {
	out := make([]jsonFinding, 0, len(r.Findings))
	for _, f := range r.Findings {
		out = append(out, jsonFinding{
			File: f.File, Line: f.Span.Start.Line, Column: f.Span.Start.Col,
			EndLine: f.Span.End.Line, EndColumn: f.Span.End.Col,
			Severity: f.Severity.String(), Rule: f.Rule, Message: f.Message, Suggestion: f.Suggestion, Impact: f.Impact,
		})
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
