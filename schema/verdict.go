package schema

import (
	"cmp"
	"slices"
)

// What the agent (agy) makes of a hooks.json is decided once, here, and
// every command shows that one decision: lint (each finding's impact and
// the line that says a file is dropped), list (each hook and each invalid
// part), run --explain (the note on a dropped file), doctor (the files'
// checks) and test (a dropped file, the hooks it loses). The decision
// reads what the agent's decoder cannot read (AgentErrors) and the parts
// hookctl's own decoder reports (Config.Problems).

// Impact is what a part of a hooks.json means to the agent as it loads and
// runs the file.
type Impact string

// The impacts, from the worst.
const (
	// FileDropped: the agent loads none of the file's hooks (a value of
	// the wrong JSON type anywhere, a file that is not JSON).
	FileDropped Impact = "file-dropped"
	// Ignored: the agent silently skips this part (an unknown key or
	// event, a matcher that selects nothing, a handler without command).
	Ignored Impact = "ignored"
	// Misbehaves: it runs, but not as meant (a wrong folder, a literal
	// answer that denies everything, a timeout in milliseconds).
	Misbehaves Impact = "misbehaves"
	// NoImpact: it runs as meant (a key the agent reads in another case),
	// or the finding is of style, portability or information.
	NoImpact Impact = "none"
)

// Verdict is what the agent makes of one hooks.json: whether it loads the
// file, which hooks it counts, and what it does with each part hookctl's
// decoder reports.
type Verdict struct {
	// Known is false when hookctl read the file no further than its bound
	// on values: the agent, which has no such bound, reads on, and what it
	// does is not known. Nothing else is set then.
	Known bool
	// Drop is set when the agent loads none of the file's hooks.
	Drop *Drop
	// Hooks are the hooks the agent counts ("loaded N named hooks"), in
	// file order: every top-level key but "$schema", a repeated key once
	// (the last), whatever its value. Nil when the top level is not an
	// object.
	Hooks []HookVerdict

	cfg    *Config
	errs   []AgentError
	drops  *SpanSet
	object bool
}

// Drop says why the agent loads none of a file's hooks: the first cause.
type Drop struct {
	// Pos is where the cause stands.
	Pos Pos
	// Why is what the agent's decoder meets there: "it is not valid JSON",
	// or what it cannot read (AgentError.Message).
	Why string
	// Syntax is set for a file that is not JSON.
	Syntax bool
}

// HookVerdict is what the agent makes of one hook.
type HookVerdict struct {
	// Name is the hook's key; Pos where the key stands.
	Name string
	Pos  Pos
	// Def is the hook as decoded, nil when no part of it can run (its
	// value is not an object, or its "enabled" not a boolean).
	Def *HookDefinition
	// Enabled is the hook's "enabled" as read: true when left out or
	// null.
	Enabled bool
	// Events are the events for which the hook has a handler that runs
	// when the file is loaded and the hook enabled, in Events order.
	Events []Event
}

// Runs reports whether the agent runs any handler of the hook: the file
// is loaded, the hook enabled, and it has a handler for some event.
func (v *Verdict) Runs(h *HookVerdict) bool {
	return v.Known && v.Drop == nil && h.Enabled && len(h.Events) > 0
}

// HookCount is how many hooks the agent counts in the file, -1 when its
// top level is not an object (a file that is not JSON).
func (v *Verdict) HookCount() int {
	if !v.object {
		return -1
	}
	return len(v.Hooks)
}

// VerdictOf decides what the agent makes of a loaded hooks.json, as the
// agent opts describes loads it.
func VerdictOf(c *Config, opts AgentOptions) *Verdict {
	v := &Verdict{cfg: c, Known: true}
	if c.Syntax != nil && c.Syntax.Bound {
		return &Verdict{cfg: c}
	}
	if c.Root != nil && c.Root.Kind == Object {
		v.object = true
		v.Hooks = hookVerdicts(c)
	}
	if c.Root != nil {
		// Read past its syntax mistakes (ParseRecovering), a file's
		// values are judged as the corrected text holds them.
		v.errs = AgentErrors(c.Root, opts)
	}
	switch {
	case c.Syntax != nil:
		v.Drop = &Drop{Pos: c.Syntax.Pos, Why: "it is not valid JSON", Syntax: true}
	case len(v.errs) > 0:
		v.Drop = &Drop{Pos: v.errs[0].Span.Start, Why: v.errs[0].Message()}
	}
	var spans []Span
	for _, e := range v.errs {
		spans = append(spans, e.Span)
		if e.Key.End.Offset > 0 {
			spans = append(spans, e.Key)
		}
	}
	v.drops = NewSpanSet(spans)
	return v
}

