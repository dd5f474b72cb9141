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
	// listed counts the rule's findings in each file, by name, and more
	// is the index in out of the file's summary finding once past
	// MaxListed.
	listed map[string]int
	more   map[string]int
}

// MaxListed is how many findings of one rule in one file lint lists. The
// next one becomes a summary, at its place, that counts it and the rest:
// a file of 30,000 hooks that all name a missing script gets 5,000
// findings and one that says 25,000 more are not listed, rather than
// 30,000 findings. A real file of 10,000 hooks, one in five with a
// mistake, is far below it.
const MaxListed = 5000

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
	i, listed := b.reportSeverity(f, b.severity, span, suggestion, format, args...)
	b.setImpact(i, listed, impact)
}

// reportProblem adds the finding of a part hookctl's decoder reports, with
// its certain fix (nil for none): its impact is the verdict's on the
// problem (schema.Verdict.ImpactOf), the one list, run and doctor show.
func (b *RuleBase) reportProblem(f *File, p *schema.Problem, span schema.Span, fix *Fix, suggestion, format string, args ...any) {
	i, listed := b.reportSeverity(f, b.severity, span, suggestion, format, args...)
	b.setImpact(i, listed, f.verdict().ImpactOf(p))
	if listed && fix != nil && len(fix.Edits) > 0 {
		(*b.out)[i].Fix = fix
	}
}

// setImpact gives the finding at i its impact, or the summary of findings
// past MaxListed the worst of its own and this one.
func (b *RuleBase) setImpact(i int, listed bool, impact Impact) {
	switch {
	case listed:
		(*b.out)[i].Impact = impact
	case i >= 0 && impactRank(impact) > impactRank((*b.out)[i].Impact):
		(*b.out)[i].Impact = impact
	}
}

// impactRank orders impacts, the worst highest; "" is the rule's usual one.
func impactRank(i Impact) int {
	switch i {
	case NoImpact:
		return 1
	case Misbehaves:
		return 2
	case Ignored:
		return 3
	case FileDropped:
		return 4
	}
	return 0
}

// reportFix adds a finding that carries its certain fix (nil for none).
func (b *RuleBase) reportFix(f *File, span schema.Span, fix *Fix, suggestion, format string, args ...any) {
	b.reportSeverityFix(f, b.severity, span, fix, suggestion, format, args...)
}

// reportSeverityFix adds a finding of the severity given that carries its
// certain fix (nil for none).
func (b *RuleBase) reportSeverityFix(f *File, sev Severity, span schema.Span, fix *Fix, suggestion, format string, args ...any) {
	if i, listed := b.reportSeverity(f, sev, span, suggestion, format, args...); listed && fix != nil && len(fix.Edits) > 0 {
		(*b.out)[i].Fix = fix
	}
}

// reportSeverity adds a finding and returns its index in out and whether
// it is listed as itself; past MaxListed it returns the index of the
// summary that counts it, with false, and -1 when the finding is
// suppressed. The summary spans the findings it counts and is as severe as
// the worst, so that the exit status stays that of every finding.
func (b *RuleBase) reportSeverity(f *File, sev Severity, span schema.Span, suggestion, format string, args ...any) (int, bool) {
	if f.suppressed(b.id, span) || !f.choice.runs(b.id) {
		return -1, false
	}
	sev = f.choice.severity(b.id, sev)
	if b.listed == nil {
		b.listed, b.more = map[string]int{}, map[string]int{}
	}
	if !span.Start.IsValid() {
		span = fileStart
	}
	if !span.End.IsValid() || span.End.Offset < span.Start.Offset {
		span.End = span.Start
	}
	seen := b.listed[f.Name]
	b.listed[f.Name] = seen + 1
	if seen > MaxListed {
		// The summary covers the findings it counts, from the first to the
		// last, and is as severe as the worst.
		sum := &(*b.out)[b.more[f.Name]]
		if span.Start.Offset < sum.Span.Start.Offset {
			sum.Span.Start = span.Start
		}
		if span.End.Offset > sum.Span.End.Offset {
			sum.Span.End = span.End
		}
		sum.Message, sum.Severity = b.moreMessage(seen+1-MaxListed, sum.Span.End), max(sum.Severity, sev)
		if b.id != schema.RuleUnknownEvent && f.Config != nil && f.inUnknown(span) && impactRank(sum.Impact) < impactRank(Ignored) {
			sum.Impact = Ignored
		}
		return b.more[f.Name], false
	}
	fd := Finding{
		File:       f.Name,
		Span:       span,
		Severity:   sev,
		Rule:       b.id,
		Message:    fmt.Sprintf(format, args...),
		Suggestion: suggestion,
	}
	if b.id != schema.RuleUnknownEvent && f.Config != nil && f.inUnknown(span) {
		fd.Impact = Ignored // the agent skips the whole event
	}
	*b.out = append(*b.out, fd)
	if seen == MaxListed {
		fd.Message, fd.Suggestion = b.moreMessage(1, span.End), ""
		b.more[f.Name] = len(*b.out) - 1
		(*b.out)[len(*b.out)-1] = fd
		return len(*b.out) - 1, false
	}
	return len(*b.out) - 1, true
}

// moreMessage is the message of the summary of n findings past MaxListed,
// the last of which ends at end.
func (b *RuleBase) moreMessage(n int, end schema.Pos) string {
	if n == 1 {
		return fmt.Sprintf("1 more finding of %s here is not listed: lint lists at most %d findings of one rule in one file", b.id, MaxListed)
	}
	return fmt.Sprintf("%d more findings of %s from here to %d:%d are not listed one by one: lint lists at most %d findings of one rule in one file", n, b.id, end.Line, end.Col, MaxListed)
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
