package runtime

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/hookctl/hookctl/schema"
)

// Entry is one part of a hooks.json file, as hookctl list shows it (its
// --json prints entries as they are): a handler, a hook with nothing to
// run, an invalid part, or a file that cannot be used. What each is comes
// from the one verdict of the file (schema.Verdict), as lint and run
// decide it.
type Entry struct {
	// Scope is user, workspace or config; File the hooks.json.
	Scope  string `json:"scope"`
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	// Hook is the hook's name, "" for an entry about the whole file.
	Hook    string `json:"hook"`
	Enabled bool   `json:"enabled"`
	Trusted bool   `json:"trusted"`
	Event   string `json:"event,omitempty"`
	// Matcher is the group's matcher as written ("" when absent), for tool
	// events.
	Matcher *string `json:"matcher,omitempty"`
	Command string  `json:"command,omitempty"`
	// Timeout is the handler's timeout in seconds, the default when unset.
	Timeout int `json:"timeout,omitempty"`
	// State, with --event, says what a dispatch does: run, same (an
	// identical handler runs for both), skip or fail; Why says why.
	State string `json:"state,omitempty"`
	Why   string `json:"why,omitempty"`
	// Invalid says what is wrong with a part that does not follow the
	// format, and Rule names the lint rule that reports it; Note says the
	// same of a part the agent reads as meant all the same (a key in
	// another case). Agent says what the part means to the agent, as lint's
	// impact says it: file-dropped, ignored, misbehaves or none.
	Invalid string        `json:"invalid,omitempty"`
	Note    string        `json:"note,omitempty"`
	Rule    string        `json:"rule,omitempty"`
	Agent   schema.Impact `json:"agent,omitempty"`
	// Dropped, on every entry of a file the agent (agy) loads none of,
	// says why: "LINE:COL: what its decoder meets" (hookctl still runs
	// the file's valid parts).
	Dropped string `json:"dropped,omitempty"`

	// Source is the file the entry is of.
	Source *Source `json:"-"`
	offset int
}

// Inventory lists one file: every handler of every hook, each hook that
// has none, and every part that does not follow the format, in file
// order. Every entry of a file the agent drops says why (Entry.Dropped).
func Inventory(src *Source) []Entry {
	return dropped(src, inventory(src))
}

// dropped gives every entry of a file the agent drops the reason why.
func dropped(src *Source, entries []Entry) []Entry {
	if why, ok := src.AgentDrops(); ok {
		for i := range entries {
			entries[i].Dropped = why
		}
	}
	return entries
}

func inventory(src *Source) []Entry {
	if !src.Exists {
		return nil
	}
	base := Entry{Scope: src.Scope.String(), File: src.Path, Trusted: src.Trusted, Source: src}
	at := func(p schema.Pos) Entry {
		e := base
		e.Line, e.Column, e.offset = p.Line, p.Col, p.Offset
		return e
	}
	if src.Err != nil {
		e := at(schema.Pos{})
		e.Invalid = src.Err.Error()
		return []Entry{e}
	}
	cfg := src.Config
	if cfg.Syntax != nil {
		e := at(cfg.Syntax.Pos)
		e.Invalid, e.Rule, e.Agent = "not valid JSON: "+cfg.Syntax.Msg+"; none of its hooks can run", schema.RuleJSONSyntax, schema.FileDropped
		if cfg.Syntax.Bound {
			e.Invalid, e.Agent = cfg.Syntax.Msg, ""
		}
		return []Entry{e}
	}
	var out []Entry
	verdict := src.Verdict()
	enabled := map[string]bool{}
	flawed := map[string]bool{}
	for _, pr := range cfg.Problems {
		if pr.Dropped != "" {
			flawed[pr.Hook] = true
		}
	}
	for _, h := range cfg.File.Hooks {
		enabled[h.Name] = h.IsEnabled()
		n := len(out)
		for _, ev := range schema.Events {
			if ev.IsTool() {
				for _, g := range h.Groups(ev) {
					m := g.MatcherText()
					for i := range g.Hooks {
						out = append(out, handlerEntry(at(g.Hooks[i].Pos), h, ev, &m, &g.Hooks[i]))
					}
				}
				continue
			}
			for i, hd := range h.Handlers(ev) {
				out = append(out, handlerEntry(at(hd.Pos), h, ev, nil, &h.Handlers(ev)[i]))
			}
		}
		// A hook whose handlers are all invalid shows them as such below.
		if len(out) == n && !flawed[h.Name] {
			e := at(h.Pos)
			e.Hook, e.Enabled, e.Why = h.Name, h.IsEnabled(), "no handlers"
			out = append(out, e)
		}
	}
	for i := range cfg.Problems {
		pr := &cfg.Problems[i]
		e := at(pr.Span.Start)
		e.Hook, e.Rule, e.Enabled = pr.Hook, pr.Rule, pr.Hook != "" && enabled[pr.Hook]
		e.Agent = verdict.ImpactOf(pr)
		if len(pr.Events) == 1 {
			e.Event = string(pr.Events[0])
		}
		if pr.Rule == schema.RuleMatcherSyntax {
			// The group is dropped, but its matcher as written is what the
			// reader looks for.
			var m string
			if json.Unmarshal(cfg.Src[pr.Span.Start.Offset:pr.Span.End.Offset], &m) == nil {
				e.Matcher = &m
			}
		}
		// What hookctl runs (a part it drops cannot run), and else what
		// the agent makes of the part: the verdict lint and run show too.
		switch {
		case pr.Dropped == "file":
			e.Invalid = pr.Msg + "; none of its hooks can run"
		case pr.Dropped != "":
			e.Invalid = fmt.Sprintf("%s; this %s cannot run", pr.Msg, pr.Dropped)
		case e.Agent == schema.NoImpact:
			e.Note = pr.Msg
		case e.Agent == schema.FileDropped:
			e.Invalid = pr.Msg + "; the agent loads none of this file's hooks for it"
		case e.Agent == schema.Misbehaves:
			e.Invalid = pr.Msg + "; it runs, but not as meant"
		default:
			e.Invalid = pr.Msg + "; ignored"
		}
		out = append(out, e)
		if pr.Dropped == "file" {
			return []Entry{e}
		}
	}
	for i := range cfg.Duplicates {
		d := &cfg.Duplicates[i]
		e := at(d.Again.Start)
		e.Invalid, e.Rule = fmt.Sprintf("key %q repeated (first at %d:%d): the last one counts, the others are ignored", d.Key, d.First.Start.Line, d.First.Start.Col), schema.RuleDuplicateKey
		e.Agent = verdict.DuplicateImpact(d)
		out = append(out, e)
	}
	slices.SortStableFunc(out, func(a, b Entry) int { return cmp.Compare(a.offset, b.offset) })
	return out
}

