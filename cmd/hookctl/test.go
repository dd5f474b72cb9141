package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/runtime/hooktest"
	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/scope"
)

// testOptions are the answers of the test command's flags.
type testOptions struct {
	files     []string
	configs   []string
	workspace string
	run       string
	json      bool
	format    string
	onError   string
	addFrom   string
	// set names the flags given on the command line.
	set map[string]bool

	contract bool
	budget   string
	hooks    []string
	user     bool
}

// newTestCommand is hookctl test. runF, when given, is called in place of
// testRun.
func newTestCommand(f *factory, runF func(*testOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "test",
		Usage:     "run the unit tests of hooks, or check every handler against the agent's contract (--contract)",
		ArgsUsage: "[FILE...]",
		Description: "FILE is a hooks.test.json, or a folder whose .agents/hooks.test.json is run; the\n" +
			"default is the workspace's .agents/hooks.test.json, the workspace being the nearest folder\n" +
			"from here upward that holds .agents, else the git top level, else this folder. Each case names an event, a partial payload (the\n" +
			"common fields are filled in) and what the merged answer must hold:\n\n" +
			"  {\"tests\": [{\"name\": \"gate denies rm -rf\", \"tool\": \"run_command\",\n" +
			"              \"args\": {\"CommandLine\": \"rm -rf /\"}, \"expect\": {\"decision\": \"deny\"}}]}\n\n" +
			"Cases run through the same dispatch as hookctl run, with the user's hooks.json and\n" +
			"the workspace's (trusted or not: running the tests is your choice; a line on stderr\n" +
			"says so when the workspace is not trusted). The workspace is\n" +
			"the folder above the test file's .agents folder. A case fails when the answer differs\n" +
			"from expect, when its reason lacks expectReason, or when a handler fails that the\n" +
			"case does not list in expectFailures. hookctl schema test prints the test file's\n" +
			"JSON Schema, every field and what it means; hookctl init adds a first case.\n\n" +
			"--contract needs no test file. It sends every enabled handler, alone, one payload per\n" +
			"known tool its matcher selects (realistic arguments, built as run --tool builds them;\n" +
			"browser tools too) or one payload of its other event, and checks what the agent\n" +
			"punishes: stdout holds nothing, or one JSON object valid for the event with no unknown\n" +
			"key and every key written as documented; a PreToolUse answer has a decision ({}\n" +
			"denies every call); exit status 0, or 2 for PreToolUse and Stop (a block); it starts,\n" +
			"and ends within its timeout and within --budget. One line per handler, then N passed,\n" +
			"N failed, and N not checked when a handler was sent no call (its matcher selects no\n" +
			"known tool), was disabled, or cannot run. It checks the workspace's .agents/hooks.json (of --workspace,\n" +
			"else the one found from the current folder upward); with --user, or outside a workspace, the user's\n" +
			"~/.gemini/config/hooks.json; with --config, the files named. The workspace's handlers\n" +
			"run whether it is trusted or not: running the check is your choice (a line on stderr\n" +
			"says so when it is not trusted). Handlers run in\n" +
			"parallel, one per core.\n\n" +
			"Every handler hookctl test runs has HOOKCTL_TEST=1 in its environment, so that one\n" +
			"with side effects (a notification, a log, a push) can leave them out.\n\n" +
			"Exit status: 0 every case (or handler) passed, 1 one failed, 2 a test file or\n" +
			"hooks.json is missing or has mistakes (each reported with its line and column).",
		Flags: []cli.Flag{
			&cli.GenericFlag{Name: "config", Value: &pathList{}, Usage: "use the hooks.json `FILE` instead of the user's and the workspace's (repeatable)"},
			&cli.StringFlag{Name: "workspace", Usage: "the workspace `DIR` (default: the folder above the test file's .agents folder, else the one found from the current folder upward)"},
			&cli.StringFlag{Name: "run", Usage: "run only the cases whose names match `REGEXP`"},
			&cli.BoolFlag{Name: "json", Usage: "print the results as JSON (as --format json)"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "print the results as `FORMAT`: text or json"},
			&cli.StringFlag{Name: "on-error", Value: "deny", Usage: "what a failed PreToolUse handler adds: `deny`, ask (force_ask) or ignore"},
			&cli.StringFlag{Name: "add-from-log", Usage: "add to the test file a case made of the recorded run `ID` (see hookctl log), expecting what it answered"},
			&cli.BoolFlag{Name: "contract", Usage: "check every handler against what the agent punishes, with generated payloads and no test file"},
			&cli.StringFlag{Name: "budget", Usage: "with --contract, how long one call may take: a `DURATION` such as 300ms or 2s (default 500ms)"},
			&cli.GenericFlag{Name: "hook", Value: &pathList{}, Usage: "with --contract, check only the hook `NAME` (repeatable)"},
			&cli.BoolFlag{Name: "user", Usage: "with --contract, check the user's ~/.gemini/config/hooks.json instead of the workspace's"},
		},
		Action: func(c *cli.Context) error {
			set := map[string]bool{}
			for _, name := range c.FlagNames() {
				if c.IsSet(name) {
					set[name] = true
				}
			}
			opts := &testOptions{
				files:     c.Args().Slice(),
				configs:   *c.Generic("config").(*pathList),
				workspace: c.String("workspace"),
				run:       c.String("run"),
				json:      c.Bool("json"),
				format:    c.String("format"),
				onError:   c.String("on-error"),
				addFrom:   c.String("add-from-log"),
				set:       set,
				contract:  c.Bool("contract"),
				budget:    c.String("budget"),
				hooks:     *c.Generic("hook").(*pathList),
				user:      c.Bool("user"),
			}
			if runF != nil {
				return runF(opts)
			}
			// Like run, test starts no process of its own beside the
			// handlers' shells: what they leave behind is killed.
			if ownsItsChildren {
				runtime.ClaimOrphans()
			}
			return testRun(f, opts)
		},
	}
}

