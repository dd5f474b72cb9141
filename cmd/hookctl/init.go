package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/AlecAivazis/survey/v2/terminal"
	"github.com/mattn/go-isatty"
	"github.com/urfave/cli/v2"

	"github.com/hookctl/hookctl/lint"
	"github.com/hookctl/hookctl/scaffold"
	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/scope"
	"github.com/hookctl/hookctl/schema/shellcmd"
	"github.com/hookctl/hookctl/templates"
)

// exitInterrupted is the status of a wizard stopped with Ctrl-C, as a
// shell reports a process ended by SIGINT.
const exitInterrupted = 130

// initOptions are the answers of the init command's flags.
type initOptions struct {
	scaffold.Options
	yes  bool
	list bool
	// prompter asks the questions; nil means survey on the terminal.
	prompter scaffold.Prompter
	// cwd is the current folder, for showing paths relative to it.
	cwd string
	// here is the workspace the commands of the next steps find from the
	// current folder: they name the workspace only when it is another.
	here scope.Found
}

// newInitCommand is hookctl init. runF, when given, is called in place of
// initRun.
func newInitCommand(f *factory, runF func(*initOptions) error) *cli.Command {
	return &cli.Command{
		Name:  "init",
		Usage: "create a hook: its handler script, its entry in hooks.json and a test case",
		Description: "Asks a few questions (each has a default: Enter takes it), then writes the\n" +
			"handler script into hooks/ beside the hooks.json, adds the hook to hooks.json\n" +
			"(every other byte of the file stays as it was), adds a test case to\n" +
			"hooks.test.json and lints the result. Every answer can be given as a flag;\n" +
			"--yes takes the defaults for the rest. Without a terminal, init asks nothing:\n" +
			"it needs every answer as a flag, or --yes.\n\n" +
			"Templates (--template), by event:\n" + templateList() + "\n" +
			"Examples:\n" +
			"  hookctl init\n" +
			"  hookctl init --template block-dangerous --yes\n" +
			"  hookctl init --event PostToolUse --template audit-log --lang py --yes\n" +
			"  hookctl init --scope user --name no-secrets --template protect-paths --yes",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "scope", Usage: "`SCOPE` of the hook: workspace (.agents/hooks.json) or user (~/.gemini/config/hooks.json)"},
			&cli.StringFlag{Name: "dir", Usage: "the workspace's root `DIR` (default: the nearest folder from here upward that holds .agents, else the git top level, else the current folder)"},
			&cli.StringFlag{Name: "name", Usage: "the hook's `NAME`, its key in hooks.json (default: the template's name)"},
			&cli.StringFlag{Name: "event", Usage: "the `EVENT`: " + strings.Join(schema.EventNames(), ", ")},
			&cli.StringFlag{Name: "matcher", Usage: "the tools a PreToolUse or PostToolUse hook runs for, an RE2 `REGEXP` matched against the whole tool name"},
			&cli.StringFlag{Name: "template", Usage: "the handler's `TEMPLATE`: one of those listed above (hookctl init --list-templates)"},
			&cli.StringFlag{Name: "lang", Usage: "the script's `LANGUAGE`: " + strings.Join(templates.LanguageIDs(), " or ")},
			&cli.IntFlag{Name: "timeout", Usage: "the handler's timeout in `SECONDS`", DefaultText: "the template's"},
			&cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "ask nothing: take the defaults for every answer not given"},
			&cli.BoolFlag{Name: "force", Usage: "overwrite a handler script that already exists"},
			&cli.BoolFlag{Name: "vscode", Usage: "associate the schema with .agents/hooks.json in .vscode/settings.json"},
			&cli.BoolFlag{Name: "trace", Usage: "write the handler's command through hookctl trace, so that each run is recorded (see hookctl log); --trace=false to not be asked"},
			&cli.BoolFlag{Name: "list-templates", Usage: "list the templates and exit"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageErrorf("hookctl init takes no arguments, only flags: did you mean --name %s?", c.Args().First())
			}
			opts := &initOptions{yes: c.Bool("yes"), list: c.Bool("list-templates")}
			opts.Scope = c.String("scope")
			opts.Name = c.String("name")
			opts.Event = schema.Event(c.String("event"))
			opts.Matcher, opts.MatcherSet = c.String("matcher"), c.IsSet("matcher")
			opts.Template = c.String("template")
			opts.Lang = c.String("lang")
			opts.Timeout = c.Int("timeout")
			opts.Trace, opts.TraceSet = c.Bool("trace"), c.IsSet("trace")
			if c.IsSet("timeout") && (opts.Timeout < 1 || opts.Timeout > schema.MaxTimeout) {
				return usageErrorf("--timeout %d: give a whole number of seconds from 1 to %d (about 68 years)", opts.Timeout, schema.MaxTimeout)
			}
			opts.Force = c.Bool("force")
			opts.VSCode = c.Bool("vscode")
			opts.Dir = c.String("dir")
			if runF != nil {
				return runF(opts)
			}
			return initRun(f, opts)
		},
	}
}

