package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/scope"
)

// runOptions are the answers of the run command's flags.
type runOptions struct {
	event        string
	configs      []string
	workspace    string
	onError      string
	maxContinues int
	sequential   bool
	explain      bool
	tool         string
	args         string
	argsSet      bool
	printPayload bool
	logFile      string
	logPayload   bool
	from         string
}

// pathList is a repeatable flag whose values are kept whole: a path may
// hold a comma.
type pathList []string

func (p *pathList) Set(v string) error { *p = append(*p, v); return nil }
func (p *pathList) String() string     { return strings.Join(*p, ", ") }

// newRunCommand is hookctl run. runF, when given, is called in place of
// runRun.
func newRunCommand(f *factory, runF func(*runOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "run",
		Usage:     "run the hooks of an EVENT as the agent would, and print the merged answer",
		ArgsUsage: "EVENT",
		Description: "Reads the event's payload (JSON) on stdin, runs every matching handler of the user's\n" +
			"~/.gemini/config/hooks.json and the workspace's .agents/hooks.json at once, and prints\n" +
			"the one answer they add up to as a line of JSON. EVENT is SessionStart, PreToolUse,\n" +
			"PostToolUse, PreInvocation, PostInvocation or Stop.\n\n" +
			"To try a hook by hand, let hookctl build the payload:\n" +
			"  hookctl run PreToolUse --tool run_command --args '{\"CommandLine\": \"rm -rf /\"}'\n" +
			"  hookctl run Stop                  (from a terminal)\n" +
			"  hookctl run PreToolUse --tool view_file --explain\n" +
			"  hookctl run PreToolUse --tool view_file --print-payload\n\n" +
			"With --from AGENT (claude, gemini, cursor, codex), EVENT and the payload are that agent's\n" +
			"and so is the answer: hookctl export --to AGENT wires it into the agent's settings.\n\n" +
			"Exit status: 0 when an answer was printed, even if handlers failed (they are reported\n" +
			"on stderr); 2 for an unknown event, a payload that is not a JSON object, a tool event\n" +
			"without toolCall.name, or a --config that does not exist.",
		Flags: []cli.Flag{
			&cli.GenericFlag{Name: "config", Value: &pathList{}, Usage: "use the hooks.json `FILE` instead of the user's and the workspace's (repeatable)"},
			&cli.StringFlag{Name: "workspace", Usage: "the workspace `DIR` (default: the payload's first workspacePaths entry, else found from the current folder upward)"},
			&cli.StringFlag{Name: "on-error", Value: "deny", Usage: "what a failed PreToolUse handler adds: `WHAT` is deny, ask (force_ask) or ignore"},
			&cli.IntFlag{Name: "max-continues", Value: runtime.DefaultMaxContinues, Usage: "refuse a Stop continue once executionNum exceeds `N` (the loop guard)"},
			&cli.BoolFlag{Name: "sequential", Usage: "run handlers one after another in config order; PreToolUse stops at the first deny"},
			&cli.BoolFlag{Name: "explain", Usage: "run nothing: show which hooks and handlers would run, from which file and line, and why the others would not"},
			&cli.StringFlag{Name: "tool", Usage: "build the payload of a call to the tool `NAME` instead of reading stdin (PreToolUse, PostToolUse)"},
			&cli.StringFlag{Name: "args", Usage: "the tool call's arguments, a JSON `OBJECT` (with --tool; default {})"},
			&cli.BoolFlag{Name: "print-payload", Usage: "run nothing: print the payload the handlers would read on stdin (built with --tool, or from a terminal)"},
			&cli.StringFlag{Name: "log", Usage: "record the dispatch in the log `FILE` (default: $HOOKCTL_LOG; see hookctl log)"},
			&cli.BoolFlag{Name: "log-payload", Usage: "record the payload too, secret-looking keys' values redacted (and record, to the default log if need be)"},
			&cli.StringFlag{Name: "from", Usage: "serve another `AGENT` (claude, gemini, cursor or codex): EVENT and the payload are its own, and so is the answer"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				if c.NArg() == 0 {
					return usageErrorf("hookctl run takes an event: %s\nRun 'hookctl run --help' for usage.", strings.Join(schema.EventNames(), ", "))
				}
				return usageErrorf("hookctl run takes one event, not %d arguments: the payload goes on stdin", c.NArg())
			}
			opts := &runOptions{
				event:        c.Args().First(),
				configs:      *c.Generic("config").(*pathList),
				workspace:    c.String("workspace"),
				onError:      c.String("on-error"),
				maxContinues: c.Int("max-continues"),
				sequential:   c.Bool("sequential"),
				explain:      c.Bool("explain"),
				tool:         c.String("tool"),
				args:         c.String("args"),
				argsSet:      c.IsSet("args"),
				printPayload: c.Bool("print-payload"),
				logFile:      c.String("log"),
				logPayload:   c.Bool("log-payload"),
				from:         c.String("from"),
			}
			if runF != nil {
				return runF(opts)
			}
			return runRun(f, opts)
		},
	}
}

