package runtime

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/scope"
)

// ListOptions say what hookctl list lists.
type ListOptions struct {
	// Event, when set, keeps the entries of that event; with Tool (or for
	// an event that names no tool) it decides, as a dispatch would, what
	// runs (Listing.Plan).
	Event schema.Event
	// Tool is the tool a PreToolUse or PostToolUse payload names.
	Tool string
	// Configs, Home and Workspace say which files, as for Discover.
	Configs         []string
	Home, Workspace string
	// Trusted decides whether a workspace file's hooks may run.
	Trusted func(*Source) (bool, string)
}

// Listing is what hookctl list shows: the files, and their entries in
// config order.
type Listing struct {
	Sources []*Source
	Entries []Entry
	// Plan is what runs for ListOptions.Event, nil when nothing was
	// decided.
	Plan *Plan
}

// List lists the files opts names, as hookctl list shows them. Its
// errors are the options' (a tool payload that cannot be built, a
// --config that does not exist).
func List(opts ListOptions) (*Listing, error) {
	event := opts.Event
	if event != "" && (!event.IsTool() || opts.Tool != "") {
		plan, err := listPlan(opts)
		if err != nil {
			return nil, err
		}
		return &Listing{Sources: plan.Sources, Entries: plan.Entries(), Plan: plan}, nil
	}
	srcs, err := Discover(opts.Configs, opts.Home, opts.Workspace)
	if err != nil {
		return nil, err
	}
	l := &Listing{Sources: srcs}
	for _, src := range srcs {
		if src.Scope == scope.Workspace && src.Exists && opts.Trusted != nil {
			src.Trusted, src.TrustNote = opts.Trusted(src)
		}
		for _, e := range Inventory(src) {
			if event == "" || e.Event == string(event) || e.Hook == "" || e.Event == "" && e.Invalid != "" {
				l.Entries = append(l.Entries, e)
			}
		}
	}
	return l, nil
}

// listPlan decides, as hookctl run would, what runs for the event.
func listPlan(opts ListOptions) (*Plan, error) {
	var partial []byte
	if opts.Tool != "" {
		p, err := ToolPayload(opts.Tool, "")
		if err != nil {
			return nil, fmt.Errorf("--tool: %v", err)
		}
		partial = p
	}
	payload, err := CompletePayload(opts.Event, partial, opts.Workspace, opts.Home)
	if err != nil {
		return nil, err
	}
	return NewPlan(opts.Event, payload, Options{Configs: opts.Configs, Workspace: opts.Workspace, Home: opts.Home, Trusted: opts.Trusted})
}

// Head names the columns of the listing's table, before the command;
// RUNS, what a dispatch does, only when a plan was decided.
func (l *Listing) Head() []string {
	head := []string{"WHERE", "HOOK", "ENABLED", "TRUSTED", "EVENT", "MATCHER", "TIMEOUT"}
	if l.Plan != nil {
		head = append(head, "RUNS")
	}
	return head
}

// maxMatcherWidth keeps a long alternation of tool names from pushing the
// commands off the screen; --json has it whole.
const maxMatcherWidth = 40

// Cells returns the entry's cells under Head, and last the command (or
// what is wrong). Every string from a hooks.json is shown with its
// control characters made visible: a command must not hide behind
// escapes.
func (e Entry) Cells(planned bool) []string {
	where := "-"
	if e.Line > 0 {
		where = fmt.Sprintf("%d:%d", e.Line, e.Column)
	}
	yesNo := func(b bool) string {
		if b {
			return "yes"
		}
		return "no"
	}
	hook, enabled, event, matcher, timeout := e.Hook, yesNo(e.Enabled), e.Event, "-", "-"
	if hook == "" {
		hook, enabled = "-", "-"
	}
	if event == "" {
		event = "-"
	}
	if e.Matcher != nil {
		matcher = *e.Matcher
		if matcher == "" || matcher == "*" {
			matcher = "*"
		}
		if r := []rune(matcher); len(r) > maxMatcherWidth {
			matcher = string(r[:maxMatcherWidth-1]) + "…"
		}
	}
	if e.Timeout > 0 {
		timeout = strconv.Itoa(e.Timeout) + "s"
	}
	trusted := yesNo(e.Trusted)
	cells := []string{where, schema.Visible(hook), enabled, trusted, event, schema.Visible(matcher), timeout}
	if planned {
		cells = append(cells, e.State)
	}
	tail := e.Command
	switch {
	case e.Invalid != "" && e.Rule != "":
		tail = fmt.Sprintf("invalid: %s [%s]", e.Invalid, e.Rule)
	case e.Invalid != "":
		tail = "invalid: " + e.Invalid
	case e.Note != "":
		tail = fmt.Sprintf("note: %s [%s]", e.Note, e.Rule)
	case tail == "" && e.Why != "":
		tail = "(" + e.Why + ")"
	case e.Why != "" && e.State != "":
		tail += "  (" + e.Why + ")"
	}
	return append(cells, schema.Visible(tail))
}

