package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/hookctl/hookctl/lint"
	"github.com/hookctl/hookctl/runtime/adapter"
	"github.com/hookctl/hookctl/scaffold"
	"github.com/hookctl/hookctl/scaffold/convert"
	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/scope"
	"github.com/hookctl/hookctl/schema/shellcmd"
)

// importOptions are the answers of the import command's flags.
type importOptions struct {
	from  schema.Agent
	file  string
	write bool
	dir   string
	scope string
	home  string
	// noAdapt keeps the commands of handlers written for the other agent
	// as they are, with warnings.
	noAdapt bool
}

// newImportCommand is hookctl import. runF, when given, is called in place
// of importRun.
func newImportCommand(f *factory, runF func(*importOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "import",
		Usage:     "convert Claude Code, Gemini CLI, Cursor or Codex hooks into hooks.json",
		ArgsUsage: "[FILE]",
		Description: "FILE is another agent's hook configuration: .claude/settings.json, a Claude\n" +
			"Code plugin's hooks/hooks.json, .gemini/settings.json, .cursor/hooks.json or\n" +
			".codex/hooks.json, or a hooks.json that holds one of them. Without FILE,\n" +
			"import looks for those files in --dir, and for a .agents/hooks.json that\n" +
			"holds another agent's configuration. The agent is recognised from the\n" +
			"file's place and content unless --from names it.\n\n" +
			"The converted hooks.json goes to stdout, and the report to stderr: with its\n" +
			"line and column, everything that could not be carried over (events with no\n" +
			"equivalent, prompt handlers, scripts that read the other agent's payload) and\n" +
			"what changed. A handler that reads the other agent's payload or answers in its\n" +
			"way runs through hookctl adapt --from AGENT --event EVENT --, which serves it as\n" +
			"that agent would (--no-adapt keeps its command as it is); a fixed answer it\n" +
			"prints (echo '{...}') becomes this format's. With --write the hooks are added\n" +
			"to .agents/hooks.json under\n" +
			"--dir (or the user's file with --scope user), keeping every byte of it and\n" +
			"never replacing a hook of the same name.\n\n" +
			"Exit status: 0 converted (even with items in the report), 2 a FILE that\n" +
			"cannot be read or is no hook configuration hookctl knows.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "from", Usage: "the `AGENT` whose configuration FILE is: claude, gemini, cursor or codex (default: recognised)"},
			&cli.BoolFlag{Name: "write", Aliases: []string{"w"}, Usage: "add the hooks to the hooks.json instead of printing them"},
			&cli.StringFlag{Name: "dir", Usage: "the workspace root `DIR`, whose .agents/hooks.json the hooks are for (default: the nearest folder from here upward that holds .agents, else the git top level, else the current folder)"},
			&cli.StringFlag{Name: "scope", Value: scaffold.Workspace, Usage: "the hooks.json the hooks are for, by `SCOPE`: workspace (DIR/.agents/hooks.json) or user (~/.gemini/config/hooks.json)"},
			&cli.BoolFlag{Name: "no-adapt", Usage: "keep the commands of handlers that read the other agent's payload or answer in its way as they are (with a warning), instead of running them through hookctl adapt"},
		},
		Action: func(c *cli.Context) error {
			opts := &importOptions{write: c.Bool("write"), dir: c.String("dir"), scope: c.String("scope"), noAdapt: c.Bool("no-adapt")}
			if opts.dir == "" {
				found, err := scope.Here()
				if err != nil {
					return usageErrorf("%v", err)
				}
				opts.dir = found.Shown()
			}
			if v := c.String("from"); v != "" {
				a, err := schema.ParseAgent("--from", v)
				if err != nil {
					return usageErrorf("%v", err)
				}
				opts.from = a
			}
			switch c.NArg() {
			case 0:
			case 1:
				opts.file = c.Args().First()
			default:
				return usageErrorf("hookctl import takes one FILE, not %d: import them one at a time", c.NArg())
			}
			if opts.scope != scaffold.Workspace && opts.scope != scaffold.User {
				return usageErrorf("--scope must be workspace or user, not %q", opts.scope)
			}
			home, err := f.homeDir()
			if err != nil && opts.scope == scaffold.User {
				return usageErrorf("--scope user needs a home folder: %v", err)
			}
			opts.home = home
			if runF != nil {
				return runF(opts)
			}
			return importRun(f, opts)
		},
	}
}

