package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/hookctl/hookctl/internal/linediff"
	"github.com/hookctl/hookctl/scaffold/export"
	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/scope"
	"github.com/hookctl/hookctl/schema/shellcmd"
)

// exportOptions are the answers of the export command's flags.
type exportOptions struct {
	to     schema.Agent
	write  bool
	remove bool
	// check exits 1 when the settings would change.
	check bool
	// onError is the failure policy written into the commands, "" for
	// none.
	onError string
	// replaceImported takes out of the settings the hooks the workspace's
	// hooks.json holds as imported, instead of leaving their events
	// unwired.
	replaceImported bool
	dir             string
	home            string
	getenv          func(string) string
}

// newExportCommand is hookctl export. runF, when given, is called in place
// of exportRun.
func newExportCommand(f *factory, runF func(*exportOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "export",
		Usage:     "let Claude Code, Gemini CLI, Cursor or Codex run this workspace's hooks",
		ArgsUsage: "[DIR]",
		Description: "Wires the hooks of DIR/.agents/hooks.json (DIR: the workspace found from here upward) into another\n" +
			"agent's workspace settings: .claude/settings.json, .gemini/settings.json,\n" +
			".cursor/hooks.json or .codex/hooks.json. Each event the hooks use gets one entry,\n" +
			"for every tool, that runs 'hookctl run --from AGENT EVENT': hookctl then matches and\n" +
			"runs the hooks, and answers as that agent reads. hookctl must be on the agent's PATH.\n\n" +
			"Without --write, export prints the change as a diff and writes nothing. The edit\n" +
			"keeps every other byte of the settings (other keys, other hooks, comments), is\n" +
			"atomic, and a second export changes nothing. --remove takes out exactly what export\n" +
			"added: its entries, recognised by their command, and the members it created to hold\n" +
			"them, which it keeps a record of in $XDG_STATE_HOME/hookctl/export/\n" +
			"(~/.local/state/hookctl/export/).\n\n" +
			"A handler that fails denies a PreToolUse call (hookctl run --on-error deny), where\n" +
			"the agents themselves go on: --on-error ignore writes the agents' way into the\n" +
			"commands. When the settings already run a hook that .agents/hooks.json holds as\n" +
			"imported (hookctl import), the agent would run it twice: export leaves that event\n" +
			"unwired and says so, or takes the original out with --replace-imported.\n\n" +
			"Exit status: 0 done (or nothing to do, as for hooks that are all disabled); with\n" +
			"--check, 1 when the settings would change and 0 when they are up to date; 2 a\n" +
			"settings file or hooks.json that cannot be read or edited safely.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "to", Usage: "the `AGENT` to wire the hooks into: claude, gemini, cursor or codex"},
			&cli.BoolFlag{Name: "write", Aliases: []string{"w"}, Usage: "write the settings instead of printing the change"},
			&cli.BoolFlag{Name: "remove", Usage: "take out the entries export adds instead of adding them"},
			&cli.BoolFlag{Name: "check", Usage: "write nothing: exit 1 when the settings would change, 0 when they are up to date (for CI)"},
			&cli.StringFlag{Name: "on-error", Usage: "write the failure policy into the commands: `WHAT` is deny (a failed handler denies the call) or ignore (it adds nothing, as the agents do)"},
			&cli.BoolFlag{Name: "replace-imported", Usage: "take out of the settings the hooks the workspace's hooks.json holds as imported, instead of leaving their events unwired"},
		},
		Action: func(c *cli.Context) error {
			opts := &exportOptions{write: c.Bool("write"), remove: c.Bool("remove"), check: c.Bool("check"),
				onError: c.String("on-error"), replaceImported: c.Bool("replace-imported"), dir: "."}
			if opts.check && opts.write {
				return usageErrorf("--check writes nothing: it goes without --write")
			}
			if opts.onError != "" && !slices.Contains(export.OnErrors, opts.onError) {
				return usageErrorf("--on-error must be %s, not %q", strings.Join(export.OnErrors, " or "), opts.onError)
			}
			if !c.IsSet("to") {
				return usageErrorf("hookctl export needs --to AGENT: claude, gemini, cursor or codex")
			}
			a, err := schema.ParseAgent("--to", c.String("to"))
			if err != nil {
				return usageErrorf("%v", err)
			}
			opts.to = a
			switch c.NArg() {
			case 0:
				found, err := scope.Here()
				if err != nil {
					return usageErrorf("%v", err)
				}
				opts.dir = found.Shown()
			case 1:
				opts.dir = c.Args().First()
			default:
				return usageErrorf("hookctl export takes one DIR, not %d arguments", c.NArg())
			}
			opts.home, _ = f.homeDir()
			opts.getenv = f.getenv
			if runF != nil {
				return runF(opts)
			}
			return exportRun(f.streams, *opts)
		},
	}
}