// AgentErrors are the values of the file the agent's decoder cannot
// read, in the order it meets them (see AgentErrors).
func (v *Verdict) AgentErrors() []AgentError { return v.errs }

// hookVerdicts lists the hooks the agent counts, with what hookctl's
// decoder kept of each.
func hookVerdicts(c *Config) []HookVerdict {
	root := c.Root
	defs := map[string]*HookDefinition{}
	if c.File != nil {
		for _, h := range c.File.Hooks {
			defs[h.Name] = h
		}
	}
	var out []HookVerdict
	last := lastOccurrences(root)
	for i := range root.Members {
		m := &root.Members[i]
		if m.Key == "$schema" || !last[i] {
			continue
		}
		h := HookVerdict{Name: m.Key, Pos: m.KeySpan.Start, Def: defs[m.Key], Enabled: true}
		if h.Def != nil {
			h.Enabled = h.Def.IsEnabled()
			for _, e := range Events {
				if h.Def.handlesEvent(e) {
					h.Events = append(h.Events, e)
				}
			}
		}
		out = append(out, h)
	}
	return out
}

// handlesEvent reports whether the hook has a handler for the event: a
// group without handlers runs nothing.
func (h *HookDefinition) handlesEvent(e Event) bool {
	for _, g := range h.Groups(e) {
		if len(g.Hooks) > 0 {
			return true
		}
	}
	return len(h.Handlers(e)) > 0
}

// Hook returns the verdict on the hook of that name, nil when the file has
// none.
func (v *Verdict) Hook(name string) *HookVerdict {
	for i := range v.Hooks {
		if v.Hooks[i].Name == name {
			return &v.Hooks[i]
		}
	}
	return nil
}

// DropsAt reports whether a span of the file meets a value (or its key)
// that the agent's decoder cannot read: whatever is said of it, the agent
// loads none of the file.
func (v *Verdict) DropsAt(s Span) bool {
	return v.drops != nil && v.drops.Overlaps(s)
}

// NullAt reports whether a span stands exactly at a null value, which the
// agent's decoder reads as the key left out.
func (v *Verdict) NullAt(s Span) bool {
	src := v.cfg.Src
	return s.End.Offset-s.Start.Offset == 4 && s.End.Offset <= len(src) && string(src[s.Start.Offset:s.End.Offset]) == "null"
}

// ImpactOf says what the agent does with the part a problem of the file's
// decoder is about: it drops the file for a value it cannot read; it reads
// a key written in another case as meant (NoImpact), and a timeout that is
// a whole number below 1 not as meant (Misbehaves); every other part it
// ignores: an unknown key or event, a null (a key left out), a key another
// overrides, a handler without command, a matcher that is no regular
// expression, and whatever lies inside a part it ignores.
func (v *Verdict) ImpactOf(p *Problem) Impact {
	switch {
	case !v.Known:
		return NoImpact // what the agent does is not known
	case v.DropsAt(p.Span):
		return FileDropped
	case v.NullAt(p.Span), p.Unreached, p.Overridden:
		return Ignored
	case p.Rule == RuleKeyCase:
		return NoImpact
	case p.Rule == RuleTimeoutValue:
		return Misbehaves
	}
	return Ignored
}

// DuplicateImpact says what the agent does with a repeated key: its last
// occurrence counts and the others are ignored, unless one holds a value
// the agent's decoder cannot read (it reads them all, in order).
func (v *Verdict) DuplicateImpact(d *Duplicate) Impact {
	if v.DropsAt(d.Again) || v.DropsAt(d.First) {
		return FileDropped
	}
	return Ignored
}

// SpanSet answers whether a span overlaps any of a set of spans (shares a
// byte with one, or is empty and stands inside one) in logarithmic time: a
// file with many findings and many values the agent cannot read (a
// repeated key, thousands of times) would otherwise compare every pair.
type SpanSet struct {
	// starts are the spans' first offsets, sorted; ends[i] is the largest
	// end (one past an empty span) among the spans up to i.
	starts, ends []int
}

// NewSpanSet returns the set of the spans.
func NewSpanSet(spans []Span) *SpanSet {
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
	ix := &SpanSet{starts: make([]int, len(ivs)), ends: make([]int, len(ivs))}
	top := 0
	for i, v := range ivs {
		top = max(top, v.e)
		ix.starts[i], ix.ends[i] = v.s, top
	}
	return ix
}

// Overlaps reports whether sp overlaps one of the set's spans.
func (ix *SpanSet) Overlaps(sp Span) bool {
	s, e := sp.Start.Offset, sp.End.Offset
	if e == s {
		e++
	}
	// The spans that start before sp ends overlap it when one of them
	// ends after it starts.
	k, _ := slices.BinarySearch(ix.starts, e)
	return k > 0 && ix.ends[k-1] > s
}
