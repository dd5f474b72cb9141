package lint

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
)

// JSONPrinter writes one JSON array of findings, sorted by file, line and
// column.
type JSONPrinter struct{}

type jsonFinding struct {
	File       string   `json:"file"`
	Line       int      `json:"line"`
	Column     int      `json:"column"`
	EndLine    int      `json:"endLine"`
	EndColumn  int      `json:"endColumn"`
	Severity   string   `json:"severity"`
	Rule       string   `json:"rule"`
	Message    string   `json:"message"`
	Suggestion string   `json:"suggestion,omitempty"`
	Impact     Impact   `json:"impact"`
	Fix        *jsonFix `json:"fix,omitempty"`
}

// jsonFix is a finding's certain fix: edits of the file's text, each span
// as the findings' (1-based, columns counting characters, the end just
// after the last character replaced; an empty span inserts).
type jsonFix struct {
	Description string     `json:"description"`
	Edits       []jsonEdit `json:"edits"`
}

type jsonEdit struct {
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"endLine"`
	EndColumn int    `json:"endColumn"`
	Text      string `json:"text"`
}

func newJSONFix(fx *Fix) *jsonFix {
	if fx == nil {
		return nil
	}
	out := &jsonFix{Description: fx.Description, Edits: []jsonEdit{}}
	for _, e := range fx.Edits {
		end := e.End()
		out.Edits = append(out.Edits, jsonEdit{e.Span.Start.Line, e.Span.Start.Col, end.Line, end.Col, e.Text})
	}
	return out
}

func toJSON(f Finding) jsonFinding {
	return jsonFinding{
		File: f.File, Line: f.Span.Start.Line, Column: f.Span.Start.Col,
		EndLine: f.Span.End.Line, EndColumn: f.Span.End.Col,
		Severity: f.Severity.String(), Rule: f.Rule, Message: f.Message, Suggestion: f.Suggestion, Impact: f.Impact,
		Fix: newJSONFix(f.Fix),
	}
}

// Print writes the findings: one JSON array, indented by two spaces. It
// encodes one finding at a time, so that the output of thousands is never
// all held at once.
func (JSONPrinter) Print(w io.Writer, r *Result) error {
	if len(r.Findings) == 0 {
		_, err := io.WriteString(w, "[]\n")
		return err
	}
	bw := bufio.NewWriter(w)
	bw.WriteString("[\n")
	if err := writeEach(bw, len(r.Findings), "  ", ",\n", "  ", func(i int) any { return toJSON(r.Findings[i]) }); err != nil {
		return err
	}
	bw.WriteString("\n]\n")
	return bw.Flush()
}

// writeEach writes n values, value(i) each, as encoding/json indents them
// with HTML escaping off, the lines after the first prefixed with prefix:
// sep between two values and lead before each. The printers write their
// findings one at a time with it, so that the output of thousands is never
// all held at once.
func writeEach(bw *bufio.Writer, n int, prefix, sep, lead string, value func(i int) any) error {
	var one bytes.Buffer
	enc := json.NewEncoder(&one)
	enc.SetEscapeHTML(false)
	enc.SetIndent(prefix, "  ")
	for i := range n {
		one.Reset()
		if err := enc.Encode(value(i)); err != nil {
			return err
		}
		if i > 0 {
			bw.WriteString(sep)
		}
		bw.WriteString(lead)
		bw.Write(bytes.TrimSuffix(one.Bytes(), []byte("\n")))
	}
	return nil
}
