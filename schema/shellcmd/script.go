package shellcmd

import (
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// A shell script names the files it sources or runs by its own folder more
// often than by any literal path: . "$(dirname "$0")/lib.sh", DIR="$(cd
// "$(dirname "$0")" && pwd)" and then . "$DIR/lib.sh". ParseScript reads
// those as the shell computes them, and only where the value is certain:
//
//   - $0 is the path the script was started by, as the command or the
//     calling script wrote it (Start); in a sourced file it is still the
//     caller's. ${BASH_SOURCE[0]} and $BASH_SOURCE are read only where the
//     interpreter is known to be bash.
//   - $(dirname WORD) and `dirname WORD` with POSIX dirname's answer;
//     ${NAME%/*}; $(cd WORD && pwd) and $(cd WORD; pwd), with -L, -P and
//     --, as the folder cd reaches.
//   - Variables assigned in the script's straight-line top-level code
//     (NAME=..., export, readonly), used after it.
//
// A variable assigned anywhere else (in an if, a loop, a function, a
// subshell, by read, for, local, declare, unset, +=, arithmetic or
// ${NAME:=...}) is unknown from that statement on; everything the script
// knows is forgotten after a call that may reassign it unseen (., source,
// eval, trap, a program named at run time), and never learned in a script
// that defines a function that may (or one named cd, pwd or dirname).

// maxSubst bounds how deeply command substitutions are read for a value.
const maxSubst = 8

// val is a value a word or a variable holds. The first anchor bytes of s
// stand for a folder that the shell spells its own way: what pwd prints
// (the shell's PWD, which may go through links the agent's folder has),
// or $HOOKCTL_WORKSPACE as the runner spells it, is another path to the
// folder s[:anchor] reaches, absolute, without . or .. or a trailing
// slash. So s[:anchor] may begin a path, but text cut
// from within it would not be the shell's.
type val struct {
	s      string
	anchor int
}

// Start is how a shell script was started, which its code can read: the
// path $0 holds and, under bash, ${BASH_SOURCE[0]}. The zero Start knows
// neither, as in a hooks.json command, where $0 is sh.
type Start struct {
	arg0, source       val
	hasArg0, hasSource bool
	bash               bool
	// dirty is set for a script started where its environment, or the
	// functions and options of the shell that sources it, may differ
	// from what the text shows (PATH=bin ./x.sh, export -f, BASH_ENV):
	// dirname, cd and pwd may not be what they are, and nothing is read.
	dirty bool
	// inherit are the variables that the code which started or sourced
	// the script may have assigned, sorted and joined by commas: a
	// program the script names by one of them is named by a value that
	// code computed, not the user's choice (decidedBy).
	inherit string
}

// StartOf returns how the shell script the ref names starts, run from a
// script that started as caller (the zero Start for a hooks.json command):
// a file sourced with . or source keeps the caller's $0 and has its own
// name as ${BASH_SOURCE[0]}; a script run by a shell or as a program has
// the path it was started by as $0. bashShebang says whether the file's
// #! line names bash, which runs a program by its path. A script read on
// stdin, or started through a wrapper that may rename it (sudo, exec -a,
// env -S), knows neither.
func (r Ref) StartOf(caller Start, bashShebang bool) Start {
	s := r.startOf(caller, bashShebang)
	names := map[string]bool{}
	if caller.inherit != "" {
		for _, n := range strings.Split(caller.inherit, ",") {
			names[n] = true
		}
	}
	if r.Call != nil {
		for n := range r.Call.assigned {
			names[n] = true
		}
	}
	s.inherit = strings.Join(slices.Sorted(maps.Keys(names)), ",")
	return s
}

func (r Ref) startOf(caller Start, bashShebang bool) Start {
	w := r.Word
	v := val{s: w.Text, anchor: w.anchor}
	if !w.Lit || r.Call == nil || w.anchor < 0 {
		return Start{}
	}
	if r.Call.unsure || setsEnviron(r.Call, len(r.Call.Args)) {
		return Start{dirty: true}
	}
	if r.Role == Script && (r.Interpreter == "." || r.Interpreter == "source") {
		if r.Call.fns {
			return Start{dirty: true}
		}
		// $0 as the script knew it at the line (bash's BASH_ARGV0 sets
		// it).
		s := Start{bash: caller.bash}
		if r.Call.arg0 != nil {
			s.arg0, s.hasArg0 = *r.Call.arg0, true
		}
		if caller.bash && strings.Contains(w.Text, "/") {
			// bash looks a bare name up in PATH first.
			s.source, s.hasSource = v, true
		}
		return s
	}
	if r.Call.Stdin != nil && *r.Call.Stdin == w {
		return Start{}
	}
	bash := false
	switch {
	case r.Role == Script && isShell(path.Base(r.Interpreter)):
		bash = path.Base(r.Interpreter) == "bash"
	case r.Role == Program:
		bash = bashShebang
	default:
		return Start{}
	}
	i, implied := skipWrappers(r.Call.Args)
	if implied != "" || !plainWrappers(r.Call.Args[:i]) {
		return Start{}
	}

	if r.Role == Script {
		// sh -s reads its code on stdin, with the word as $1.
		for _, a := range r.Call.Args[i+1:] {
			if a == w {
				break
			}
			if t := a.Text; len(t) > 1 && t[0] == '-' && t[1] != '-' && strings.ContainsAny(t[1:], "sc") {
				return Start{}
			}
			// An interactive or login shell first runs the user's startup
			// files ($ENV, ~/.bashrc, ~/.profile), which may set CDPATH,
			// define cd or change the folder.
			if t := a.Text; len(t) > 1 && t[0] == '-' && t[1] != '-' && strings.ContainsAny(t[1:], "il") ||
				t == "--login" || t == "--rcfile" || t == "--init-file" {
				return Start{dirty: true}
			}
		}
	}
	s := Start{arg0: v, hasArg0: true, bash: bash}
	if bash {
		s.source, s.hasSource = v, true
	}
	return s
}

// shellSets reports whether the shell itself assigns the variable, at
// commands that do not name it: cd sets PWD and OLDPWD, read and select
// REPLY, getopts OPTARG, mapfile MAPFILE, every command $_, [[ =~ ]]
// BASH_REMATCH; SECONDS and RANDOM change as they are read. Its value is
// never known.
func shellSets(name string) bool {
	switch name {
	case "PWD", "OLDPWD", "REPLY", "OPTARG", "OPTIND", "OPTERR", "MAPFILE", "_", "RANDOM", "SRANDOM",
		"SECONDS", "LINENO", "BASHPID", "HISTCMD", "COPROC", "FUNCNAME", "GROUPS", "EPOCHREALTIME",
		"EPOCHSECONDS", "COLUMNS", "LINES", "PPID", "UID", "EUID", "DIRSTACK", "PIPESTATUS":
		return true
	}
	return strings.HasPrefix(name, "BASH_")
}

// environs reports whether a variable, set in the environment of a shell
// or before a file is sourced, may change what a script's dirname, cd, pwd,
// . or unquoted words do, or the folder it knows the workspace by: "*"
// stands for a name known only at run time.
func environs(name string) bool {
	switch name {
	case "*", "PATH", "CDPATH", "IFS", "PS4", "ENV", "BASH_ENV", "SHELLOPTS", "BASHOPTS", "POSIXLY_CORRECT",
		"HOOKCTL_WORKSPACE", "PWD", "OLDPWD", "HOME", "GLOBIGNORE":
		return true
	}
	return strings.HasPrefix(name, "BASH_FUNC_") || strings.HasPrefix(name, "LD_") || len(names(name)) != 1 || names(name)[0] != name
}

// setsEnviron reports whether a call sets, for what it runs, a variable
// environs names: PATH=bin x, env BASH_ENV=x bash, in its first n words.
func setsEnviron(call *Call, n int) bool {
	for _, a := range call.Assigns {
		if environs(a) {
			return true
		}
	}
	env := false
	for _, a := range call.Args[:n] {
		if name, _, ok := strings.Cut(a.Text, "="); ok && !strings.HasPrefix(name, "-") && environs(name) {
			return true
		}
		switch t := a.Text; {
		case path.Base(t) == "env":
			env = true
		case env && (t == "-" || strings.HasPrefix(t, "-i") || strings.HasPrefix(t, "-u") || strings.HasPrefix(t, "--unset") || strings.HasPrefix(t, "--ignore")):
			return true // env -u HOOKCTL_WORKSPACE
		case !strings.HasPrefix(t, "-"):
			env = false
		}
	}
	return false
}

// dirtiesEnv reports whether a statement may change, for the scripts the
// shell starts or sources after it, the variables environs names or the
// functions they inherit: it assigns or exports one, exports a function
// (export -f), or runs code the text does not show.
func dirtiesEnv(s *syntax.Stmt) bool {
	dirty := false
	syntax.Walk(s, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Assign:
			if n.Name != nil && environs(n.Name.Value) {
				dirty = true
			}
		case *syntax.DeclClause:
			for _, a := range n.Args {
				if a.Name == nil && a.Value != nil && strings.HasPrefix(a.Value.Lit(), "-") && strings.ContainsRune(a.Value.Lit(), 'f') {
					dirty = true // export -f, declare -fx
				}
			}
		case *syntax.CallExpr:
			if taints(n) {
				dirty = true
			}
		}
		for _, name := range assignedBy(n, nil) {
			if environs(name) {
				dirty = true
			}
		}
		return !dirty
	})
	return dirty
}

