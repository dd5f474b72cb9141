package shellcmd

import (
	"os"
	"path"
	"slices"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"github.com/hookctl/hookctl/internal/lazyre"
)

// Role says how a command uses a file it names.
type Role uint8

// The roles of a file in a command.
const (
	// Program: the program a call runs, named by a path ("./hooks/x.sh").
	Program Role = iota
	// Script: the file an interpreter runs ("python3 hooks/x.py", "sh <
	// x.sh", ". ./lib.sh").
	Script
	// Module: a file an interpreter finds from its name ("python3 -m
	// hooks.gate", "node hooks/gate" for hooks/gate.js); Alternatives
	// lists every file it may be.
	Module
	// Code: a file whose content the command hands a shell as code ("sh
	// -c "$(cat x)"").
	Code
	// Arg: another argument that names a file by a path or a script's
	// extension.
	Arg
)

func (r Role) String() string {
	switch r {
	case Program:
		return "program"
	case Script:
		return "script"
	case Module:
		return "module"
	case Code:
		return "code"
	}
	return "argument"
}

// Runs reports whether the file's content is what runs: a program, a
// script, a module or code, not a mere argument.
func (r Role) Runs() bool { return r != Arg }

// Ref is a file a command names.
type Ref struct {
	// Path is the file as the call sees it: the word when absolute, else
	// the call's folder and the word joined without cleaning ("dir/../x"),
	// so that Resolve follows links as the kernel does.
	Path string
	// Alternatives are the other files a Module may be, in the order the
	// interpreter tries them, Path first.
	Alternatives []string
	// Word is the word that names the file.
	Word Word
	Role Role
	// Interpreter is the program that reads a Script, Module or Code
	// ("python3", "sh"), "" for a Program.
	Interpreter string
	// Call is the call the word belongs to.
	Call *Call
	// Process is set for a path of the process that opens it
	// (/dev/stdin, /dev/fd/3, /proc/self/environ) whose file the command
	// does not name: it is never looked up, and a gap of the same word
	// names what runs. A reader that checks files (lint) still sees it;
	// one that covers them (trust) leaves it to the gap.
	Process bool
}

// Refs returns the files the command names, in the order they stand, and
// what it runs that cannot be pinned down. Relative paths are joined with
// the folder each call runs in; a relative path in a call whose folder
// cannot be known is a Gap.
func (c *Command) Refs() ([]Ref, []Gap) {
	refs := []Ref{}
	gaps := append([]Gap(nil), c.Gaps...)
	for _, call := range c.Calls {
		rs, gs := classify(call)
		for _, r := range rs {
			if !strings.HasPrefix(r.Word.Text, "/") && !strings.HasPrefix(r.Path, "/") && call.Dir == "" {
				if r.Role.Runs() {
					// A file read as code (sourced, handed to an
					// interpreter) is code no fingerprint holds.
					gaps = append(gaps, Gap{Word: r.Word, Why: "runs " + r.Word.Text + " after a cd to a folder known only when the command runs", Code: true})
				}
				continue
			}
			refs = append(refs, r)
		}
		gaps = append(gaps, gs...)
	}
	return refs, gaps
}

// Main returns the file a command of one call runs (its program by a
// path, or the script of its interpreter), the command's main script,
// when it has exactly one call that runs one.
func (c *Command) Main() (Ref, bool) {
	if len(c.Calls) != 1 {
		return Ref{}, false
	}
	rs, _ := classify(c.Calls[0])
	for _, r := range rs {
		if r.Role == Program || r.Role == Script {
			if r.Path == "" {
				return Ref{}, false
			}
			return r, true
		}
	}
	return Ref{}, false
}

func join(dir, p string) string {
	if strings.HasPrefix(p, "/") {
		return p
	}
	if dir == "" {
		return ""
	}
	return dir + "/" + p
}

// Variables that change which program or library a call runs.
var codeVars = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"PATH": true, "LD_PRELOAD": true, "LD_LIBRARY_PATH": true, "DYLD_INSERT_LIBRARIES": true,
		"PYTHONPATH": true, "PYTHONSTARTUP": true, "PYTHONHOME": true, "NODE_OPTIONS": true, "NODE_PATH": true,
		"BASH_ENV": true, "ENV": true, "PERL5LIB": true, "PERL5OPT": true, "RUBYLIB": true, "RUBYOPT": true,
		// The folders a program's own start-up files are read from: a
		// login or interactive shell's profile and rc, git's global
		// configuration, Python's user site-packages and its .pth files,
		// npm's .npmrc.
		"HOME": true, "XDG_CONFIG_HOME": true, "ZDOTDIR": true, "PYTHONUSERBASE": true,
		"PYTHONBREAKPOINT": true, "PYTHONPYCACHEPREFIX": true, "LD_AUDIT": true, "GCONV_PATH": true,
	}
})

// codeVar reports whether a variable changes which program or library a
// call runs: codeVars, and git's (GIT_DIR names the repository whose
// configuration runs programs, GIT_EXEC_PATH git's commands, GIT_SSH,
// GIT_PAGER and others a program).
func codeVar(name string) bool {
	return codeVars()[name] || strings.HasPrefix(name, "GIT_")
}

