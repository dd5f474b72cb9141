package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/hookctl/hookctl/internal/capture"
	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/runtime/tracelog"
	"github.com/hookctl/hookctl/schema/shellcmd"
)

func init() { register(37, traceCommand) }

const traceUsage = shellcmd.TraceUsage

func traceCommand(s streams) *cli.Command {
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
		Action: wrapperAction(traceMain, s),
	}
}

// wrapperAction is the action of a wrapper command (trace, adapt), which
// reads its own arguments with main: --help shows the command's help,
// anything else is main's, which returns the exit status.
func wrapperAction(main func([]string, streams) int, s streams) cli.ActionFunc {
	return func(c *cli.Context) error {
		args := c.Args().Slice()
		if len(args) > 0 && isHelpFlag(args[0]) {
			cli.HelpPrinter(c.App.Writer, cli.CommandHelpTemplate, c.Command)
			return nil
		}
		if code := main(args, s); code != 0 {
			return &exitError{code: code}
		}
		return nil
	}
}

// traceMain runs hookctl trace and returns its exit status; when the
// command was killed by a signal, it kills itself with the same signal and
// does not return.
func traceMain(args []string, s streams) int {
	opts, err := shellcmd.ParseTrace(args)
	if err != nil {
		fmt.Fprintf(s.err, "hookctl: trace: %s\n", tracelog.Visible(err.Error()))
		return exitUsage
	}
	if err := runtime.CannotRunHandlers(); err != nil {
		fmt.Fprintf(s.err, "hookctl: trace: %s\n", err)
		return exitUsage
	}
	w := runWrapped(opts.Command, s, traceLimits)
	// Under hookctl test, the run is a test's, not the agent's: nothing
	// is recorded.
	if !tracelog.Testing(os.Getenv) {
		rec := traceRecord(opts, w, os.Getenv)
		if err := appendRecord(opts.Log, rec); err != nil {
			fmt.Fprintf(s.err, "hookctl: trace: %s (the command ran as usual)\n", tracelog.Visible(err.Error()))
		}
	}
	if w.signal != 0 {
		reraise(w.signal)
		return 128 + int(w.signal)
	}
	return w.exit
}

// appendRecord appends rec to the log: path, else $HOOKCTL_LOG, else the
// default log. A log a command names is never written through a link
// that leads out of the workspace (commandLog).
func appendRecord(path string, rec *tracelog.Record) error {
	l, err := commandLog(path, os.Getenv("HOOKCTL_WORKSPACE"))
	if err != nil {
		return err
	}
	return l.Append(rec)
}

// traceRecord builds the record of a wrapped run.
func traceRecord(opts shellcmd.TraceArgs, w *wrapped, getenv func(string) string) *tracelog.Record {
	rec := &tracelog.Record{
		ID: tracelog.NewID(w.start),
		// In UTC: encoding a local time would read the time zone database,
		// on the path of every traced handler. hookctl log shows local time.
		Time:     w.start.UTC(),
		Duration: tracelog.MillisOf(w.duration),
		Kind:     tracelog.KindTrace,
		Command:  opts.Command,
		PID:      w.pid,
		Error:    w.startErr,
	}
	rec.Dir, _ = os.Getwd()
	if w.signal != 0 {
		rec.Signal = tracelog.SignalName(w.signal)
	} else {
		rec.Exit = tracelog.Int(w.exit)
	}

	stdout, outAll, outBytes := kept(&w.stdout)
	rec.StdoutBytes = outBytes
	if trimmed := bytes.TrimSpace(stdout); len(trimmed) > 0 {
		var c bytes.Buffer
		if outAll && json.Compact(&c, trimmed) == nil {
			rec.Answer = c.Bytes()
		} else {
			rec.Output = tracelog.Head(string(stdout), 4096)
			if !outAll || len(stdout) > 4096 {
				rec.Output += tracelog.Cut
				rec.Truncated = append(rec.Truncated, "stdout")
			}
		}
	}
	stderr, errAll, errBytes := kept(&w.stderr)
	rec.StderrBytes = errBytes
	rec.Stderr = tracelog.Head(string(stderr), tracelog.StderrCap)
	if !errAll {
		rec.Truncated = append(rec.Truncated, "stderr")
	}

	payload, inAll, inBytes := kept(&w.stdin)
	rec.PayloadBytes = inBytes
	var facts tracelog.Facts
	if inAll {
		facts = tracelog.Infer(payload, rec.Answer)
	}
	if opts.Payload && w.teed {
		switch {
		case !inAll:
			rec.Truncated = append(rec.Truncated, "payload")
		case len(bytes.TrimSpace(payload)) == 0:
		default:
			if red, err := tracelog.Redact(payload); err == nil {
				rec.Payload = red
			} else {
				rec.PayloadError = err.Error()
			}
		}
	}
	rec.Tool = facts.Tool
	rec.Hook, rec.HookFrom = opts.Hook, tracelog.FromFlag
	if rec.Hook == "" {
		rec.Hook, rec.HookFrom = getenv("HOOKCTL_HOOK"), tracelog.FromEnvironment
	}
	if rec.Hook == "" {
		rec.HookFrom = tracelog.FromUnknown
	}
	rec.Event, rec.EventFrom = opts.Event, tracelog.FromFlag
	if rec.Event == "" {
		rec.Event, rec.EventFrom = getenv("HOOKCTL_EVENT"), tracelog.FromEnvironment
	}
	if rec.Event == "" {
		rec.Event, rec.EventFrom = facts.Event, tracelog.FromPayload
	}
	if rec.Event == "" {
		rec.EventFrom = tracelog.FromUnknown
	}
	return rec
}

// wrapped is what running COMMAND produced.
type wrapped struct {
	start    time.Time
	duration time.Duration
	pid      int
	// exit is the status to exit with; signal, when not 0, the signal
	// that killed COMMAND.
	exit   int
	signal syscall.Signal
	// startErr says why COMMAND could not be started.
	startErr string
	// What went through each stream, up to what a record keeps.
	stdout, stderr, stdin capture.Buffer
	// teed is whether stdin went through trace (not a terminal).
	teed bool
}

// wrapLimits say how much of each stream a wrapper keeps, and what it adds
// to the environment.
type wrapLimits struct {
	stdout, stderr, stdin int
	// env are variables added to COMMAND's environment, as NAME=VALUE.
	env []string
	// name is the wrapper's name in its messages: trace, adapt.
	name string
}

// traceLimits are trace's: enough for the record.
var traceLimits = wrapLimits{stdout: tracelog.AnswerCap, stderr: tracelog.StderrCap, stdin: tracelog.PayloadCap, name: "trace"}

// kept returns what c kept, whether that is everything, and how much
// went through. A pump may still be adding: stdin is not waited for.
func kept(c *capture.Buffer) (b []byte, all bool, total int64) {
	b, cut := c.Snapshot()
	return b, cut == 0, int64(len(b)) + cut
}
