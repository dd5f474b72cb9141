package lint

import (
	"cmp"
	"slices"

	"github.com/hookctl/hookctl/schema"
)

// What each rule's findings mean to the agent, unless the finding says
// otherwise; a finding at a value the agent's decoder cannot read is
// FileDropped whatever its rule (see assess).
var ruleImpact = map[string]Impact{
	"json-syntax":           FileDropped,
	"duplicate-key":         Ignored,
	"root-shape":            Ignored,
	"unknown-event":         Ignored,
	"key-case":              NoImpact,
	"unknown-field":         Ignored,
	"event-shape":           Ignored,
	"ignored-matcher":       Ignored,
	"matcher-syntax":        Ignored,
	"matcher-no-tool":       Ignored,
	"handler-type":          Ignored,
	"missing-command":       Ignored,
	"timeout-value":         Misbehaves,
	"enabled-type":          FileDropped,
	"empty-hook":            NoImpact,
	"script-not-found":      Misbehaves,
	"script-not-executable": Misbehaves,
	"script-shebang":        Misbehaves,
	"unsafe-permissions":    NoImpact,
	"duplicate-handler":     Misbehaves,
	"dangerous-command":     NoImpact,
	"shadowed-hook":         NoImpact,
	"foreign-format":        Misbehaves,
	"foreign-tool":          Ignored,
	"schema-key":            FileDropped,
	"platform-specific":     Misbehaves,
	"foreign-variable":      Misbehaves,
	"foreign-payload":       Misbehaves,
	"misplaced-config":      Ignored,
	"agent-version":         NoImpact,
	"control-character":     NoImpact,
	"confusable-name":       NoImpact,
	"shell-syntax":          Misbehaves,
	"literal-answer":        Misbehaves,
	"argument-path":         Misbehaves,
	"shellcheck":            NoImpact,
	"agent-decode":          FileDropped,
}

// ImpactOf returns what a rule's findings mean to the agent by default.
func ImpactOf(rule string) Impact {
	if i, ok := ruleImpact[rule]; ok {
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

// agentErrors returns the values of the file that the agent's decoder
// cannot read, computed once.
func (f *File) agentErrors() []schema.AgentError {
	if f.agentDone {
		return f.agentErrs
	}
	f.agentDone = true
	if f.Config.Root != nil {
		f.agentErrs = schema.AgentErrors(f.Config.Root, schema.AgentOptions{})
	}
	return f.agentErrs
}

// dropped says whether the agent drops the whole file, and why.
func (f *File) dropped() (DroppedFile, bool) {
	if s := f.Config.Syntax; s != nil {
		if s.Bound {
			return DroppedFile{}, false // read no further: what the agent does is not known
		}
		n := -1
		if r := f.Config.Root; r != nil && r.Kind == schema.Object {
			n = len(f.hooks()) // read past its mistakes
		}
		return DroppedFile{File: f.Name, Hooks: n, Cause: s.Pos, Why: "it is not valid JSON"}, true
	}
	errs := f.agentErrors()
	if len(errs) == 0 {
		return DroppedFile{}, false
	}
	n := 0
	if r := f.Config.Root; r != nil && r.Kind == schema.Object {
		n = len(f.hooks())
	}
	return DroppedFile{File: f.Name, Hooks: n, Cause: errs[0].Span.Start, Why: errs[0].Message()}, true
}

// assess gives every finding its impact: the rule's, or FileDropped for a
// finding at a value the agent's decoder cannot read, and lists the files
// the agent drops whole.
func (r *Run) assess() []DroppedFile {
	files := map[string]*File{}
	for _, f := range r.Files {
		files[f.Name] = f
	}
	index := map[*File]*spanIndex{}
	for i := range r.out {
		fd := &r.out[i]
		if fd.Impact == "" {
			fd.Impact = ImpactOf(fd.Rule)
		}
		f := files[fd.File]
		if f == nil {
			continue
		}
		ix := index[f]
		if ix == nil {
			ix = f.agentIndex()
			index[f] = ix
		}
		overlap := ix.overlaps(fd.Span)
		switch {
		case fd.Rule == "foreign-format" && len(f.agentErrors()) > 0:
			fd.Impact = FileDropped // a value of the other format's that the agent cannot read
		case fd.Rule == "json-syntax" && f.boundAt(fd.Span.Start):
			fd.Impact = NoImpact // hookctl's bound, not the agent's
		case fd.Rule == "json-syntax", overlap:
			fd.Impact = FileDropped
		case atNull(f, fd.Span):
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

// atNull reports whether a finding stands exactly at a null value, which
// the agent's decoder reads as the key left out.
func atNull(f *File, s schema.Span) bool {
	src := f.Config.Src
	return s.End.Offset-s.Start.Offset == 4 && s.End.Offset <= len(src) && string(src[s.Start.Offset:s.End.Offset]) == "null"
}

// agentIndex returns the spans of the values, and keys, the agent's
// decoder cannot read in the file, for overlap queries.
func (f *File) agentIndex() *spanIndex {
	var spans []schema.Span
	for _, e := range f.agentErrors() {
		spans = append(spans, e.Span)
		if e.Key.End.Offset > 0 {
			spans = append(spans, e.Key)
		}
	}
	return newSpanIndex(spans)
}

// spanIndex answers whether a span overlaps any of a set of spans (as
// overlaps does) in logarithmic time: a file with many findings and many
// values the agent cannot read (a repeated key, thousands of times) would
// otherwise compare every pair.
type spanIndex struct {
	// starts are the spans' first offsets, sorted; ends[i] is the largest
	// end (one past an empty span) among the spans up to i.
	starts, ends []int
}

func newSpanIndex(spans []schema.Span) *spanIndex {
	type iv struct{ s, e int }
	ivs := make([]iv, len(spans))
	for i, sp := range spans {
		s, e := sp.Start.Offset, sp.End.Offset
		if e == s {
			e++
		}
		ivs[i] = iv{s, e}
	}
	slices.SortFunc(ivs, func(a, b iv) int { return cmp.Compare(a.s, b.s) })
	ix := &spanIndex{starts: make([]int, len(ivs)), ends: make([]int, len(ivs))}
	top := 0
	for i, v := range ivs {
		top = max(top, v.e)
		ix.starts[i], ix.ends[i] = v.s, top
	}
	return ix
}

// overlaps reports whether sp overlaps one of the index's spans.
func (ix *spanIndex) overlaps(sp schema.Span) bool {
	s, e := sp.Start.Offset, sp.End.Offset
	if e == s {
		e++
	}
	// The spans that start before sp ends overlap it when one of them
	// ends after it starts.
	k, _ := slices.BinarySearch(ix.starts, e)
	return k > 0 && ix.ends[k-1] > s
}