func templateList() string {
	var b strings.Builder
	for _, t := range templates.All() {
		fmt.Fprintf(&b, "  %-15s %-18s %s\n", t.Event, t.ID, t.Summary)
	}
	return b.String()
}

// initRun creates the hook opts describes, asking for what it does not.
func initRun(f *factory, opts *initOptions) error {
	s := f.streams
	if opts.list {
		_, err := io.WriteString(s.out, templateList())
		return err
	}
	if err := checkInitFlags(f, opts); err != nil {
		return err
	}
	load := func(scope string) (*scaffold.Existing, error) {
		return scaffold.Load(scope, opts.Dir, opts.Home)
	}
	var x *scaffold.Existing
	var tx *scaffold.Tx
	var err error
	ctx, stop := context.Background(), func() {}
	defer func() { stop() }()
	stopped := &exitError{code: exitInterrupted, msg: "init stopped: nothing was written"}
	// begin locks the folders init edits and reads hooks.json under the
	// lock, so that another init or import at the same time cannot lose
	// this hook, nor this one theirs.
	begin := func() error {
		// From here on a signal stops init between its writes, never in the
		// middle of them, and what was written is undone.
		ctx, stop = stopOnSignal()
		tx, err = beginEdit(s, ctx, filepath.Dir(scaffold.ConfigPath(opts.Scope, opts.Dir, opts.Home)), stopped,
			func(ctx context.Context) (*scaffold.Tx, error) { return scaffold.Begin(ctx, opts.Options) })
		if err != nil {
			return err
		}
		if x, err = tx.Load(scaffold.ConfigPath(opts.Scope, opts.Dir, opts.Home)); err != nil {
			return usageErrorf("%v", err)
		}
		return nil
	}
	defer func() {
		if tx != nil {
			tx.Close()
		}
	}()
	switch {
	case opts.yes || len(opts.Missing()) == 0:
		if opts.Scope == "" {
			opts.Scope = scaffold.Workspace
		}
		if err := begin(); err != nil {
			return err
		}
		// With every answer given, only what follows from them is left:
		// the template's event.
		opts.Fill(x)
	default:
		p := opts.prompter
		if p == nil {
			in, inOK := s.in.(*os.File)
			out, outOK := s.out.(*os.File)
			if !inOK || !outOK || !fileIsTerminal(in) || !fileIsTerminal(out) {
				return usageErrorf("no terminal to ask on, and these answers are missing: %s\n"+
					"Pass them as flags, or --yes to take the defaults for those not given (hookctl init --help lists them).",
					strings.Join(opts.Missing(), ", "))
			}
			p = &scaffold.SurveyPrompter{In: in, Out: out, Err: s.err}
		}
		opts.Answers, _, err = scaffold.Ask(p, opts.Answers, load, opts.Dir)
		if errors.Is(err, scaffold.ErrInterrupted) || errors.Is(err, terminal.InterruptErr) {
			return &exitError{code: exitInterrupted, msg: "init stopped: nothing was written"}
		}
		if err != nil {
			return usageErrorf("%v", err)
		}
		// The file may have changed while the questions were asked: the
		// hook is added to what it holds now.
		if err := begin(); err != nil {
			return err
		}
	}
	plan, err := scaffold.NewPlan(opts.Options, x)
	if err != nil {
		return usageErrorf("%v", err)
	}
	tr, err := scaffold.CheckTrust(opts.Options, x)
	if err != nil {
		return usageErrorf("%v", err)
	}
	if err := plan.Apply(tx); err != nil {
		return usageErrorf("%v", err)
	}
	if ctx.Err() != nil {
		return stopped // the deferred Close undoes the writes
	}
	if err := scaffold.Commit(tx, plan, tr, f.now()); err != nil {
		return usageErrorf("%v", err)
	}
	tx.Close()
	tx = nil
	stop()
	return initReport(s, *opts, plan, tr)
}