// testRun runs the test cases, or the contract check, opts asks for.
func testRun(f *factory, opts *testOptions) error {
	s := f.streams
	if opts.addFrom != "" {
		return testAddFromLog(s, opts.addFrom, opts.files)
	}
	if err := runtime.CannotRunHandlers(); err != nil {
		return usageErrorf("test: %v", err)
	}
	switch opts.format {
	case "json":
		opts.json = true
	case "text":
		if opts.json && opts.set["format"] {
			return usageErrorf("--json and --format text disagree: give one of them")
		}
	default:
		return usageErrorf("--format must be text or json, not %q", opts.format)
	}
	if opts.contract {
		return contractRun(f, opts)
	}
	for _, name := range []string{"budget", "hook", "user"} {
		if opts.set[name] {
			return usageErrorf("--%s goes with --contract", name)
		}
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
	if err := hooktest.CheckFiles(opts.configs); err != nil {
		return usageErrorf("--config %v", err)
	}
	dir, err := f.getwd()
	if err != nil {
		return usageErrorf("cannot tell the current folder: %v", err)
	}
	found, err := scope.Here()
	if err != nil {
		return usageErrorf("%v", err)
	}

	files := opts.files
	if len(files) == 0 {
		files = []string{found.Rel(filepath.Join(found.Root, filepath.FromSlash(hooktest.DefaultFile)))}
	}
	suites, err := loadSuites(s, files, len(opts.files) == 0)
	if err != nil {
		return err
	}

	ctx, stop := stopOnSignal()
	defer stop()
	text := &hooktest.TextPrinter{W: s.out, Dir: dir}
	report := hooktest.JSONReport{Cases: []hooktest.JSONCase{}}
	selected := 0
	warned := map[string]bool{}
	for _, b := range hooktest.Batches(suites, match, opts.workspace, found.Root) {
		cases, ws := b.Cases, b.Workspace
		selected += len(cases)
		if len(opts.configs) == 0 && len(cases) > 0 && !warned[ws] {
			warned[ws] = true
			warnUntrusted(s, scope.WorkspaceFile(ws))
		}
		if len(suites) > 1 && !opts.json && len(cases) > 0 {
			fmt.Fprintf(s.out, "%s\n", schema.Visible(b.Suite.Path))
		}
		ropts := runtime.Options{Configs: opts.configs, Workspace: ws, OnError: onError}
		for _, c := range cases {
			r := hooktest.Run(ctx, c, ropts)
			if ctx.Err() != nil {
				return usageErrorf("interrupted: every running handler was stopped")
			}
			report.Add(r)
			if !opts.json {
				if err := text.Case(r); err != nil {
					return err
				}
			}
		}
	}
	if match != nil && selected == 0 {
		return usageErrorf("no case matches --run %q", opts.run)
	}
	if opts.json {
		if err := report.WriteJSON(s.out); err != nil {
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

// loadSuites loads every test file before any case runs
// (hooktest.LoadAll). Each mistake is a line on stderr.
func loadSuites(s streams, files []string, byDefault bool) ([]*hooktest.Suite, error) {
	suites, mistakes := hooktest.LoadAll(files)
	for _, err := range mistakes {
		if errors.Is(err, hooktest.ErrNotFound) && byDefault {
			return nil, usageErrorf("%v: create it (hookctl init adds a case for each hook it writes), or name a test file", err)
		}
	}
	for _, err := range mistakes {
		fmt.Fprintf(s.err, "hookctl: %s\n", err.Error())
	}
	if bad := len(mistakes); bad > 0 {
		return nil, usageErrorf("%s in the test files; no case was run", schema.Plural(bad, "mistake"))
	}
	return suites, nil
}

func contractRun(f *factory, opts *testOptions) error {
	s := f.streams
	for _, f := range []string{"run", "on-error"} {
		if opts.set[f] {
			return usageErrorf("--%s is for test cases; --contract checks every handler (pick hooks with --hook NAME)", f)
		}
	}
	if len(opts.files) > 0 {
		return usageErrorf("--contract takes no test file: name a hooks.json with --config FILE")
	}
	if opts.user && len(opts.configs) > 0 {
		return usageErrorf("--user and --config both name the file to check: give one of them")
	}
	budget := hooktest.DefaultBudget
	if opts.set["budget"] {
		d, err := time.ParseDuration(opts.budget)
		if err != nil || d <= 0 {
			return usageErrorf("--budget %q is not a duration: write it as 300ms, 2s or 1.5s", opts.budget)
		}
		budget = d
	}
	dir, err := f.getwd()
	if err != nil {
		return usageErrorf("cannot tell the current folder: %v", err)
	}
	found, err := scope.Choose(opts.workspace)
	if err != nil {
		return usageErrorf("%v", err)
	}
	home, _ := f.homeDir()
	configs, ws, note, err := hooktest.Target{Configs: opts.configs, Workspace: opts.workspace, User: opts.user, Root: found.Root, Home: home}.Files()
	if err != nil {
		return usageErrorf("%v", err)
	}
	if note != "" {
		fmt.Fprintf(s.err, "hookctl: %s\n", note)
	}
	if len(opts.configs) == 0 && configs[0] == scope.WorkspaceFile(ws) {
		warnUntrusted(s, configs[0])
	}

	ctx, stop := stopOnSignal()
	defer stop()
	text := &hooktest.ContractPrinter{W: s.out, Dir: dir}
	var printErr error
	copts := hooktest.ContractOptions{Configs: configs, Workspace: ws, Hooks: opts.hooks, Budget: budget}
	if !opts.json {
		copts.Progress = func(r *hooktest.ContractReport, h *hooktest.HandlerReport) {
			if printErr == nil {
				printErr = text.Handler(r, h)
			}
		}
	}
	report, err := hooktest.Contract(ctx, copts)
	switch {
	case ctx.Err() != nil:
		return usageErrorf("interrupted: every running handler was stopped")
	case err != nil:
		return usageErrorf("%v", err)
	case printErr != nil:
		return printErr
	}
	for _, n := range report.Notes {
		fmt.Fprintf(s.err, "hookctl: %s\n", n)
	}
	if opts.json {
		// A file dropped whole is said here for people too; the array
		// holds it when it counts as a failure of its own.
		for _, d := range report.Dropped {
			fmt.Fprintf(s.err, "hookctl: %s:%d:%d: %s\n", d.Path, d.Pos.Line, d.Pos.Col, d.Why)
		}
		if err := report.WriteJSON(s.out); err != nil {
			return err
		}
	} else if err := text.Summary(report); err != nil {
		return err
	}
	if _, failed := report.Counts(); failed > 0 {
		return &exitError{code: exitFindings}
	}
	return nil
}