// classify returns the files one call names and what it runs that cannot
// be known.
func classify(call *Call) ([]Ref, []Gap) {
	var refs []Ref
	var gaps []Gap
	args := call.Args
	add := func(w Word, role Role, interp string, alts ...string) {
		p := join(call.Dir, w.Text)
		r := Ref{Path: p, Word: w, Role: role, Interpreter: interp, Call: call}
		switch {
		case len(alts) == 1 && alts[0] == processRef:
			r.Process = true
		case len(alts) > 0:
			r.Alternatives = alts
		}
		refs = append(refs, r)
	}
	for _, a := range call.Assigns {
		if codeVar(a) {
			gaps = append(gaps, Gap{Word: args[0], Why: "sets " + a + " for the call, which changes what it runs", Code: true})
		}
	}
	i, implied := skipWrappers(args)
	for j := 0; j < i; j++ {
		if envAssign(args, j) && codeVar(strings.SplitN(args[j].Text, "=", 2)[0]) {
			gaps = append(gaps, Gap{Word: args[j], Why: "sets " + strings.SplitN(args[j].Text, "=", 2)[0] + " for the call, which changes what it runs", Code: true})
		}
	}
	if w, ok := syncingRunner(args[:min(i, len(args))]); ok {
		gaps = append(gaps, Gap{Word: w, Why: path.Base(w.Text) + " run first brings the project's environment up to date, which builds and installs the project by its pyproject.toml (a build backend, setup.py) and its local dependencies: what that runs is not fingerprinted", Code: true})
	}
	if w, shown, ok := wrapperChdir(args[:min(i, len(args))]); ok {
		gaps = append(gaps, Gap{Word: w, Why: "runs the program in another folder (" + shown + "), where the files it names are not looked for: what it runs is not known", Code: true})
	}
	// npx tsx hooks/x.ts: the package runs from node_modules or the
	// registry, and is given the script.
	for i < len(args) && args[i].Lit && packageRunners()[path.Base(args[i].Text)] {
		gaps = append(gaps, Gap{Word: args[i], Why: "runs a package (" + path.Base(args[i].Text) + ") from node_modules or the registry, which is not fingerprinted", Code: true})
		i++
		for i < len(args) && strings.HasPrefix(args[i].Text, "-") {
			if args[i].Text == "--package" || args[i].Text == "-p" {
				i++
			}
			i++
		}
	}
	i = min(i, len(args))
	if _, _, g := gitStart(call); g != nil && !call.argv {
		gaps = append(gaps, *g)
	} else if i < len(args) && call.argv && args[i].Lit && path.Base(args[i].Text) == "git" {
		if g := gitSetting(args, i); g != nil {
			gaps = append(gaps, *g)
		}
	}
	if _, _, gs := nestedOf(call); len(gs) > 0 {
		gaps = append(gaps, gs...)
	}
	script := -1
	code, _ := shellCode(args)
	if i < len(args) {
		prog := args[i]
		name := path.Base(prog.Text)
		switch {
		case implied != "" && prog.Lit && !isInterpreter(name):
			add(prog, Script, implied)
		case !prog.Lit && prog.decided == computedValue:
			gaps = append(gaps, Gap{Word: prog, Why: "runs a program named by a value the command computes when it runs (from a command's output or its input)", Code: true})
		case !prog.Lit && prog.decided == sourcedVar:
			gaps = append(gaps, Gap{Word: prog, Why: "runs a program named by a variable that a file the command sources may assign", Code: true})
		case !prog.Lit && prog.decided == matchedFiles:
			gaps = append(gaps, Gap{Word: prog, Why: "runs a program named by a pattern, which matches files only when the command runs", Code: true})
		case !prog.Lit:
			gaps = append(gaps, Gap{Word: prog, Why: "runs a program named only when the command runs"})
			if prog.deflt != "" {
				// ${PYTHON:-python3} x.py runs python3 x.py when the user
				// sets nothing: what that reads is read.
				alt := *call
				alt.Args = slices.Clone(args)
				alt.Args[i] = Word{Text: prog.deflt, Lit: true, From: prog.From, To: prog.To}
				rs, gs := classify(&alt)
				refs = append(refs, rs...)
				for _, g := range gs {
					if g.Code {
						gaps = append(gaps, g)
					}
				}
				return refs, gaps
			}
		case ofProcess(prog):
			fromInput(call, prog, Program, "", prog.Text, underXargs(args[:i]), true, add, &gaps)
		case strings.Contains(prog.Text, "/"):
			// /usr/bin/python3 x.py, .venv/bin/python x.py, and the
			// kernel's call for a #! line: the program, and what the
			// interpreter its name says it is reads.
			add(prog, Program, "")
			script = byName(call, i, add, &gaps)
		case name == "source" || name == ".":
			script = i + 1
			if script < len(args) && args[script].Lit && args[script].Text == "--" {
				script++ // . -- file: dash and bash source file
			}
			switch {
			case script >= len(args):
			case !args[script].Lit:
				gaps = append(gaps, Gap{Word: args[script], Why: "sources a file named only when the command runs", Code: true})
			case ofProcess(args[script]):
				fromInput(call, args[script], Script, name, name+" "+args[script].Text, underXargs(args[:i]), true, add, &gaps)
			default:
				add(args[script], Script, name)
			}
		case name == "eval":
			for _, a := range args[i+1:] {
				if !a.Lit {
					gaps = append(gaps, Gap{Word: a, Why: "eval runs code built only when the command runs", Code: true})
					break
				}
			}
		case name == "hash":
			// hash -p FILE NAME: NAME runs FILE from then on.
			for j := i + 1; j+1 < len(args); j++ {
				if args[j].Lit && strings.HasPrefix(args[j].Text, "-") && strings.HasSuffix(args[j].Text, "p") {
					if args[j+1].Lit {
						add(args[j+1], Program, "")
					} else {
						gaps = append(gaps, Gap{Word: args[j+1], Why: "hash -p makes a name run a program known only when the command runs", Code: true})
					}
					break
				}
			}
		case name == "find":
			findExec(args[i+1:], add, &gaps)
		case name == "sed" || name == "gsed":
			sedRuns(args[i+1:], &gaps)
		case handsCommand(name, args[i+1:]) != "":
			gaps = append(gaps, Gap{Word: prog, Why: handsCommand(name, args[i+1:]), Code: true})
		case projectRunner(args, i) || isAwk(name) || isInterpreter(name):
			script = byName(call, i, add, &gaps)
		}
	}
	cd := i < len(args) && args[i].Lit && (args[i].Text == "cd" || args[i].Text == "pushd")
	logs := callLogs(call)
	for j, a := range args {
		if j <= i || j == script || j == code || cd || !a.Lit || slices.Contains(logs, a) {
			continue
		}
		if addArg(a) && !ofProcess(a) && !slices.ContainsFunc(refs, func(r Ref) bool { return r.Word == a }) {
			add(a, Arg, "")
		}
	}
	if call.Code != nil {
		_, cw := shellCode(args)
		if files, ok := catFiles(call.Code); ok {
			for _, f := range files {
				fw := Word{Text: f, Lit: true, From: cw.From, To: cw.To}
				if ofProcess(fw) {
					// The substitution runs before the call's redirections
					// are made: it reads what the shell has there.
					gaps = append(gaps, Gap{Word: cw, Why: "hands the shell the code cat reads from " + f + ", known only when the command runs", Code: true})
					continue
				}
				add(fw, Code, "sh")
			}
		} else {
			gaps = append(gaps, Gap{Word: cw, Why: "hands the shell code built only when the command runs", Code: true})
		}
	}
	return refs, gaps
}

