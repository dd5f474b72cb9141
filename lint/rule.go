package lint

import (
	"fmt"

	"github.com/hookctl/hookctl/schema"
)

// Rule is one check. A rule looks at each file on its own (Check) and, when
// it needs several files at once (a user hook shadowed by a workspace hook),
// at the whole run (CheckRun). RuleBase supplies everything else: embed it,
// override what the rule needs, and add the constructor to the list in
// rules.go.
type Rule interface {
	// ID names the rule in output and documentation, such as
	// "unknown-event".
	ID() string
	// Severity is how serious the rule's findings are, unless a finding
	// says otherwise (timeout-value warns about some values and rejects
	// others).
	Severity() Severity
	// Summary says in one line what the rule catches.
	Summary() string
	// Check reports the rule's findings in one file.
	Check(f *File)
	// CheckRun reports findings that need every file of the run.
	CheckRun(r *Run)

	base() *RuleBase
}

// RuleBase is embedded in every rule: it holds the rule's identity and the
// place its findings go.
type RuleBase struct {
	id       string
	severity Severity
	summary  string
	out      *[]Finding
}

func newBase(id string, sev Severity, summary string) RuleBase {
	return RuleBase{id: id, severity: sev, summary: summary}
}

// ID returns the rule's ID.
func (b *RuleBase) ID() string { return b.id }

// Severity returns the rule's default severity.
func (b *RuleBase) Severity() Severity { return b.severity }

// Summary returns what the rule catches, in one line.
func (b *RuleBase) Summary() string { return b.summary }

// Check does nothing: rules that look at single files override it.
func (b *RuleBase) Check(*File) {}

// CheckRun does nothing: rules that compare files override it.
func (b *RuleBase) CheckRun(*Run) {}

func (b *RuleBase) base() *RuleBase { return b }

// report adds a finding of the rule's severity.
func (b *RuleBase) report(f *File, span schema.Span, suggestion, format string, args ...any) {
	b.reportSeverity(f, b.severity, span, suggestion, format, args...)
}

// reportImpact adds a finding whose impact is not the rule's usual one.
func (b *RuleBase) reportImpact(f *File, impact Impact, span schema.Span, suggestion, format string, args ...any) {
	n := len(*b.out)
	b.report(f, span, suggestion, format, args...)
	if len(*b.out) > n {
		(*b.out)[n].Impact = impact
	}
}

// reportFix adds a finding that carries its certain fix (nil for none).
func (b *RuleBase) reportFix(f *File, span schema.Span, fix *Fix, suggestion, format string, args ...any) {
	b.reportSeverityFix(f, b.severity, span, fix, suggestion, format, args...)
}

// reportSeverityFix adds a finding of the severity given that carries its
// certain fix (nil for none).
func (b *RuleBase) reportSeverityFix(f *File, sev Severity, span schema.Span, fix *Fix, suggestion, format string, args ...any) {
	n := len(*b.out)
	b.reportSeverity(f, sev, span, suggestion, format, args...)
	if len(*b.out) > n && fix != nil && len(fix.Edits) > 0 {
		(*b.out)[n].Fix = fix
	}
}

func (b *RuleBase) reportSeverity(f *File, sev Severity, span schema.Span, suggestion, format string, args ...any) {
	if f.suppressed(b.id, span) || !f.choice.runs(b.id) {
		return
	}
	sev = f.choice.severity(b.id, sev)
	if !span.Start.IsValid() {
		span = fileStart
	}
	if !span.End.IsValid() || span.End.Offset < span.Start.Offset {
		span.End = span.Start
	}
	fd := Finding{
		File:       f.Name,
		Span:       span,
		Severity:   sev,
		Rule:       b.id,
		Message:    fmt.Sprintf(format, args...),
		Suggestion: suggestion,
	}
	if b.id != "unknown-event" && f.Config != nil && f.inUnknown(span) {
		fd.Impact = Ignored // the agent skips the whole event
	}
	*b.out = append(*b.out, fd)
}

// fileStart is where findings about a file as a whole point.
var fileStart = schema.Span{Start: schema.Pos{Line: 1, Col: 1}, End: schema.Pos{Line: 1, Col: 1}}

// mixedSeverity is implemented by the rules whose findings are of several
// severities (timeout-value: an error for a value that cannot run, a
// warning for one that reads as milliseconds).
type mixedSeverity interface {
	// Severities lists them, most serious first.
	Severities() []Severity
}

// RuleInfo describes a rule for documentation and SARIF.
type RuleInfo struct {
	ID string
	// Severity is the rule's default severity, the most serious of
	// Severities.
	Severity Severity
	// Severities are every severity its findings have, most serious
	// first.
	Severities []Severity
	Summary    string
}

// Catalogue describes every rule, in the order of the list in rules.go.
func Catalogue() []RuleInfo {
	var out []RuleInfo
	for _, r := range newRules() {
		sevs := []Severity{r.Severity()}
		if m, ok := r.(mixedSeverity); ok {
			sevs = m.Severities()
		}
		out = append(out, RuleInfo{ID: r.ID(), Severity: r.Severity(), Severities: sevs, Summary: r.Summary()})
	}
	return out
}
