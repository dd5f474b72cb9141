package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/runtime/tracelog"
	"github.com/hookctl/hookctl/schema"
)

// logOptions are the answers of the log command's flags.
type logOptions struct {
	log    string
	n      int
	follow bool
	hook   string
	event  string
	since  string
	json   bool
	show   string
	// poll is how often --follow looks at the file; 0 means the default.
	poll time.Duration
}

// newLogCommand is hookctl log. runF, when given, is called in place of
// logRun.
func newLogCommand(f *factory, runF func(*logOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "log",
		Usage:     "show what hooks did: the runs recorded by hookctl trace and hookctl run",
		UsageText: "hookctl log [-n N] [--follow] [--hook NAME] [--event EVENT] [--since DURATION] [--json] [--show ID]",
		Description: "Prints the last records of the log as a table, newest last: when each run started,\n" +
			"its event, tool and hook, how it exited, what it decided, how long it took, and its\n" +
			"ID, which --show and hookctl test --add-from-log take (the first characters are\n" +
			"enough). The log is written by handlers run through hookctl trace, and by\n" +
			"hookctl run with --log FILE or HOOKCTL_LOG set. It is --log FILE, else $HOOKCTL_LOG,\n" +
			"else $XDG_STATE_HOME/hookctl/runs.jsonl (~/.local/state/hookctl/runs.jsonl), and the\n" +
			"older FILE.1 kept when it rotates.\n\n" +
			"Text from the log is written by hooks: control characters are shown escaped (\\x1b).\n\n" +
			"Exit status: 0, also for an empty log; 2 when the log cannot be read or --show finds\n" +
			"no such record.",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "n", Value: 20, Usage: "show the last `N` records (0: all of them)"},
			&cli.BoolFlag{Name: "follow", Aliases: []string{"f"}, Usage: "wait for new records and show them as they are written (stop with Ctrl-C)"},
			&cli.StringFlag{Name: "hook", Usage: "only the runs of the hook `NAME`"},
			&cli.StringFlag{Name: "event", Usage: "only the runs of `EVENT`"},
			&cli.StringFlag{Name: "since", Usage: "only the runs of the last `DURATION` (30m, 2h, 7d)"},
			&cli.BoolFlag{Name: "json", Usage: "print the records as JSON, one a line"},
			&cli.StringFlag{Name: "show", Usage: "print the record `ID` whole, as indented JSON"},
			&cli.StringFlag{Name: "log", Usage: "read the log `FILE` (default: $HOOKCTL_LOG, else ~/.local/state/hookctl/runs.jsonl)"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageErrorf("hookctl log takes no arguments, not %q: to see one record, use --show ID", c.Args().First())
			}
			opts := &logOptions{
				log:    c.String("log"),
				n:      c.Int("n"),
				follow: c.Bool("follow"),
				hook:   c.String("hook"),
				event:  c.String("event"),
				since:  c.String("since"),
				json:   c.Bool("json"),
				show:   c.String("show"),
			}
			if runF != nil {
				return runF(opts)
			}
			ctx, stop := stopOnSignal()
			defer stop()
			return logRun(ctx, f, opts)
		},
	}
}