// addArg reports whether an argument names a file: a path, or a script
// by its extension; options and NAME=value settings do not.
func addArg(a Word) bool {
	t := a.Text
	if strings.HasPrefix(t, "-") || strings.ContainsRune(t, 0) || t == "" {
		return false
	}
	if strings.ContainsRune(t, '=') && !strings.Contains(t, "/") {
		return false
	}
	if strings.Contains(t, "://") {
		return false // a URL
	}
	return strings.Contains(t, "/") || scriptExts()[path.Ext(t)]
}

// interpreterArgs reads the arguments of an interpreter at args[i] and
// returns the index of the script it runs, -1 when it runs none by a path.
func interpreterArgs(call *Call, i int, add func(Word, Role, string, ...string), gaps *[]Gap) int {
	script, _ := interpreterScript(call, i, add, gaps)
	return script
}

// interpreterScript is interpreterArgs, also returning the descriptor the
// interpreter reads its code from (sh < f, sh -s, sh /dev/stdin, sh
// /dev/fd/3), -1 for none.
func interpreterScript(call *Call, i int, add func(Word, Role, string, ...string), gaps *[]Gap) (int, int) {
	args := call.Args
	name := path.Base(args[i].Text)
	xargs := underXargs(args[:i])
	// codeGiven is what a flag that takes code on the command line (-c,
	// -e) returns: the code is read where it stands, unless xargs gives
	// it from its input; code built when the command runs is named (a
	// shell's, where the parser reads it).
	codeGiven := func(j int) (int, int) {
		switch {
		case xargs && j+1 >= len(args):
			*gaps = append(*gaps, Gap{Word: args[i], Why: "xargs gives " + name + " the code it runs, read from its input only when the command runs", Code: true})
		case j+1 < len(args) && !args[j+1].Lit && !isShell(name):
			*gaps = append(*gaps, Gap{Word: args[j+1], Why: name + " runs code built only when the command runs", Code: true})
		}
		return -1, -1
	}
	j := i + 1
	if (name == "deno" || name == "bun") && j < len(args) && args[j].Text == "run" {
		j++
	}
	if name == "deno" && j < len(args) && args[j].Text == "eval" {
		return codeGiven(j) // deno eval CODE
	}
	stdin := false
	for j < len(args) && !stdin {
		a := args[j]
		if !a.Lit {
			*gaps = append(*gaps, Gap{Word: a, Why: name + " is given an option or script known only when the command runs", Code: true})
			return -1, -1
		}
		t := a.Text
		if isShell(name) && len(t) > 1 && t[0] == '-' && t[1] != '-' && strings.ContainsRune(t[1:], 's') && !strings.ContainsRune(t[1:], 'c') && !shellOptValue(t) {
			// sh -s, bash -es: the code comes on stdin, and the words
			// that follow are its arguments.
			stdin = true
			continue
		}
		if isShell(name) && len(t) > 1 && t[0] == '+' {
			// sh +e, bash +O extglob: an option turned off.
			if shellOptValue(t) {
				j++
			}
			j++
			continue
		}
		if !strings.HasPrefix(t, "-") || t == "-" {
			break
		}
		if t == "--" {
			j++
			break
		}
		if isPython(name) && !strings.HasPrefix(t, "--") {
			// Python's short options combine (-Im mod, -um mod, -Ic CODE),
			// and -m, -c, -W and -X take the rest of the word as their
			// value when there is any (-mmod).
			switch opt, rest := PythonOption(t); opt {
			case 'm':
				if rest != "" {
					m := a
					m.Text = rest
					pythonModule(call, m, add, gaps)
					return j, -1
				}
				if j+1 < len(args) {
					pythonModule(call, args[j+1], add, gaps)
					return j + 1, -1
				}
				return -1, -1
			case 'c':
				if rest != "" {
					return -1, -1
				}
				return codeGiven(j) // code on the command line, which hooks.json shows
			case 'W', 'X':
				if rest == "" {
					j++
				}
				j++
				continue
			case 0:
				// Python's other short options take no value (-I, -u,
				// -B, py's -3), whatever other interpreters' -I takes.
				j++
				continue
			}
		}
		switch {
		case isShell(name) && len(t) > 1 && t[0] == '-' && !strings.HasPrefix(t, "--") && strings.ContainsRune(t[1:], 'c'):
			return codeGiven(j) // sh -ec CODE: read by the parser
		case noScriptFlags()[t] && !(isShell(name) && !strings.HasPrefix(t, "--")):
			// Code on the command line, which hooks.json shows. A shell's
			// -e, -p or -h is an option (errexit, privileged, hashall):
			// the script follows.
			if t == "-c" || t == "-e" || t == "-p" || t == "--eval" || t == "--print" {
				return codeGiven(j)
			}
			return -1, -1
		case name == "py" && len(t) > 1 && t[1] >= '0' && t[1] <= '9':
		case isShell(name) && shellOptValue(t):
			j++ // bash -euo pipefail, --rcfile FILE
		case flagsWithValue()[t]:
			j++
		}
		j++
	}
	if stdin || j >= len(args) || args[j].Text == "-" {
		// The interpreter reads its code on stdin.
		switch {
		case xargs && !stdin:
			// xargs sh < list: the lines of list become sh's arguments,
			// the first of them the script it runs.
			*gaps = append(*gaps, Gap{Word: args[i], Why: "xargs gives " + name + " the script it runs, read from its input only when the command runs", Code: true})
		default:
			fromInput(call, Word{Text: "/dev/stdin", Lit: true, From: args[i].From, To: args[i].To}, Script, name, name, xargs, false, add, gaps)
			return -1, 0
		}
		return -1, -1
	}
	s := args[j]
	if !s.Lit {
		*gaps = append(*gaps, Gap{Word: s, Why: name + " runs a script named only when the command runs", Code: true})
		return j, -1
	}
	if ofProcess(s) {
		fd, _ := descriptor(s.Text)
		fromInput(call, s, Script, name, name+" "+s.Text, xargs, true, add, gaps)
		return j, fd
	}
	switch {
	case isPython(name):
		p := s.Text
		// A folder or a zip runs its __main__.py.
		add(s, Script, name, join(call.Dir, p), join(call.Dir, p)+"/__main__.py")
	case name == "node" || name == "nodejs" || name == "bun" || name == "tsx" || name == "ts-node":
		if path.Ext(s.Text) == "" {
			base := join(call.Dir, s.Text)
			alts := []string{base}
			for _, e := range []string{".js", ".mjs", ".cjs", ".json", ".node", ".ts"} {
				alts = append(alts, base+e)
			}
			alts = append(alts, base+"/package.json", base+"/index.js", base+"/index.mjs", base+"/index.cjs")
			add(s, Module, name, alts...)
		} else {
			add(s, Script, name)
		}
	default:
		add(s, Script, name)
	}
	return j, -1
}

