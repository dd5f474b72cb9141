// Command hookctl lints, runs, scaffolds and documents the hooks.json files
// that configure an AI coding agent's hooks.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	surveycore "github.com/AlecAivazis/survey/v2/core"
	"github.com/fatih/color"
	"github.com/mattn/go-isatty"
	"github.com/urfave/cli/v2"

	"github.com/hookctl/hookctl/internal/buildinfo"
	"github.com/hookctl/hookctl/schema"
)

// version, commit and date are set at build time by a release build
// (.goreleaser.yaml): -ldflags "-X main.version=v1.2.3 -X main.commit=SHA
// -X main.date=2026-12-02T10:00:00Z". Without them, a build from a module
// version reports that version, and the commit and its time come from
// what the go command recorded (buildinfo.Stamped).
var version, commit, date = "", "", ""

// buildVersion is the release version, "devel" for a build from a checkout
// that is not at a release tag.
func buildVersion() string { return buildinfo.Version(version) }

// Exit statuses.
const (
	exitOK       = 0
	exitFindings = 1
	exitUsage    = 2
)

// exitError ends the command with a status and, unless it is silent, a
// message on stderr.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// usageErrorf reports a usage error, an unreadable input, or anything else
// that kept the command from doing its job: exit status 2.
func usageErrorf(format string, args ...any) error {
	return &exitError{code: exitUsage, msg: fmt.Sprintf(format, args...)}
}

// streams are the command's standard streams.
type streams struct {
	in       io.Reader
	out, err io.Writer
}

func main() {
	ownsItsChildren = true
	os.Exit(run(os.Args, streams{os.Stdin, os.Stdout, os.Stderr}))
}

// stopSignals are the signals that stop a command: a terminal's interrupt,
// a polite kill, and the terminal closing.
var stopSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}

// stopOnSignal returns a context that is done when one of stopSignals
// arrives, and the function that stops listening for them.
func stopOnSignal() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), stopSignals...)
}

// commands builds every command, in the order the help lists them.
func commands(f *factory) []*cli.Command {
	return []*cli.Command{
		newInitCommand(f, nil),
		newLintCommand(f, nil),
		newRunCommand(f, nil),
		newTraceCommand(f),
		newLogCommand(f, nil),
		newTestCommand(f, nil),
		newListCommand(f, nil),
		newDoctorCommand(f, nil),
		newTrustCommand(f, nil),
		newImportCommand(f, nil),
		newAdaptCommand(f),
		newExportCommand(f, nil),
		newSchemaCommand(f, nil),
		newLspCommand(f, nil),
		newCompletionCommand(f, nil),
		newVersionCommand(f, nil),
		newHelpCommand(f),
	}
}

func newApp(f *factory) *cli.App {
	s := f.streams
	cli.VersionPrinter = func(c *cli.Context) {
		fmt.Fprintln(c.App.Writer, "hookctl "+c.App.Version)
	}
	bi := buildinfo.Info(commit, date)
	app := &cli.App{
		Name:      "hookctl",
		Usage:     "lint, run, scaffold and document the hooks.json files of an AI coding agent",
		UsageText: "hookctl [--color auto|always|never] COMMAND [options] [arguments...]",
		Version:   strings.TrimPrefix(buildinfo.Line(buildVersion(), bi), "hookctl "),
		Description: "hookctl works with .agents/hooks.json (the workspace's hooks) and\n" +
			"~/.gemini/config/hooks.json (the user's hooks). Exit status: 0 success,\n" +
			"1 findings or failed tests, 2 usage error or unreadable input.",
		Reader:    s.in,
		Writer:    s.out,
		ErrWriter: s.err,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "color", Value: "auto", Usage: "colour the output: `WHEN` is auto (on a terminal, unless NO_COLOR is set), always or never"},
			// The CLI library adds --help only to an app without a help
			// command of its own.
			cli.HelpFlag,
		},
		Commands:        commands(f),
		HideHelpCommand: true,
		Before: func(c *cli.Context) error {
			return setColor(c.String("color"), s.out)
		},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return cli.ShowAppHelp(c)
			}
			return unknownCommand(c.App, c.Args().First())
		},
		OnUsageError:   onUsageError,
		ExitErrHandler: func(*cli.Context, error) {},
	}
	for _, cmd := range app.Commands {
		cmd.OnUsageError = onUsageError
		if len(cmd.Subcommands) > 0 && findCommand(cmd.Subcommands, "help") == nil {
			cmd.Subcommands = append(cmd.Subcommands, subHelpCommand(s, cmd))
		}
		for _, sub := range cmd.Subcommands {
			sub.OnUsageError = onUsageError
		}
	}
	return app
}

// run runs hookctl with the arguments and returns the exit status.
func run(args []string, s streams) int {
	if len(args) > 2 && args[1] == "trace" && !isHelpFlag(args[2]) {
		// trace starts before every handler it wraps: it takes its own
		// arguments, without building the other commands.
		return traceMain(args[2:], newFactory(s))
	}
	if len(args) > 2 && args[1] == "adapt" && !isHelpFlag(args[2]) {
		// So does adapt.
		return adaptMain(args[2:], newFactory(s))
	}
	if len(args) == 2 && isVersionFlag(args[1]) {
		// The version alone, as the CLI library prints it, without
		// building every command first.
		fmt.Fprintln(s.out, buildinfo.Line(buildVersion(), buildinfo.Info(commit, date)))
		return exitOK
	}
	app := newApp(newFactory(s))
	if len(args) > 1 && args[1] == completeCommand {
		if err := complete(app, args[2:]).write(s.out); err != nil {
			return exitUsage
		}
		return exitOK
	}
	err := app.Run(permuteArgs(app, args))
	var ee *exitError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ee):
		// A message may quote a workspace's path or bytes: its escape
		// sequences are shown, never interpreted.
		if ee.msg != "" {
			fmt.Fprintf(s.err, "hookctl: %s\n", schema.VisibleText(ee.msg))
		}
		return ee.code
	default:
		fmt.Fprintf(s.err, "hookctl: %s\n", schema.VisibleText(err.Error()))
		return exitUsage
	}
}

