package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/runtime/trust"
	"github.com/hookctl/hookctl/schema"
)

// trustOptions are the answers of the trust command's flags.
type trustOptions struct {
	dir                string
	revoke, list, diff bool
	store              string
	now                func() time.Time
}

func init() { register(60, trustCommand) }

func trustCommand(s streams) *cli.Command {
	return &cli.Command{
		Name:      "trust",
		Usage:     "let a workspace's hooks run, after showing what they run",
		ArgsUsage: "[DIR]",
		Description: "A workspace's .agents/hooks.json runs commands on your machine, so hookctl run\n" +
			"skips its hooks until you trust the workspace. DIR is the workspace's root (the\n" +
			"folder that holds .agents), by default the current folder.\n\n" +
			"Trust covers hooks.json and every file its commands name inside the workspace\n" +
			"(the program a command runs, the script it hands to an interpreter): changing\n" +
			"any of them withdraws it, until you look at the change (--diff) and trust again.\n" +
			"Your own ~/.gemini/config/hooks.json and files named with --config always run.\n\n" +
			"The trusted workspaces are kept in $XDG_CONFIG_HOME/hookctl/trust.json\n" +
			"(~/.config/hookctl/trust.json by default).\n\n" +
			"Exit status: 0 done; with --diff, 0 when nothing changed and 1 when something\n" +
			"did; 2 for a workspace without hooks.json or a trust store that cannot be read.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "diff", Usage: "show what changed since the workspace was trusted, and trust nothing"},
			&cli.BoolFlag{Name: "list", Usage: "list the trusted workspaces and whether each still matches what was trusted"},
			&cli.BoolFlag{Name: "revoke", Usage: "stop trusting the workspace"},
		},
		Action: func(c *cli.Context) error {
			opts := trustOptions{revoke: c.Bool("revoke"), list: c.Bool("list"), diff: c.Bool("diff"), now: time.Now}
			n := 0
			for _, f := range []string{"revoke", "list", "diff"} {
				if c.Bool(f) {
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
				opts.dir = "."
			}
			p, err := trust.DefaultPath()
			if err != nil {
				return usageErrorf("%v", err)
			}
			opts.store = p
			return trustRun(s, opts)
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
	root, snap, err := workspaceSnapshot(opts.dir)
	if err != nil {
		return err
	}
	if opts.diff {
		store, err := trust.Open(opts.store)
		if err != nil {
			return usageErrorf("%v", err)
		}
		return trustDiff(s, store, snap)
	}
	if snap.Config.Syntax != nil {
		return usageErrorf("%s: %s\nhooks.json is not valid JSON, so what it would run cannot be shown; fix it (hookctl lint %s) and trust again",
			snap.Config.Where(snap.Config.Syntax.Pos), snap.Config.Syntax.Msg, root)
	}
	if err := unsafeFiles(snap); err != nil {
		return err
	}
	unlock, err := trust.Lock(opts.store)
	if err != nil {
		return usageErrorf("%v", err)
	}
	defer unlock()
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
		fmt.Fprintf(s.out, "%s is already trusted (since %s), and nothing has changed.\n", root, formatTime(prev.TrustedAt))
		return nil
	}
	showSnapshot(s.out, snap)
	if prev != nil {
		fmt.Fprintf(s.out, "\nChanged since it was trusted on %s:\n", formatTime(prev.TrustedAt))
		if err := d.Write(s.out); err != nil {
			return err
		}
	}
	store.Workspaces[root] = trust.NewRecord(snap, opts.now())
	if err := store.Save(); err != nil {
		return usageErrorf("%v", err)
	}
	fmt.Fprintf(s.out, "\nTrusted %s: its hooks will run. A change to any file above withdraws the trust;\n'hookctl trust --diff' then shows what changed.\n", root)
	return nil
}

// workspaceSnapshot finds the workspace rooted at dir and reads it.
func workspaceSnapshot(dir string) (string, *trust.Snapshot, error) {
	info, err := os.Stat(dir)
	if err != nil {
		return "", nil, usageErrorf("%v", pathErr(dir, err))
	}
	if !info.IsDir() {
		hint := ""
		if filepath.Base(dir) == "hooks.json" {
			hint = fmt.Sprintf(": name the workspace's root, the folder that holds .agents (hookctl trust %s)", filepath.Dir(filepath.Dir(dir)))
		}
		return "", nil, usageErrorf("%s is not a folder%s", dir, hint)
	}
	root, err := trust.Key(dir)
	if err != nil {
		return "", nil, usageErrorf("%v", pathErr(dir, err))
	}
	snap, err := trust.Take(root)
	if errors.Is(err, trust.ErrNoHooks) {
		return "", nil, usageErrorf("%s has no %s: there is nothing to trust", root, trust.HooksFile)
	}
	if err != nil {
		return "", nil, usageErrorf("%v", unwrapPathErr(err))
	}
	return root, snap, nil
}

// pathErr words an error about path, naming the path once.
func pathErr(path string, err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %v", pe.Path, pe.Err)
	}
	return fmt.Errorf("%s: %v", path, err)
}

func unwrapPathErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %v", pe.Path, pe.Err)
	}
	return err
}

// showSnapshot prints what trusting the workspace lets run: each handler's
// command, and each file the trust covers.
func showSnapshot(w io.Writer, snap *trust.Snapshot) {
	cfg := snap.Config
	fmt.Fprintf(w, "Workspace %s\n", snap.Root)
	if len(snap.Commands) == 0 {
		fmt.Fprintf(w, "%s defines no handlers.\n", trust.HooksFile)
	} else {
		fmt.Fprintf(w, "Its hooks run these commands, in %s:\n", filepath.Join(snap.Root, ".agents"))
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, c := range snap.Commands {
			on := string(c.Event)
			if c.Event.IsTool() {
				m := c.Matcher
				if m == "" {
					m = "*"
				}
				on += " " + m
			}
			state := ""
			if h := hookByName(cfg, c.Hook); h != nil && !h.IsEnabled() {
				state = " (disabled)"
			}
			fmt.Fprintf(tw, "  %s\t%s:%d\t%s\t%s%s\n", c.Hook, trust.HooksFile, c.Pos.Line, on, oneLine(c.Command), state)
		}
		tw.Flush()
	}
	fmt.Fprintf(w, "Files covered:\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, f := range snap.Files {
		switch f.State {
		case trust.Present:
			fmt.Fprintf(tw, "  %s\t%d bytes\tsha256 %s\n", f.Path, f.Size, f.SHA256[:16])
		case trust.Missing:
			fmt.Fprintf(tw, "  %s\tnot there\tcreating it withdraws the trust\n", f.Path)
		default:
			fmt.Fprintf(tw, "  %s\t%s\t\n", f.Path, f.State)
		}
	}
	tw.Flush()
	var outside []string
	seen := map[string]bool{}
	for _, c := range snap.Commands {
		for _, o := range c.Outside {
			if !seen[o] {
				seen[o] = true
				outside = append(outside, o)
			}
		}
	}
	if len(outside) > 0 {
		sort.Strings(outside)
		fmt.Fprintf(w, "Named outside the workspace (not covered: a clone cannot change them): %s\n", strings.Join(outside, ", "))
	}
	if n := len(cfg.Problems); n > 0 {
		fmt.Fprintf(w, "hooks.json has %d part(s) that cannot run; 'hookctl lint %s' shows them.\n", n, snap.Root)
	}
}

func hookByName(cfg *schema.Config, name string) *schema.HookDefinition {
	if cfg.File == nil {
		return nil
	}
	for _, h := range cfg.File.Hooks {
		if h.Name == name {
			return h
		}
	}
	return nil
}

// oneLine shows a command on one line: a multi-line script's newlines as
// "\n".
func oneLine(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r", `\r`), "\n", `\n`)
}

func trustDiff(s streams, store *trust.Store, snap *trust.Snapshot) error {
	rec := store.Workspaces[snap.Root]
	if rec != nil {
		store.Fill(rec)
	}
	d := trust.Compare(rec, snap)
	switch {
	case rec == nil:
		fmt.Fprintf(s.out, "%s has never been trusted; every file is new:\n", snap.Root)
	case d.Same():
		fmt.Fprintf(s.out, "%s is as it was trusted on %s.\n", snap.Root, formatTime(rec.TrustedAt))
		return nil
	default:
		fmt.Fprintf(s.out, "%s changed since it was trusted on %s:\n", snap.Root, formatTime(rec.TrustedAt))
	}
	if err := d.Write(s.out); err != nil {
		return err
	}
	fmt.Fprintf(s.out, "\nRun 'hookctl trust %s' to trust it as it is now.\n", snap.Root)
	return &exitError{code: exitFindings}
}

