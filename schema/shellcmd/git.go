package shellcmd

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// git runs what the configuration of the repository it finds says
// (core.fsmonitor, core.pager, aliases, hooks): "git status" in a folder
// that holds a repository a clone planted (HEAD, objects/, refs/ and a
// config, which git takes as a bare repository) runs the clone's code.
// git looks for the repository from the folder it starts in upward (git
// 2.39, setup.c, setup_git_directory_gently): in each folder, a .git
// entry, then the folder itself as a bare repository; GIT_DIR and
// --git-dir name it instead. A reader that knows where git starts can
// check those folders (Repo); a git whose folder or repository is known
// only when it runs is a Gap.

// Repo is where a call of git starts looking for its repository.
type Repo struct {
	// Dir is the folder, as Call.Dir is: joined, not cleaned.
	Dir string
	// Word is the word that names git.
	Word Word
	Call *Call
}

// Repos returns, for every call of git whose folder is known, where it
// looks for its repository; the others are gaps of Refs.
func (c *Command) Repos() []Repo {
	var out []Repo
	for _, call := range c.Calls {
		if r, ok, _ := gitStart(call); ok {
			out = append(out, r)
		}
	}
	return out
}

// gitStart reads a call of git: where it looks for its repository, or,
// when that is known only when it runs, the gap that says so. ok and gap
// are both false and nil for a call that runs no git.
func gitStart(call *Call) (r Repo, ok bool, gap *Gap) {
	args := call.Args
	i, implied := skipWrappers(args)
	if i >= len(args) || implied != "" || !args[i].Lit || path.Base(args[i].Text) != "git" {
		return Repo{}, false, nil
	}
	named := func(why string) (Repo, bool, *Gap) {
		return Repo{}, false, &Gap{Word: args[i], Why: "runs git " + why + ": the configuration of that repository (core.fsmonitor, aliases, hooks) may run programs, and what they run is not known", Code: true}
	}
	for _, a := range call.Assigns {
		if strings.HasPrefix(a, "GIT_") {
			return Repo{}, false, nil // named where the variable is set
		}
	}
	if g := gitSetting(args, i); g != nil {
		return Repo{}, false, g
	}
	dir := call.Dir
	for j := i + 1; j < len(args); j++ {
		a := args[j]
		if !a.Lit {
			return named("with an option known only when the command runs, which may name its repository")
		}
		t := a.Text
		switch {
		case t == "-C":
			if j+1 >= len(args) {
				return Repo{}, false, nil // git fails: no folder
			}
			j++
			c := args[j]
			switch {
			case !c.Lit:
				return named("in a folder known only when the command runs")
			case c.Text == "":
			case strings.HasPrefix(c.Text, "/"):
				dir = c.Text
			case dir != "":
				dir = dir + "/" + c.Text
			}
		case t == "--git-dir" || strings.HasPrefix(t, "--git-dir="):
			return named("on the repository --git-dir names")
		case t == "--exec-path" || strings.HasPrefix(t, "--exec-path="):
			if t == "--exec-path" {
				continue // prints the path
			}
			return named("with its commands taken from the folder --exec-path names")
		case t == "-c" || t == "--config-env" || t == "--namespace" || t == "--work-tree" || t == "--super-prefix" || t == "--list-cmds":
			j++
		case strings.HasPrefix(t, "-"):
		default:
			j = len(args) // the command: git's own options end
		}
	}
	if dir == "" {
		return named("in a folder known only when the command runs")
	}
	return Repo{Dir: dir, Word: args[i], Call: call}, true, nil
}

// declName returns the name a setting of export or declare given as one
// word assigns when its text starts with a literal NAME= ("Y=$Z",
// 'Y'=$Z).
func declName(w *syntax.Word) (string, bool) {
	if len(w.Parts) == 0 {
		return "", false
	}
	first := ""
	switch p := w.Parts[0].(type) {
	case *syntax.Lit:
		first = p.Value
	case *syntax.SglQuoted:
		first = p.Value
	case *syntax.DblQuoted:
		if len(p.Parts) > 0 {
			if l, ok := p.Parts[0].(*syntax.Lit); ok {
				first = l.Value
			}
		}
	}
	name, _, ok := strings.Cut(first, "=")
	if ns := names(name); !ok || len(ns) != 1 || ns[0] != name {
		return "", false
	}
	return name, true
}

