package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/hookctl/hookctl/internal/linediff"
	"github.com/hookctl/hookctl/runtime/adapter"
	"github.com/hookctl/hookctl/scaffold"
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
	dir, err := filepath.Abs(opts.dir)
	if err != nil {
		return usageErrorf("%v", err)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return usageErrorf("%s: no such folder", opts.dir)
	}
	var events []schema.Event
	if !opts.remove {
		if events, err = export.WorkspaceEvents(scope.WorkspaceFile(dir), filepath.Join(opts.dir, ".agents", "hooks.json")); err != nil {
			return usageErrorf("%v", err)
		}
		if len(events) == 0 {
			fmt.Fprintf(s.out, "nothing to export: %s has no enabled hook\n", filepath.Join(opts.dir, ".agents", "hooks.json"))
			return nil
		}
	}
	path := filepath.Join(dir, export.SettingsFile(opts.to))
	shown := filepath.Join(opts.dir, export.SettingsFile(opts.to))
	bounds, err := scaffold.NewBounds(scaffold.Workspace, dir, opts.home)
	if err != nil {
		return usageErrorf("%v", err)
	}
	real, err := bounds.Check(path)
	if err != nil {
		var oe *scaffold.OutsideError
		if errors.As(err, &oe) && !oe.User {
			return usageErrorf("refusing to write %s: it leads out of the workspace %s, to %s; export writes only inside the workspace", shown, oe.Root, oe.Real)
		}
		return usageErrorf("%v", err)
	}
	// The record of what export created in the file: read under the lock
	// once the file is locked, written after the file.
	mem := export.Remember(opts.getenv, real)
	// A removal without a record empties what it must and says so.
	tellUnrecorded := func(r *export.Result) {
		if opts.remove && mem.Record == nil && len(r.Removed) > 0 {
			fmt.Fprintf(s.err, "hookctl export: %s: the event lists and the hooks object left empty go too\n", mem.Unrecorded)
		}
	}
	compute := func(old []byte) (*export.Result, error) {
		var r *export.Result
		var err error
		if opts.remove {
			r, err = export.Remove(opts.to, old, mem.Record)
		} else {
			var imported []export.Imported
			imported, err = export.FindImported(opts.to, path, old, scope.WorkspaceFile(dir), dir, adapter.Literal)
			if err == nil {
				r, err = export.AddWith(opts.to, old, events, export.AddOptions{OnError: opts.onError, Imported: imported, ReplaceImported: opts.replaceImported})
			}
		}
		var ee *export.Error
		if errors.As(err, &ee) {
			if ee.Line > 0 {
				return nil, usageErrorf("%s:%d:%d: %s", shown, ee.Line, ee.Col, ee.Msg)
			}
			return nil, usageErrorf("%s: %s", shown, ee.Msg)
		}
		return r, err
	}

	if !opts.write {
		old, err := scaffold.ReadRegular(path)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return usageErrorf("%v", err)
		}
		mem.Load()
		r, err := compute(old)
		if err != nil {
			return err
		}
		exportNotes(s, r)
		tellUnrecorded(r)
		if !r.Changed() {
			fmt.Fprintf(s.out, "nothing to change in %s: %s\n", shown, exportSummary(opts, r))
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
			fmt.Fprintf(s.err, "hookctl export: %s is not up to date: %s (hookctl export --to %s --write writes it)\n", shown, exportSummary(opts, r), opts.to)
			return &exitError{code: exitFindings}
		}
		fmt.Fprintf(s.err, "hookctl export: %s; run again with --write to write it\n", exportSummary(opts, r))
		return nil
	}

	ctx, stop := stopOnSignal()
	defer stop()
	waited := noticeWait(s, filepath.Dir(path))
	tx, err := bounds.Begin(ctx, filepath.Dir(path))
	waited()
	if ctx.Err() != nil {
		return &exitError{code: exitInterrupted, msg: "export stopped: nothing was written"}
	}
	if err != nil {
		return usageErrorf("%v", err)
	}
	defer tx.Close()
	afterBegin(s, tx)
	old, err := tx.ReadFile(path)
	if err != nil {
		return usageErrorf("%v", err)
	}
	mem.Load()
	r, err := compute(old)
	if err != nil {
		return err
	}
	exportNotes(s, r)
	tellUnrecorded(r)
	if !r.Changed() {
		fmt.Fprintf(s.out, "nothing to change in %s: %s\n", shown, exportSummary(opts, r))
		return nil
	}
	if err := tx.Write(scaffold.Edit{Path: path, Old: old, New: r.New, Perm: 0o644}); err != nil {
		return usageErrorf("%v", scaffold.Rollback(tx, err))
	}
	tx.Commit()
	if err := mem.After(opts.to, opts.remove, r); err != nil && !opts.remove {
		fmt.Fprintf(s.err, "hookctl export: cannot keep the record of what export created (%v): --remove will take out the event lists and the hooks object it empties, even those you wrote\n", err)
	}
	fmt.Fprintf(s.out, "%s: %s\n", shown, exportSummary(opts, r))
	if !opts.remove {
		fmt.Fprintf(s.out, "next: %s runs these hooks through hookctl run --from %s once hookctl is on its PATH; workspace hooks run once you trust them (hookctl trust %s)\n",
			opts.to.Title(), opts.to, shellcmd.Quote(opts.dir))
	}
	return nil
}

func exportNotes(s streams, r *export.Result) {
	for _, n := range r.Notes {
		fmt.Fprintf(s.err, "hookctl export: %s\n", n)
	}
}

func exportSummary(opts exportOptions, r *export.Result) string {
	var parts []string
	verb := "adds"
	if opts.write {
		verb = "added"
	}
	if len(r.Added) > 0 {
		parts = append(parts, fmt.Sprintf("%s %s", verb, strings.Join(r.Added, ", ")))
	}
	if len(r.Updated) > 0 {
		parts = append(parts, fmt.Sprintf("%s the failure policy of %s", map[bool]string{true: "changed", false: "changes"}[opts.write], strings.Join(r.Updated, ", ")))
	}
	if len(r.Present) > 0 {
		parts = append(parts, fmt.Sprintf("%s already there", strings.Join(r.Present, ", ")))
	}
	if len(r.Replaced) > 0 {
		var at []string
		for _, im := range r.Replaced {
			at = append(at, fmt.Sprintf("%s at line %d", im.Event, im.Line))
		}
		parts = append(parts, fmt.Sprintf("%s the imported %s", map[bool]string{true: "took out", false: "takes out"}[opts.write], strings.Join(at, ", ")))
	}
	if len(r.Skipped) > 0 {
		parts = append(parts, fmt.Sprintf("%s not wired (the settings run its hooks already)", strings.Join(r.Skipped, ", ")))
	}
	if opts.remove {
		verb = "removes"
		if opts.write {
			verb = "removed"
		}
		if len(r.Removed) > 0 {
			parts = append(parts, fmt.Sprintf("%s the entries of %s", verb, strings.Join(r.Removed, ", ")))
		} else {
			parts = append(parts, "no entry of hookctl export's is there")
		}
	}
	return strings.Join(parts, "; ")
}