// checkInitFlags rejects flag values that cannot be right before any
// question is asked (scaffold.Answers.CheckGiven), and fills in the
// folders (scaffold.Options.Place).
func checkInitFlags(f *factory, opts *initOptions) error {
	if err := opts.CheckGiven(); err != nil {
		return usageErrorf("%v", err)
	}
	cwd, err := f.getwd()
	if err != nil {
		return usageErrorf("cannot tell the current folder: %v", err)
	}
	opts.cwd = cwd
	if opts.here, err = scope.Here(); err != nil {
		return usageErrorf("%v", err)
	}
	var home string
	if opts.Home == "" {
		home, _ = f.homeDir()
	}
	if err := opts.Place(opts.here.Root, home); err != nil {
		return usageErrorf("%v", err)
	}
	return nil
}

// guide is what init tells, from the current folder, once it has written.
func (opts initOptions) guide() scaffold.Guide {
	return scaffold.Guide{Options: opts.Options, Cwd: opts.cwd, Here: opts.here}
}

func fileIsTerminal(f *os.File) bool {
	return isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())
}

// initReport says what was written, lints the result, runs the contract
// check on the new hook and prints the next steps.
func initReport(s streams, opts initOptions, p *scaffold.Plan, tr *scaffold.Trust) error {
	g := opts.guide()
	rel := g.Rel
	w := s.out
	verb := "Created"
	if p.Overwrite {
		verb = "Overwrote"
	}
	fmt.Fprintf(w, "%s %s\n", verb, rel(p.Script))
	where := p.Where()
	if p.Created {
		fmt.Fprintf(w, "Created %s with the hook %q (%s)\n", rel(p.Config), p.Name, where)
	} else {
		fmt.Fprintf(w, "Added the hook %q to %s (%s)\n", p.Name, rel(p.Config), where)
	}
	if p.TestsOut != nil {
		fmt.Fprintf(w, "Added the test case %q to %s\n", p.Case.Name, rel(p.Tests))
	}
	if v := p.VSCode; v != nil {
		if v.SettingsOut != nil {
			fmt.Fprintf(w, "Associated the schema with %s in %s (a copy of it is in %s)\n", scaffold.HooksFileMatch, rel(v.Settings), rel(v.Schema))
		} else {
			fmt.Fprintf(w, "Updated %s; %s already associates it\n", rel(v.Schema), rel(v.Settings))
		}
	}
	for _, n := range p.Notes {
		fmt.Fprintf(w, "Note: %s\n", n)
	}
	if p.LacksJQ() {
		fmt.Fprintf(w, "Note: the script reads its input with jq, which is not installed: apt-get install jq, or brew install jq\n")
	}

	if tr != nil {
		if tr.Renew {
			fmt.Fprintf(w, "Trusted the workspace's hooks as they now are, so they run\n")
			if len(tr.NotCovered) > 0 {
				fmt.Fprintf(w, "Not covered by that trust (read it before the hook runs; hookctl trust lists it too):\n")
				for _, l := range tr.NotCovered {
					fmt.Fprintf(w, "  %s\n", l)
				}
			}
		} else {
			fmt.Fprintf(w, "Note: the workspace's hooks do not run until you trust them (%s): review them with hookctl trust %s\n", tr.Untrusted, schema.Visible(shellcmd.Quote(tr.Root)))
		}
	}

	res, err := g.Lint(p)
	if err != nil {
		return usageErrorf("%v", err)
	}
	if len(res.Findings) == 0 {
		fmt.Fprintf(w, "Lint: no problems in %s\n", rel(p.Config))
	} else {
		fmt.Fprintf(w, "Lint:\n")
		if err := (&lint.TextPrinter{}).Print(w, res); err != nil {
			return err
		}
	}

	if why := scaffold.ContractWithheld(tr); why != "" {
		fmt.Fprintf(w, "Contract check: not run: %s %s\n", why, g.ContractCommand(p))
	} else if err := initContract(w, g, p); err != nil {
		return err
	}

	fmt.Fprintf(w, "\nNext steps:\n")
	steps := g.NextSteps(p, tr)
	width := 0
	for _, st := range steps {
		width = max(width, len(st.What)+1)
	}
	for _, st := range steps {
		fmt.Fprintf(w, "  %-*s%s\n", width, st.What, schema.Visible(st.Command))
	}
	return nil
}
