package lint

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestSARIFStreamed holds the SARIF printer, which writes its results one
// at a time, to the bytes of the whole log encoded at once, on findings
// with characters encoding/json escapes and without any finding.
func TestSARIFStreamed(t *testing.T) {
	src := []byte(`{"a": {"Stop": [{"command": "<x> & y", "timeout": "5"}]}, "a": 1, "b": {"pre_tool_use": []}}`)
	res := &Result{Findings: LintSource(Target{Path: ".agents/hooks.json", Name: ".agents/hooks.json"}, src)}
	if len(res.Findings) < 3 {
		t.Fatalf("want several findings, got %v", res.Findings)
	}
	for _, r := range []*Result{res, {}} {
		var got bytes.Buffer
		if err := (SARIFPrinter{Version: "1.2.3"}).Print(&got, r); err != nil {
			t.Fatal(err)
		}
		if want := wholeSARIF(t, r); got.String() != want {
			t.Errorf("streamed SARIF differs from the whole log:\n%s\nwant:\n%s", got.String(), want)
		}
	}
}

// wholeSARIF encodes the log of r in one piece.
func wholeSARIF(t *testing.T, r *Result) string {
	t.Helper()
	var streamed bytes.Buffer
	if err := (SARIFPrinter{Version: "1.2.3"}).Print(&streamed, &Result{}); err != nil {
		t.Fatal(err)
	}
	var log sarifLog
	if err := json.Unmarshal(streamed.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	var want []sarifResult
	for _, f := range r.Findings {
		res := sarifResult{
			RuleID: f.Rule, RuleIndex: -1, Level: sarifLevel(f.Severity), Message: sarifText{f.Message},
			Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{
				ArtifactLocation: sarifArtifact{URI: fileURI(f.File)},
				Region: sarifRegion{StartLine: f.Span.Start.Line, StartColumn: f.Span.Start.Col,
					EndLine: max(f.Span.End.Line, f.Span.Start.Line), EndColumn: max(f.Span.End.Col, 1)},
			}}},
			Fixes:      newSARIFFix(f.File, f.Fix),
			Properties: map[string]string{"impact": string(f.Impact)},
		}
		for i, ru := range log.Runs[0].Tool.Driver.Rules {
			if ru.ID == f.Rule {
				res.RuleIndex = i
			}
		}
		if f.Suggestion != "" {
			res.Properties["suggestion"] = f.Suggestion
		}
		want = append(want, res)
	}
	log.Runs[0].Results = append([]sarifResult{}, want...)
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(log); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
