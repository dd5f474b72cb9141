package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/runtime/tracelog"
	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/shellcmd"
)

const traceUsage = shellcmd.TraceUsage

// newTraceCommand is hookctl trace, whose arguments traceMain reads.
func newTraceCommand(f *factory) *cli.Command {
	return &cli.Command{
		Name:      "trace",
		Usage:     "run a handler's command unchanged and log what it did",
		UsageText: traceUsage,
		Description: "Put it in front of any handler's command, in any agent's configuration:\n\n" +
			"  \"command\": \"hookctl trace -- ./hooks/gate.py\"\n\n" +
			"COMMAND runs directly (no shell), with the same stdin, environment and folder; its\n" +
			"stdout, stderr and exit status (or death by a signal) reach the agent unchanged, and\n" +
			"SIGTERM, SIGINT, SIGHUP and SIGQUIT sent to trace are passed on to it. trace then\n" +
			"appends one line to the log: time, duration, hook, event, tool, exit status, the\n" +
			"answer, the start of stderr, and with --payload the payload, with the values of keys\n" +
			"that look secret (token, key, password, secret, authorization, cookie, session, ...),\n" +
			"passwords in URLs and commands, and tokens of known shapes (ghp_, sk-, AKIA, JWTs,\n" +
			"...) redacted. If the log cannot be written, trace says so in one line on stderr and\n" +
			"changes nothing else.\n\n" +
			"The agent tells a handler neither its hook nor its event: --hook and --event name\n" +
			"them, else HOOKCTL_HOOK and HOOKCTL_EVENT (hookctl run sets them), else trace tells\n" +
			"the event from the payload's fields; the record says which.\n\n" +
			"The log is --log FILE, else $HOOKCTL_LOG, else $XDG_STATE_HOME/hookctl/runs.jsonl\n" +
			"(~/.local/state/hookctl/runs.jsonl). Read it with hookctl log.\n\n" +
			"Exit status: COMMAND's; 127 when it is not found and 126 when it cannot be run, as a\n" +
			"shell's; 2 for a mistake in trace's own flags.",
		// trace's arguments are a command line of their own: they are
		// read by shellcmd.ParseTrace, never reordered or parsed as flags.
		SkipFlagParsing: true,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "log", Usage: "append the record to `FILE` (default: $HOOKCTL_LOG, else ~/.local/state/hookctl/runs.jsonl)"},
			&cli.BoolFlag{Name: "payload", Usage: "record the payload too, with secret-looking keys' values redacted"},
			&cli.StringFlag{Name: "hook", Usage: "the hook's `NAME`, for the record (default: $HOOKCTL_HOOK)"},
			&cli.StringFlag{Name: "event", Usage: "the `EVENT`, for the record (default: $HOOKCTL_EVENT, else told from the payload)"},
		},
		Action: wrapperAction(traceMain, f),
	}
}

// wrapperAction is the action of a wrapper command (trace, adapt), which
// reads its own arguments with main: --help shows the command's help,
// anything else is main's, which returns the exit status.
func wrapperAction(main func([]string, *factory) int, f *factory) cli.ActionFunc {
	return func(c *cli.Context) error {
		args := c.Args().Slice()
		if len(args) > 0 && isHelpFlag(args[0]) {
			cli.HelpPrinter(c.App.Writer, cli.CommandHelpTemplate, c.Command)
			return nil
		}
		if code := main(args, f); code != 0 {
			return &exitError{code: code}
		}
		return nil
	}
}

// traceMain runs hookctl trace and returns its exit status; when the
// command was killed by a signal, it kills itself with the same signal and
// does not return.
func traceMain(args []string, f *factory) int {
	s := f.streams
	opts, err := shellcmd.ParseTrace(args)
	if err != nil {
		return wrapperUsage(s, "trace", err)
	}
	if err := runtime.CannotRunHandlers(); err != nil {
		return wrapperUsage(s, "trace", err)
	}
	w := runtime.RunWrapped(opts.Command, s.in, s.out, s.err, runtime.TraceLimits)
	// Under hookctl test, the run is a test's, not the agent's: nothing
	// is recorded.
	if !tracelog.Testing(f.getenv) {
		rec := w.TraceRecord(opts, f.getenv)
		if err := runtime.AppendRecord(opts.Log, rec, os.Getenv); err != nil {
			fmt.Fprintf(s.err, "hookctl: trace: %s (the command ran as usual)\n", schema.Visible(err.Error()))
		}
	}
	return runtime.WrapperExit(w, w.Exit)
}

// wrapperUsage says on stderr why wrapper name does not run its command,
// err: a mistake in its own arguments, or a system that runs no handlers;
// it returns the exit status for that.
func wrapperUsage(s streams, name string, err error) int {
	fmt.Fprintf(s.err, "hookctl: %s: %s\n", name, schema.Visible(err.Error()))
	return exitUsage
}