// plainWrappers reports whether wrappers run the program by the path they
// are given, as execvp does, so that it is the script's $0.
func plainWrappers(ws []Word) bool {
	prev := ""
	for _, w := range ws {
		switch t := w.Text; {
		case t == "sudo" || t == "doas" || t == "hookctl" || t == "xargs" || path.Base(t) != t:
			return false
		case prev == "exec" && t == "-a", prev == "env" && (t == "-S" || t == "-C" || strings.HasPrefix(t, "--split-string") || strings.HasPrefix(t, "--chdir")):
			return false
		}
		if !strings.HasPrefix(w.Text, "-") {
			prev = w.Text
		}
	}
	return true
}

// Sourced returns the content of the file at path (absolute, as a . line
// of the script names it), which the script reads for the variables it
// may assign when sourced (SourcedEffects, SourcedNames); ok is false
// when it cannot be read, and the script then forgets all it computed.
type Sourced func(path string) (src string, ok bool)

// ParseScript reads the shell script src as Parse reads a command, run
// from the folder dir, started as s: it also follows the script's own
// folder as the shell computes it (see above). sourced, when not nil,
// reads the files the script sources, so that only what they assign is
// forgotten.
func ParseScript(src, dir, workspace string, s Start, sourced Sourced) *Command {
	var vars known
	if workspace != "" {
		vars = known{"HOOKCTL_WORKSPACE": {s: workspace, anchor: len(workspace)}}
	}
	c := &Command{Src: src, workspace: vars}
	c.start, c.sourced = &s, sourced
	if s.dirty {
		dir = "" // a function it inherits may cd
	}
	return c.parse(dir)
}