func trustList(s streams, opts trustOptions) error {
	store, err := trust.Open(opts.store)
	if err != nil {
		return usageErrorf("%v", err)
	}
	if len(store.Workspaces) == 0 {
		fmt.Fprintln(s.out, "No workspace is trusted.")
		return nil
	}
	roots := make([]string, 0, len(store.Workspaces))
	for r := range store.Workspaces {
		roots = append(roots, r)
	}
	sort.Strings(roots)
	tw := tabwriter.NewWriter(s.out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "WORKSPACE\tTRUSTED\tNOW")
	for _, r := range roots {
		rec := store.Workspaces[r]
		now := "matches"
		snap, err := trust.Take(r)
		switch {
		case errors.Is(err, trust.ErrNoHooks):
			now = "gone: no " + trust.HooksFile
		case err != nil:
			now = "unreadable: " + unwrapPathErr(err).Error()
		default:
			if d := trust.Compare(rec, snap); !d.Same() {
				// The summary names each change: "changed FILE, added FILE".
				now = d.Summary()
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", r, formatTime(rec.TrustedAt), now)
	}
	return tw.Flush()
}

func trustRevoke(s streams, opts trustOptions) error {
	root, err := trust.Key(opts.dir)
	if err != nil {
		// A workspace deleted since it was trusted can still be revoked
		// by the path it had.
		abs, aerr := filepath.Abs(opts.dir)
		if aerr != nil {
			return usageErrorf("%s: %v", opts.dir, aerr)
		}
		root = abs
	}
	unlock, err := trust.Lock(opts.store)
	if err != nil {
		return usageErrorf("%v", err)
	}
	defer unlock()
	store, err := trust.Open(opts.store)
	if err != nil {
		return usageErrorf("%v", err)
	}
	if store.Workspaces[root] == nil {
		fmt.Fprintf(s.out, "%s was not trusted.\n", root)
		return nil
	}
	delete(store.Workspaces, root)
	if err := store.Save(); err != nil {
		return usageErrorf("%v", err)
	}
	fmt.Fprintf(s.out, "%s is no longer trusted: its hooks will not run.\n", root)
	return nil
}

// trustChecker decides, for hookctl run and the other commands that load a
// workspace's hooks, whether a workspace file may run: it must match what
// the user trusted. A store that cannot be read trusts nothing, and says
// why.
func trustChecker() func(*runtime.Source) (bool, string) {
	var (
		store   *trust.Store
		openErr error
		opened  bool
	)
	return func(src *runtime.Source) (bool, string) {
		if !opened {
			opened = true
			p, err := trust.DefaultPath()
			if err != nil {
				openErr = err
			} else {
				store, openErr = trust.Open(p)
			}
		}
		if openErr != nil {
			return false, openErr.Error()
		}
		root, err := trust.Key(filepath.Dir(filepath.Dir(src.Path)))
		if err != nil {
			return false, err.Error()
		}
		if src.Config == nil {
			// A trusted workspace whose file cannot be read reports the
			// failure (a gate fails closed); a workspace never trusted
			// cannot make every tool call fail by shipping a broken file.
			if store.Workspaces[root] != nil {
				return true, ""
			}
			if src.Err != nil {
				return false, "never trusted, and " + src.Err.Error()
			}
			return false, "never trusted"
		}
		return store.Check(trust.FromConfig(root, src.Config))
	}
}

// unsafeFiles refuses to trust files that group or others can write:
// hookctl run would refuse them anyway, and anyone on the machine could
// change them after the user looked.
func unsafeFiles(snap *trust.Snapshot) error {
	for _, f := range snap.Files {
		if f.State != trust.Present {
			continue
		}
		p := filepath.Join(snap.Root, filepath.FromSlash(f.Path))
		info, err := os.Stat(p)
		if err != nil {
			continue
		}
		if m := info.Mode().Perm(); m&0o022 != 0 {
			return usageErrorf("refusing to trust %s: %s is writable by group or others (mode %04o), so anyone on this machine could change it after you looked; run chmod go-w %s", snap.Root, f.Path, m, p)
		}
	}
	return nil
}
