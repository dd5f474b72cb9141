package hooktest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/schema"
)

// DefaultBudget is how long one call of a handler may take in a contract
// check unless ContractOptions.Budget says otherwise.
const DefaultBudget = 500 * time.Millisecond

// TestEnv is the variable set to "1" in the environment of every handler
// that hookctl test runs, its cases and its contract check alike, so that a
// handler with side effects (a notification, an audit log, a push) can
// leave them out.
const TestEnv = "HOOKCTL_TEST"

// ContractOptions configure a contract check.
type ContractOptions struct {
	// Configs are the hooks.json files whose handlers are checked, in
	// order. Each must exist and parse.
	Configs []string
	// Workspace is the workspace the payloads name (workspacePaths, the
	// tools' paths and folders) and HOOKCTL_WORKSPACE; "" means the folder
	// above the first file's .agents folder, else the current folder.
	Workspace string
	// Home is the home folder the payloads' transcript paths lie in; ""
	// means $HOME.
	Home string
	// Hooks, when not empty, are the names of the hooks to check; the
	// others are left out. A name that no file defines is an
	// *UnknownHookError. A disabled hook named here is checked.
	Hooks []string
	// Budget is how long one call may take; 0 means DefaultBudget.
	Budget time.Duration
	// Parallel is how many handlers run at once; 0 means the number of
	// cores.
	Parallel int
	// Env is the handlers' environment before the HOOKCTL_ variables are
	// set; nil means the process's. HOOKCTL_TEST=1 is always added.
	Env []string
	// Grace is the time between SIGTERM and SIGKILL when a handler is
	// stopped; 0 means runtime.Grace.
	Grace time.Duration
	// Progress, when set, receives each handler's report as soon as it and
	// every handler before it are done, in config order, with the whole
	// report, whose Handlers are all listed (and not all done yet).
	Progress func(r *ContractReport, h *HandlerReport)
}

// ContractReport is how a contract check went.
type ContractReport struct {
	// Workspace is the workspace the payloads named.
	Workspace string
	// Budget is the budget each call was held to.
	Budget time.Duration
	// Handlers are the handlers of the files, in config order.
	Handlers []*HandlerReport
	// Notes name the parts of the files that were not checked, having
	// nothing to run (a hook without handlers).
	Notes []string
	// Dropped are the files the agent loads none of: a value of the wrong
	// JSON type anywhere, or text that is not JSON.
	Dropped []DroppedFile
}

// DroppedFile is a file the agent drops whole.
type DroppedFile struct {
	// Path is the file; Pos is where the first cause stands, Why says so.
	Path string
	Pos  schema.Pos
	Why  string
	// Counted is set when no broken part of the file already fails for
	// the cause, so that the file counts as one failure itself.
	Counted bool
}

// NotChecked returns how many parts of the files were not checked: the
// handlers skipped (disabled, or sent no call because their matcher selects
// no known tool) and the parts named in Notes.
func (r *ContractReport) NotChecked() int {
	n := len(r.Notes)
	for _, h := range r.Handlers {
		if h.Status() == StatusSkip {
			n++
		}
	}
	return n
}

// Calls returns how many calls were made to the handlers, in all.
func (r *ContractReport) Calls() int {
	n := 0
	for _, h := range r.Handlers {
		n += len(h.Calls)
	}
	return n
}

// Counts returns how many handlers passed and failed; skipped ones count
// as neither (see NotChecked). A part that cannot run (Broken) fails, and
// so does a file the agent drops whole for a cause no part holds.
func (r *ContractReport) Counts() (passed, failed int) {
	for _, h := range r.Handlers {
		switch h.Status() {
		case StatusPass:
			passed++
		case StatusFail:
			failed++
		}
	}
	for _, d := range r.Dropped {
		if d.Counted {
			failed++
		}
	}
	return passed, failed
}

// Status says whether a handler, or one call, passed.
type Status string

// The statuses.
const (
	StatusPass Status = "pass"
	StatusFail Status = "fail"
	StatusSkip Status = "skip"
)