func exportRun(s streams, opts exportOptions) error {
	j, err := export.Request{To: opts.to, Dir: opts.dir, Remove: opts.remove, OnError: opts.onError,
		ReplaceImported: opts.replaceImported, Home: opts.home, Getenv: opts.getenv}.Open()
	if err != nil {
		return usageErrorf("%v", err)
	}
	if j.Nothing() {
		fmt.Fprintf(s.out, "nothing to export: %s has no enabled hook\n", j.HooksFile)
		return nil
	}
	shown := j.Shown
	// tell says what the change leaves to the user: the notes, and a
	// removal without a record.
	tell := func(r *export.Result) {
		for _, n := range r.Notes {
			fmt.Fprintf(s.err, "hookctl export: %s\n", n)
		}
		if why := j.Unrecorded(r); why != "" {
			fmt.Fprintf(s.err, "hookctl export: %s: the event lists and the hooks object left empty go too\n", why)
		}
	}

	if !opts.write {
		old, r, err := j.Preview()
		if err != nil {
			return usageErrorf("%v", err)
		}
		tell(r)
		if !r.Changed() {
			fmt.Fprintf(s.out, "nothing to change in %s: %s\n", shown, j.Summary(r, false))
			return nil
		}
		oldName := shown
		if old == nil {
			oldName = "/dev/null"
		}
		if _, err = s.out.Write(linediff.Unified(oldName, old, shown, r.New)); err != nil {
			return err
		}
		if opts.check {
			fmt.Fprintf(s.err, "hookctl export: %s is not up to date: %s (hookctl export --to %s --write writes it)\n", shown, j.Summary(r, false), opts.to)
			return &exitError{code: exitFindings}
		}
		fmt.Fprintf(s.err, "hookctl export: %s; run again with --write to write it\n", j.Summary(r, false))
		return nil
	}

	ctx, stop := stopOnSignal()
	defer stop()
	tx, err := beginEdit(s, ctx, filepath.Dir(j.Path), &exitError{code: exitInterrupted, msg: "export stopped: nothing was written"}, j.Begin)
	if err != nil {
		return err
	}
	defer tx.Close()
	old, r, err := j.Change(tx)
	if err != nil {
		return usageErrorf("%v", err)
	}
	tell(r)
	if !r.Changed() {
		fmt.Fprintf(s.out, "nothing to change in %s: %s\n", shown, j.Summary(r, true))
		return nil
	}
	if err := j.Write(tx, old, r); err != nil {
		return usageErrorf("%v", err)
	}
	if err := j.Remember(r); err != nil && !opts.remove {
		fmt.Fprintf(s.err, "hookctl export: cannot keep the record of what export created (%v): --remove will take out the event lists and the hooks object it empties, even those you wrote\n", err)
	}
	fmt.Fprintf(s.out, "%s: %s\n", shown, j.Summary(r, true))
	if !opts.remove {
		fmt.Fprintf(s.out, "next: %s runs these hooks through hookctl run --from %s once hookctl is on its PATH; workspace hooks run once you trust them (hookctl trust %s)\n",
			opts.to.Title(), opts.to, shellcmd.Quote(opts.dir))
	}
	return nil
}
