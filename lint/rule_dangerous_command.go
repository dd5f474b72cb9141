package lint

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/hookctl/hookctl/internal/lazyre"
)

type dangerousCommand struct{ RuleBase }

func newDangerousCommand() Rule {
	return &dangerousCommand{newBase("dangerous-command", Warning,
		"a command that downloads and runs code (curl ... | sh) or deletes broadly (rm -rf ~)")}
}

var (
	downloaders = map[string]bool{"curl": true, "wget": true, "fetch": true, "aria2c": true}
	runners     = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "fish": true,
		"python": true, "python3": true, "node": true, "perl": true, "ruby": true, "php": true, "eval": true, "source": true, ".": true, "iex": true}
	// broadTargets are what rm -r must never be pointed at from a hook.
	broadTargets = map[string]string{
		"/": "the whole file system", "/*": "the whole file system", "~": "the home folder", "~/": "the home folder", "~/*": "the home folder",
		"$HOME": "the home folder", "${HOME}": "the home folder", "$HOME/": "the home folder", "$HOME/*": "the home folder", "${HOME}/*": "the home folder",
		".": "the folder handlers run in", "./": "the folder handlers run in", "*": "everything in the folder handlers run in", "./*": "everything in the folder handlers run in",
		"..": "the workspace", "../": "the workspace", "../*": "the workspace", ".git": "the repository's history",
	}
	downloadPipe = lazyre.New(`\b(curl|wget)\b[^|;&]*\|\s*(sudo\s+)?(ba|z|da|k)?sh\b`)
)

func (r *dangerousCommand) Check(f *File) {
	for _, h := range f.allHandlers() {
		c := f.command(h)
		if c == nil {
			continue
		}
		if c.simple {
			if len(c.argv) > 0 && program(c.argv[0]) == "rm" {
				if what, w := broadRemovalWords(c.argv); what != "" {
					r.report(f, f.strSpan(h.Command, w.from, w.to), "",
						"rm -r on %s: a hook runs on every matching call, unattended; delete only the paths the hook creates", what)
				}
			}
			continue
		}
		if c.file == nil {
			if loc := downloadPipe().FindStringIndex(c.src); loc != nil {
				r.report(f, f.strSpan(h.Command, loc[0], loc[1]), "", "this command downloads code and runs it: whoever controls the server runs commands on every machine that uses this hook; commit the script instead")
			}
			continue
		}
		var found bool
		syntax.Walk(c.file, func(n syntax.Node) bool {
			if found || n == nil {
				return !found
			}
			switch n := n.(type) {
			case *syntax.BinaryCmd:
				if (n.Op == syntax.Pipe || n.Op == syntax.PipeAll) && callsAny(n.X, downloaders) && firstCallIn(n.Y, runners) {
					r.report(f, f.strSpan(h.Command, int(n.Pos().Offset()), int(n.End().Offset())), "",
						"this command downloads code and runs it: whoever controls the server runs commands on every machine that uses this hook; commit the script instead")
					found = true
				}
			case *syntax.CallExpr:
				if len(n.Args) == 0 {
					break
				}
				name := path.Base(n.Args[0].Lit())
				if runners[name] && argsDownload(n) {
					r.report(f, f.strSpan(h.Command, int(n.Pos().Offset()), int(n.End().Offset())), "",
						"this command downloads code and runs it: whoever controls the server runs commands on every machine that uses this hook; commit the script instead")
					found = true
				}
				if name == "rm" {
					if what, w := broadRemoval(c.src, n); what != "" {
						r.report(f, f.strSpan(h.Command, int(w.Pos().Offset()), int(w.End().Offset())), "",
							"rm -r on %s: a hook runs on every matching call, unattended; delete only the paths the hook creates", what)
						found = true
					}
				}
			}
			return !found
		})
	}
}

// callsAny reports whether a statement runs any of the programs.
func callsAny(st *syntax.Stmt, names map[string]bool) bool {
	found := false
	syntax.Walk(st, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 && names[path.Base(c.Args[0].Lit())] {
			found = true
		}
		return !found
	})
	return found
}

// firstCallIn reports whether the statement's own command is one of the
// programs (sudo and env in front are seen through).
func firstCallIn(st *syntax.Stmt, names map[string]bool) bool {
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok {
		return false
	}
	for _, a := range c.Args {
		n := path.Base(a.Lit())
		if n == "sudo" || n == "env" || strings.HasPrefix(n, "-") {
			continue
		}
		return names[n]
	}
	return false
}

// argsDownload reports whether a call's arguments run a download's output:
// bash -c "$(curl ...)", bash <(curl ...), eval "$(wget -O- ...)".
func argsDownload(c *syntax.CallExpr) bool {
	found := false
	for _, a := range c.Args[1:] {
		syntax.Walk(a, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.CmdSubst:
				for _, st := range n.Stmts {
					found = found || callsAny(st, downloaders)
				}
			case *syntax.ProcSubst:
				for _, st := range n.Stmts {
					found = found || callsAny(st, downloaders)
				}
			}
			return !found
		})
	}
	return found
}

// broadRemoval returns what a recursive rm would wipe out, "" when its
// targets are specific.
func broadRemoval(src string, c *syntax.CallExpr) (string, *syntax.Word) {
	recursive := false
	for _, a := range c.Args[1:] {
		s := a.Lit()
		if s == "--recursive" || strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "--") && strings.ContainsAny(s, "rR") {
			recursive = true
		}
	}
	if !recursive {
		return "", nil
	}
	for _, a := range c.Args[1:] {
		raw := src[a.Pos().Offset():a.End().Offset()]
		raw = strings.Trim(raw, `"'`)
		if what, ok := broadTargets[raw]; ok {
			return what, a
		}
	}
	return "", nil
}

// broadRemovalWords is broadRemoval for a command of plain words.
func broadRemovalWords(argv []word) (string, word) {
	recursive := false
	for _, a := range argv[1:] {
		if a.text == "--recursive" || strings.HasPrefix(a.text, "-") && !strings.HasPrefix(a.text, "--") && strings.ContainsAny(a.text, "rR") {
			recursive = true
		}
	}
	if !recursive {
		return "", word{}
	}
	for _, a := range argv[1:] {
		if what, ok := broadTargets[a.text]; ok {
			return what, a
		}
	}
	return "", word{}
}