// SourcedEffects reads the code of a file a script sources: the variables
// it may assign, and whether that is all it may change of what the script
// computes. It is not when the file defines a function, sources or evals
// code, runs a program named at run time, changes its folder (cd), sets
// PATH, $0 (BASH_ARGV0) or cd's -P, or uses alias, shopt, enable, hash or
// a nameref; or when it does not parse.
func SourcedEffects(src string) (assigns []string, ok bool) {
	f, err := parse(src)
	if err != nil {
		return nil, false
	}
	ok = true
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.FuncDecl:
			ok = false
		case *syntax.DeclClause:
			if n.Variant.Value == "nameref" {
				ok = false
			}
			for _, a := range n.Args {
				if a.Name == nil && a.Value != nil && strings.ContainsRune(a.Value.Lit(), 'n') {
					ok = false
				}
			}
		case *syntax.CallExpr:
			switch callName(n) {
			case "cd", "pushd", "popd", "alias", "shopt", "enable", "hash":
				ok = false
			case "set":
				ok = ok && !setsPhysical(n.Args[1:])
			}
			if taints(n) {
				ok = false
			}
		}
		for _, name := range assignedBy(n, nil) {
			switch name {
			case "PATH", "CDPATH", "IFS", "PS4", "BASH_CMDS", "BASH_ALIASES", "BASH_ARGV0", "BASH_SOURCE", "*":
				ok = false
			}
			assigns = append(assigns, name)
		}
		if len(readonlyBy(n, nil)) > 0 {
			ok = false // the script's own assignments would then fail
		}
		return ok
	})
	if !ok {
		return nil, false
	}
	return assigns, true
}

// scope is what a script's code knows of its variables at a point.
type scope struct {
	vals     map[string]val
	readonly map[string]bool
	// never are the variables assigned in a function body, which may run
	// at any call.
	never map[string]bool
	// off is set for a script whose functions may change what it knows
	// unseen: nothing is learned.
	off bool
	// probes are the paths whose state a value depended on (the folder a
	// cd reached), for a reader that records them.
	probes *[]string
	// cds caches the folders cd reached.
	cds map[cdKey]cdAnswer
	// files caches the files the script sources, by path.
	files map[string]sourcedText
	// sourced reads what a sourced file may assign, nil when nothing
	// reads it.
	sourced Sourced
}

type cdKey struct {
	dir, s   string
	anchor   int
	physical bool
}

type cdAnswer struct {
	v  val
	ok bool
}

// newScope returns the scope a script starts with: the variables known
// before it runs, $0 and ${BASH_SOURCE[0]} as s says.
func newScope(vars known, s *Start, f *syntax.File, probes *[]string) *scope {
	sc := &scope{vals: map[string]val{}, probes: probes}
	for k, v := range vars {
		sc.vals[k] = v
	}
	if s.hasArg0 {
		sc.vals["0"] = s.arg0
	}
	if s.hasSource && s.bash {
		sc.vals["BASH_SOURCE"] = s.source
	}
	sc.off = s.dirty
	sc.prepass(f)
	if sc.off {
		sc.vals = map[string]val{}
	}
	return sc
}

// fnScope is the scope of a function's body, which runs at any call: only
// the variables known before the script ran and never assigned in it.
func (sc *scope) fnScope(vars known, f *syntax.File) *scope {
	fs := &scope{vals: map[string]val{}, probes: sc.probes, off: sc.off}
	if sc.off {
		return fs
	}
	assigned := map[string]bool{}
	tainted := false
	syntax.Walk(f, func(n syntax.Node) bool {
		for _, name := range assignedBy(n, nil) {
			assigned[name] = true
			tainted = tainted || name == "*"
		}
		if c, ok := n.(*syntax.CallExpr); ok && taints(c) {
			tainted = true
		}
		return true
	})
	if tainted {
		fs.off = true // what the body's cd and dirname run is not known
		return fs
	}
	for k, v := range vars {
		if !assigned[k] {
			fs.vals[k] = v
		}
	}
	return fs
}

// overriding are the commands a function of the script must not replace
// for its values to be read.
var overriding = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"cd": true, "pwd": true, "dirname": true, "command": true, "builtin": true, "export": true,
		"readonly": true, "source": true, ".": true, "eval": true, "exec": true, "set": true, "unset": true,
	}
})

// replaced are the other builtins whose calls the reader gives a meaning
// (a folder, code run later): a function of that name stands for them.
var replaced = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"pushd": true, "popd": true, "trap": true, "alias": true, "hash": true, "enable": true, "shopt": true}
})

// prepass reads what the whole script does that may change its variables
// at any time: assignments in function bodies, functions that source or
// eval, namerefs, aliases, set -P.
func (sc *scope) prepass(f *syntax.File) {
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.FuncDecl:
			if overriding()[n.Name.Value] {
				sc.off = true
			}
			syntax.Walk(n.Body, func(m syntax.Node) bool {
				for _, name := range assignedBy(m, nil) {
					if sc.never == nil {
						sc.never = map[string]bool{}
					}
					sc.never[name] = true
					if name == "*" {
						sc.off = true // a name known only when it runs
					}
				}
				if c, ok := m.(*syntax.CallExpr); ok && taints(c) {
					sc.off = true
				}
				return true
			})
		case *syntax.DeclClause:
			if n.Variant.Value == "nameref" {
				sc.off = true
			}
			for _, a := range n.Args {
				if a.Name == nil && a.Value != nil && strings.HasPrefix(a.Value.Lit(), "-") && strings.ContainsRune(a.Value.Lit(), 'n') {
					sc.off = true // declare -n: a name for another variable
				}
			}
		case *syntax.CallExpr:
			switch name := callName(n); name {
			case "alias", "shopt", "enable", "hash":
				sc.off = true // hash -p names the file a command runs
			case "set":
				if setsPhysical(n.Args[1:]) {
					sc.off = true
				}
			}
		}
		return true
	})
	// A PATH the script sets may find another dirname; a CDPATH, send cd
	// elsewhere; an IFS, split an unquoted word elsewhere.
	syntax.Walk(f, func(n syntax.Node) bool {
		for _, name := range assignedBy(n, nil) {
			switch name {
			case "PATH", "CDPATH", "IFS", "PS4", "BASH_CMDS", "BASH_ALIASES":
				// PS4 is expanded before each traced command; BASH_CMDS
				// names the file a command runs, as hash -p does;
				// BASH_ALIASES defines aliases.
				sc.off = true
			}
		}
		return !sc.off
	})
	for name := range sc.never {
		delete(sc.vals, name)
		sc.poison(name)
	}
}