// logRun prints the records of the log opts names, and with opts.follow
// the new ones until ctx is done.
func logRun(ctx context.Context, f *factory, opts *logOptions) error {
	s := f.streams
	l := &tracelog.Log{Path: opts.log}
	if opts.log == "" {
		var err error
		if l, err = f.defaultLog(); err != nil {
			return usageErrorf("%v", err)
		}
	}
	if opts.show != "" {
		if opts.follow || opts.hook != "" || opts.event != "" || opts.since != "" {
			return usageErrorf("--show prints one record: it goes with no --follow, --hook, --event or --since")
		}
		return logShow(s, l, opts.show)
	}
	if opts.n < 0 {
		return usageErrorf("-n must be 0 (all) or more, not %d", opts.n)
	}
	filter, err := tracelog.NewFilter(opts.hook, opts.event, opts.since, f.now())
	if err != nil {
		return usageErrorf("--since %q: %v", opts.since, err)
	}
	b, err := l.Tail(opts.n, filter)
	if err != nil {
		return usageErrorf("%s", schema.Visible(err.Error()))
	}
	where := schema.Visible(l.Path)
	if b.Skipped > 0 {
		fmt.Fprintf(s.err, "hookctl: %s\n", tracelog.Skipped(b.Skipped, l.Path))
	}
	if len(b.Records) == 0 && !opts.follow {
		if !l.Empty() {
			fmt.Fprintf(s.err, "hookctl: no record in %s matches\n", where)
			return nil
		}
		fmt.Fprintf(s.err, "hookctl: %s holds no records yet. To record what a handler does, put hookctl trace\n"+
			"in front of its command in hooks.json:\n\n"+
			"  \"command\": \"hookctl trace -- ./hooks/gate.sh\"\n\n"+
			"(add --payload to record the payloads too), or set HOOKCTL_LOG=FILE for hookctl run to\n"+
			"record each dispatch. Then run the agent, or hookctl run, and look again.\n", where)
		return nil
	}

	var emit func(*tracelog.Record) error
	if opts.json {
		emit = func(r *tracelog.Record) error { return writeJSONLine(s.out, r) }
	} else {
		t := tracelog.NewTable(b.Records, opts.follow)
		if err := t.WriteHeader(s.out); err != nil {
			return err
		}
		emit = func(r *tracelog.Record) error { return t.WriteRow(s.out, r) }
	}
	for _, r := range b.Records {
		if err := emit(r); err != nil {
			return err
		}
	}
	if !opts.follow {
		return nil
	}
	return l.Follow(ctx, b.End, filter, opts.poll, emit, func(n int) {
		fmt.Fprintf(s.err, "hookctl: %s\n", tracelog.Skipped(n, l.Path))
	})
}

// findRecord finds the record whose ID is id or starts with it, for --show
// and --add-from-log, with an error that says which records an ambiguous
// start fits, or where no record was found.
func findRecord(l *tracelog.Log, id string) (*tracelog.Record, error) {
	r, err := l.Find(id)
	if errors.Is(err, tracelog.ErrNotFound) {
		return nil, usageErrorf("no record has an ID that is or starts with %q in %s or %s (hookctl log lists the IDs)",
			schema.Visible(id), schema.Visible(l.Path), schema.Visible(l.Rotated()))
	}
	if err != nil {
		return nil, usageErrorf("%s", schema.Visible(err.Error()))
	}
	return r, nil
}

// logShow prints one record whole.
func logShow(s streams, l *tracelog.Log, id string) error {
	r, err := findRecord(l, id)
	if err != nil {
		return err
	}
	b, err := r.Indented()
	if err != nil {
		return err
	}
	_, err = s.out.Write(b)
	return err
}

func writeJSONLine(w io.Writer, r *tracelog.Record) error {
	line, err := r.Line()
	if err != nil {
		return err
	}
	_, err = w.Write(tracelog.SafeJSON(line))
	return err
}

// logDispatch records a dispatch of hookctl run in the log named by --log,
// else HOOKCTL_LOG; with neither, only when the payload is asked for
// (--log-payload), in the default log. Recording happens after the answer
// is printed and never changes it: a log that cannot be written costs one
// line on stderr.
func logDispatch(s streams, path, workspace string, withPayload bool, res *runtime.Result, start time.Time, took time.Duration) {
	if path == "" {
		path = os.Getenv(tracelog.EnvLog)
	}
	if path == "" && !withPayload || tracelog.Testing(os.Getenv) {
		return
	}
	l, err := tracelog.CommandLog(path, workspace, os.Getenv)
	if err != nil {
		fmt.Fprintf(s.err, "hookctl: %s\n", schema.Visible(err.Error()))
		return
	}
	if err := l.Append(res.Record(start, took, withPayload)); err != nil {
		fmt.Fprintf(s.err, "hookctl: %s (the answer was given as usual)\n", schema.Visible(err.Error()))
	}
}
