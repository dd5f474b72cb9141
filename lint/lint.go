// Package lint finds the mistakes in hooks.json files and in the handler
// scripts they name, each at its line and column, with what to write
// instead.
//
// The shape of a file is judged by the schema package's decoder (the same
// one that decides what runs), so lint and run never disagree about what is
// valid; the rules add suggestions, look at the scripts on disk, and catch
// mistakes that are valid JSON but not what the author meant.
package lint

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/scope"
)

// Severity is how serious a finding is.
type Severity int

// The severities, least serious first.
const (
	Info Severity = iota
	Warning
	Error
)

func (s Severity) String() string {
	switch s {
	case Info:
		return "info"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return "unknown"
}

// ParseSeverity reads "error", "warning" or "info".
func ParseSeverity(s string) (Severity, error) {
	switch s {
	case "error":
		return Error, nil
	case "warning":
		return Warning, nil
	case "info":
		return Info, nil
	}
	return 0, fmt.Errorf("unknown severity %q: use error, warning or info", s)
}

// Finding is one mistake at one place in one file.
type Finding struct {
	// File is the file's name as the user gave it (or as it was found).
	File string
	// Span is the key or value at fault: 1-based lines, columns counting
	// characters, End just after the last character.
	Span     schema.Span
	Severity Severity
	// Rule is the ID of the rule that found it, such as "unknown-event".
	Rule string
	// Message says what is wrong and what to write instead.
	Message string
	// Suggestion is the text to write instead, when there is one.
	Suggestion string
	// Impact says what the mistake does to the agent: it drops the whole
	// file, ignores this part, runs it wrongly, or nothing.
	Impact Impact
	// Fix is the edit that corrects the mistake, when it is certain; nil
	// otherwise.
	Fix *Fix
	// Script is, for a finding about a file a handler's command runs
	// (script-not-found, script-not-executable, outside-link), that file and the
	// handler; nil for other findings.
	Script *ScriptRef
}

// ScriptRef is a file a handler's command runs, as a finding names it.
type ScriptRef struct {
	// Path is the file as the command writes it.
	Path string
	// Problem says in a few words what is wrong with it: "no such file",
	// "no such module", "not a file", "a folder", "not executable",
	// "links out" (outside-link).
	Problem string
	// Hook is the name of the handler's hook, and Handler where the
	// handler's object starts.
	Hook    string
	Handler schema.Pos
}

// Impact is what a finding means to the agent that loads the file: the
// one decision of schema.Verdict for the parts hookctl's decoder reports,
// and each rule's own for the others.
type Impact = schema.Impact

// The impacts, from the worst.
const (
	FileDropped = schema.FileDropped
	Ignored     = schema.Ignored
	Misbehaves  = schema.Misbehaves
	NoImpact    = schema.NoImpact
)

// Fix is a certain correction of a finding: edits to the linted file,
// which never overlap one another.
type Fix struct {
	// Description says what the fix does, such as "write 5 (seconds)".
	Description string
	// Edits replace spans of the file's bytes.
	Edits []Edit
}

// Edit replaces the text of a span (1-based lines, columns counting
// characters, End just after the last character; Offset fields are byte
// offsets) with Text. An empty span inserts.
type Edit struct {
	Span schema.Span
	Text string
}

// End is where the edit's span ends: its start when End is not set (an
// insertion).
func (e Edit) End() schema.Pos {
	if e.Span.End.IsValid() {
		return e.Span.End
	}
	return e.Span.Start
}

func (f Finding) String() string {
	return fmt.Sprintf("%s:%d:%d: %s: %s [%s]", f.File, f.Span.Start.Line, f.Span.Start.Col, f.Severity, f.Message, f.Rule)
}

// Sort orders findings by file, line, column, then rule and message, so
// that output is the same on every run.
func Sort(fs []Finding) {
	slices.SortStableFunc(fs, func(a, b Finding) int {
		return cmp.Or(
			strings.Compare(a.File, b.File),
			cmp.Compare(a.Span.Start.Line, b.Span.Start.Line),
			cmp.Compare(a.Span.Start.Col, b.Span.Start.Col),
			strings.Compare(a.Rule, b.Rule),
			strings.Compare(a.Message, b.Message),
		)
	})
}

// dedupe drops findings identical to the one before them (after Sort).
func dedupe(fs []Finding) []Finding {
	return slices.CompactFunc(fs, func(a, b Finding) bool {
		return a.File == b.File && a.Span == b.Span && a.Rule == b.Rule && a.Message == b.Message
	})
}

// Scope is where a hooks.json sits (scope.Scope), which decides how its
// handlers run and which rules apply. Lint tells apart the user's file
// and every other, which is a workspace's: a file named directly that is
// not the user's is shared with whoever clones the folder it is in.
type Scope = scope.Scope

// The scopes lint tells apart, as lint's callers name them.
const (
	Workspace = scope.Workspace
	User      = scope.User
)

// Max returns the most serious severity among the findings, and false when
// there are none.
func Max(fs []Finding) (Severity, bool) {
	if len(fs) == 0 {
		return 0, false
	}
	m := Info
	for _, f := range fs {
		m = max(m, f.Severity)
	}
	return m, true
}