// callName returns the command a call runs by a literal name, past
// command and builtin, "" when it has none.
func callName(c *syntax.CallExpr) string {
	for _, a := range c.Args {
		l, ok := literal(a, nil) // 'cd' and \cd are cd
		if !ok {
			return ""
		}
		if l == "command" || l == "builtin" || strings.HasPrefix(l, "-") && l != "-" && l != "" {
			continue
		}
		return l
	}
	return ""
}

// setsPhysical reports whether set's arguments may turn on -P (set -P,
// set -o physical), which makes cd and pwd follow links: a word built at
// run time may too.
func setsPhysical(args []*syntax.Word) bool {
	for i := 0; i < len(args); i++ {
		l, ok := literal(args[i], nil)
		switch {
		case !ok:
			return true
		case l == "--" || !strings.HasPrefix(l, "-") && !strings.HasPrefix(l, "+"):
			return false // $1... follow
		case strings.ContainsRune(l, 'P'):
			return true
		case strings.ContainsRune(l, 'o'):
			if i+1 >= len(args) {
				return false // set -o lists the options
			}
			i++
			if o, ok := literal(args[i], nil); !ok || o == "physical" {
				return true
			}
		}
	}
	return false
}

// callTaints is taints for a call as the walker read its words.
func callTaints(call *Call) bool {
	for _, a := range call.Args {
		if !a.Lit {
			return true
		}
		if t := a.Text; t == "command" || t == "builtin" || strings.HasPrefix(t, "-") && t != "-" {
			continue
		}
		switch a.Text {
		case ".", "source", "eval", "trap", "alias", "enable", "shopt":
			return true
		}
		return false
	}
	return false
}

// taints reports whether a call may change the script's variables in a
// way its text does not show: it reads code from elsewhere (., source,
// eval, trap's handler), or runs a command named only at run time.
func taints(c *syntax.CallExpr) bool {
	if len(c.Args) == 0 {
		return false
	}
	if _, ok := literal(c.Args[0], nil); !ok {
		return true
	}
	switch callName(c) {
	case ".", "source", "eval", "trap", "alias", "enable", "shopt":
		return true
	}
	return false
}

// setters are the builtins that assign the variables their arguments name.
var setters = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"read": true, "mapfile": true, "readarray": true, "getopts": true, "printf": true, "unset": true,
		"let": true, "export": true, "readonly": true, "declare": true, "typeset": true, "local": true, "wait": true,
	}
})

// assignedBy returns the variables node n may assign by itself (not its
// children), skipping the assignments in straight, which the caller sets.
func assignedBy(n syntax.Node, straight map[*syntax.Assign]bool) []string {
	switch n := n.(type) {
	case *syntax.Assign:
		if n.Name != nil && !straight[n] {
			return []string{n.Name.Value}
		}
		if n.Name == nil && n.Value != nil {
			// declare 'D=x', export "$N=x": the name is in the word.
			return wordNames(n.Value)
		}
	case *syntax.ForClause:
		if it, ok := n.Loop.(*syntax.WordIter); ok {
			return []string{it.Name.Value}
		}
	case *syntax.BinaryArithm:
		if arithAssign()[n.Op] {
			return arithNames(n.X)
		}
	case *syntax.UnaryArithm:
		if n.Op == syntax.Inc || n.Op == syntax.Dec {
			return arithNames(n.X)
		}
	case *syntax.ParamExp:
		if n.Exp != nil && (n.Exp.Op == syntax.AssignUnset || n.Exp.Op == syntax.AssignUnsetOrNull) && n.Param != nil {
			return []string{n.Param.Value}
		}
	case *syntax.ArithmCmd, *syntax.ArithmExp, *syntax.LetClause:
		// let 'D=1', (( "D=1" )): bash reads the quoted text as the
		// expression, which may assign any name.
		quoted := false
		syntax.Walk(n, func(m syntax.Node) bool {
			switch m.(type) {
			case *syntax.SglQuoted, *syntax.DblQuoted:
				quoted = true
			}
			return !quoted
		})
		if quoted {
			return []string{"*"}
		}
	case *syntax.Redirect:
		// exec {D}>file: bash assigns the descriptor's number to D.
		if n.N != nil && strings.HasPrefix(n.N.Value, "{") {
			return names(n.N.Value)
		}
	case *syntax.CoprocClause:
		if n.Name != nil {
			return []string{n.Name.Lit()}
		}
	case *syntax.CallExpr:
		if !setters()[callName(n)] {
			// Under set -k (bash -k), NAME=value anywhere among a call's
			// words assigns, and for a special builtin in POSIX mode
			// the assignment stays: : D=x.
			var out []string
			for i, a := range n.Args {
				if i > 0 && len(a.Parts) > 0 {
					if l, ok := a.Parts[0].(*syntax.Lit); ok {
						if name, _, ok := strings.Cut(l.Value, "="); ok && len(names(name)) == 1 && names(name)[0] == name {
							out = append(out, name)
						}
					}
				}
			}
			return out
		}
		// Every name in the arguments: read -r A B, printf -v A, let
		// "A = B += 1", unset -v A.
		var out []string
		for _, a := range n.Args[1:] {
			out = append(out, wordNames(a)...)
		}
		return out
	}
	return nil
}

