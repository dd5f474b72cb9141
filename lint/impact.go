package lint

import (
	"github.com/hookctl/hookctl/schema"
	"sync"
)

// What each rule's findings usually mean to the agent. A finding on a part
// hookctl's decoder reports takes the verdict's impact on it
// (reportProblem), and a finding at a value the agent's decoder cannot
// read is FileDropped whatever its rule (see assess).
var ruleImpact = sync.OnceValue(func() map[string]Impact {
	return map[string]Impact{
		schema.RuleJSONSyntax:     FileDropped,
		schema.RuleDuplicateKey:   Ignored,
		schema.RuleRootShape:      Ignored,
		schema.RuleUnknownEvent:   Ignored,
		schema.RuleKeyCase:        NoImpact,
		schema.RuleUnknownField:   Ignored,
		schema.RuleEventShape:     Ignored,
		"ignored-matcher":         Ignored,
		schema.RuleMatcherSyntax:  Ignored,
		"matcher-no-tool":         Ignored,
		schema.RuleHandlerType:    Ignored,
		schema.RuleMissingCommand: Ignored,
		schema.RuleTimeoutValue:   Misbehaves,
		schema.RuleEnabledType:    FileDropped,
		"empty-hook":              NoImpact,
		"script-not-found":        Misbehaves,
		"script-not-executable":   Misbehaves,
		"script-shebang":          Misbehaves,
		"unsafe-permissions":      NoImpact,
		"duplicate-handler":       Misbehaves,
		"dangerous-command":       NoImpact,
		"shadowed-hook":           NoImpact,
		"foreign-format":          Misbehaves,
		"foreign-tool":            Ignored,
		"schema-key":              FileDropped,
		"platform-specific":       Misbehaves,
		"foreign-variable":        Misbehaves,
		"foreign-payload":         Misbehaves,
		"misplaced-config":        Ignored,
		"outside-link":            NoImpact, // not read: what the agent makes of it is not known
		"agent-version":           NoImpact,
		"control-character":       NoImpact,
		"confusable-name":         NoImpact,
		"shell-syntax":            Misbehaves,
		"literal-answer":          Misbehaves,
		"argument-path":           Misbehaves,
		"shellcheck":              NoImpact,
		"agent-decode":            FileDropped,
	}
})

// ImpactOf returns what a rule's findings mean to the agent by default.
func ImpactOf(rule string) Impact {
	if i, ok := ruleImpact()[rule]; ok {
		return i
	}
	return NoImpact
}

// DroppedFile is a file the agent loads none of: it is not JSON, or holds
// a value of the wrong type somewhere.
type DroppedFile struct {
	// File is the file's name, as findings name it.
	File string
	// Hooks is how many hooks the file defines, -1 when it is not JSON.
	Hooks int
	// Cause is where the first cause stands.
	Cause schema.Pos
	// Why says what the agent's decoder meets there.
	Why string
}

// verdict is what the agent makes of the file (schema.Verdict), decided
// once.
func (f *File) verdict() *schema.Verdict {
	if f.agentVerdict == nil {
		f.agentVerdict = schema.VerdictOf(f.Config, schema.AgentOptions{})
	}
	return f.agentVerdict
}

// agentErrors returns the values of the file that the agent's decoder
// cannot read.
func (f *File) agentErrors() []schema.AgentError { return f.verdict().AgentErrors() }

// dropped says whether the agent drops the whole file, and why.
func (f *File) dropped() (DroppedFile, bool) {
	v := f.verdict()
	if !v.Known || v.Drop == nil {
		return DroppedFile{}, false
	}
	return DroppedFile{File: f.Name, Hooks: v.HookCount(), Cause: v.Drop.Pos, Why: v.Drop.Why}, true
}

// assess gives every finding its impact: for the parts hookctl's decoder
// reports, the verdict's (set as they are reported); for the others, the
// rule's, or FileDropped for a finding at a value the agent's decoder
// cannot read; and lists the files the agent drops whole.
func (r *Run) assess() []DroppedFile {
	files := map[string]*File{}
	for _, f := range r.Files {
		files[f.Name] = f
	}
	for i := range r.out {
		fd := &r.out[i]
		if fd.Impact == "" {
			fd.Impact = ImpactOf(fd.Rule)
		}
		f := files[fd.File]
		if f == nil {
			continue
		}
		v := f.verdict()
		switch {
		case fd.Rule == "foreign-format" && len(f.agentErrors()) > 0:
			fd.Impact = FileDropped // a value of the other format's that the agent cannot read
		case fd.Rule == schema.RuleJSONSyntax && f.boundAt(fd.Span.Start):
			fd.Impact = NoImpact // hookctl's bound, not the agent's
		case fd.Rule == schema.RuleJSONSyntax, v.DropsAt(fd.Span):
			fd.Impact = FileDropped
		case v.NullAt(fd.Span):
			fd.Impact = Ignored // the agent reads a null as a key left out
		case fd.Impact == FileDropped:
			// A rule that usually drops the file, on a value the agent
			// reads after all (a null, a key it skips unread).
			fd.Impact = Ignored
		}
	}
	var out []DroppedFile
	for _, f := range r.Files {
		if d, ok := f.dropped(); ok {
			out = append(out, d)
		}
	}
	return out
}

// boundAt reports whether the file's reading stopped at hookctl's bound
// on values at p.
func (f *File) boundAt(p schema.Pos) bool {
	errs := f.syntaxErrors()
	return len(errs) > 0 && errs[len(errs)-1].Bound && errs[len(errs)-1].Pos == p
}
