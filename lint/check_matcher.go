package lint

import (
	"github.com/hookctl/hookctl/schema"
)

// MatcherRules are the rules CheckMatcher runs.
var MatcherRules = []string{schema.RuleMatcherSyntax, "matcher-no-tool", "foreign-tool"}

// MatcherFinding is what a rule says about one matcher.
type MatcherFinding struct {
	Rule     string
	Severity Severity
	// Message says what is wrong and what to write instead, as lint
	// prints it.
	Message string
	// Suggestion is the text to write instead of the part at fault.
	Suggestion string
	// From and To bound the part at fault, as byte offsets in the matcher
	// (an alternative, a tool's name, the whole matcher); both are -1 when
	// the part cannot be placed in the matcher's text.
	From, To int
}

// CheckMatcher lints the matcher of a PreToolUse or PostToolUse hook by the
// rules matcher-syntax, matcher-no-tool and foreign-tool, as they would
// judge it in a hooks.json, so that what writes a matcher (hookctl init)
// says what lint would.
func CheckMatcher(matcher string) []MatcherFinding {
	value := schema.AppendJSONString(nil, matcher)
	const head = `{"h": {"PreToolUse": [{"matcher": `
	src := append(append([]byte(head), value...), `, "hooks": [{"command": "true"}]}]}}`...)

	run := &Run{fs: newFSCache()}
	run.Files = []*File{run.newFile(Target{Path: "hooks.json"}, schema.Parse("hooks.json", src))}
	run.check(MatcherRules)

	// Offsets in the file map to the matcher's own when encoding it
	// escaped nothing.
	plain := string(value) == `"`+matcher+`"`
	start := len(head) + 1
	var out []MatcherFinding
	for _, f := range run.out {
		m := MatcherFinding{Rule: f.Rule, Severity: f.Severity, Message: f.Message, Suggestion: f.Suggestion, From: -1, To: -1}
		from, to := f.Span.Start.Offset-start, f.Span.End.Offset-start
		if f.Span.Start.Offset == start-1 && f.Span.End.Offset == start+len(matcher)+1 {
			from, to = 0, len(matcher) // the whole string, quotes included
		}
		if plain && from >= 0 && from <= to && to <= len(matcher) {
			m.From, m.To = from, to
		}
		out = append(out, m)
	}
	return out
}