// wordNames returns the names a setter's argument may assign: those in its
// text ("*" when the text is known only at run time), and for an option
// those its value may hold (printf -vD, read -aD).
func wordNames(w *syntax.Word) []string {
	l, ok := literal(w, nil)
	if !ok {
		return []string{"*"}
	}
	out := names(l)
	if strings.HasPrefix(l, "-") {
		for i := 2; i < len(l); i++ {
			out = append(out, names(l[i:])...)
		}
	}
	return out
}

var arithAssign = sync.OnceValue(func() map[syntax.BinAritOperator]bool {
	return map[syntax.BinAritOperator]bool{
		syntax.Assgn: true, syntax.AddAssgn: true, syntax.SubAssgn: true, syntax.MulAssgn: true,
		syntax.QuoAssgn: true, syntax.RemAssgn: true, syntax.AndAssgn: true, syntax.OrAssgn: true,
		syntax.XorAssgn: true, syntax.ShlAssgn: true, syntax.ShrAssgn: true, syntax.AndBoolAssgn: true,
		syntax.OrBoolAssgn: true, syntax.XorBoolAssgn: true, syntax.PowAssgn: true,
	}
})

func arithNames(x syntax.ArithmExpr) []string {
	var out []string
	syntax.Walk(x, func(m syntax.Node) bool {
		switch m := m.(type) {
		case *syntax.Lit:
			out = append(out, names(m.Value)...)
		case *syntax.ParamExp, *syntax.CmdSubst, *syntax.SglQuoted, *syntax.DblQuoted:
			out = append(out, "*") // (( $N = 1 )) assigns the name N holds
		}
		return true
	})
	return out
}

// names returns the shell names within s.
func names(s string) []string {
	var out []string
	start := -1
	for i := 0; i <= len(s); i++ {
		c := byte(0)
		if i < len(s) {
			c = s[i]
		}
		word := c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || start >= 0 && c >= '0' && c <= '9'
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			out = append(out, s[start:i])
			start = -1
		}
	}
	return out
}

// poison forgets what the variable holds.
func (sc *scope) poison(name string) {
	if name == "*" {
		sc.forget()
		return
	}
	delete(sc.vals, name)
	switch name {
	case "BASH_ARGV0":
		delete(sc.vals, "0") // bash: assigning it sets $0
	case "BASH_SOURCE":
		delete(sc.vals, "BASH_SOURCE")
	}
}

// forget forgets everything the script knows, and learns nothing more:
// code it did not read may have defined functions named like the commands
// its values rely on (cd, dirname), or set CDPATH.
func (sc *scope) forget() {
	clear(sc.vals)
	sc.off = true
}

// tainted forgets, after a call that may change what the script knows
// unseen, what it may change: for a . or source of a file by a path
// whose content Sourced reads, what the file assigns, which it returns;
// else everything.
func (sc *scope) tainted(call *Call) (read bool) {
	if src, ok := sc.sourcedFile(call); ok {
		if names, ok := SourcedEffects(src); ok {
			for _, n := range names {
				sc.poison(n)
			}
			return true
		}
	}
	sc.forget()
	return false
}

// sourcedFile returns the content of the file a . or source call reads
// by its path, as Sourced gives it; ok is false for another call, or a
// file not read.
func (sc *scope) sourcedFile(call *Call) (src string, ok bool) {
	args := call.Args
	if sc.sourced != nil && len(args) >= 2 && args[0].Lit && (args[0].Text == "." || args[0].Text == "source") &&
		args[1].Lit && strings.Contains(args[1].Text, "/") && !strings.HasPrefix(args[1].Text, "-") && !ofProcess(args[1]) {
		// bash and dash look a bare name up in PATH: only a path is read.
		if p := join(call.Dir, args[1].Text); filepath.IsAbs(p) {
			if sc.files == nil {
				sc.files = map[string]sourcedText{}
			}
			t, seen := sc.files[p]
			if !seen {
				t.src, t.ok = sc.sourced(p)
				sc.files[p] = t
			}
			return t.src, t.ok
		}
	}
	return "", false
}

// sourcedText is a file a script sources, as Sourced read it.
type sourcedText struct {
	src string
	ok  bool
}

// SourcedNames reads the code of a file a script sources for the
// variables it may assign anywhere, in its functions too (which the
// script may call), by the code as written; ok is false when it does not
// parse, or sources, evals or traps code, which may assign any.
func SourcedNames(src string) (names []string, ok bool) {
	f, err := parse(src)
	if err != nil {
		return nil, false
	}
	ok = true
	syntax.Walk(f, func(n syntax.Node) bool {
		if c, isCall := n.(*syntax.CallExpr); isCall {
			switch callName(c) {
			case ".", "source", "eval", "trap":
				ok = false
			}
		}
		return ok
	})
	if !ok {
		return nil, false
	}
	for n := range assignedNames(f.Stmts) {
		if n == "*" {
			return nil, false
		}
		names = append(names, n)
	}
	slices.Sort(names)
	return names, true
}

// prescan forgets, before a top-level statement runs, every variable it
// may assign other than by the straight assignments the walker sets.
func (sc *scope) prescan(s *syntax.Stmt, straight map[*syntax.Assign]bool) {
	syntax.Walk(s, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.FuncDecl:
			return false // read by prepass
		case *syntax.ForClause, *syntax.WhileClause:
			// A loop runs its body again after what it sourced.
			syntax.Walk(n, func(m syntax.Node) bool {
				if c, ok := m.(*syntax.CallExpr); ok && taints(c) {
					sc.forget()
				}
				return true
			})
		}
		for _, name := range assignedBy(n, straight) {
			sc.poison(name)
		}
		// A readonly the straight line does not show makes a later
		// assignment fail, leaving the old value.
		for _, name := range readonlyBy(n, straight) {
			if sc.readonly == nil {
				sc.readonly = map[string]bool{}
			}
			sc.readonly[name] = true
		}
		return true
	})
}