// importRun converts the configuration opts names, and prints or adds
// the hooks.
func importRun(f *factory, opts *importOptions) error {
	s := f.streams
	dir, err := filepath.Abs(opts.dir)
	if err != nil {
		return usageErrorf("--dir: %v", err)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return usageErrorf("--dir %s: no such folder", opts.dir)
	}
	if opts.file == "" {
		f, err := convert.Find(opts.dir, dir)
		if err != nil {
			return usageErrorf("%v", err)
		}
		opts.file = f
	}
	// The file named on the command line starts from the working folder.
	wd, _ := os.Getwd()
	src, err := convert.Read(wd, opts.file, opts.from)
	if err != nil {
		return usageErrorf("%v", err)
	}
	target := scaffold.ConfigPath(opts.scope, dir, opts.home)
	root := dir
	if opts.scope == scaffold.User {
		root = ""
	}
	bounds, err := scaffold.NewBounds(opts.scope, dir, opts.home)
	if err != nil {
		return usageErrorf("%v", err)
	}
	if opts.write {
		// Before the report, so that a refusal is the last word.
		if _, err := bounds.Check(target); err != nil {
			return usageErrorf("%v", err)
		}
	}
	res := convert.Convert(src, convert.Options{Target: target, Root: root, Adapt: !opts.noAdapt, Answer: adapter.Literal})
	if _, err := res.Report.WriteTo(s.err); err != nil {
		return err
	}
	if !opts.write {
		fmt.Fprintf(s.err, "hookctl import: %s\n", res.Summary())
		_, err := s.out.Write(res.JSON())
		return err
	}
	// The target is read and written under the lock of its folder, so that
	// another import or init at the same time cannot lose these hooks, nor
	// these theirs.
	// A signal stops import between its writes, never in the middle of
	// them, and what was written is undone.
	ctx, stop := stopOnSignal()
	defer stop()
	stopped := &exitError{code: exitInterrupted, msg: "import stopped: nothing was written"}
	tx, err := beginEdit(s, ctx, filepath.Dir(target), stopped,
		func(ctx context.Context) (*scaffold.Tx, error) { return bounds.Begin(ctx, filepath.Dir(target)) })
	if err != nil {
		return err
	}
	defer tx.Close()
	merged, err := res.MergeUnder(tx, target)
	if err != nil {
		return usageErrorf("%v", err)
	}
	// The workspace's folder may be named with escape sequences.
	shown := schema.Visible(displayTarget(f, target))
	for _, r := range merged.Unchanged {
		fmt.Fprintf(s.err, "%s:%d:%d: note: the hook %q is already there as converted: left as it is\n", shown, r.Pos.Line, r.Pos.Col, r.From)
	}
	for _, r := range merged.Renamed {
		fmt.Fprintf(s.err, "%s:%d:%d: note: a hook named %q is already there: the imported one is named %q\n", shown, r.Pos.Line, r.Pos.Col, r.From, r.To)
	}
	if merged.Added == 0 {
		fmt.Fprintf(s.err, "hookctl import: %s\n", res.Summary())
		if len(res.Hooks) == 0 {
			fmt.Fprintf(s.out, "nothing to write: no hook could be carried over, so %s is unchanged\n", shown)
		} else {
			fmt.Fprintf(s.out, "nothing to write: %s already has every hook, so it is unchanged\n", shown)
		}
		return nil
	}
	if err := merged.Write(tx); err != nil {
		return usageErrorf("%v", err)
	}
	if ctx.Err() != nil {
		return stopped
	}
	tx.Commit()
	tx.Close()
	fmt.Fprintf(s.err, "hookctl import: %s\n", res.Summary())
	switch {
	case merged.Replaced:
		fmt.Fprintf(s.out, "replaced %s with its %s in this format\n", shown, schema.Plural(len(res.Hooks), "hook"))
		fmt.Fprintf(s.out, "the original is kept in %s\n", filepath.Join(filepath.Dir(shown), filepath.Base(merged.Backup)))
	case merged.Created:
		fmt.Fprintf(s.out, "wrote %s to %s\n", schema.Plural(len(res.Hooks), "hook"), shown)
	default:
		fmt.Fprintf(s.out, "added %s to %s\n", schema.Plural(merged.Added, "hook"), shown)
	}
	return importLint(s, target, shown, *opts)
}

// importLint lints the written file, so that what the report could not
// settle shows up at once.
func importLint(s streams, target, shown string, opts importOptions) error {
	tg := lint.TargetOf(target, opts.home)
	tg.Name = shown
	findings := lint.LintSource(tg, mustRead(target))
	if sev, _ := lint.Max(findings); len(findings) == 0 || sev == lint.Info {
		fmt.Fprintf(s.out, "hookctl lint finds nothing to fix in %s\n", shown)
		for _, f := range findings {
			fmt.Fprintf(s.out, "  %s\n", f)
		}
	} else {
		fmt.Fprintf(s.out, "hookctl lint %s finds %s:\n", shown, schema.Plural(len(findings), "thing"))
		for _, f := range findings {
			fmt.Fprintf(s.out, "  %s\n", f)
		}
	}
	if opts.scope == scaffold.Workspace {
		// Workspace hooks run only once the workspace is trusted; what was
		// imported is for the user to review first, so import trusts nothing.
		fmt.Fprintf(s.out, "next: review the hooks and the report, try them with hookctl run, then hookctl trust %s\n", schema.Visible(shellcmd.Quote(opts.dir)))
	}
	return nil
}

func mustRead(path string) []byte {
	b, _ := schema.ReadFile(path, schema.MaxFileSize)
	return b
}

// displayTarget names the target file for messages: relative to the
// current folder when it is inside it.
func displayTarget(f *factory, target string) string {
	if wd, err := f.getwd(); err == nil {
		if rel, err := filepath.Rel(wd, target); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return target
}