// HandlerReport is how one handler kept the contract.
type HandlerReport struct {
	// Hook is the hook's name.
	Hook string
	// Source is the file it comes from; Pos is where the handler stands.
	Source *runtime.Source
	Pos    schema.Pos
	// Event is the event it is registered for; Matcher is its group's
	// matcher, for the tool events.
	Event   schema.Event
	Matcher string
	// Handler is the handler as written.
	Handler *schema.Handler
	// Skipped says why it was not run (disabled, or a matcher that selects
	// no known tool), "" when it was.
	Skipped string
	// Note is a remark about the check: a disabled hook checked because it
	// was named.
	Note string
	// Broken says why the part cannot run at all: it is invalid, and the
	// agent skips it or drops the whole file for it. Handler is then nil
	// when the part holds no handler hookctl can read.
	Broken string
	// Calls are its calls, in the order they were sent.
	Calls []*CallReport
}

// Where formats the handler's place as FILE:LINE:COL.
func (h *HandlerReport) Where() string {
	return fmt.Sprintf("%s:%d:%d", h.Source.Path, h.Pos.Line, h.Pos.Col)
}

// Status is pass when every call passed, fail when one failed, skip when
// the handler was not run.
func (h *HandlerReport) Status() Status {
	if h.Broken != "" {
		return StatusFail
	}
	if h.Skipped != "" {
		return StatusSkip
	}
	for _, c := range h.Calls {
		if c.Status() == StatusFail {
			return StatusFail
		}
	}
	return StatusPass
}

// Ran returns the calls that ran.
func (h *HandlerReport) Ran() []*CallReport {
	var out []*CallReport
	for _, c := range h.Calls {
		if c.Skipped == "" {
			out = append(out, c)
		}
	}
	return out
}

// P50 and Max are the median and the longest duration of its calls.
func (h *HandlerReport) P50() time.Duration { return percentile(h.Ran(), 50) }

// Max is the longest duration of its calls.
func (h *HandlerReport) Max() time.Duration { return percentile(h.Ran(), 100) }

// percentile returns the nearest-rank percentile of the calls' durations.
func percentile(calls []*CallReport, p int) time.Duration {
	if len(calls) == 0 {
		return 0
	}
	ds := make([]time.Duration, len(calls))
	for i, c := range calls {
		ds[i] = c.Duration
	}
	slices.Sort(ds)
	rank := (p*len(ds) + 99) / 100 // ceil(p/100 * n), 1-based
	return ds[max(rank, 1)-1]
}

// CallReport is one payload sent to a handler and what came of it.
type CallReport struct {
	// Event is the event; Tool and Args the tool call, for tool events.
	Event schema.Event
	Tool  string
	Args  json.RawMessage
	// Duration is how long the handler ran.
	Duration time.Duration
	// Ending says how it ended; ExitCode is its exit status (-1 when it did
	// not exit by itself).
	Ending   runtime.Ending
	ExitCode int
	// Stdout is what it printed, Stderr its stderr (both capped).
	Stdout []byte
	Stderr []byte
	// Answer is its answer as the runtime reads it, nil for none.
	Answer json.RawMessage
	// Failures are the checks it failed.
	Failures []Failed
	// Skipped says why the call was not sent, "" when it was.
	Skipped string
}

// Status says whether the call passed.
func (c *CallReport) Status() Status {
	switch {
	case c.Skipped != "":
		return StatusSkip
	case len(c.Failures) > 0:
		return StatusFail
	}
	return StatusPass
}

// Summary names the call for a report: the tool and its first argument
// (for run_command the command line, for the file tools the path), its
// value cut to width runes; or the event's payload.
func (c *CallReport) Summary(width int) string {
	if c.Tool == "" {
		return "the " + string(c.Event) + " payload"
	}
	args := "{}"
	root, _, err := schema.ParseJSON(c.Args)
	if err == nil && root.Kind == schema.Object && len(root.Members) > 0 {
		m := root.Members[0]
		v := string(c.Args[m.Value.Span.Start.Offset:m.Value.Span.End.Offset])
		if r := []rune(v); len(r) > width {
			v = string(r[:width-3]) + "..."
		}
		args = "{" + strconv.Quote(m.Key) + ":" + v
		if len(root.Members) > 1 {
			args += ", ..."
		}
		args += "}"
	}
	return printable(c.Tool) + " " + printable(args)
}

// Failed is a check that a call failed.
type Failed struct {
	// Check names the check (see the Check constants).
	Check Check
	// Message says what the handler did and what the agent does with it.
	Message string
}

