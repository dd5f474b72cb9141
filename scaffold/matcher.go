package scaffold

import (
	"fmt"
	"regexp/syntax"
	"sort"
	"strings"
	"unicode"

	"github.com/hookctl/hookctl/lint"
	"github.com/hookctl/hookctl/schema"
)

// MatcherError is a matcher in which hookctl lint finds mistakes: a syntax
// error, a glob, a case or spelling mistake, another agent's tool.
type MatcherError struct {
	Matcher string
	// Findings are lint's, each with what to write instead.
	Findings []lint.MatcherFinding
	// Suggestion is the whole matcher with every suggestion applied, ""
	// when they cannot all be.
	Suggestion string
}

func (e *MatcherError) Error() string {
	var msgs []string
	for _, f := range e.Findings {
		msgs = append(msgs, f.Message)
	}
	msg := strings.Join(msgs, "; ")
	if e.Suggestion != "" && (len(e.Findings) > 1 || e.Findings[0].Suggestion != e.Suggestion) {
		msg += fmt.Sprintf(" (the matcher would be %q)", e.Suggestion)
	}
	return msg
}

// ValidateMatcher checks a matcher as hookctl lint does: the runtime's
// syntax, and each alternative selecting a tool the agent has. It refuses a
// mistake lint can name (a *MatcherError with lint's messages and what to
// write instead). An alternative that selects no known tool and resembles
// none, an MCP server's tool or one newer than the documentation, is not
// such a mistake: UnknownTools tells about those.
func ValidateMatcher(m string) error {
	var mistakes []lint.MatcherFinding
	for _, f := range lint.CheckMatcher(m) {
		if f.Rule == "matcher-no-tool" && f.Suggestion == "" {
			continue
		}
		mistakes = append(mistakes, f)
	}
	if len(mistakes) == 0 {
		return nil
	}
	return &MatcherError{Matcher: m, Findings: mistakes, Suggestion: applySuggestions(m, mistakes)}
}

// UnknownTools returns lint's warnings about the alternatives of m that
// select none of the known tools and resemble none.
func UnknownTools(m string) []string {
	var out []string
	for _, f := range lint.CheckMatcher(m) {
		if f.Rule == "matcher-no-tool" && f.Suggestion == "" {
			out = append(out, f.Message)
		}
	}
	return out
}

// applySuggestions writes each finding's suggestion in place of its part,
// or returns "" when a finding has none or cannot be placed.
func applySuggestions(m string, fs []lint.MatcherFinding) string {
	fs = append([]lint.MatcherFinding(nil), fs...)
	sort.Slice(fs, func(i, j int) bool { return fs[i].From > fs[j].From })
	// From the end, so that the offsets of the parts before stay right.
	limit := len(m)
	for _, f := range fs {
		if f.Suggestion == "" || f.From < 0 || f.To > limit {
			return ""
		}
		m = m[:f.From] + f.Suggestion + m[f.To:]
		limit = f.From
	}
	if ValidateMatcher(m) != nil {
		return ""
	}
	return m
}

// SampleTool returns the name of a tool the matcher selects: a documented
// tool when it selects one, else a name made from the matcher itself (the
// shortest it matches, such as mcp_github_ for mcp_github_.*), so that a
// hook for an MCP server's tools can be tried too. It returns false when
// the matcher selects no name that can be made.
func SampleTool(matcher string) (string, bool) {
	m, err := schema.CompileMatcher(matcher)
	if err != nil {
		return "", false
	}
	for _, t := range schema.ToolNames() {
		if m.Match(t) {
			return t, true
		}
	}
	re, err := syntax.Parse(matcher, syntax.Perl)
	if err != nil {
		return "", false
	}
	re = re.Simplify()
	good := func(s string) bool {
		return s != "" && m.Match(s) && strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) || unicode.IsSpace(r) }) < 0
	}
	// The shortest name, unless it stops at a prefix (browser_, mcp_x_):
	// then one that takes each repetition once, as a real name would.
	s, ok := sample(re, false)
	if ok && good(s) && !strings.HasSuffix(s, "_") {
		return s, true
	}
	if longer, ok := sample(re, true); ok && good(longer) {
		return longer, true
	}
	if ok && good(s) {
		return s, true
	}
	return "", false
}

// sample returns a short string the expression matches, preferring
// letters, digits and _ where it has a choice; with once, each * and ?
// repeats its expression once rather than not at all.
func sample(re *syntax.Regexp, once bool) (string, bool) {
	switch re.Op {
	case syntax.OpStar, syntax.OpQuest:
		if once {
			return sample(re.Sub[0], once)
		}
		return "", true
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return "", true
	case syntax.OpLiteral:
		return string(re.Rune), true
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return "x", true
	case syntax.OpCharClass:
		for _, want := range "x_0" {
			for i := 0; i+1 < len(re.Rune); i += 2 {
				if re.Rune[i] <= want && want <= re.Rune[i+1] {
					return string(want), true
				}
			}
		}
		if len(re.Rune) == 0 {
			return "", false
		}
		return string(re.Rune[0]), true
	case syntax.OpCapture, syntax.OpPlus:
		return sample(re.Sub[0], once)
	case syntax.OpRepeat:
		s, ok := sample(re.Sub[0], once)
		return strings.Repeat(s, max(re.Min, 1)), ok
	case syntax.OpConcat:
		var b strings.Builder
		for _, sub := range re.Sub {
			s, ok := sample(sub, once)
			if !ok {
				return "", false
			}
			b.WriteString(s)
		}
		return b.String(), true
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			if s, ok := sample(sub, once); ok && s != "" {
				return s, true
			}
		}
	}
	return "", false
}