// readonlyBy returns the variables node n may make readonly: readonly,
// declare -r, typeset -r, local -r, and those behind command or builtin,
// other than the straight assignments the caller reads.
func readonlyBy(n syntax.Node, straight map[*syntax.Assign]bool) []string {
	var out []string
	switch n := n.(type) {
	case *syntax.DeclClause:
		ro := n.Variant.Value == "readonly"
		for _, a := range n.Args {
			if a.Name == nil && a.Value != nil && strings.HasPrefix(a.Value.Lit(), "-") && strings.ContainsRune(a.Value.Lit(), 'r') {
				ro = true
			}
		}
		if !ro {
			return nil
		}
		for _, a := range n.Args {
			if a.Name != nil && !straight[a] {
				out = append(out, a.Name.Value)
			}
		}
	case *syntax.CallExpr:
		switch callName(n) {
		case "readonly", "declare", "typeset", "local":
			return assignedBy(n, nil)
		}
	}
	return out
}

// straightAssigns returns the assignments of a top-level statement that
// set a variable for the rest of the script: NAME=value alone, or after
// export or readonly, unconditionally, in the shell itself.
func straightAssigns(s *syntax.Stmt) []*syntax.Assign {
	if s.Negated || s.Background || s.Coprocess {
		return nil
	}
	switch x := s.Cmd.(type) {
	case *syntax.CallExpr:
		if len(x.Args) == 0 {
			return x.Assigns
		}
	case *syntax.DeclClause:
		if x.Variant.Value == "export" || x.Variant.Value == "readonly" {
			for _, a := range x.Args {
				if a.Name == nil {
					return nil // an option
				}
			}
			return x.Args
		}
	}
	return nil
}

// assign sets the straight assignments of a top-level statement, in order,
// each value read with what the earlier ones set.
func (w *walker) assign(s *syntax.Stmt, as []*syntax.Assign, st *state) {
	sc := st.sc
	ro := false
	if d, ok := s.Cmd.(*syntax.DeclClause); ok && d.Variant.Value == "readonly" {
		ro = true
	}
	for _, a := range as {
		name := a.Name.Value
		switch {
		case a.Naked:
			// export NAME, readonly NAME: the value stays.
		case a.Append || a.Index != nil || a.Array != nil || a.Value == nil || sc.readonly[name] || sc.never[name] || sc.off || shellSets(name):
			sc.poison(name)
		default:
			v, ok := w.eval(a.Value, st, true, 0)
			if ok && !strings.ContainsRune(v.s, '\n') && name != "BASH_ARGV0" && name != "BASH_SOURCE" {
				sc.vals[name] = v
			} else {
				sc.poison(name)
			}
		}
		if ro {
			if sc.readonly == nil {
				sc.readonly = map[string]bool{}
			}
			sc.readonly[name] = true
		}
	}
}