// pythonModule adds the files "python -m mod" may run from the call's
// folder, which is first on the module path.
func pythonModule(call *Call, m Word, add func(Word, Role, string, ...string), gaps *[]Gap) {
	if !m.Lit {
		*gaps = append(*gaps, Gap{Word: m, Why: "runs a Python module named only when the command runs", Code: true})
		return
	}
	top, _, _ := strings.Cut(m.Text, ".")
	if pythonProjectModules()[top] {
		*gaps = append(*gaps, Gap{Word: m, Why: "runs the project's own scripts or packages (python -m " + m.Text + "), which are not fingerprinted", Code: true})
	}
	rel := strings.ReplaceAll(m.Text, ".", "/")
	base := join(call.Dir, rel)
	w := m
	w.Text = rel + ".py"
	add(w, Module, "python", base+"/__main__.py", base+"/__init__.py", base+".py")
}

// pythonProjectModules are the modules that python -m runs which import
// the project's own code: its tests (pytest, unittest discovering
// test*.py), its setup.py or build backend (pip install .), its
// configuration's plugins (mypy, pylint, flake8), its noxfile.py or
// tasks.py, a notebook it executes.
var pythonProjectModules = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"pytest": true, "unittest": true, "tox": true, "nox": true, "invoke": true, "pip": true, "build": true,
		"mypy": true, "pylint": true, "flake8": true, "pre_commit": true, "sphinx": true, "mkdocs": true,
		"jupyter": true, "nbconvert": true, "papermill": true, "coverage": true, "setuptools": true,
	}
})

