package runtime

import (
	"fmt"
	"os"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/scope"
)

// State says what a dispatch does with a step.
type State uint8

// The states of a step.
const (
	// Run: the handler runs.
	Run State = iota
	// Same: the handler is identical to an earlier one (same command,
	// timeout and working folder), which runs for both.
	Same
	// Broken: the part cannot run because it is invalid, or its file cannot
	// be read or parsed; it counts as a failed handler.
	Broken
	// Disabled: the hook has "enabled": false.
	Disabled
	// NoMatch: the group's matcher does not select the tool.
	NoMatch
	// Untrusted: the workspace file is not trusted.
	Untrusted
	// NoEvent: the hook has no handlers for the event.
	NoEvent
)

func (s State) String() string {
	switch s {
	case Run:
		return "run"
	case Same:
		return "same"
	case Broken:
		return "fail"
	}
	return "skip"
}

// Step is one handler a dispatch considered, or one hook or file that it
// set aside as a whole, in config order.
type Step struct {
	// Source is the file the step comes from.
	Source *Source
	// Hook is the hook's name, "" for a step about a whole file.
	Hook string
	// Pos is where the handler (or the hook, or the part at fault) stands
	// in the file.
	Pos schema.Pos
	// Handler is the handler to run, nil for steps about a hook or a part
	// that cannot run.
	Handler *schema.Handler
	// Matcher is the group's matcher as written, for tool events.
	Matcher string
	// State says whether the step runs, and why not.
	State State
	// Why explains a state other than Run, in a user's words.
	Why string
	// Original is the earlier identical handler that runs for a Same step.
	Original *Step
}

// Where formats the step's place as FILE:LINE:COL, or FILE without one.
func (s *Step) Where() string {
	if !s.Pos.IsValid() {
		return s.Source.Path
	}
	return fmt.Sprintf("%s:%d:%d", s.Source.Path, s.Pos.Line, s.Pos.Col)
}

// Timeout is the handler's timeout.
func (s *Step) Timeout() time.Duration {
	if s.Handler == nil {
		return 0
	}
	return time.Duration(s.Handler.TimeoutSeconds()) * time.Second
}

// Plan is what a dispatch does: the files it read and every step it
// considered, in config order.
type Plan struct {
	// Event is the dispatched event.
	Event schema.Event
	// Payload is the event's input.
	Payload *Payload
	// Workspace is the workspace folder the dispatch uses.
	Workspace string
	// Refused, when not "", says why the workspace found from the current
	// folder was not taken (another user owns it), and what was instead.
	Refused string
	// Sources are the hooks.json files, in the order their hooks run.
	Sources []*Source
	// Steps are the handlers, hooks and files considered, in config order.
	Steps []*Step

	opts     Options
	matchers matchers
}

// NewPlan reads the payload, finds the hooks.json files and decides which
// handlers of the event run. Its error is for an invocation that cannot be
// dispatched at all: an unknown event, a payload that is not a JSON object,
// a tool event without toolCall.name, a named config that does not exist.
// Broken files are not errors: they become Broken steps.
func NewPlan(e schema.Event, payload []byte, opts Options) (*Plan, error) {
	if !e.Valid() {
		msg := fmt.Sprintf("unknown event %q", e)
		if near := schema.Nearest(string(e), schema.EventNames()); near != "" {
			msg += fmt.Sprintf(": did you mean %q?", near)
		}
		return nil, fmt.Errorf("%s", msg)
	}
	opts = opts.withDefaults()
	p, err := ParsePayload(e, payload)
	if err != nil {
		return nil, err
	}
	ws, refused, err := resolveWorkspace(opts.Workspace, p, opts.Dir)
	if err != nil {
		return nil, err
	}
	srcs, err := discover(opts.Configs, opts.Home, ws, opts.NeverTrusted)
	if err != nil {
		return nil, err
	}
	if len(opts.Configs) == 0 && opts.homeless != "" {
		srcs = append([]*Source{homelessUserFile(opts.homeless)}, srcs...)
	}
	plan := &Plan{Event: e, Payload: p, Workspace: ws, Refused: refused, Sources: srcs, opts: opts}
	for _, src := range srcs {
		if src.Scope == scope.Workspace && src.Exists && opts.Trusted != nil && !src.unread {
			src.Trusted, src.TrustNote = opts.Trusted(src)
		}
		plan.add(src)
	}
	plan.dedupe()
	return plan, nil
}