// ownsItsChildren says that this process is hookctl itself, started for
// one command, which starts no process of its own beside the handlers'
// shells: main sets it, so that a run claims what its handlers leave
// behind (runtime.ClaimOrphans). A test that runs a command inside the test
// binary leaves it unset: other tests' processes are children of that
// process too. For the same reason only then does lint budget its memory
// (budgetMemory).
var ownsItsChildren bool

// runRun runs the hooks of opts.event and prints their answer.
func runRun(f *factory, opts *runOptions) error {
	s := f.streams
	if err := runtime.CannotRunHandlers(); err != nil && !opts.explain && !opts.printPayload {
		return usageErrorf("run: %v", err)
	}
	if ownsItsChildren {
		runtime.ClaimOrphans()
	}
	if opts.from != "" {
		return runFrom(s, *opts)
	}
	e, err := parseEvent(opts.event)
	if err != nil {
		return err
	}
	onError, err := runtime.ParseOnError(opts.onError)
	if err != nil {
		return usageErrorf("%v", err)
	}
	if opts.explain && opts.printPayload {
		return usageErrorf("--explain and --print-payload go one at a time")
	}
	if opts.maxContinues < 0 {
		return usageErrorf("--max-continues must be 0 or more, not %d", opts.maxContinues)
	}
	ropts := dispatchOptions(*opts, onError)
	if opts.explain {
		// --explain shows what an untrusted file would run: it reads it.
		ropts.NeverTrusted = nil
	}
	payload, err := readPayload(f, e, *opts)
	if err != nil {
		return err
	}
	if opts.printPayload {
		if _, err := runtime.ParsePayload(e, payload); err != nil {
			return usageErrorf("%v", err)
		}
		_, err := fmt.Fprintf(s.out, "%s\n", bytes.TrimRight(payload, " \t\r\n"))
		return err
	}
	plan, err := runtime.NewPlan(e, payload, ropts)
	if err != nil {
		return usageErrorf("%v", err)
	}
	if opts.explain {
		return plan.Explain(s.out)
	}

	ctx, stop := stopOnSignal()
	defer stop()
	start := time.Now()
	res := plan.Run(ctx)
	took := time.Since(start)
	if ctx.Err() != nil {
		return usageErrorf("interrupted: every running handler was stopped, no answer was given")
	}
	for _, n := range res.Notes {
		// Notes carry hook names and handlers' stderr: shown, never
		// interpreted by the terminal.
		fmt.Fprintf(s.err, "hookctl: %s\n", schema.VisibleText(n))
	}
	_, err = fmt.Fprintf(s.out, "%s\n", res.Answer)
	logDispatch(s, opts.logFile, plan.Workspace, opts.logPayload, res, start, took)
	return err
}

// dispatchOptions are the options of the dispatch run and run --from
// make: the files, the workspace, the settings of the merge, and the
// trust checks.
func dispatchOptions(opts runOptions, onError runtime.OnError) runtime.Options {
	ropts := runtime.Options{
		Configs:      opts.configs,
		Workspace:    opts.workspace,
		OnError:      onError,
		MaxContinues: opts.maxContinues,
		Sequential:   opts.sequential,
	}
	ropts.Trusted, ropts.NeverTrusted = dispatchTrust()
	if ropts.MaxContinues == 0 {
		ropts.MaxContinues = -1 // the library's zero means its default
	}
	return ropts
}

// readPayload returns the payload: built from --tool and --args, built for
// a person at a terminal, or read from stdin.
func readPayload(f *factory, e schema.Event, opts runOptions) ([]byte, error) {
	s := f.streams
	if opts.argsSet && opts.tool == "" {
		return nil, usageErrorf("--args goes with --tool NAME: the arguments of which tool?")
	}
	build := func(partial []byte) ([]byte, error) {
		home, _ := f.homeDir()
		return buildPayload(e, partial, opts.workspace, home)
	}
	if opts.tool != "" {
		if !e.IsTool() {
			return nil, usageErrorf("--tool is for PreToolUse and PostToolUse; a %s payload names no tool", e)
		}
		partial, err := runtime.ToolPayload(opts.tool, opts.args)
		if err != nil {
			return nil, usageErrorf("--args: %v", err)
		}
		if note := schema.UnknownToolNote(opts.tool); note != "" {
			fmt.Fprintf(s.err, "hookctl: %s\n", note)
		}
		return build(partial)
	}
	if in, ok := s.in.(*os.File); ok && isTerminal(in) {
		if e.IsTool() {
			return nil, usageErrorf("a %s payload names a tool: pass --tool NAME (and --args JSON), or pipe the payload on stdin", e)
		}
		return build(nil)
	}
	b, err := runtime.ReadPayload(s.in)
	if err != nil {
		return nil, usageErrorf("%v", err)
	}
	return b, nil
}

// buildPayload completes a partial payload as the agent would send it for
// a new conversation in workspace (default: the one found from the current
// folder upward).
func buildPayload(e schema.Event, partial []byte, workspace, home string) ([]byte, error) {
	if found, err := scope.Choose(workspace); err == nil {
		workspace = found.Root
	}
	b, err := runtime.CompletePayload(e, partial, workspace, home)
	if err != nil {
		return nil, usageErrorf("%v", err)
	}
	return b, nil
}