// underXargs reports whether the wrappers before a program include xargs,
// which adds the words it reads on stdin to the program's arguments.
func underXargs(wrappers []Word) bool {
	for _, w := range wrappers {
		if w.Lit && path.Base(w.Text) == "xargs" {
			return true
		}
	}
	return false
}

// findExec reads find's -exec, -execdir, -ok and -okdir: the program each
// runs, by a path, is named; one that runs the files found ({}) runs what
// is known only when the command runs.
func findExec(args []Word, add func(Word, Role, string, ...string), gaps *[]Gap) {
	for k := 0; k < len(args); k++ {
		switch args[k].Text {
		case "-exec", "-execdir", "-ok", "-okdir":
		default:
			continue
		}
		end := k + 1
		for end < len(args) && args[end].Text != ";" && args[end].Text != "+" {
			end++
		}
		sub := args[k+1 : end]
		p, _ := skipWrappers(sub)
		switch {
		case p >= len(sub):
		case !sub[p].Lit || strings.Contains(sub[p].Text, "{}"):
			*gaps = append(*gaps, Gap{Word: sub[p], Why: "find " + args[k].Text + " runs a program found only when the command runs", Code: true})
		case strings.Contains(sub[p].Text, "/"):
			add(sub[p], Program, "")
		case isInterpreter(path.Base(sub[p].Text)):
			if s := p + 1; s < len(sub) && sub[s].Lit && !strings.HasPrefix(sub[s].Text, "-") && !strings.Contains(sub[s].Text, "{}") {
				add(sub[s], Script, path.Base(sub[p].Text))
				break
			}
			*gaps = append(*gaps, Gap{Word: sub[p], Why: "find " + args[k].Text + " hands " + path.Base(sub[p].Text) + " the files it finds, known only when the command runs", Code: true})
		}
		k = end
	}
}

// catFiles recognises "$(cat FILE...)" as the code of sh -c, and returns
// the files.
func catFiles(w *syntax.Word) ([]string, bool) {
	var cs *syntax.CmdSubst
	switch len(w.Parts) {
	case 1:
		switch p := w.Parts[0].(type) {
		case *syntax.CmdSubst:
			cs = p
		case *syntax.DblQuoted:
			if len(p.Parts) == 1 {
				cs, _ = p.Parts[0].(*syntax.CmdSubst)
			}
		}
	}
	if cs == nil || len(cs.Stmts) != 1 {
		return nil, false
	}
	call, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) < 2 || call.Args[0].Lit() != "cat" {
		return nil, false
	}
	var out []string
	for _, a := range call.Args[1:] {
		s, ok := literal(a, nil)
		if !ok || strings.HasPrefix(s, "-") {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// wrappers run the command that follows their options.
var wrappers = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"env": true, "exec": true, "command": true, "nohup": true, "time": true, "nice": true,
		"timeout": true, "stdbuf": true, "setsid": true, "ionice": true, "chrt": true, "xargs": true,
		"sudo": true, "doas": true, "caffeinate": true, "unbuffer": true, "gtimeout": true, "builtin": true,
	}
})

// wrapperValueFlags take the next word as their value.
var wrapperValueFlags = sync.OnceValue(func() map[string]map[string]bool {
	return map[string]map[string]bool{
		"env":      {"-u": true, "--unset": true, "-C": true, "--chdir": true, "-S": true, "--split-string": true},
		"exec":     {"-a": true}, // bash: the name the program is given as its $0
		"nice":     {"-n": true, "--adjustment": true},
		"timeout":  {"-s": true, "--signal": true, "-k": true, "--kill-after": true},
		"gtimeout": {"-s": true, "--signal": true, "-k": true, "--kill-after": true},
		"stdbuf":   {"-i": true, "-o": true, "-e": true},
		"ionice":   {"-c": true, "-n": true, "-p": true},
		"xargs": {"-I": true, "-n": true, "-L": true, "-P": true, "-d": true, "-E": true, "-s": true, "-a": true, "-J": true, "-R": true, "-S": true,
			"--arg-file": true, "--delimiter": true, "--max-args": true, "--max-procs": true, "--max-chars": true, "--process-slot-var": true},
		"sudo": {"-u": true, "-g": true, "-C": true, "-D": true, "-h": true, "-p": true, "-U": true, "-r": true, "-t": true},
		"doas": {"-u": true, "-C": true},
	}
})