// UnknownHookError is a hook name that no checked file defines.
type UnknownHookError struct {
	Name string
	// Nearest is the defined name it most likely meant, "" when none is
	// close; Names are every defined name.
	Nearest string
	Names   []string
}

func (e *UnknownHookError) Error() string {
	msg := fmt.Sprintf("no hook is named %s", strconv.Quote(e.Name))
	switch {
	case e.Nearest != "":
		msg += fmt.Sprintf(": did you mean %s?", strconv.Quote(e.Nearest))
	case len(e.Names) == 0:
		msg += ": the files define no hook"
	default:
		names := e.Names
		more := ""
		if len(names) > 10 {
			names, more = names[:10], fmt.Sprintf(" and %d more", len(e.Names)-10)
		}
		q := make([]string, len(names))
		for i, n := range names {
			q[i] = strconv.Quote(n)
		}
		msg += " (the hooks are " + strings.Join(q, ", ") + more + ")"
	}
	return msg
}

// Contract checks every enabled handler of the files (or of the hooks
// named) against what the agent punishes: it sends each handler, alone,
// one generated payload per known tool its matcher selects (tool events)
// or one payload (the other events), built as hookctl run --tool builds
// them, and checks each answer (see the Check constants). Handlers run in
// parallel, up to Parallel at once; a handler's calls run one after
// another, and stop at its first timeout. The report lists the handlers
// in config order. The error is for a check that cannot run: a file that
// is missing, unreadable or that the agent would drop whole, an unknown
// hook name, a cancelled context.
func Contract(ctx context.Context, opts ContractOptions) (*ContractReport, error) {
	if len(opts.Configs) == 0 {
		return nil, errors.New("no hooks.json to check")
	}
	cwd, err := os.Getwd()
	if err != nil {
		return nil, fmt.Errorf("cannot tell the current folder: %v", err)
	}
	ws := opts.Workspace
	if ws == "" {
		ws = WorkspaceOf(opts.Configs[0], cwd)
	}
	if ws, err = filepath.Abs(ws); err != nil {
		return nil, err
	}
	home := opts.Home
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	budget := opts.Budget
	if budget <= 0 {
		budget = DefaultBudget
	}
	srcs, err := runtime.Discover(opts.Configs, "", ws)
	if err != nil {
		return nil, err
	}
	for _, src := range srcs {
		if err := unusable(src); err != nil {
			return nil, err
		}
	}
	report := &ContractReport{Workspace: ws, Budget: budget}
	if err := plan(report, srcs, opts.Hooks); err != nil {
		return nil, err
	}
	c := &contract{ws: ws, home: home, budget: budget, ropts: runtime.Options{
		Workspace: ws, Home: home, Dir: cwd, Env: testEnv(opts.Env), Grace: opts.Grace,
	}}
	var progress func(*HandlerReport)
	if opts.Progress != nil {
		progress = func(h *HandlerReport) { opts.Progress(report, h) }
	}
	c.run(ctx, report.Handlers, opts.Parallel, progress)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return report, nil
}

// unusable returns why a file cannot be checked at all: it cannot be read.
// A file that does not parse is checked, as one the agent drops whole.
func unusable(src *runtime.Source) error {
	if src.Err != nil {
		return fmt.Errorf("%s: %v", src.Path, src.Err)
	}
	return nil
}

// dropped says whether the agent loads none of a file's hooks, and why,
// with the verdict on the file (schema.Verdict), the one lint, list, run
// and doctor show.
func dropped(src *runtime.Source) (*DroppedFile, *schema.Verdict) {
	cfg := src.Config
	v := src.Verdict()
	switch {
	case !v.Known:
		return &DroppedFile{Path: src.Path, Pos: cfg.Syntax.Pos,
			Why: fmt.Sprintf("none of the file's hooks is checked: %s (hookctl lint explains)", cfg.Syntax.Msg)}, v
	case v.Drop == nil:
		return nil, v
	case v.Drop.Syntax:
		return &DroppedFile{Path: src.Path, Pos: v.Drop.Pos,
			Why: fmt.Sprintf("the file is not valid JSON (%s), so the agent loads none of its hooks (hookctl lint explains)", cfg.Syntax.Msg)}, v
	}
	for _, p := range cfg.Problems {
		if p.Dropped == "file" {
			// The top level is not an object: the decoder's words say
			// what it must be.
			return &DroppedFile{Path: src.Path, Pos: v.Drop.Pos, Why: p.Msg + "; the agent loads none of its hooks (hookctl lint explains)"}, v
		}
	}
	hooks := "hooks"
	switch n := v.HookCount(); {
	case n == 1:
		hooks = "1 hook"
	case n >= 0:
		hooks = fmt.Sprintf("%d hooks", n)
	}
	return &DroppedFile{Path: src.Path, Pos: v.Drop.Pos,
		Why: fmt.Sprintf("the agent loads none of this file's %s (first cause: %s; hookctl lint explains)", hooks, v.Drop.Why)}, v
}

