package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/runtime/trust"
	"github.com/hookctl/hookctl/scaffold"
	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/scope"
	"github.com/hookctl/hookctl/schema/shellcmd"
)

// trustOptions are the answers of the trust command's flags.
type trustOptions struct {
	dir                     string
	revoke, list, diff, yes bool
	store                   string
	now                     func() time.Time
	// confirm asks the person whether to trust; nil asks on the terminal,
	// or refuses without one.
	confirm func(question string) (bool, error)
}

// newTrustCommand is hookctl trust. runF, when given, is called in place
// of trustRun.
func newTrustCommand(f *factory, runF func(*trustOptions) error) *cli.Command {
	s := f.streams
	return &cli.Command{
		Name:      "trust",
		Usage:     "let a workspace's hooks run, after showing what they run",
		ArgsUsage: "[DIR]",
		Description: "A workspace's .agents/hooks.json runs commands on your machine, so hookctl run\n" +
			"skips its hooks until you trust the workspace. This trust guards what hookctl runs:\n" +
			"hookctl run, and hookctl run --from (what hookctl export sets up for Claude Code,\n" +
			"Gemini CLI, Cursor and Codex). The agent (agy) loads .agents/hooks.json itself,\n" +
			"without hookctl: its own folder trust (~/.gemini/trustedFolders.json) decides that,\n" +
			"and hookctl doctor shows what it says of the workspace.\n\n" +
			"DIR is the workspace's root (the folder that holds .agents), by default the nearest\n" +
			"folder from here upward that holds .agents, else the git top level, else the\n" +
			"current folder.\n\n" +
			"Trust covers hooks.json, the code in the folder that holds it (scripts, modules,\n" +
			"executables; not the agent's skills, rules and workflows), every file the\n" +
			"commands run elsewhere in the workspace and what those scripts source, import or\n" +
			"require: changing any of them withdraws it, until you look at the change (--diff)\n" +
			"and trust again. What a command runs that cannot be known in advance (a program in\n" +
			"a variable, npm scripts, xargs sh) is shown as not covered, at its line.\n" +
			"On a terminal trust asks before trusting; --yes trusts without asking, and\n" +
			"without a terminal it is required.\n" +
			"Your own ~/.gemini/config/hooks.json and files named with --config always run.\n\n" +
			"The trusted workspaces are kept in $XDG_CONFIG_HOME/hookctl/trust.json\n" +
			"(~/.config/hookctl/trust.json by default).\n\n" +
			"Exit status: 0 done; 1 when you answer no; with --diff, 0 when nothing changed\n" +
			"and 1 when something did; 2 for a workspace without hooks.json, a trust store\n" +
			"that cannot be read, files others can write, or no terminal and no --yes.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "diff", Usage: "show what changed since the workspace was trusted, and trust nothing"},
			&cli.BoolFlag{Name: "list", Usage: "list the trusted workspaces and whether each still matches what was trusted"},
			&cli.BoolFlag{Name: "revoke", Usage: "stop trusting the workspace"},
			&cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "trust without asking (required without a terminal)"},
		},
		Before: func(c *cli.Context) error {
			// "hookctl trust help" is the help, as for every command; a
			// folder named help is trusted as ./help, which the note says.
			if c.Args().First() == "help" {
				if info, err := os.Stat("help"); err == nil && info.IsDir() {
					fmt.Fprintln(s.err, "hookctl: this is the help of hookctl trust; to trust the folder named help, run 'hookctl trust ./help'")
				}
			}
			return nil
		},
		Action: func(c *cli.Context) error {
			opts := &trustOptions{revoke: c.Bool("revoke"), list: c.Bool("list"), diff: c.Bool("diff"), yes: c.Bool("yes"), now: f.now}
			n := 0
			for _, name := range []string{"revoke", "list", "diff"} {
				if c.Bool(name) {
					n++
				}
			}
			if n > 1 {
				return usageErrorf("--revoke, --list and --diff go one at a time")
			}
			switch {
			case c.NArg() > 1:
				return usageErrorf("hookctl trust takes one workspace folder, not %d", c.NArg())
			case c.NArg() == 1 && opts.list:
				return usageErrorf("--list lists every trusted workspace: it takes no folder")
			case c.NArg() == 1:
				opts.dir = c.Args().First()
			default:
				found, err := scope.Here()
				if err != nil {
					return usageErrorf("%v", err)
				}
				opts.dir = found.Shown()
			}
			p, err := f.trustStore()
			if err != nil {
				return usageErrorf("%v", err)
			}
			opts.store = p
			if runF != nil {
				return runF(opts)
			}
			return trustRun(s, *opts)
		},
	}
}