// add appends the steps of one file.
func (p *Plan) add(src *Source) {
	if !src.Exists {
		return
	}
	if !src.Trusted {
		p.addUntrusted(src)
		return
	}
	p.addFile(src)
}

// addFile appends the steps of a file that may run.
func (p *Plan) addFile(src *Source) {
	if src.Err != nil {
		p.Steps = append(p.Steps, &Step{Source: src, State: Broken, Why: src.Err.Error()})
		return
	}
	cfg := src.Config
	if cfg.Syntax != nil {
		why := "the file is not valid JSON: " + cfg.Syntax.Msg
		if cfg.Syntax.Bound {
			why = cfg.Syntax.Msg
		}
		p.Steps = append(p.Steps, &Step{Source: src, Pos: cfg.Syntax.Pos, State: Broken, Why: why})
		return
	}
	for _, pr := range cfg.Problems {
		if pr.Dropped == "file" {
			p.Steps = append(p.Steps, &Step{Source: src, Pos: pr.Span.Start, State: Broken, Why: pr.Msg})
			return
		}
	}
	// Hooks and dropped parts interleave in file order, so that a failure
	// is reported where its part stands.
	broken := p.brokenParts(cfg)
	for _, h := range cfg.File.Hooks {
		for len(broken) > 0 && broken[0].Pos.Offset < h.Pos.Offset {
			p.Steps, broken = append(p.Steps, broken[0]), broken[1:]
		}
		p.addHook(src, h, &broken)
	}
	p.Steps = append(p.Steps, broken...)
}

// addHook appends the steps of one hook, with the broken parts that stand
// inside it in file order.
func (p *Plan) addHook(src *Source, h *schema.HookDefinition, broken *[]*Step) {
	flush := func(before int) {
		for len(*broken) > 0 && (*broken)[0].Pos.Offset < before && (*broken)[0].Hook == h.Name {
			p.Steps = append(p.Steps, (*broken)[0])
			*broken = (*broken)[1:]
		}
	}
	if !h.IsEnabled() {
		p.Steps = append(p.Steps, &Step{Source: src, Hook: h.Name, Pos: h.Pos, State: Disabled,
			Why: `disabled ("enabled": false)`})
		return
	}
	if !h.HasEvent(p.Event) {
		n := len(p.Steps)
		flush(int(^uint(0) >> 1))
		if len(p.Steps) == n {
			p.Steps = append(p.Steps, &Step{Source: src, Hook: h.Name, Pos: h.Pos, State: NoEvent,
				Why: fmt.Sprintf("no %s handlers", p.Event)})
		}
		return
	}
	if !p.Event.IsTool() {
		for i := range h.Handlers(p.Event) {
			hd := &h.Handlers(p.Event)[i]
			flush(hd.Pos.Offset)
			p.Steps = append(p.Steps, &Step{Source: src, Hook: h.Name, Pos: hd.Pos, Handler: hd, State: Run})
		}
		return
	}
	groups := h.Groups(p.Event)
	for gi := range groups {
		g := &groups[gi]
		// The loader keeps only groups whose matcher is valid.
		selected := p.matchers.match(g.MatcherText(), p.Payload.Tool)
		for i := range g.Hooks {
			hd := &g.Hooks[i]
			flush(hd.Pos.Offset)
			st := &Step{Source: src, Hook: h.Name, Pos: hd.Pos, Handler: hd, Matcher: g.MatcherText(), State: Run}
			if !selected {
				st.State = NoMatch
				st.Why = fmt.Sprintf("matcher %s does not match %s", strconv.Quote(g.MatcherText()), p.Payload.Tool)
			}
			p.Steps = append(p.Steps, st)
		}
	}
	flush(int(^uint(0) >> 1))
}

