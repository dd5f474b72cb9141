package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/runtime/adapter"
	"github.com/hookctl/hookctl/runtime/tracelog"
	"github.com/hookctl/hookctl/schema"
)

// runFrom is hookctl run --from AGENT EVENT: the other agent's event and
// payload are translated into this format's, dispatched exactly as run
// dispatches, and the merged answer is translated back into what that agent
// reads on stdout, stderr and the exit status.
//
// An invocation hookctl cannot read (a payload that is not the agent's
// JSON, an event the agent does not have) exits 1, which every agent takes
// for a failed hook and none for a block; usage mistakes on the command
// line itself exit 2, as for run.
func runFrom(s streams, opts runOptions) error {
	agent, err := schema.ParseAgent("--from", opts.from)
	if err != nil {
		return usageErrorf("%v", err)
	}
	if opts.tool != "" || opts.argsSet {
		return usageErrorf("--tool and --args build a payload of this format; with --from %s the payload is %s's, on stdin", agent, agent.Title())
	}
	onError, err := runtime.ParseOnError(opts.onError)
	if err != nil {
		return usageErrorf("%v", err)
	}
	if opts.maxContinues < 0 {
		return usageErrorf("--max-continues must be 0 or more, not %d", opts.maxContinues)
	}
	if opts.explain && opts.printPayload {
		return usageErrorf("--explain and --print-payload go one at a time")
	}
	if f, ok := s.in.(*os.File); ok && isTerminal(f) {
		return usageErrorf("hookctl run --from %s reads %s's payload on stdin: pipe it in, or run it from %s's settings (hookctl export --to %s)", agent, agent.Title(), agent.Title(), agent)
	}
	payload, err := runtime.ReadPayload(s.in)
	if err != nil {
		return replyFailed(s, agent, err)
	}
	call, err := adapter.Translate(agent, opts.event, payload, adapter.Env{})
	if err != nil {
		return replyFailed(s, agent, err)
	}
	if opts.printPayload {
		return printTranslated(s, call)
	}
	ropts := dispatchOptions(opts, onError)
	ropts.Env = append(os.Environ(), call.Env()...)
	if ropts.Workspace == "" {
		ropts.Workspace = call.Workspace
	}
	plans := make([]*runtime.Plan, 0, len(call.Payloads))
	for _, p := range call.Payloads {
		plan, err := runtime.NewPlan(call.Event, p, ropts)
		if err != nil {
			return replyFailed(s, agent, err)
		}
		plans = append(plans, plan)
	}
	if opts.explain {
		for _, n := range call.Notes {
			fmt.Fprintf(s.out, "%s\n", schema.VisibleText(n))
		}
		for _, plan := range plans {
			if err := plan.Explain(s.out); err != nil {
				return err
			}
		}
		return nil
	}

	ctx, stop := stopOnSignal()
	defer stop()
	var answers []json.RawMessage
	var notes []string
	var results []*runtime.Result
	var starts []time.Time
	var took []time.Duration
	for _, plan := range plans {
		start := time.Now()
		res := plan.Run(ctx)
		if ctx.Err() != nil {
			return replyFailed(s, agent, errors.New("interrupted: every running handler was stopped, no answer was given"))
		}
		results, starts, took = append(results, res), append(starts, start), append(took, time.Since(start))
		answers = append(answers, res.Answer)
		notes = append(notes, res.Notes...)
	}
	reply := call.Reply(answers, notes)
	onStderr := reply.NotesOnStderr(agent)
	for i, res := range results {
		logDispatch(s, opts.logFile, res.Plan.Workspace, opts.logPayload, res, starts[i], took[i])
	}
	if !onStderr && len(reply.Notes) > 0 && !tracelog.Testing(os.Getenv) {
		// The agent would show them to the user, or read them as the
		// reason of its block: they go to the log.
		logNotes(s, opts.logFile, call, reply.Notes)
		reply.Notes = nil
	}
	return writeReply(s, reply)
}

// logNotes appends to the log (--log, else $HOOKCTL_LOG, else the default
// log) a record of hookctl's notes about an invocation of another agent,
// where they could not go on stderr.
func logNotes(s streams, path string, call *adapter.Call, notes []string) {
	if path == "" {
		path = os.Getenv(tracelog.EnvLog)
	}
	if err := runtime.AppendRecord(path, call.NotesRecord(notes, time.Now()), os.Getenv); err != nil {
		// Nowhere else to say it: the agent would show stderr.
		_ = err
	}
}

// printTranslated prints the payloads of this format that the agent's
// payload became, one a line, in the order they would be dispatched (a
// patch of several files is one call per file), and runs nothing. The translation's remarks go to stderr, as run says them.
func printTranslated(s streams, call *adapter.Call) error {
	for _, n := range call.Notes {
		fmt.Fprintf(s.err, "hookctl: %s\n", schema.VisibleText(n))
	}
	if len(call.Payloads) == 0 && len(call.Notes) == 0 {
		fmt.Fprintf(s.err, "hookctl: %s's %s becomes no payload here: no hook would run\n", call.Agent.Title(), schema.VisibleText(call.Foreign))
	}
	for _, p := range call.Payloads {
		if _, err := fmt.Fprintf(s.out, "%s\n", bytes.TrimRight(p, " \t\r\n")); err != nil {
			return err
		}
	}
	return nil
}

// replyFailed reports an invocation that could not be served with the exit
// status the agent takes for a failed hook.
func replyFailed(s streams, agent schema.Agent, err error) error {
	return writeReply(s, adapter.Failed(fmt.Errorf("run --from %s: %w", agent, err)))
}

// writeReply writes the agent's answer and ends with its exit status.
func writeReply(s streams, r adapter.Reply) error {
	if len(r.Stdout) > 0 {
		if _, err := s.out.Write(r.Stdout); err != nil {
			return err
		}
	}
	if r.Stderr != "" {
		// Handlers' reasons and stderr are shown, never interpreted.
		fmt.Fprint(s.err, schema.VisibleText(r.Stderr))
	}
	for _, n := range r.Notes {
		fmt.Fprintf(s.err, "hookctl: %s\n", schema.VisibleText(n))
	}
	if r.Exit != adapter.ExitOK {
		return &exitError{code: r.Exit}
	}
	return nil
}