// gitSetting returns the gap of a setting that git at args[i] is given
// by -c or --config-env and that may run a program, nil for none.
func gitSetting(args []Word, i int) *Gap {
	why := ", a setting that may run a program (an alias, core.pager, core.fsmonitor, a filter or a diff driver): what it runs is not known"
	for j := i + 1; j < len(args); j++ {
		t := args[j].Text
		switch {
		case !args[j].Lit:
			return nil // gitStart names it
		case t == "-C" || t == "--namespace" || t == "--work-tree" || t == "--super-prefix" || t == "--list-cmds":
			j++
		case t == "-c" || t == "--config-env" || strings.HasPrefix(t, "--config-env="):
			opt, v, eq := strings.Cut(t, "=")
			if !eq {
				if j+1 >= len(args) {
					return nil // git fails: no setting
				}
				j++
				if !args[j].Lit {
					return &Gap{Word: args[j], Why: "runs git with " + opt + " set to a value known only when the command runs" + why, Code: true}
				}
				v = args[j].Text
			}
			if key, _, _ := strings.Cut(v, "="); !gitQuietKey(key) {
				return &Gap{Word: args[j], Why: "runs git with " + opt + " " + key + why, Code: true}
			}
		case !strings.HasPrefix(t, "-"):
			return nil // the command: git's own options end
		}
	}
	return nil
}

// gitQuietKey reports whether a setting git -c gives runs no program
// whatever its value: the keys of output, identity and advice a hook sets
// for a stable output. Any other (alias.*, core.pager, core.fsmonitor,
// core.sshCommand, filter.*, diff.*.textconv, include.path, ...) is named.
func gitQuietKey(key string) bool {
	k := strings.ToLower(key)
	for _, p := range []string{"color.", "user.", "advice.", "i18n.", "column.", "log.", "status."} {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	switch k {
	case "core.quotepath", "core.autocrlf", "core.safecrlf", "core.abbrev", "core.precomposeunicode", "safe.directory",
		"init.defaultbranch", "commit.gpgsign", "tag.gpgsign", "gc.auto", "maintenance.auto", "diff.noprefix",
		"diff.renames", "diff.mnemonicprefix", "pull.rebase", "pager.status", "pager.log", "pager.diff", "pager.branch":
		return true
	}
	return false
}

// setsCodeVar returns the variable among codeVar's that a statement sets
// for the commands after it (PATH=bin, export GIT_DIR=x, read PATH), "*"
// for one export or declare names only when it runs (export "$k=$v",
// export $(cat f)), which may be any, "" for none; a call's own NAME=value is the call's
// (classify).
func setsCodeVar(s *syntax.Stmt) string {
	var names []string
	switch x := s.Cmd.(type) {
	case *syntax.CallExpr:
		if len(x.Args) == 0 {
			for _, a := range x.Assigns {
				if a.Name != nil {
					names = append(names, a.Name.Value)
				}
			}
		} else if setters()[callName(x)] {
			names = assignedBy(x, nil)
		}
	case *syntax.DeclClause:
		for _, a := range x.Args {
			if a.Name == nil && a.Value != nil {
				if n, ok := declName(a.Value); ok {
					names = append(names, n) // export "Y=$Z"
					continue
				}
			}
			for _, n := range assignedBy(a, nil) {
				if n == "*" && a.Name == nil && a.Value != nil && !strings.HasPrefix(a.Value.Lit(), "-") {
					// export "$k=$v", export $(cat f): a setting, not an
					// option, whose name is known only when it runs.
					return n
				}
				names = append(names, n)
			}
		}
	}
	for _, n := range names {
		if codeVar(n) {
			return n
		}
	}
	return ""
}