func handlerEntry(e Entry, h *schema.HookDefinition, ev schema.Event, matcher *string, hd *schema.Handler) Entry {
	e.Hook, e.Enabled, e.Event, e.Matcher = h.Name, h.IsEnabled(), string(ev), matcher
	e.Command, e.Timeout = hd.Command, hd.TimeoutSeconds()
	return e
}

// Entries lists what a dispatch would do with each hook of the event, in
// the order it decides them. Every entry of a file the agent drops says
// why (Entry.Dropped).
func (p *Plan) Entries() []Entry {
	var out []Entry
	for _, st := range p.Steps {
		if st.State == NoEvent || st.State == Disabled && !hookHasEvent(st.Source, st.Hook, p.Event) {
			continue
		}
		src := st.Source
		e := Entry{Scope: src.Scope.String(), File: src.Path, Line: st.Pos.Line, Column: st.Pos.Col,
			Hook: st.Hook, Trusted: src.Trusted, Event: string(p.Event), State: st.State.String(), Why: st.Why, Source: src}
		e.Enabled = st.State != Disabled && st.Hook != ""
		if st.Handler != nil {
			e.Command, e.Timeout = st.Handler.Command, st.Handler.TimeoutSeconds()
			if p.Event.IsTool() {
				m := st.Matcher
				e.Matcher = &m
			}
		}
		if st.State == Broken {
			e.Invalid, e.Why = st.Why, ""
		}
		if (st.State == Untrusted || st.State == Disabled) && st.Hook != "" && st.Handler == nil {
			// The plan sets a disabled hook (or an untrusted part that
			// cannot run) aside as a whole; its handlers are still worth
			// seeing.
			if hs := setAsideHandlers(e, p.Event, src, st.Hook); len(hs) > 0 {
				out = append(out, dropped(src, hs)...)
				continue
			}
		}
		out = append(out, dropped(src, []Entry{e})...)
	}
	return out
}

// hookHasEvent reports whether the file's hook of that name handles the
// event.
func hookHasEvent(src *Source, name string, ev schema.Event) bool {
	if src.Config == nil || src.Config.File == nil {
		return false
	}
	for _, h := range src.Config.File.Hooks {
		if h.Name == name && h.HasEvent(ev) {
			return true
		}
	}
	return false
}

// setAsideHandlers lists the handlers of the event in a hook that the plan
// set aside as a whole, each for the same reason as the hook.
func setAsideHandlers(base Entry, ev schema.Event, src *Source, name string) []Entry {
	if src.Config == nil || src.Config.File == nil {
		return nil
	}
	var out []Entry
	for _, h := range src.Config.File.Hooks {
		if h.Name != name {
			continue
		}
		add := func(hd *schema.Handler, matcher *string) {
			e := base
			e.Line, e.Column, e.Command, e.Timeout, e.Matcher = hd.Pos.Line, hd.Pos.Col, hd.Command, hd.TimeoutSeconds(), matcher
			out = append(out, e)
		}
		for _, g := range h.Groups(ev) {
			m := g.MatcherText()
			for i := range g.Hooks {
				add(&g.Hooks[i], &m)
			}
		}
		for i := range h.Handlers(ev) {
			add(&h.Handlers(ev)[i], nil)
		}
	}
	return out
}