// pythonRunners run a Python script in a project's environment: "uv run
// x.py", "poetry run python x.py".
var pythonRunners = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"uv": true, "poetry": true, "pipenv": true, "rye": true, "pdm": true, "hatch": true}
})

// pythonRunnerFlags take the next word as their value.
var pythonRunnerFlags = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"--with": true, "--python": true, "-p": true, "--project": true, "--directory": true,
		"--group": true, "--extra": true, "--env-file": true, "--index": true, "--from": true, "-e": true, "--env": true}
})

// skipWrappers returns the index of the word that names the program a call
// runs, past wrappers and their options (env, timeout 5, nice -n 10,
// hookctl trace --, hookctl adapt --from AGENT --, uv run), len(args) when there is none, and the
// interpreter a wrapper implies for it ("python" after "uv run").
func skipWrappers(args []Word) (int, string) {
	i := 0
	for i < len(args) {
		a := args[i]
		if !a.Lit {
			return i, ""
		}
		name := path.Base(a.Text)
		if pythonRunners()[name] && i+1 < len(args) && args[i+1].Text == "run" && runsPythonScript(args[i+2:]) {
			i += 2
			for i < len(args) && strings.HasPrefix(args[i].Text, "-") {
				if pythonRunnerFlags()[args[i].Text] && i+1 < len(args) {
					i++
				}
				i++
			}
			if i < len(args) && !isPython(path.Base(args[i].Text)) {
				return i, "python"
			}
			return i, ""
		}
		if name == "hookctl" {
			// hookctl trace and hookctl adapt run COMMAND directly, past
			// hookctl's global flags.
			if v := hookctlVerb(args, i); v > 0 {
				view := append([]Word{args[i]}, args[v:]...)
				if k, ok := traceStart(len(view), func(j int) (string, bool) { return view[j].Text, view[j].Lit }); ok {
					i = v + k - 1
					continue
				}
				if k, ok := adaptStart(view); ok {
					i = v + k - 1
					continue
				}
			}
			return i, ""
		}
		if !wrappers()[name] {
			return i, ""
		}
		i++
		values := wrapperValueFlags()[name]
		for i < len(args) {
			t := args[i].Text
			switch {
			case !args[i].Lit:
				return i, ""
			case t == "--":
				i++
			case name == "command" && len(t) > 1 && t[0] == '-' && strings.ContainsAny(t, "vV"):
				return len(args), "" // command -v x says what x is: it runs nothing
			case strings.HasPrefix(t, "-") && len(t) > 1:
				if values[t] && i+1 < len(args) {
					i++
				}
				i++
				continue
			case name == "env" && strings.Contains(t, "="):
				i++
				continue
			case (name == "timeout" || name == "gtimeout") && durationWord().MatchString(t):
				i++
			case name == "chrt" && isNumber(t):
				i++
				continue
			}
			break
		}
	}
	return i, ""
}

// syncingRunner returns the word of a Python runner among args that
// brings the project's environment up to date before it runs the script
// (uv run, hatch run), unless told not to (--no-sync, --no-project,
// --script, --isolated).
func syncingRunner(args []Word) (Word, bool) {
	for j := 0; j+1 < len(args); j++ {
		name := path.Base(args[j].Text)
		if (name != "uv" && name != "hatch") || args[j+1].Text != "run" {
			continue
		}
		for _, a := range args[j+2:] {
			switch a.Text {
			case "--no-sync", "--no-project", "--script", "--isolated":
				return Word{}, false
			}
		}
		return args[j], true
	}
	return Word{}, false
}

// wrapperChdir returns the option of a wrapper among args that runs the
// program in another folder (env -C DIR, env --chdir=DIR, sudo -D DIR),
// which the words after it are relative to, and the wrapper with its
// option and folder as the command gives them.
func wrapperChdir(args []Word) (Word, string, bool) {
	name := ""
	for j, a := range args {
		t := a.Text
		if !strings.HasPrefix(t, "-") {
			if wrappers()[path.Base(t)] {
				name = path.Base(t)
			}
			continue
		}
		var letter rune
		switch name {
		case "env":
			letter = 'C'
		case "sudo":
			letter = 'D'
		}
		if letter == 0 || !(t == "--chdir" || strings.HasPrefix(t, "--chdir=") || len(t) > 1 && t[1] != '-' && strings.ContainsRune(t[1:], letter)) {
			continue
		}
		shown := name + " " + t
		if (t == "--chdir" || t[len(t)-1] == byte(letter)) && j+1 < len(args) {
			shown += " " + args[j+1].Text
		}
		return a, shown, true
	}
	return Word{}, "", false
}

