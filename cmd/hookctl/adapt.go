package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/runtime/adapter"
	"github.com/hookctl/hookctl/runtime/tracelog"
	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/shellcmd"
)

// newAdaptCommand is hookctl adapt, whose arguments adaptMain reads.
func newAdaptCommand(f *factory) *cli.Command {
	return &cli.Command{
		Name:      "adapt",
		Usage:     "run a handler written for Claude Code, Gemini CLI, Cursor or Codex under this agent",
		UsageText: shellcmd.AdaptUsage,
		Description: "Put it in front of a handler written for another agent:\n\n" +
			"  \"command\": \"hookctl adapt --from claude --event PreToolUse -- ./hooks/gate.py\"\n\n" +
			"adapt turns this agent's payload on stdin into the other agent's for EVENT (the other\n" +
			"agent's name for it) and runs COMMAND directly (no shell) with it; then it reads the\n" +
			"handler's stdout, stderr and exit status by that agent's rules (Claude Code's exit 2\n" +
			"and permissionDecision, Gemini CLI's decision, Cursor's permission, Codex's forms) and\n" +
			"prints this agent's answer. A payload that came through hookctl run --from of the same\n" +
			"agent reaches the handler byte for byte. What the answer holds that has no equivalent\n" +
			"here is one line on stderr and in the log, never a changed decision. The handler's\n" +
			"stderr passes through; SIGTERM, SIGINT, SIGHUP and SIGQUIT are passed on to it.\n\n" +
			"Without --event, the event is the one hookctl run names in HOOKCTL_EVENT, else the\n" +
			"payload's shape tells it. hookctl import writes converted handlers this way.\n\n" +
			"Exit status: 0 with the answer (or none) on stdout; 1 when the handler failed (the\n" +
			"runtime then applies hookctl run --on-error) or the payload cannot be served; 127 and\n" +
			"126 when COMMAND is not found or cannot be run; 2 for a mistake in adapt's own flags.",
		// adapt's arguments are a command line of their own, read by
		// shellcmd.ParseAdapt, never reordered or parsed as flags.
		SkipFlagParsing: true,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "from", Usage: "the `AGENT` the handler was written for: claude, gemini, cursor or codex"},
			&cli.StringFlag{Name: "event", Usage: "that agent's name for the `EVENT` (default: from HOOKCTL_EVENT or the payload)"},
		},
		Action: wrapperAction(adaptMain, f),
	}
}

// adaptLimits are what adapt keeps of the handler's streams: its whole
// answer (one byte over the cap tells that it went over), the start of
// its stderr, and nothing of stdin, which adapt wrote itself.
var adaptLimits = runtime.WrapLimits{Stdout: adapter.MaxAnswer + 1, Stderr: tracelog.StderrCap, Name: "adapt"}

// adaptMain runs hookctl adapt and returns its exit status; when the
// handler was killed by a signal, it kills itself with the same signal and
// does not return.
func adaptMain(args []string, f *factory) int {
	s := f.streams
	opts, err := shellcmd.ParseAdapt(args)
	if err != nil {
		return wrapperUsage(s, "adapt", err)
	}
	agent, err := schema.ParseAgent("--from", opts.From)
	if err != nil {
		return wrapperUsage(s, "adapt", err)
	}
	if err := runtime.CannotRunHandlers(); err != nil {
		return wrapperUsage(s, "adapt", err)
	}
	if in, ok := s.in.(*os.File); ok && isTerminal(in) {
		fmt.Fprintf(s.err, "hookctl: adapt: the payload of this agent goes on stdin: pipe it in (hookctl run --print-payload makes one), or let hookctl run run the hook\n")
		return exitUsage
	}
	start := f.now()
	payload, err := runtime.ReadPayload(s.in)
	if err != nil {
		fmt.Fprintf(s.err, "hookctl: adapt: %v\n", err)
		return adapter.ExitError
	}
	var w *runtime.Wrapped
	served := adapter.Serve(adapter.ServeOptions{
		Agent: agent, Event: opts.Event, Command: opts.Command, Payload: payload,
		Run: func(argv []string, stdin []byte, env []string) adapter.Ran {
			lim := adaptLimits
			lim.Env = env
			w = runtime.RunWrapped(argv, bytes.NewReader(stdin), io.Discard, s.err, lim)
			out := w.Stdout.Bytes()
			errb := w.Stderr.Bytes()
			return adapter.Ran{Stdout: out, Stderr: errb, Exit: w.Exit, Signaled: w.Signal != 0, StartErr: w.StartErr}
		},
	})
	if len(served.Stdout) > 0 {
		s.out.Write(served.Stdout)
	}
	for _, l := range served.Lines {
		fmt.Fprintf(s.err, "hookctl: adapt: %s\n", schema.Visible(l))
	}
	if len(served.Notes) > 0 && !tracelog.Testing(f.getenv) {
		logAdapt(opts, served, start, f)
	}
	return runtime.WrapperExit(w, served.Exit)
}

// logAdapt appends to the log the record of an answer that held what has
// no equivalent here.
func logAdapt(opts shellcmd.AdaptArgs, served adapter.Served, start time.Time, f *factory) {
	if err := runtime.AppendRecord("", served.Record(opts.Command, f.getenv("HOOKCTL_HOOK"), start), os.Getenv); err != nil {
		fmt.Fprintf(f.err, "hookctl: adapt: %s (the answer is as above)\n", schema.Visible(err.Error()))
	}
}