// plan lists the handlers of the files, in config order, with the calls
// each receives, and notes the parts that cannot run.
func plan(r *ContractReport, srcs []*runtime.Source, names []string) error {
	var defined []string
	for _, src := range srcs {
		for _, h := range src.Config.File.Hooks {
			if !slices.Contains(defined, h.Name) {
				defined = append(defined, h.Name)
			}
		}
	}
	for _, n := range names {
		if !slices.Contains(defined, n) {
			return &UnknownHookError{Name: n, Nearest: schema.Nearest(n, defined), Names: defined}
		}
	}
	picked := func(name string) bool { return len(names) == 0 || slices.Contains(names, name) }
	// A part of a disabled hook would not be checked anyway, unless the
	// hook is named.
	skipped := func(f *schema.File, name string) bool {
		for _, h := range f.Hooks {
			if h.Name == name {
				return !h.IsEnabled() && len(names) == 0
			}
		}
		return false
	}
	for _, src := range srcs {
		drop, verdict := dropped(src)
		// Every part that cannot run fails, at its place: the agent skips
		// it, or drops the whole file for it. A part of a disabled hook
		// fails only when it drops the file.
		var inFile []*HandlerReport
		broken := map[string]bool{}
		for _, pr := range src.Config.Problems {
			if pr.Dropped == "" && !(pr.Unreached && verdict.DropsAt(pr.Span)) || pr.Dropped == "file" {
				continue
			}
			if pr.Hook != "" && (!picked(pr.Hook) || skipped(src.Config.File, pr.Hook) && !verdict.DropsAt(pr.Span)) {
				continue
			}
			part := pr.Dropped
			if part == "" {
				part = "part"
			}
			hr := &HandlerReport{Hook: pr.Hook, Source: src, Pos: pr.Span.Start,
				Broken: fmt.Sprintf("%s; this %s cannot run", pr.Msg, part)}
			if len(pr.Events) == 1 {
				hr.Event = pr.Events[0]
			}
			inFile = append(inFile, hr)
			broken[pr.Hook] = true
		}
		if drop != nil {
			drop.Counted = len(inFile) == 0
			r.Dropped = append(r.Dropped, *drop)
		}
		for _, h := range src.Config.File.Hooks {
			if !picked(h.Name) {
				continue
			}
			var hs []*HandlerReport
			for _, e := range schema.Events {
				if !e.IsTool() {
					for i := range h.Handlers(e) {
						hd := &h.Handlers(e)[i]
						hs = append(hs, &HandlerReport{Hook: h.Name, Source: src, Pos: hd.Pos, Event: e, Handler: hd,
							Calls: []*CallReport{{Event: e}}})
					}
					continue
				}
				for gi := range h.Groups(e) {
					g := &h.Groups(e)[gi]
					m, err := schema.CompileMatcher(g.MatcherText())
					if err != nil {
						continue // the loader keeps valid matchers only
					}
					var calls []*CallReport
					for _, t := range runtime.SampleTools(g.MatcherText(), m) {
						calls = append(calls, &CallReport{Event: e, Tool: t})
					}
					for i := range g.Hooks {
						hd := &g.Hooks[i]
						hr := &HandlerReport{Hook: h.Name, Source: src, Pos: hd.Pos, Event: e, Matcher: g.MatcherText(), Handler: hd}
						for _, c := range calls {
							cc := *c
							hr.Calls = append(hr.Calls, &cc)
						}
						if len(calls) == 0 {
							hr.Skipped = fmt.Sprintf("not checked: its matcher %s selects none of the known tools, so no call was sent", strconv.Quote(g.MatcherText()))
						}
						hs = append(hs, hr)
					}
				}
			}
			for _, hr := range hs {
				if !h.IsEnabled() {
					if len(names) == 0 {
						hr.Skipped = `disabled ("enabled": false)`
					} else {
						hr.Note = `the hook is disabled ("enabled": false); checked because it was named`
					}
				}
			}
			// A hook that runs nothing is not checked, and the count says
			// so, unless a broken part of it already fails.
			if len(hs) == 0 && (h.IsEnabled() || len(names) > 0) && !broken[h.Name] {
				r.Notes = append(r.Notes, fmt.Sprintf("%s:%d:%d: the hook %s has no handler that can run; it was not checked",
					src.Path, h.Pos.Line, h.Pos.Col, strconv.Quote(h.Name)))
			}
			inFile = append(inFile, hs...)
		}
		sort.SliceStable(inFile, func(i, j int) bool { return inFile[i].Pos.Offset < inFile[j].Pos.Offset })
		r.Handlers = append(r.Handlers, inFile...)
	}
	return nil
}