// envAssign reports whether args[j] is a NAME=value setting of env.
func envAssign(args []Word, j int) bool {
	return strings.Contains(args[j].Text, "=") && !strings.HasPrefix(args[j].Text, "-")
}

var durationWord = lazyre.New(`^[0-9.]+[smhd]?$`)

func isNumber(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// projectRunner reports whether the call runs a project's own scripts:
// package.json scripts, Makefile targets, packages from node_modules.
func projectRunner(args []Word, i int) bool {
	name := path.Base(args[i].Text)
	next := ""
	if i+1 < len(args) {
		next = args[i+1].Text
	}
	switch name {
	case "npm", "pnpm", "yarn":
		return true
	case "make", "gmake", "just", "task", "rake", "gradle", "mvn", "composer":
		return true
	case "gradlew", "mvnw", "bundle", "bazel", "bazelisk", "sbt", "lein", "cmake", "meson", "ninja", "scons", "zig",
		"dotnet", "swift", "mix", "nx", "turbo", "lerna":
		// a wrapper or a build whose build files are code
		return true
	case "pytest", "py.test", "coverage", "tox", "nox", "invoke", "inv", "fab", "pre-commit", "sphinx-build", "mkdocs", "jupyter",
		"papermill", "ansible-playbook", "mypy", "pylint", "flake8", "jest", "vitest", "mocha", "ava", "playwright",
		"cypress", "karma", "eslint", "prettier", "stylelint", "webpack", "rollup", "vite", "next", "nuxt", "astro":
		// tools that import the project's tests, configuration or
		// plugins (conftest.py, noxfile.py, eslint.config.js, a
		// mypy or pylint plugin, a pre-commit hook)
		return true
	case "pip", "pip3":
		return next == "install" || next == "wheel" || next == "download"
	case "bun", "deno":
		return next == "run" && !(i+2 < len(args) && strings.ContainsAny(args[i+2].Text, "/.")) || next == "x" || next == "task"
	case "go":
		return next == "run" || next == "generate" || next == "test"
	case "cargo":
		// build.rs and procedural macros run whenever cargo compiles
		return next == "run" || next == "test" || next == "build" || next == "check" || next == "clippy" || next == "bench" || next == "doc"
	case "uv", "poetry", "pipenv", "rye", "pdm", "hatch":
		return next == "run" && !runsPythonScript(args[i+2:])
	case "uvx", "pipx":
		return true
	}
	return false
}

// runsPythonScript reports whether "uv run ..." runs a Python script by
// its path, which the resolver can follow: "uv run python x.py", "uv run
// x.py".
func runsPythonScript(args []Word) bool {
	for k := 0; k < len(args); k++ {
		a := args[k]
		if strings.HasPrefix(a.Text, "-") {
			if pythonRunnerFlags()[a.Text] {
				k++
			}
			continue
		}
		return isPython(path.Base(a.Text)) || path.Ext(a.Text) == ".py"
	}
	return false
}

// packageRunners run a package, given its arguments.
var packageRunners = sync.OnceValue(func() map[string]bool { return map[string]bool{"npx": true, "pnpx": true, "bunx": true} })

// shells run code given with -c, or a script.
var shells = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"sh": true, "bash": true, "dash": true, "zsh": true, "ksh": true, "mksh": true, "ash": true, "busybox": false}
})

func isShell(name string) bool { return shells()[name] }

var pythonName = lazyre.New(`^(python|pypy)[0-9.]*$`)

func isPython(name string) bool { return pythonName().MatchString(name) || name == "py" }

// isInterpreter reports whether a program runs the script it is given.
func isInterpreter(name string) bool {
	switch name {
	case "node", "nodejs", "bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "fish", "ruby", "perl", "php",
		"deno", "bun", "tsx", "ts-node", "java", "Rscript", "lua", "luajit", "py", "osascript", "tclsh", "wish":
		return true
	}
	return isPython(name)
}

// IsShell reports whether a program (by its base name) is a shell that
// runs a script, as sh and bash do; IsPython whether it is a Python.
func IsShell(name string) bool { return isShell(name) }

// IsPython reports whether a program (by its base name) is a Python:
// python3, python3.12, pypy3, py.
func IsPython(name string) bool { return isPython(name) }

// PythonOption reads a word of Python's short options ("-u", "-Im",
// "-mpkg.mod", "-Ic"): the first of them that takes a value (c, m, W or
// X) and what follows it in the word, which is its value when not empty;
// opt is 0 when the word holds none of them.
func PythonOption(word string) (opt byte, rest string) {
	if len(word) < 2 || word[0] != '-' || word[1] == '-' {
		return 0, ""
	}
	k := strings.IndexAny(word[1:], "cmWX")
	if k < 0 {
		return 0, ""
	}
	return word[1+k], word[2+k:]
}

// IsInterpreter reports whether a program (by its base name) runs the
// script it is given, so that the script, not the program, is what a
// command's author wrote.
func IsInterpreter(name string) bool { return isInterpreter(name) }

