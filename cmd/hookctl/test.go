package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"regexp"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/runtime/hooktest"
)

// testOptions are the answers of the test command's flags.
type testOptions struct {
	files     []string
	configs   []string
	workspace string
	run       string
	json      bool
	onError   string
	addFrom   string
}

func init() { register(40, testCommand) }

func testCommand(s streams) *cli.Command {
	return &cli.Command{
		Name:      "test",
		Usage:     "run the unit tests of hooks: send each case's event through the hooks and check the answer",
		ArgsUsage: "[FILE...]",
		Description: "FILE is a hooks.test.json, or a folder whose .agents/hooks.test.json is run; the\n" +
			"default is .agents/hooks.test.json. Each case names an event, a partial payload (the\n" +
			"common fields are filled in) and what the merged answer must hold:\n\n" +
			"  {\"tests\": [{\"name\": \"gate denies rm -rf\", \"tool\": \"run_command\",\n" +
			"              \"args\": {\"CommandLine\": \"rm -rf /\"}, \"expect\": {\"decision\": \"deny\"}}]}\n\n" +
			"Cases run through the same dispatch as hookctl run, with the user's hooks.json and\n" +
			"the workspace's (trusted or not: running the tests is your choice). The workspace is\n" +
			"the folder above the test file's .agents folder. A case fails when the answer differs\n" +
			"from expect, when its reason lacks expectReason, or when a handler fails that the\n" +
			"case does not list in expectFailures. See docs/testing.md.\n\n" +
			"Exit status: 0 every case passed, 1 a case failed, 2 a test file is missing or has\n" +
			"mistakes (each reported with its line and column).",
		Flags: []cli.Flag{
			&cli.GenericFlag{Name: "config", Value: &pathList{}, Usage: "use the hooks.json `FILE` instead of the user's and the workspace's (repeatable)"},
			&cli.StringFlag{Name: "workspace", Usage: "the workspace `DIR` (default: the folder above the test file's .agents folder)"},
			&cli.StringFlag{Name: "run", Usage: "run only the cases whose names match `REGEXP`"},
			&cli.BoolFlag{Name: "json", Usage: "print the results as JSON"},
			&cli.StringFlag{Name: "on-error", Value: "deny", Usage: "what a failed PreToolUse handler adds: `deny`, ask (force_ask) or ignore"},
			&cli.StringFlag{Name: "add-from-log", Usage: "add to the test file a case made of the recorded run `ID` (see hookctl log), expecting what it answered"},
		},
		Action: func(c *cli.Context) error {
			return testRun(s, testOptions{
				files:     c.Args().Slice(),
				configs:   *c.Generic("config").(*pathList),
				workspace: c.String("workspace"),
				run:       c.String("run"),
				json:      c.Bool("json"),
				onError:   c.String("on-error"),
				addFrom:   c.String("add-from-log"),
			})
		},
	}
}

func testRun(s streams, opts testOptions) error {
	if opts.addFrom != "" {
		return testAddFromLog(s, opts.addFrom, opts.files)
	}
	onError, err := runtime.ParseOnError(opts.onError)
	if err != nil {
		return usageErrorf("--on-error: %v", err)
	}
	var match func(string) bool
	if opts.run != "" {
		re, err := regexp.Compile(opts.run)
		if err != nil {
			return usageErrorf("--run %q is not a valid regular expression: %v", opts.run, err)
		}
		match = re.MatchString
	}
	for _, c := range opts.configs {
		if info, err := os.Stat(c); err != nil || info.IsDir() {
			return usageErrorf("--config %s: no such file", c)
		}
	}
	dir, err := os.Getwd()
	if err != nil {
		return usageErrorf("cannot tell the current folder: %v", err)
	}

	files := opts.files
	if len(files) == 0 {
		files = []string{hooktest.DefaultFile}
	}
	suites, err := loadSuites(s, files, len(opts.files) == 0)
	if err != nil {
		return err
	}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	text := &hooktest.TextPrinter{W: s.out, Dir: dir}
	report := hooktest.JSONReport{Cases: []hooktest.JSONCase{}}
	selected := 0
	for _, suite := range suites {
		cases := suite.Select(match)
		selected += len(cases)
		if len(suites) > 1 && !opts.json && len(cases) > 0 {
			fmt.Fprintf(s.out, "%s\n", suite.Path)
		}
		ws := opts.workspace
		if ws == "" {
			ws = hooktest.WorkspaceOf(suite.Path, dir)
		}
		ropts := runtime.Options{Configs: opts.configs, Workspace: ws, OnError: onError}
		for _, c := range cases {
			r := hooktest.Run(ctx, c, ropts)
			if ctx.Err() != nil {
				return usageErrorf("interrupted: every running handler was stopped")
			}
			if r.Passed() {
				report.Passed++
			} else {
				report.Failed++
			}
			if opts.json {
				report.Cases = append(report.Cases, r.JSON())
				continue
			}
			if err := text.Case(r); err != nil {
				return err
			}
		}
	}
	if match != nil && selected == 0 {
		return usageErrorf("no case matches --run %q", opts.run)
	}
	if opts.json {
		enc := json.NewEncoder(s.out)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(report); err != nil {
			return err
		}
	} else if err := text.Summary(report.Passed, report.Failed); err != nil {
		return err
	}
	if report.Failed > 0 {
		return &exitError{code: exitFindings}
	}
	return nil
}

// loadSuites loads every test file before any case runs, so that a mistake
// in one is reported before the others spend time. Each mistake is a line
// on stderr.
func loadSuites(s streams, files []string, byDefault bool) ([]*hooktest.Suite, error) {
	var suites []*hooktest.Suite
	bad := 0
	for _, f := range files {
		suite, err := hooktest.Load(hooktest.Resolve(f))
		var ps hooktest.Problems
		switch {
		case err == nil:
			suites = append(suites, suite)
		case errors.Is(err, hooktest.ErrNotFound) && byDefault:
			return nil, usageErrorf("%v: create it (hookctl init adds a case for each hook it writes), or name a test file", err)
		case errors.As(err, &ps):
			for _, p := range ps {
				fmt.Fprintf(s.err, "hookctl: %s\n", p.Error())
			}
			bad += len(ps)
		default:
			fmt.Fprintf(s.err, "hookctl: %v\n", err)
			bad++
		}
	}
	if bad > 0 {
		mistakes := "mistake"
		if bad > 1 {
			mistakes += "s"
		}
		return nil, usageErrorf("%d %s in the test files; no case was run", bad, mistakes)
	}
	return suites, nil
}