// eval returns the value of a word as the shell expands it, when certain:
// quoted is set where the shell neither splits nor globs the result (an
// assignment's value).
func (w *walker) eval(x *syntax.Word, st *state, quoted bool, depth int) (val, bool) {
	var v val
	add := func(p val) bool {
		switch {
		case p.anchor > 0 && v.s != "":
			return false // text before a folder the shell spells otherwise
		case v.anchor > 0 && len(v.s) == v.anchor && p.s != "" && p.s[0] != '/':
			return false // text that lengthens its last component
		case p.anchor > 0:
			v.anchor = p.anchor
		}
		v.s += p.s
		return true
	}
	for i, p := range x.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			s := p.Value
			if !quoted && (isGlob(s) || braceExpands(s)) || strings.ContainsRune(s, '~') && (i == 0 || quoted) {
				return val{}, false
			}
			if strings.Contains(s, `\`) {
				s = unescape(s)
			}
			if !add(val{s: s}) {
				return val{}, false
			}
		case *syntax.SglQuoted:
			v, ok := p.Value, true
			if p.Dollar {
				v, ok = ansiC(v)
			}
			if !ok || !add(val{s: v}) {
				return val{}, false
			}
		case *syntax.DblQuoted:
			if p.Dollar {
				return val{}, false
			}
			for _, q := range p.Parts {
				var r val
				ok := true
				switch q := q.(type) {
				case *syntax.Lit:
					r = val{s: unescapeDouble(q.Value)}
				case *syntax.ParamExp:
					r, ok = w.param(q, st)
				case *syntax.CmdSubst:
					r, ok = w.subst(q, st, depth)
				default:
					ok = false
				}
				if !ok || !add(r) {
					return val{}, false
				}
			}
		case *syntax.ParamExp, *syntax.CmdSubst:
			var r val
			var ok bool
			if pe, isParam := p.(*syntax.ParamExp); isParam {
				r, ok = w.param(pe, st)
			} else {
				r, ok = w.subst(p.(*syntax.CmdSubst), st, depth)
			}
			// Unquoted, the shell splits the value and globs it: certain
			// only for text with none of that, which the shell's spelling
			// of a folder may have.
			if !ok || !quoted && (r.anchor > 0 || r.s == "" || strings.ContainsAny(r.s, " \t\n*?[\\")) || !add(r) {
				return val{}, false
			}
		default:
			return val{}, false
		}
	}
	return v, true
}

// param returns the value of a parameter expansion the scope knows: $NAME,
// ${NAME}, $0, ${BASH_SOURCE[0]}, ${NAME%/*}, ${NAME:-word}.
func (w *walker) param(p *syntax.ParamExp, st *state) (val, bool) {
	if p.Param == nil || p.Excl || p.Length || p.Width || p.Slice != nil || p.Repl != nil ||
		p.Names != 0 || p.NestedParam != nil || p.Flags != nil || len(p.Modifiers) > 0 || p.IsSet {
		return val{}, false
	}
	name := p.Param.Value
	if p.Index != nil {
		if name != "BASH_SOURCE" {
			return val{}, false
		}
		if i, ok := p.Index.(*syntax.Word); !ok || i.Lit() != "0" {
			return val{}, false
		}
	}
	var v val
	var ok bool
	if st.sc != nil {
		v, ok = st.sc.vals[name]
	} else {
		v.s, ok = w.c.workspace.value(p)
		if p.Exp != nil {
			return val{}, false
		}
	}
	if !ok || v.s == "" {
		return val{}, false
	}
	if p.Exp == nil {
		return v, true
	}
	if p.Exp.Op == syntax.DefaultUnsetOrNull || p.Exp.Op == syntax.DefaultUnset {
		return v, true // ${NAME:-word} of a variable known not empty
	}
	if p.Exp.Op != syntax.RemSmallSuffix || p.Exp.Word == nil || p.Exp.Word.Lit() != "/*" {
		return val{}, false
	}
	// ${NAME%/*}: up to the last slash; all of it when there is none.
	i := strings.LastIndexByte(v.s[v.anchor:], '/')
	switch {
	case i >= 0:
		return val{s: v.s[:v.anchor+i], anchor: v.anchor}, true
	case v.anchor > 0:
		return val{}, false // the last slash is in the shell's spelling
	}
	return v, true
}

// subst returns what a command substitution prints, when it is one whose
// output is certain: dirname WORD, or cd WORD && pwd.
func (w *walker) subst(cs *syntax.CmdSubst, st *state, depth int) (val, bool) {
	if st.sc == nil || st.sc.off || depth >= maxSubst || cs.TempFile || cs.ReplyVar {
		return val{}, false
	}
	var calls []*syntax.CallExpr
	plain := func(s *syntax.Stmt) bool {
		return !s.Negated && !s.Background && !s.Coprocess && len(s.Redirs) == 0
	}
	for _, s := range cs.Stmts {
		if !plain(s) {
			return val{}, false
		}
		switch x := s.Cmd.(type) {
		case *syntax.CallExpr:
			calls = append(calls, x)
		case *syntax.BinaryCmd:
			l, lok := x.X.Cmd.(*syntax.CallExpr)
			r, rok := x.Y.Cmd.(*syntax.CallExpr)
			if x.Op != syntax.AndStmt || !lok || !rok || !plain(x.X) || !plain(x.Y) || len(cs.Stmts) != 1 {
				return val{}, false
			}
			calls = append(calls, l, r)
		default:
			return val{}, false
		}
	}
	for _, c := range calls {
		if len(c.Assigns) > 0 || len(c.Args) == 0 {
			return val{}, false
		}
	}
	inner := *st
	inner.sc = st.sc
	switch {
	case len(calls) == 1 && calls[0].Args[0].Lit() == "dirname":
		args := calls[0].Args[1:]
		if len(args) == 2 && args[0].Lit() == "--" {
			args = args[1:]
		}
		if len(args) != 1 {
			return val{}, false
		}
		a, ok := w.eval(args[0], &inner, false, depth+1)
		if !ok || strings.HasPrefix(a.s, "-") && args[0] == calls[0].Args[1] {
			return val{}, false
		}
		return dirnameOf(a)
	case len(calls) == 1 && calls[0].Args[0].Lit() == "pwd":
		for _, a := range calls[0].Args[1:] {
			if l := a.Lit(); l != "-L" && l != "-P" {
				return val{}, false
			}
		}
		if !filepath.IsAbs(st.dir) || Resolve(st.dir) == "/" {
			return val{}, false
		}
		return val{s: st.dir, anchor: len(st.dir)}, true
	case len(calls) == 2 && calls[0].Args[0].Lit() == "cd" && calls[1].Args[0].Lit() == "pwd":
		for _, a := range calls[1].Args[1:] {
			if l := a.Lit(); l != "-L" && l != "-P" {
				return val{}, false
			}
		}
		physical, t, ok := cdArgs(calls[0].Args[1:])
		if !ok {
			return val{}, false
		}
		tv, ok := w.eval(t, &inner, false, depth+1)
		if args := calls[0].Args; !ok || strings.HasPrefix(tv.s, "-") && args[len(args)-2].Lit() != "--" {
			return val{}, false // cd "$D" with D=-P is cd -P, to $HOME
		}
		return st.sc.cd(st.dir, tv, physical)
	}
	return val{}, false
}

// cdArgs reads cd's options: -L and -P, the last of them counting, and
// --; then the one folder.
func cdArgs(args []*syntax.Word) (physical bool, target *syntax.Word, ok bool) {
	for len(args) > 0 {
		switch args[0].Lit() {
		case "-L":
			physical = false
		case "-P":
			physical = true
		case "--":
			args = args[1:]
			if len(args) != 1 {
				return false, nil, false
			}
			return physical, args[0], true
		default:
			if len(args) != 1 {
				return false, nil, false
			}
			if l := args[0].Lit(); strings.HasPrefix(l, "-") {
				return false, nil, false // another option, or cd - to $OLDPWD
			}
			return physical, args[0], true
		}
		args = args[1:]
	}
	return false, nil, false // cd alone goes to $HOME
}

// braceExpands reports whether unquoted text may hold a brace expansion
// of bash ({a,b}, {1..3}): a { with a , or .. and then a } after it. "{}"
// and "-I{}" are left as written.
func braceExpands(s string) bool {
	i := strings.IndexByte(s, '{')
	if i < 0 {
		return false
	}
	rest := s[i+1:]
	j := strings.LastIndexByte(rest, '}')
	return j >= 0 && (strings.ContainsRune(rest[:j], ',') || strings.Contains(rest[:j], ".."))
}

// dirnameOf is POSIX dirname: the path without its last component and
// the slashes around it; "." for a name without a slash, "/" for the
// root. A path that begins with exactly two slashes, whose folder POSIX
// leaves to the system, and the empty path are not certain.
func dirnameOf(a val) (val, bool) {
	if a.s == "" || strings.HasPrefix(a.s, "//") && !strings.HasPrefix(a.s, "///") || strings.ContainsRune(a.s, '\n') {
		return val{}, false
	}
	if a.anchor > 0 {
		t := strings.TrimRight(a.s[a.anchor:], "/")
		i := strings.LastIndexByte(t, '/')
		if i < 0 {
			return val{}, false // the last component is in the shell's spelling
		}
		return val{s: a.s[:a.anchor] + strings.TrimRight(t[:i], "/"), anchor: a.anchor}, true
	}
	return val{s: dirname(a.s)}, true
}

// dirname is POSIX dirname of a path that is not empty.
func dirname(s string) string {
	t := strings.TrimRight(s, "/")
	if t == "" {
		return "/"
	}
	i := strings.LastIndexByte(t, '/')
	if i < 0 {
		return "."
	}
	t = strings.TrimRight(t[:i], "/")
	if t == "" {
		return "/"
	}
	return t
}

// cd returns the folder "cd [-P] t" goes to from the shell's folder dir,
// as a value whose whole text stands for the folder (pwd's answer), when
// certain: the folder is there, and -L (the default), which takes ".." off
// the path as text, reaches the folder -P would, or takes nothing off the
// shell's own spelling of dir. A relative name that does not begin with
// ./ or ../ is looked for in CDPATH first: it is taken as unset, which it
// is unless the user sets it (the workspace cannot); a CDPATH match makes
// cd print the folder, so $(cd x && pwd) would be two lines.
func (sc *scope) cd(dir string, t val, physical bool) (val, bool) {
	if t.s == "" || strings.ContainsRune(t.s, '\n') || strings.HasPrefix(t.s, "//") && !strings.HasPrefix(t.s, "///") {
		return val{}, false
	}
	key := cdKey{dir, t.s, t.anchor, physical}
	if a, ok := sc.cds[key]; ok {
		return a.v, a.ok
	}
	v, ok := cdTo(dir, t, physical, sc.probes)
	if sc.cds == nil {
		sc.cds = map[cdKey]cdAnswer{}
	}
	sc.cds[key] = cdAnswer{v, ok}
	return v, ok
}

func cdTo(dir string, t val, physical bool, probes *[]string) (val, bool) {
	var base, rest string
	switch {
	case t.anchor > 0:
		base, rest = t.s[:t.anchor], t.s[t.anchor:]
	case strings.HasPrefix(t.s, "/"):
		base, rest = "", t.s
	case dir == "" || !filepath.IsAbs(dir):
		return val{}, false
	default:
		base, rest = dir, "/"+t.s
	}
	if rest != "" && !strings.HasPrefix(rest, "/") {
		return val{}, false
	}
	phys := base + rest
	target := phys
	if !physical && hasDotDot(rest) {
		var lexical string
		if base == "" {
			lexical = path.Clean(rest)
		} else {
			rel := path.Clean("." + rest)
			if rel == ".." || strings.HasPrefix(rel, "../") {
				return val{}, false // .. taken off the shell's own spelling
			}
			lexical = base
			if rel != "." {
				lexical += "/" + rel
			}
		}
		if probes != nil {
			*probes = append(*probes, lexical)
		}
		if Resolve(lexical) != Resolve(phys) {
			return val{}, false
		}
		target = lexical
	}
	if probes != nil {
		*probes = append(*probes, phys)
	}
	info, err := os.Stat(phys)
	if err != nil || !info.IsDir() || Resolve(phys) == "/" {
		return val{}, false
	}
	return val{s: target, anchor: len(target)}, true
}

// hasDotDot reports whether a path has a ".." component.
func hasDotDot(p string) bool {
	for _, c := range strings.Split(p, "/") {
		if c == ".." {
			return true
		}
	}
	return false
}

// cdStmt is the folder a script's cd (or pushd) with these arguments goes
// to from dir, as cd does in $(cd WORD && pwd): "" when it cannot be
// known.
func (sc *scope) cdStmt(dir string, args []Word) string {
	physical := false
	for len(args) > 0 && args[0].Lit && (args[0].Text == "-L" || args[0].Text == "-P") {
		physical = args[0].Text == "-P"
		args = args[1:]
	}
	if len(args) > 0 && args[0].Lit && args[0].Text == "--" {
		args = args[1:]
	} else if len(args) > 0 && strings.HasPrefix(args[0].Text, "-") {
		return "" // cd - goes to $OLDPWD; another option
	}
	if len(args) != 1 || !args[0].Lit || sc.off {
		return ""
	}
	v, ok := sc.cd(dir, val{s: args[0].Text, anchor: args[0].anchor}, physical)
	if !ok {
		return ""
	}
	return v.s
}

// String shows what the script knows of how it started, as $0 and
// ${BASH_SOURCE[0]} ("?" for unknown), for a reader's key and tests.
func (s Start) String() string {
	show := func(v val, ok bool) string {
		if !ok {
			return "?"
		}
		return strconv.Quote(v.s) + "@" + strconv.Itoa(v.anchor)
	}
	b := "sh"
	if s.bash {
		b = "bash"
	}
	if s.dirty {
		b += " dirty"
	}
	b += " $0=" + show(s.arg0, s.hasArg0) + " BASH_SOURCE=" + show(s.source, s.hasSource)
	if s.inherit != "" {
		b += " inherits " + s.inherit
	}
	return b
}