// scriptExts are the extensions of files that interpreters run.
var scriptExts = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		".py": true, ".js": true, ".mjs": true, ".cjs": true, ".ts": true, ".mts": true, ".cts": true,
		".sh": true, ".bash": true, ".zsh": true, ".rb": true, ".pl": true, ".php": true,
		".java": true, ".lua": true, ".R": true, ".jsx": true, ".tsx": true, ".jar": true,
	}
})

// flagsWithValue are interpreter options that take the next word as their
// value, so that word is not the script.
var flagsWithValue = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"-W": true, "-X": true, // python
		"-r": true, "--require": true, "--import": true, "--loader": true, "--experimental-loader": true, "--env-file": true, "--env-file-if-exists": true, // node
		"-cp": true, "-classpath": true, "--class-path": true, // java
		"-o": true, "-O": true, "+o": true, // bash, sh
		"--config": true, "-C": true, // deno, ruby
		"-I": true, // perl, ruby
	}
})

// shellOptValue reports whether a shell's option takes the next word as
// its value: -o and -O, at the end of a cluster too (-euo pipefail), with
// + as well as -, and bash's --rcfile and --init-file.
func shellOptValue(t string) bool {
	if t == "--rcfile" || t == "--init-file" {
		return true
	}
	return len(t) > 1 && (t[0] == '-' || t[0] == '+') && t[1] != '-' && (t[len(t)-1] == 'o' || t[len(t)-1] == 'O')
}

// noScriptFlags make the interpreter run code from the command line, not a
// file.
var noScriptFlags = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"-c": true, "-e": true, "-p": true, "--eval": true, "--print": true,
		"--version": true, "-V": true, "--help": true, "-h": true,
	}
})

// ProgramOf returns, for the words of one simple command, the index of the
// word that names the program it runs, past wrappers and their options
// (env, timeout 5, nice -n 10, xargs, hookctl trace --), and the index of
// the script an interpreter among them runs ("python3 -u x.py"), -1 when
// there is none. It is how every reader of commands tells the program and
// the script apart; prog is -1 for a command of wrappers alone.
func ProgramOf(args []Word) (prog, script int) {
	i, implied := skipWrappers(args)
	if i >= len(args) {
		return -1, -1
	}
	name := path.Base(args[i].Text)
	if implied != "" || !args[i].Lit || !isInterpreter(name) {
		return i, -1
	}
	var gaps []Gap
	return i, interpreterArgs(&Call{Args: args}, i, func(Word, Role, string, ...string) {}, &gaps)
}

// Needed reports whether the command needs the ref's file to be there:
// the program or script a call runs, or the module an interpreter finds
// by its name (python3 -m hooks.gate, node hooks/gate). lint reports it
// missing, import warns of it and trust covers it, all by Candidates and
// Target, so that they never disagree about which file a command runs.
func (r Ref) Needed() bool { return r.Role == Program || r.Role == Script || r.Role == Module }

// Candidates returns the files the interpreter may take for the ref, in
// the order it tries them: a Module's Alternatives; for a Script that
// runs a folder's __main__.py (python3 hooks/pkg), its Alternatives when
// its path is a folder; else the ref's path alone.
func (r Ref) Candidates() []string {
	switch {
	case r.Role == Module:
		return r.Alternatives
	case len(r.Alternatives) > 0:
		if info, err := os.Stat(Resolve(r.Path)); err == nil && info.IsDir() {
			return r.Alternatives
		}
	}
	return []string{r.Path}
}

// Target returns the file that runs for the ref, resolved as the kernel
// resolves it, and whether it is there. For a ref with Alternatives it is
// the first of Candidates that is there and is not a folder, "" and false
// when none is; else the ref's path, there when anything is (a folder is
// the script rules' to report, not a missing file).
func (r Ref) Target() (string, bool) {
	if len(r.Alternatives) == 0 {
		p := Resolve(r.Path)
		_, err := os.Stat(p)
		return p, err == nil
	}
	for _, p := range r.Candidates() {
		real := Resolve(p)
		if info, err := os.Stat(real); err == nil && !info.IsDir() {
			return real, true
		}
	}
	return "", false
}

// Missing reports whether the call fails for want of the ref's file: its
// Target is not there, and the interpreter cannot find it elsewhere. A
// Python module can be installed (python3 -m json.tool, python3 -m
// pytest): it is missing only when its top-level package is a folder where
// the call runs (python3 -m hooks.gate with hooks/ there), which Python
// takes first. A node module is missing when it is named by a path
// (node hooks/gate), never by a bare word, which bun and deno read as
// their own commands (bun test).
func (r Ref) Missing() bool {
	if _, ok := r.Target(); ok {
		return false
	}
	if r.Role != Module {
		return true
	}
	top, rest, dotted := strings.Cut(r.Word.Text, "/")
	if !dotted || rest == "" {
		return false
	}
	if !IsPython(r.Interpreter) {
		return true
	}
	info, err := os.Stat(Resolve(join(r.Call.Dir, top)))
	return err == nil && info.IsDir()
}