// testEnv is the handlers' environment: env (the process's when nil) with
// HOOKCTL_TEST=1.
func testEnv(env []string) []string {
	if env == nil {
		env = os.Environ()
	}
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); k != TestEnv {
			out = append(out, kv)
		}
	}
	return append(out, TestEnv+"=1")
}

// contract runs the planned calls.
type contract struct {
	ws, home string
	budget   time.Duration
	ropts    runtime.Options
}

// run runs the handlers, up to parallel at once, and hands each report to
// progress in config order.
func (c *contract) run(ctx context.Context, hs []*HandlerReport, parallel int, progress func(*HandlerReport)) {
	if parallel <= 0 {
		parallel = goruntime.NumCPU()
	}
	var (
		mu   sync.Mutex
		done = make([]bool, len(hs))
		next = 0
	)
	finish := func(i int) {
		mu.Lock()
		defer mu.Unlock()
		done[i] = true
		for next < len(hs) && done[next] {
			if progress != nil && ctx.Err() == nil {
				progress(hs[next])
			}
			next++
		}
	}
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(parallel, max(len(hs), 1)) {
		wg.Go(func() {
			for i := range work {
				c.handler(ctx, hs[i])
				finish(i)
			}
		})
	}
	for i, h := range hs {
		if h.Skipped != "" || h.Broken != "" {
			finish(i)
			continue
		}
		select {
		case work <- i:
		case <-ctx.Done():
		}
	}
	close(work)
	wg.Wait()
}

// handler sends a handler its calls, one after another. After a timeout
// the rest are not sent: a handler that hangs would hang on each.
func (c *contract) handler(ctx context.Context, h *HandlerReport) {
	for i, call := range h.Calls {
		if ctx.Err() != nil {
			return
		}
		c.call(ctx, h, call)
		if call.Ending == runtime.TimedOut {
			for _, rest := range h.Calls[i+1:] {
				rest.Skipped = "not sent: an earlier call timed out"
			}
			return
		}
	}
}

// call sends one payload and checks what came of it.
func (c *contract) call(ctx context.Context, h *HandlerReport, call *CallReport) {
	var args string
	if call.Tool != "" {
		call.Args = runtime.SampleArgs(call.Tool, c.ws)
		args = string(call.Args)
	}
	payload, err := runtime.NewPayload(call.Event, call.Tool, args, c.ws, c.home)
	if err != nil {
		// The samples are objects and the tool names are the table's.
		call.Failures = []Failed{{Check: CheckNotStarted, Message: "cannot build the payload: " + err.Error()}}
		return
	}
	o, ending := runtime.RunHandler(ctx, call.Event, h.Source, h.Hook, h.Handler, payload, c.ropts)
	call.Duration, call.Ending, call.ExitCode = o.Duration, ending, o.ExitCode
	call.Stdout, call.Stderr, call.Answer = o.Stdout, o.Stderr, o.Answer
	call.Failures = check(call.Event, o, ending, h.Handler, h.Source.Dir, c.budget)
}
