package lint

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/url"
	"path/filepath"
	"strings"
)

// SARIFPrinter writes SARIF 2.1.0, the format code-scanning services (GitHub
// code scanning among them) read. Every rule is described in
// tool.driver.rules, whether or not it found anything.
type SARIFPrinter struct {
	// Version is hookctl's version, reported as the tool's.
	Version string
}

const (
	sarifSchema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	rulesDoc    = "https://github.com/hookctl/hookctl/blob/main/docs/rules.md#"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool       sarifTool     `json:"tool"`
	ColumnKind string        `json:"columnKind"`
	Results    []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifRule struct {
	ID                   string      `json:"id"`
	ShortDescription     sarifText   `json:"shortDescription"`
	HelpURI              string      `json:"helpUri"`
	DefaultConfiguration sarifConfig `json:"defaultConfiguration"`
}

type sarifConfig struct {
	Level string `json:"level"`
}

type sarifResult struct {
	RuleID     string            `json:"ruleId"`
	RuleIndex  int               `json:"ruleIndex"`
	Level      string            `json:"level"`
	Message    sarifText         `json:"message"`
	Locations  []sarifLocation   `json:"locations"`
	Properties map[string]string `json:"properties,omitempty"`
	Fixes      []sarifFix        `json:"fixes,omitempty"`
}

// sarifFix is SARIF's fix object: one artifact change, the linted file's,
// with a replacement per edit.
type sarifFix struct {
	Description     sarifText             `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifact      `json:"artifactLocation"`
	Replacements     []sarifReplacement `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifRegion `json:"deletedRegion"`
	InsertedContent *sarifText  `json:"insertedContent,omitempty"`
}

func newSARIFFix(file string, fx *Fix) []sarifFix {
	if fx == nil || len(fx.Edits) == 0 {
		return nil
	}
	ch := sarifArtifactChange{ArtifactLocation: sarifArtifact{URI: fileURI(file)}}
	for _, e := range fx.Edits {
		end := e.End()
		r := sarifReplacement{DeletedRegion: sarifRegion{StartLine: e.Span.Start.Line, StartColumn: e.Span.Start.Col, EndLine: end.Line, EndColumn: end.Col}}
		if e.Text != "" {
			r.InsertedContent = &sarifText{e.Text}
		}
		ch.Replacements = append(ch.Replacements, r)
	}
	return []sarifFix{{Description: sarifText{fx.Description}, ArtifactChanges: []sarifArtifactChange{ch}}}
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           sarifRegion   `json:"region"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine"`
	EndColumn   int `json:"endColumn"`
}

func sarifLevel(s Severity) string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	}
	return "note"
}

// Print writes the findings.
func (p SARIFPrinter) Print(w io.Writer, r *Result) error {
	cat := Catalogue()
	index := map[string]int{}
	driver := sarifDriver{Name: "hookctl", Version: p.Version, InformationURI: "https://github.com/hookctl/hookctl"}
	for i, ri := range cat {
		index[ri.ID] = i
		driver.Rules = append(driver.Rules, sarifRule{
			ID: ri.ID, ShortDescription: sarifText{ri.Summary}, HelpURI: rulesDoc + ri.ID,
			DefaultConfiguration: sarifConfig{sarifLevel(ri.Severity)},
		})
	}
	log := sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: []sarifRun{{
		Tool: sarifTool{driver}, ColumnKind: "unicodeCodePoints", Results: []sarifResult{},
	}}}
	var head bytes.Buffer
	enc := json.NewEncoder(&head)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(log); err != nil {
		return err
	}
	if len(r.Findings) == 0 {
		_, err := w.Write(head.Bytes())
		return err
	}
	// The results are written one at a time, as encoding the whole log
	// would write them, so that thousands of findings never stand in
	// memory twice over as one document.
	const empty = `"results": []`
	before, after, _ := bytes.Cut(head.Bytes(), []byte(empty))
	bw := bufio.NewWriter(w)
	bw.Write(before)
	bw.WriteString(`"results": [`)
	err := writeEach(bw, len(r.Findings), "        ", ",", "\n        ", func(i int) any {
		f := r.Findings[i]
		res := sarifResult{
			RuleID: f.Rule, RuleIndex: index[f.Rule], Level: sarifLevel(f.Severity), Message: sarifText{f.Message},
			Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{
				ArtifactLocation: sarifArtifact{URI: fileURI(f.File)},
				Region: sarifRegion{StartLine: f.Span.Start.Line, StartColumn: f.Span.Start.Col,
					EndLine: max(f.Span.End.Line, f.Span.Start.Line), EndColumn: max(f.Span.End.Col, 1)},
			}}},
		}
		res.Fixes = newSARIFFix(f.File, f.Fix)
		res.Properties = map[string]string{"impact": string(f.Impact)}
		if f.Suggestion != "" {
			res.Properties["suggestion"] = f.Suggestion
		}
		return res
	})
	if err != nil {
		return err
	}
	bw.WriteString("\n      ]")
	bw.Write(after)
	return bw.Flush()
}

// fileURI turns a file name into a URI reference: relative names stay
// relative (code scanning resolves them against the repository), absolute
// ones become file: URIs.
func fileURI(name string) string {
	slashed := filepath.ToSlash(name)
	if filepath.IsAbs(name) {
		return (&url.URL{Scheme: "file", Path: slashed}).String()
	}
	u := (&url.URL{Path: slashed}).String()
	// A first segment with a colon would read as a scheme.
	if first, _, _ := strings.Cut(u, "/"); strings.Contains(first, ":") {
		u = "./" + u
	}
	return u
}