// isVersionFlag reports whether a is one of the spellings of the CLI
// library's --version flag, which the flag package reads with one dash or
// two.
func isVersionFlag(a string) bool {
	return a == "--version" || a == "-version" || a == "-v" || a == "--v"
}

func isHelpFlag(a string) bool { return a == "-h" || a == "--help" || a == "-help" }

func onUsageError(c *cli.Context, err error, isSubcommand bool) error {
	msg := err.Error()
	where := "hookctl"
	if c.Command != nil && c.Command.Name != "" && isSubcommand {
		where = "hookctl " + c.Command.FullName()
	}
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		msg = fmt.Sprintf("unknown flag --%s", strings.TrimLeft(name, "-"))
		var known []string
		flags := c.App.Flags
		if c.Command != nil && isSubcommand {
			flags = c.Command.Flags
		}
		for _, f := range flags {
			for _, n := range f.Names() {
				if len(n) > 1 {
					known = append(known, n)
				}
			}
		}
		if s := schema.Nearest(strings.TrimLeft(name, "-"), known); s != "" {
			msg += fmt.Sprintf(": did you mean --%s?", s)
		}
	}
	return usageErrorf("%s\nRun '%s --help' for usage.", msg, where)
}

func unknownCommand(app *cli.App, name string) error {
	var names []string
	for _, c := range app.VisibleCommands() {
		names = append(names, c.Names()...)
	}
	msg := fmt.Sprintf("unknown command %q", name)
	if s := schema.Nearest(name, names); s != "" {
		msg += fmt.Sprintf(": did you mean %q?", s)
	}
	return usageErrorf("%s\nRun 'hookctl --help' for the list of commands.", msg)
}

// setColor applies --color: auto colours a terminal unless NO_COLOR is set;
// always and never force it, whatever NO_COLOR says.
func setColor(when string, out io.Writer) error {
	switch when {
	case "always":
		color.NoColor = false
	case "never":
		color.NoColor = true
	case "auto", "":
		color.NoColor = !isTerminal(out) || os.Getenv("NO_COLOR") != ""
	default:
		return usageErrorf("--color must be auto, always or never, not %q", when)
	}
	// The init wizard's prompts (survey) follow it too, except that survey
	// itself keeps them plain whenever NO_COLOR is set; forcing them would
	// take CLICOLOR_FORCE in the environment, which handlers would inherit.
	surveycore.DisableColor = color.NoColor
	return nil
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// permuteArgs lets flags follow positional arguments, as in
// "hookctl lint FILE --format json": the flag parser stops at the first
// argument that is not a flag, so the flags of each command are moved ahead
// of its arguments, and global flags ahead of the command. Everything after
// "--" stays where it is.
func permuteArgs(app *cli.App, args []string) []string {
	if len(args) < 2 {
		return args
	}
	globals, rest := splitFlags(app.Flags, args[1:], true)
	var path, flags []string
	cmds := app.Commands
	for len(rest) > 0 {
		var cmd *cli.Command
		for _, c := range cmds {
			if c.HasName(rest[0]) {
				cmd = c
			}
		}
		if cmd == nil {
			break
		}
		path = append(append(path, flags...), rest[0])
		if cmd.SkipFlagParsing {
			// The command reads its arguments itself, in their order.
			flags, rest = nil, rest[1:]
			break
		}
		var fs []flagArg
		fs, rest = splitFlags(append(cmd.Flags, app.Flags...), rest[1:], len(cmd.Subcommands) > 0)
		flags = nil
		for _, f := range fs {
			if f.global(app.Flags) {
				globals = append(globals, f)
			} else {
				flags = append(flags, f...)
			}
		}
		cmds = cmd.Subcommands
	}
	out := []string{args[0]}
	for _, g := range globals {
		out = append(out, g...)
	}
	out = append(append(out, path...), flags...)
	return append(out, rest...)
}

// flagArg is a flag as written: its name and, when separate, its value.
type flagArg []string

func (f flagArg) name() string {
	name, _, _ := strings.Cut(strings.TrimLeft(f[0], "-"), "=")
	return name
}

// global reports whether the flag is one of hookctl's own, which go before
// the command. --help stays with the command whose help it asks for.
func (f flagArg) global(globals []cli.Flag) bool {
	g := lookupFlag(globals, f.name())
	return g != nil && g != cli.HelpFlag
}

// splitFlags separates flags (with their values) from positional arguments.
// With stopAtArg it stops at the first positional argument, which names a
// command.
func splitFlags(flags []cli.Flag, args []string, stopAtArg bool) (fl []flagArg, pos []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return fl, append(pos, args[i:]...)
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			if stopAtArg {
				return fl, append(pos, args[i:]...)
			}
			pos = append(pos, a)
			continue
		}
		f := flagArg{a}
		_, isBool := lookupFlag(flags, f.name()).(*cli.BoolFlag)
		if !strings.Contains(a, "=") && lookupFlag(flags, f.name()) != nil && !isBool && i+1 < len(args) {
			i++
			f = append(f, args[i])
		}
		fl = append(fl, f)
	}
	return fl, pos
}

func lookupFlag(flags []cli.Flag, name string) cli.Flag {
	for _, f := range flags {
		for _, n := range f.Names() {
			if n == name {
				return f
			}
		}
	}
	return nil
}
