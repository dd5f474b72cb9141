package lint

import (
	"sync"

	"github.com/hookctl/hookctl/schema"
)

// foreignInfo is set on a file that is another agent's hook configuration
// as a whole.
type foreignInfo struct {
	finding schema.ForeignFinding
}

func detectForeign(f *File) *foreignInfo {
	if f.Config.Root == nil {
		return nil
	}
	ff, ok := schema.DetectForeign(f.Config.Root)
	if !ok {
		return nil
	}
	return &foreignInfo{finding: ff}
}

// coveredByForeign lists the rules whose findings a foreign file does not
// get: its events, fields, matchers and paths are another agent's, and the
// one foreign-format error says to convert the file, which deals with all of
// them (an answer printed literally is in the other agent's words too).
// Findings that stay true after conversion (a dangerous or
// Windows-only command, unsafe permissions, a repeated key) remain.
var coveredByForeign = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		schema.RuleRootShape:      true,
		schema.RuleUnknownEvent:   true,
		schema.RuleUnknownField:   true,
		schema.RuleEventShape:     true,
		"ignored-matcher":         true,
		schema.RuleMatcherSyntax:  true,
		"matcher-no-tool":         true,
		schema.RuleHandlerType:    true,
		schema.RuleMissingCommand: true,
		schema.RuleTimeoutValue:   true,
		schema.RuleEnabledType:    true,
		"empty-hook":              true,
		"script-not-found":        true,
		"script-not-executable":   true,
		"script-shebang":          true,
		"duplicate-handler":       true,
		"shadowed-hook":           true,
		"foreign-tool":            true,
		"foreign-variable":        true,
		"foreign-payload":         true,
		"schema-key":              true,
		"agent-version":           true,
		schema.RuleKeyCase:        true,
		"literal-answer":          true,
	}
})

// suppressed reports whether a finding of the rule is left out of the
// file's findings: in a file of another agent's format, foreign-format
// says what to do, when it runs.
func (f *File) suppressed(rule string, _ schema.Span) bool {
	return f.foreign != nil && coveredByForeign()[rule] && f.runs("foreign-format")
}