func trustRun(s streams, opts trustOptions) error {
	if opts.list {
		return trustList(s, opts)
	}
	if opts.revoke {
		return trustRevoke(s, opts)
	}
	root, snap, err := trust.TakeDir(opts.dir)
	if err != nil {
		return usageErrorf("%v", err)
	}
	if opts.diff {
		store, err := trust.Open(opts.store)
		if err != nil {
			return usageErrorf("%v", err)
		}
		return trustDiff(s, store, snap)
	}
	if e := snap.Config.Syntax; e != nil && e.Bound {
		return usageErrorf("%s: %s\nso what it would run cannot be shown, and it is not trusted", snap.Config.Where(e.Pos), e.Msg)
	}
	if snap.Config.Syntax != nil {
		return usageErrorf("%s: %s\nhooks.json is not valid JSON, so what it would run cannot be shown; fix it (hookctl lint %s) and trust again",
			snap.Config.Where(snap.Config.Syntax.Pos), snap.Config.Syntax.Msg, root)
	}
	if err := trust.RefuseUnsafe(snap); err != nil {
		return usageErrorf("%v", err)
	}
	if snap.Refused != "" {
		if err := snap.WriteReview(s.out); err != nil {
			return err
		}
		return usageErrorf("%s cannot be trusted: %s", root, snap.Refused)
	}
	store, err := trust.Open(opts.store)
	if err != nil {
		return usageErrorf("%v", err)
	}
	prev := store.Workspaces[root]
	if prev != nil {
		store.Fill(prev)
	}
	d := trust.Compare(prev, snap)
	if d.Same() {
		trust.AddProbes(opts.store, root, snap)
		fmt.Fprintf(s.out, "%s is already trusted (since %s), and nothing has changed.\n", schema.Visible(root), schema.FormatTime(prev.TrustedAt))
		return nil
	}
	if err := snap.WriteReview(s.out); err != nil {
		return err
	}
	if prev != nil {
		fmt.Fprintf(s.out, "\nChanged since it was trusted on %s:\n", schema.FormatTime(prev.TrustedAt))
		if err := d.Write(s.out); err != nil {
			return err
		}
	}
	if !opts.yes {
		ok, err := askTrust(s, opts, root)
		if err != nil {
			return err
		}
		if !ok {
			return &exitError{code: exitFindings, msg: "nothing was trusted: " + root + "'s hooks do not run"}
		}
	}
	if err := trust.Grant(opts.store, root, snap, opts.now()); err != nil {
		return usageErrorf("%v", err)
	}
	fmt.Fprintf(s.out, "\nTrusted %s: its hooks will run. A change to any file above withdraws the trust;\n'hookctl trust --diff' then shows what changed.\n", schema.Visible(root))
	return nil
}

// askTrust asks the person, on the terminal, whether to trust what was
// shown. Without a terminal nobody can answer: that is exit status 2, and
// nothing is trusted.
func askTrust(s streams, opts trustOptions, root string) (bool, error) {
	question := "Trust " + root + " and let these hooks run?"
	if opts.confirm != nil {
		return opts.confirm(question)
	}
	in, inOK := s.in.(*os.File)
	out, outOK := s.out.(*os.File)
	if !inOK || !outOK || !fileIsTerminal(in) || !fileIsTerminal(out) {
		return false, usageErrorf("no terminal to ask on, so nothing was trusted: after reading the above, run 'hookctl trust --yes %s'", shellcmd.Quote(root))
	}
	fmt.Fprintln(s.out)
	p := &scaffold.SurveyPrompter{In: in, Out: out, Err: s.err}
	ok, err := p.Confirm(question, false)
	if errors.Is(err, scaffold.ErrInterrupted) {
		return false, nil
	}
	return ok, err
}

func trustDiff(s streams, store *trust.Store, snap *trust.Snapshot) error {
	rec := store.Workspaces[snap.Root]
	if rec != nil {
		store.Fill(rec)
	}
	d := trust.Compare(rec, snap)
	switch {
	case rec == nil:
		fmt.Fprintf(s.out, "%s has never been trusted; every file is new:\n", schema.Visible(snap.Root))
	case d.Same():
		fmt.Fprintf(s.out, "%s is as it was trusted on %s.\n", schema.Visible(snap.Root), schema.FormatTime(rec.TrustedAt))
		return nil
	default:
		fmt.Fprintf(s.out, "%s changed since it was trusted on %s:\n", schema.Visible(snap.Root), schema.FormatTime(rec.TrustedAt))
	}
	if err := d.Write(s.out); err != nil {
		return err
	}
	fmt.Fprintf(s.out, "\nRun 'hookctl trust %s' to trust it as it is now.\n", schema.Visible(snap.Root))
	return &exitError{code: exitFindings}
}

func trustList(s streams, opts trustOptions) error {
	store, err := trust.Open(opts.store)
	if err != nil {
		return usageErrorf("%v", err)
	}
	return store.WriteList(s.out)
}

func trustRevoke(s streams, opts trustOptions) error {
	root, was, err := trust.Revoke(opts.store, opts.dir)
	if err != nil {
		return usageErrorf("%v", err)
	}
	if !was {
		fmt.Fprintf(s.out, "%s was not trusted.\n", schema.Visible(root))
		return nil
	}
	fmt.Fprintf(s.out, "%s is no longer trusted: its hooks will not run.\n", schema.Visible(root))
	return nil
}

// trustChecker decides, for hookctl run and the other commands that load a
// workspace's hooks, whether a workspace file may run (trust.Checker).
func trustChecker() func(*runtime.Source) (bool, string) {
	return trust.Checker(trust.StoreOnce())
}

// dispatchTrust returns a dispatch's two trust checks, sharing one opening
// of the store: Options.Trusted and Options.NeverTrusted.
func dispatchTrust() (func(*runtime.Source) (bool, string), func(string) bool) {
	open := trust.StoreOnce()
	return trust.Checker(open), trust.NeverTrusted(open)
}

// warnUntrusted says on stderr, in one line, that the workspace file path
// is not trusted, before a command that runs its handlers all the same
// (hookctl test, test --contract) runs them: the person asked for it, but
// may not know that the code is a clone's nobody looked at. Nothing is said
// of a trusted workspace, nor of one without a hooks.json.
func warnUntrusted(s streams, path string) {
	cfg, err := schema.Load(path)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	ok, why := trustChecker()(&runtime.Source{Path: path, Exists: true, Config: cfg, Err: err})
	if ok {
		return
	}
	ws := filepath.Dir(filepath.Dir(path))
	fmt.Fprintf(s.err, "hookctl: the workspace %s is not trusted (%s): its handlers run all the same, as you asked; hookctl trust %s shows what they run\n",
		schema.Visible(ws), why, schema.Visible(shellcmd.Quote(ws)))
}