// Title names the file and says whether its hooks can run at all.
func (s *Source) Title() string {
	t := fmt.Sprintf("%s file %s", s.Scope, schema.Visible(s.Path))
	switch {
	case !s.Exists:
		return t + " (not found)"
	case s.Scope != scope.Workspace:
		return t
	case s.Trusted:
		return t + " (trusted)"
	}
	why := s.TrustNote
	if hint := s.TrustHint(schema.Visible(filepath.Dir(s.Dir))); hint != "" {
		if why != "" {
			why += "; "
		}
		why += hint
	}
	return fmt.Sprintf("%s (untrusted: %s)", t, why)
}

// Of returns the indexes of the entries of the file src, in order.
func (l *Listing) Of(src *Source) []int {
	var mine []int
	for i, e := range l.Entries {
		if e.Source == src {
			mine = append(mine, i)
		}
	}
	return mine
}

// Summary is the listing's last line: the hooks, handlers and invalid
// parts of its files; with a plan, how many handlers would run, and fail.
func (l *Listing) Summary() string {
	if plan := l.Plan; plan != nil {
		runs, fails := 0, 0
		for _, e := range l.Entries {
			switch e.State {
			case "run":
				runs++
			case "fail":
				fails++
			}
		}
		what := string(plan.Event)
		if plan.Event.IsTool() {
			what += " of " + plan.Payload.Tool
		}
		s := fmt.Sprintf("%s would run for %s", schema.Plural(runs, "handler"), what)
		if fails > 0 {
			s += fmt.Sprintf("; %s would be reported", schema.Plural(fails, "failure"))
		}
		return s
	}
	hooks, handlers, invalid := 0, 0, 0
	seen := map[string]bool{}
	for _, src := range l.Sources {
		for _, i := range l.Of(src) {
			e := l.Entries[i]
			switch {
			case e.Invalid != "":
				invalid++
			case e.Command != "":
				handlers++
			}
			if key := src.Path + "\x00" + e.Hook; e.Hook != "" && !seen[key] {
				seen[key] = true
				hooks++
			}
		}
	}
	s := fmt.Sprintf("%s, %s", schema.Plural(hooks, "hook"), schema.Plural(handlers, "handler"))
	if invalid > 0 {
		s += fmt.Sprintf(", %s", schema.Plural(invalid, "invalid part"))
	}
	return s
}

// LookAlikes names the hook names and the words of commands among the
// entries at the indexes mine that read as others (schema.LookAlike): a
// Cyrillic а in gаte beside the real gate shows the same in the table.
func (l *Listing) LookAlikes(mine []int) []string {
	var notes []string
	seen := map[string]bool{}
	for _, i := range mine {
		e := l.Entries[i]
		if note := schema.LookAlikeHook(e.Hook, e.File, e.Line); note != "" && !seen["\x00"+e.Hook] {
			seen["\x00"+e.Hook] = true
			notes = append(notes, note)
		}
		for _, word := range strings.Fields(e.Command) {
			if why := schema.LookAlike(word); why != "" && !seen[word] {
				seen[word] = true
				notes = append(notes, fmt.Sprintf("%s in the command of %s (%s:%d) %s; it reads as %s", schema.Visible(word), schema.Visible(e.Hook), schema.Visible(e.File), e.Line, why, schema.Visible(schema.LookAlikeAs(word))))
			}
		}
	}
	return notes
}