// brokenParts returns, in file order, the dropped parts of cfg that would
// have run for this dispatch: parts of the event in enabled hooks, outside
// groups whose matcher does not select the tool.
func (p *Plan) brokenParts(cfg *schema.Config) []*Step {
	var out []*Step
	var hooks map[string]*schema.HookDefinition
	var members map[string]*schema.Member
	selects := map[string]bool{}
	for i := range cfg.Problems {
		pr := &cfg.Problems[i]
		if pr.Dropped == "" || pr.Hook == "" || !slices.Contains(pr.Events, p.Event) {
			continue
		}
		// A file may hold many broken parts and many hooks: each hook and
		// each top-level member is looked up through a map built once.
		if hooks == nil {
			hooks = make(map[string]*schema.HookDefinition, len(cfg.File.Hooks))
			for _, h := range cfg.File.Hooks {
				if _, ok := hooks[h.Name]; !ok {
					hooks[h.Name] = h
				}
			}
			members = make(map[string]*schema.Member, len(cfg.Root.Members))
			for j := range cfg.Root.Members {
				members[cfg.Root.Members[j].Key] = &cfg.Root.Members[j]
			}
		}
		if h := hooks[pr.Hook]; h != nil && !h.IsEnabled() {
			continue
		}
		if p.Event.IsTool() && !p.groupMayMatch(members[pr.Hook], pr, selects) {
			continue
		}
		out = append(out, &Step{Source: p.sourceOf(cfg), Hook: pr.Hook, Pos: pr.Span.Start, State: Broken,
			Why: fmt.Sprintf("%s; this %s cannot run", pr.Msg, pr.Dropped)})
	}
	slices.SortStableFunc(out, func(a, b *Step) int { return a.Pos.Offset - b.Pos.Offset })
	return out
}

// groupMayMatch reports whether the dropped part, in the hook whose
// top-level member is hm, lies outside any group whose (valid) matcher
// rules the tool out. selects remembers what each matcher said.
func (p *Plan) groupMayMatch(hm *schema.Member, pr *schema.Problem, selects map[string]bool) bool {
	if hm == nil {
		return true
	}
	ev := hm.Value.Get(string(p.Event))
	if ev == nil || ev.Value.Kind != schema.Array {
		return true
	}
	// The groups stand in file order: the one that holds the part is the
	// first that ends after it starts.
	off := pr.Span.Start.Offset
	elems := ev.Value.Elems
	i := sort.Search(len(elems), func(i int) bool { return elems[i].Span.End.Offset > off })
	if i == len(elems) || off < elems[i].Span.Start.Offset || elems[i].Kind != schema.Object {
		return true
	}
	mm := elems[i].Get("matcher")
	if mm == nil || mm.Value.Kind != schema.String {
		return true
	}
	sel, seen := selects[mm.Value.Str]
	if !seen {
		m, err := schema.CompileMatcher(mm.Value.Str)
		sel = err != nil || m.Match(p.Payload.Tool)
		selects[mm.Value.Str] = sel
	}
	return sel
}

func (p *Plan) sourceOf(cfg *schema.Config) *Source {
	for _, s := range p.Sources {
		if s.Config == cfg {
			return s
		}
	}
	return nil
}

// addUntrusted considers an untrusted workspace file as a trusted one, so
// that every hook shows as it would be decided, and sets aside what would
// have run (or been reported as a failure): those steps are Untrusted.
func (p *Plan) addUntrusted(src *Source) {
	why := "untrusted workspace"
	if src.TrustNote != "" {
		why += " (" + src.TrustNote + ")"
	}
	if hint := src.TrustHint(p.Workspace); hint != "" {
		why += ": " + hint
	}
	if src.Config == nil || src.Config.File == nil || src.Config.Syntax != nil {
		p.Steps = append(p.Steps, &Step{Source: src, State: Untrusted, Why: why})
		return
	}
	n := len(p.Steps)
	p.addFile(src)
	for _, s := range p.Steps[n:] {
		if s.State == Run || s.State == Broken {
			s.State, s.Why = Untrusted, why
		}
	}
}

// dedupe marks handlers identical to an earlier one, which run once.
func (p *Plan) dedupe() {
	type key struct {
		command, dir string
		timeout      int
	}
	seen := map[key]*Step{}
	for _, s := range p.Steps {
		if s.State != Run {
			continue
		}
		k := key{s.Handler.Command, s.Source.Dir, s.Handler.TimeoutSeconds()}
		if first, ok := seen[k]; ok {
			s.State, s.Original = Same, first
			s.Why = fmt.Sprintf("same command, timeout and folder as %s at %s, which runs once for both", quoteName(first.Hook), first.Where())
			continue
		}
		seen[k] = s
	}
}

// Runs returns the steps that run a handler or report a failure, in config
// order: the ones whose outcomes make the answer.
func (p *Plan) Runs() []*Step {
	var out []*Step
	for _, s := range p.Steps {
		if s.State == Run || s.State == Broken {
			out = append(out, s)
		}
	}
	return out
}

// quoteName quotes a hook name for a message.
func quoteName(s string) string { return strconv.Quote(s) }

// cwd is the folder the process runs in, "" when unknown.
func cwd() string {
	d, _ := os.Getwd()
	return d
}
