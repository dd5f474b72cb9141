// Package shellcmd reads a handler's command the way /bin/sh will run it,
// and says which files it runs: the program, the script handed to an
// interpreter, a Python module, a file fed to a shell on stdin, the code
// of "sh -c '...'" and the folder each part runs in after a "cd".
//
// It is the one reader of commands that lint (does the script exist, is it
// executable), the runtime (may this script run), workspace trust (what
// the fingerprint covers) and import (which words are paths to rebase,
// where each call runs after a cd, which scripts are missing) share, so
// that they can never disagree about what a command runs. What it cannot
// pin down (a program named by a variable, code built at run time, a cd to
// a folder known only at run time) it reports as a Gap rather than
// guessing.
//
// Commands are parsed with mvdan.cc/sh, the parser behind shfmt; a command
// of plain words and blanks, the commonest kind, is split without it.
//
// Two parts have one reader each and still live here. ParseScript
// (script.go), which workspace trust calls on the scripts a hook runs, is
// the same walk as Parse with the values a script computes for its own
// folder ($0, dirname, cd ... && pwd) added: it shares the walker, its
// state and its word evaluation with every other reading, and trust,
// which imports this package, could hold it only with all of them.
// Command.Output (output.go), which lint's literal-answer rule calls, reads
// echo, printf and here-documents with the word evaluation and the
// variables known to this package (literal, hereText): moved to lint it
// would need them exported, and it is where a second reader of literal
// answers (import's translation of echo '{...}') belongs too.
package shellcmd

import (
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"github.com/hookctl/hookctl/schema"
)

// maxNesting bounds how deep "sh -c 'sh -c ...'" is followed.
const maxNesting = 4

// Word is one word of a command.
type Word struct {
	// Text is the word's value when Lit: quotes removed, backslashes
	// resolved, $HOOKCTL_WORKSPACE expanded.
	Text string
	// Lit reports whether the shell leaves the word as written: no
	// variable (other than $HOOKCTL_WORKSPACE), substitution, glob or ~.
	Lit bool
	// From and To are the byte offsets of the word in the command as
	// written, quotes included. A word inside code that the command hands
	// to a shell ("sh -c '...'") points into that code when it is written
	// plainly between quotes, else at the whole code word.
	From, To int
	// anchor is, for a word whose value a script computed from a folder
	// that the shell spells its own way (what pwd prints), the length of
	// the text that stands for that folder.
	anchor int
	// decided says, for a word that is not literal, how its value is
	// decided (decidedBy): by the user, or by what the code computes.
	decided uint8
	// vars are, for a word the user decides, the variables it takes its
	// value from, which a file the code sources may assign after all,
	// each followed by a blank (a Word is compared whole).
	vars string
	// deflt is, for a word the user decides that is one variable with a
	// literal default ("${PYTHON:-python3}"), that default: what runs
	// when the user sets nothing.
	deflt string
}

// Call is one simple command: a program and its arguments, as one of the
// statements of the command runs it.
type Call struct {
	// Args are the words, the program first.
	Args []Word
	// Dir is the folder the call runs in, as the shell sees it: the
	// handler's folder, or the folder a "cd" earlier in the command went
	// to, joined but not cleaned ("dir/../x"), so that Resolve can follow
	// links as the kernel does. It is "" when a cd went somewhere that
	// cannot be known before the command runs.
	Dir string
	// Assigns are the variables the call sets for itself (PATH=./bin x).
	Assigns []string
	// Stdin is the file the call reads on stdin ("< file", "cat file |",
	// or a redirection of a block around it), nil when there is none.
	Stdin *Word
	// Piped is set when the call reads another command's output on stdin
	// (the right side of a pipe).
	Piped bool
	// Inputs are what the descriptors the command sets up for the call
	// read (see Input); one missing is inherited.
	Inputs map[int]Input
	// Conditional is set when the call may not run: it follows || or
	// stands in an if, while, case or function, or after a test.
	Conditional bool
	// Depth is 0 for the command's own calls, 1 for those of "sh -c
	// '...'" in it, and so on.
	Depth int
	// Code is set for a shell given its code with -c as a word that is not
	// literal: the word, so that the reader can tell what built it.
	Code *syntax.Word
	// arg0 is, in a script, what $0 holds when the call runs, nil when
	// unknown: a file the call sources has it as its $0.
	arg0 *val
	// unsure is set when code before the call may have changed the
	// environment, functions or options a script it starts or sources
	// inherits (dirtiesEnv), or the script's own functions may stand for
	// its commands: that script knows nothing of how it started.
	unsure bool
	// fns is set when functions may be defined when the call runs: a
	// file it sources may call one, which may cd.
	fns bool
	// assigned are the variables the code may have assigned when the
	// call runs (walker.assigned), which a script it starts or sources
	// inherits (Start.inherit).
	assigned map[string]bool
	// argv is set for a call that code in another language makes without
	// a shell (Argv).
	argv bool
}

// Command is a handler's command as parsed.
type Command struct {
	// Src is the command as written.
	Src string
	// Err is the parser's error when the text is not shell syntax it
	// reads: then Calls is empty.
	Err error
	// Simple is set for a command of plain words and blanks, which needs
	// no parser.
	Simple bool
	// File is the parsed program, nil for a simple command or one that
	// does not parse.
	File *syntax.File
	// Calls are the simple commands in the order they stand, those of
	// nested shell code and command substitutions included.
	Calls []*Call
	// Gaps name what the command runs that cannot be pinned down.
	Gaps []Gap
	// Probes are the paths whose state the values of a script read by
	// ParseScript depend on (the folders its cds reach), for a reader
	// that records what a reading asked the file system.
	Probes []string

	// workspace holds the values of the variables known before the
	// command runs: $HOOKCTL_WORKSPACE, and those ParseVars is given.
	workspace known
	// start is set for a script (ParseScript): how it was started;
	// sourced reads the files it sources.
	start   *Start
	sourced Sourced
	// fnsDefined is set once a function was defined, which a file
	// sourced after it may call.
	fnsDefined bool
	// sourcedVars are the variables the files a script sources may
	// assign ("*" for any, a file not read), which decide the words
	// that take their value from them.
	sourcedVars map[string]bool
	// cdUnsure is set once a statement of a command (not a script) may
	// have made cd go elsewhere than its word says: it set CDPATH, or ran
	// code it does not show, which may define a function or an alias cd.
	cdUnsure bool
	// envDirty is set once a statement read may have changed what the
	// scripts the command starts inherit (dirtiesEnv).
	envDirty bool
}

// known maps variables to the values they hold when the command runs.
type known map[string]val

// Gap is something a command runs that cannot be known before it runs.
type Gap struct {
	// Word is where it stands in the command.
	Word Word
	// Why says what it is, in a user's words: "runs a program named by a
	// variable".
	Why string
	// Code is set when what runs unknown is code read from a file or text
	// chosen only then (a sourced "$LIB", sh "$(dirname "$0")/x", eval
	// "$(cat x)"), not a program: inside a covered script, such a line
	// runs code no fingerprint holds.
	Code bool
}

// special are the characters that make a command more than words
// separated by blanks; without them the shell splits it at blanks.
const special = "\"'`$\\|&;<>(){}[]*?~#!=\n\r%"

// parsers are reused: making one costs more than parsing a command.
var parsers = sync.Pool{New: func() any { return syntax.NewParser(syntax.Variant(syntax.LangBash)) }}

// Parse reads command as /bin/sh -c will, in the folder dir (the folder
// that holds hooks.json). workspace is what $HOOKCTL_WORKSPACE holds when
// the handler runs, "" when unknown.
func Parse(command, dir, workspace string) *Command {
	var vars known
	if workspace != "" {
		vars = known{"HOOKCTL_WORKSPACE": {s: workspace, anchor: len(workspace)}}
	}
	return (&Command{Src: command, workspace: vars}).parse(dir)
}

// ParseVars is Parse for a command whose variables named in vars hold
// those values when it runs, as import knows the folder another agent's
// $CLAUDE_PROJECT_DIR names: a word that uses them is literal, its
// variables replaced.
func ParseVars(command, dir string, vars map[string]string) *Command {
	v := make(known, len(vars))
	for k, s := range vars {
		v[k] = val{s: s}
	}
	return (&Command{Src: command, workspace: v}).parse(dir)
}

// MaxCommand is the longest command hookctl reads: the longest that
// Linux starts /bin/sh -c with, whose argument string, its closing NUL
// included, may be at most MAX_ARG_STRLEN, 131,072 bytes (execve(2),
// "Limits on size of arguments and environment"). A longer one fails there
// with "Argument list too long" before any of it runs; it is not parsed
// (a hostile file could otherwise hand the parser 16 MiB of one quoted
// word, which cost lint 120 MB) and is a gap of code.
const MaxCommand = 128<<10 - 1

// TooLongError is a command longer than MaxCommand.
type TooLongError struct{ Len int }

func (e *TooLongError) Error() string {
	return fmt.Sprintf("the command is %d bytes, more than the %d bytes Linux starts /bin/sh -c with (one argument, MAX_ARG_STRLEN), so the handler fails there with \"Argument list too long\" before any of it runs; hookctl does not read it", e.Len, MaxCommand)
}

// parse reads c.Src, a command, or a script when c.start is set.
func (c *Command) parse(dir string) *Command {
	command, vars, start := c.Src, c.workspace, c.start
	if start == nil && len(command) > MaxCommand {
		c.Err = &TooLongError{Len: len(command)}
		c.Gaps = append(c.Gaps, Gap{Word: Word{Text: command, To: len(command)}, Code: true,
			Why: fmt.Sprintf("is %d bytes, longer than the %d bytes hookctl reads of a command (the most Linux starts /bin/sh -c with): what it runs is not known", len(command), MaxCommand)})
		return c
	}
	if !strings.ContainsAny(command, special) {
		c.Simple = true
		call := &Call{Dir: dir, Args: fields(command)}
		if len(call.Args) > 0 {
			c.Calls = append(c.Calls, call)
			c.nested(call, 0, dir)
		}
		return c
	}
	f, err := parse(command)
	w := &walker{c: c, mapper: offsets{exact: true}, script: start != nil}
	if f != nil {
		w.assigned = assignedNames(f.Stmts)
	}
	if start != nil && start.inherit != "" {
		if w.assigned == nil {
			w.assigned = map[string]bool{}
		}
		for _, n := range strings.Split(start.inherit, ",") {
			w.assigned[n] = true
		}
	}
	if err != nil {
		c.Err = err
		w.unreadable(command, err, offsets{exact: true}, &state{dir: dir})
		return c
	}
	c.File = f
	if start == nil {
		// A variable the command assigns anywhere no longer holds the
		// value known before it ran.
		c.workspace = withoutAssigned(c.workspace, f.Stmts)
	}
	st := &state{dir: dir}
	if start != nil && start.bash {
		w.numeric = numericVars(f)
	}
	if start != nil {
		st.sc = newScope(vars, start, f, &c.Probes)
		st.sc.sourced = c.sourced
		st.top = true
		w.fn = st.sc.fnScope(vars, f)
	}
	w.moves = scanMoves(f.Stmts)
	w.stmts(f.Stmts, st)
	c.sourcedDecide(w.assigned)
	return c
}

// tainted is the scope's tainted, which also records what a . or source
// of a file may assign (all, when the file is not read).
func (w *walker) tainted(call *Call, st *state) bool {
	read := st.sc.tainted(call)
	if !sources(call) {
		return read
	}
	if w.c.sourcedVars == nil {
		w.c.sourcedVars = map[string]bool{}
	}
	names := []string{"*"}
	if src, ok := st.sc.sourcedFile(call); ok {
		if ns, ok := SourcedNames(src); ok {
			names = ns
		}
	}
	for _, n := range names {
		w.c.sourcedVars[n] = true
	}
	return read
}

// sources reports whether a call is a . or source.
func sources(call *Call) bool {
	for _, a := range call.Args {
		if a.Lit && (a.Text == "command" || a.Text == "builtin") {
			continue
		}
		return a.Lit && (a.Text == "." || a.Text == "source")
	}
	return false
}

// sourcedDecide makes, once the script is read, every word the user
// decides by a variable that a file it sources may assign a word that
// file decides (sourcedVar), and adds those variables to assigned, which
// the scripts it starts inherit.
func (c *Command) sourcedDecide(assigned map[string]bool) {
	if len(c.sourcedVars) == 0 {
		return
	}
	for n := range c.sourcedVars {
		if assigned != nil {
			assigned[n] = true
		}
	}
	for _, call := range c.Calls {
		for i, a := range call.Args {
			if a.Lit || a.decided != chosenByUser {
				continue
			}
			for _, v := range strings.Fields(a.vars) {
				if c.sourcedVars[v] || c.sourcedVars["*"] {
					call.Args[i].decided = sourcedVar
					break
				}
			}
		}
	}
}

// withoutAssigned returns vars without the variables stmts may assign,
// empty when they may assign a name known only at run time.
func withoutAssigned(vars known, stmts []*syntax.Stmt) known {
	if len(vars) == 0 {
		return vars
	}
	out := known{}
	for k, v := range vars {
		out[k] = v
	}
	for _, s := range stmts {
		syntax.Walk(s, func(n syntax.Node) bool {
			for _, name := range assignedBy(n, nil) {
				if name == "*" {
					clear(out)
				}
				delete(out, name)
			}
			return true
		})
	}
	return out
}

// unreadable reads what a shell runs of code that does not parse: the
// shell reads and runs it a line at a time, so the lines before the one
// the parser stopped at run (dash and bash both), and the rest may (the
// parser may lack syntax bash has). The statements that end before that
// line are walked, m mapping their places; the rest is a Gap of code, so
// that trust names it rather than take the whole as running nothing.
func (w *walker) unreadable(src string, err error, m offsets, st *state) {
	line := errLine(err)
	start := 0 // the offset of the line the parser stopped at
	for n := 1; n < line; n++ {
		i := strings.IndexByte(src[start:], '\n')
		if i < 0 {
			break
		}
		start += i + 1
	}
	if line > 1 {
		p := parsers.Get().(*syntax.Parser)
		before, ok := stmtsBefore(p, src, line)
		parsers.Put(p)
		if !ok {
			start, line, err = 0, 1, &TooDeepError{} // none of it is read
		}
		inner := &walker{c: w.c, depth: w.depth, mapper: m, moves: scanMoves(before), assigned: withNames(w.assigned, assignedNames(before))}
		if w.script && w.c.start.bash {
			inner.numeric = numericVars(&syntax.File{Stmts: before})
		}
		if w.script {
			// A script's lines are read as a script's: what they assign,
			// define and source counts as in one that parses.
			f := &syntax.File{Stmts: before}
			st.sc = newScope(w.c.workspace, w.c.start, f, &w.c.Probes)
			st.sc.sourced = w.c.sourced
			st.top = true
			inner.fn = st.sc.fnScope(w.c.workspace, f)
		}
		inner.stmts(before, st)
	}
	from, to := m.from, m.to
	if m.exact {
		from, to = m.base+start, m.base+len(src)
	}
	w.c.Gaps = append(w.c.Gaps, Gap{Word: Word{Text: src[start:], From: from, To: to}, Code: true,
		Why: fmt.Sprintf("holds shell code from its line %d on that hookctl cannot read (%s): what the shell runs from there is not known", max(line, 1), errText(err))})
}

// errLine returns the line a parse error stands at, 0 when it says none.
func errLine(err error) int {
	var pe syntax.ParseError
	if errors.As(err, &pe) {
		return int(pe.Pos.Line())
	}
	var le syntax.LangError
	if errors.As(err, &le) {
		return int(le.Pos.Line())
	}
	return 0
}

// errText is a parse error's message without its place, its start only
// when long: it may quote the code.
func errText(err error) string {
	var pe syntax.ParseError
	if errors.As(err, &pe) {
		return schema.Shorten(pe.Text, 200)
	}
	return schema.Shorten(err.Error(), 200)
}

// ParseSyntax parses src as shell code with the parser Parse uses, for a
// reader that needs the tree or the parser's error (a syntax.ParseError
// with its position) of a command Parse found simple.
func ParseSyntax(src string) (*syntax.File, error) { return parse(src) }

func parse(src string) (*syntax.File, error) {
	p := parsers.Get().(*syntax.Parser)
	defer parsers.Put(p)
	f, err := parseBounded(src, func(r io.Reader) (*syntax.File, error) { return p.Parse(r, "") })
	if err != nil {
		return nil, err
	}
	// The parser takes "() cmd" for a function without a name (zsh's
	// anonymous function), which bash and dash refuse as a syntax error.
	if fd := unnamedFunc(f); fd != nil {
		return nil, syntax.ParseError{Pos: fd.Pos(), Text: "a function needs a name"}
	}
	return f, nil
}

// unnamedFunc returns the first function without a name in n, nil when
// there is none.
func unnamedFunc(n syntax.Node) *syntax.FuncDecl {
	var unnamed *syntax.FuncDecl
	syntax.Walk(n, func(n syntax.Node) bool {
		if fd, ok := n.(*syntax.FuncDecl); ok && fd.Name == nil && unnamed == nil {
			unnamed = fd
		}
		return unnamed == nil
	})
	return unnamed
}

// fields splits a command of plain words at blanks.
func fields(s string) []Word {
	var out []Word
	start := -1
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ' ' || s[i] == '\t' {
			if start >= 0 {
				out = append(out, Word{Text: s[start:i], Lit: true, From: start, To: i})
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	return out
}

// offsets maps positions in nested code to positions in the command.
type offsets struct {
	base int
	// exact is set when the nested code stands in the command byte for
	// byte (plain text between single quotes), so offsets add up;
	// otherwise every word points at the whole code word.
	exact    bool
	from, to int
}

func (o offsets) span(n syntax.Node) (int, int) {
	if !o.exact {
		return o.from, o.to
	}
	return o.base + int(n.Pos().Offset()), o.base + int(n.End().Offset())
}

// state is what the shell knows while it runs a list of statements.
type state struct {
	dir         string
	conditional bool
	// sc is what a script knows of its variables, nil for a command.
	sc *scope
	// top is set for the script's own top-level statements, where an
	// assignment holds for what follows.
	top bool
	// in are the descriptors set up for the code: by redirections of a
	// block around it, a pipe, an exec.
	in inputs
	// maybe is set in the later commands of a && list, which may not run.
	maybe bool
}

type walker struct {
	c      *Command
	depth  int
	mapper offsets
	// fn is the scope of a script's function bodies.
	fn *scope
	// moves is what the code may do to the shell's folder (scanMoves).
	moves moves
	// script is set for the walker of a script's own code (ParseScript).
	script bool
	// cdpathFree and envFree count the statements under way found not to
	// set CDPATH (setsCDPATH), and not to dirty the environment
	// (dirtiesEnv): neither does any statement inside them, so it is not
	// walked again, which for each level of nesting made reading a
	// command quadratic in its depth.
	cdpathFree, envFree int
	// numeric, for the walker of a script bash runs for certain, are the
	// variables it only ever sets to a number; nil for any other code,
	// whose arithmetic is not read (arithGap).
	numeric map[string]bool
	// assigned are the variables the code may assign anywhere (and, for
	// nested code, the code around it), for decidedBy.
	assigned map[string]bool
}

// moves is what code may do to the shell's folder other than by a plain
// cd: any is set when it holds a cd, pushd or popd anywhere, or runs code
// it does not show, so that a function's body, run at its calls, runs in
// a folder not known; fns are the functions it defines, and fnMoves is
// set when one of them may change the folder, which a call to any of them
// then may.
type moves struct {
	any, fnMoves bool
	fns          map[string]bool
}

func scanMoves(stmts []*syntax.Stmt) moves {
	var m moves
	changes := func(n syntax.Node) bool {
		c, ok := n.(*syntax.CallExpr)
		if !ok {
			return false
		}
		if taints(c) {
			return true
		}
		for _, a := range c.Args {
			switch l, _ := literal(a, nil); l {
			case "cd", "pushd", "popd":
				return true
			}
		}
		return false
	}
	for _, s := range stmts {
		syntax.Walk(s, func(n syntax.Node) bool {
			if f, ok := n.(*syntax.FuncDecl); ok {
				if m.fns == nil {
					m.fns = map[string]bool{}
				}
				m.fns[f.Name.Value] = true
				syntax.Walk(f.Body, func(b syntax.Node) bool {
					if changes(b) {
						m.fnMoves = true
					}
					return !m.fnMoves
				})
			}
			if changes(n) {
				m.any = true
			}
			return true
		})
	}
	return m
}

// movesAs reports whether a call may change the shell's folder other than
// as a plain cd: pushd and popd (dash has neither; pushd +1 turns the
// stack), builtin cd or command cd, a function that may cd.
func (w *walker) movesAs(args []Word) bool {
	if len(args) == 0 {
		return false
	}
	switch t := args[0].Text; {
	case !args[0].Lit:
		return false // named at run time: taints
	case t == "pushd" || t == "popd":
		return true
	case t == "builtin" || t == "command":
		for _, a := range args[1:] {
			if a.Text == "cd" || a.Text == "pushd" || a.Text == "popd" {
				return true
			}
		}
	case w.moves.fns[t]:
		return w.moves.fnMoves
	}
	return false
}

func (w *walker) stmts(stmts []*syntax.Stmt, st *state) {
	for _, s := range stmts {
		if !st.top || st.sc == nil {
			w.stmt(s, st)
			continue
		}
		as := straightAssigns(s)
		straight := make(map[*syntax.Assign]bool, len(as))
		for _, a := range as {
			straight[a] = true
		}
		st.sc.prescan(s, straight)
		st.top = false
		w.stmt(s, st)
		st.top = true
		if len(as) > 0 {
			w.assign(s, as, st)
		}
	}
}

// sub returns a copy of st for code that runs apart from the script's
// top level: a subshell, a pipeline, a compound command.
func sub(st *state) state {
	inner := *st
	inner.top = false
	return inner
}

func (w *walker) stmt(s *syntax.Stmt, st *state) {
	if st.sc == nil && !w.c.cdUnsure && w.cdpathFree == 0 {
		if setsCDPATH(s) {
			defer func() { w.c.cdUnsure = true }()
		} else {
			w.cdpathFree++
			defer func() { w.cdpathFree-- }()
		}
	}
	if !w.c.envDirty && w.envFree == 0 {
		if dirtiesEnv(s) {
			// What runs after the statement inherits what it changed; a
			// call's own PATH=... is in its Assigns.
			defer func() { w.c.envDirty = true }()
		} else {
			w.envFree++
			defer func() { w.envFree-- }()
		}
	}
	if w.numeric != nil {
		w.arithGap(s)
	}
	// dash has none of these: they are bash's wherever they stand.
	w.evalGap(s)
	if name := setsCodeVar(s); name != "" {
		from, to := w.mapper.span(s)
		why := "sets " + name + ", which changes what the commands after it run"
		if name == "*" {
			why = "sets a variable it names only when it runs (export \"$k=$v\", export $(cat f)), which may change what the commands after it run (PATH, BASH_ENV)"
		}
		w.c.Gaps = append(w.c.Gaps, Gap{Word: Word{Text: name, From: from, To: to}, Code: true, Why: why})
	}
	in := st.in
	for _, r := range s.Redirs {
		if r.Word != nil {
			w.substs(r.Word, st)
		}
		if r.Hdoc != nil {
			// An unquoted here-document runs its command substitutions.
			w.substs(r.Hdoc, st)
		}
		if r.Word != nil {
			in = w.redirect(in, r, st)
		}
	}
	if s.Cmd == nil {
		return // "< file" alone runs nothing
	}
	if x, ok := s.Cmd.(*syntax.CallExpr); ok {
		// A call's words are expanded before its redirections are made;
		// an exec's redirections hold for the rest of the shell.
		w.call(x, st, in)
		if len(x.Args) == 1 && callName(x) == "exec" && len(s.Redirs) > 0 {
			st.in = w.execInputs(st.in, in, st)
		}
		return
	}
	// A compound command's redirections hold for it alone.
	if len(s.Redirs) > 0 {
		outer := st.in
		st.in = in
		defer func() { st.in = outer }()
	}
	switch x := s.Cmd.(type) {
	case *syntax.BinaryCmd:
		switch x.Op {
		case syntax.Pipe, syntax.PipeAll:
			// Each side of a pipe runs in a subshell of its own.
			left, right := sub(st), sub(st)
			w.stmt(x.X, &left)
			right.in = right.in.with(0, w.pipeInput(x.X, st))
			w.stmt(x.Y, &right)
		case syntax.OrStmt:
			w.stmt(x.X, st)
			after := sub(st)
			after.conditional = true
			w.stmt(x.Y, &after)
			if after.dir != st.dir {
				st.dir = "" // where the shell is now depends on which side ran
			}
		default: // &&
			// Each command of a && list runs in the folder the ones
			// before it left; after the list, the folder is that only
			// when none but the first changed it, as a later one may
			// not have run.
			items := []*syntax.Stmt{x.Y}
			first := x.X
			for {
				b, ok := first.Cmd.(*syntax.BinaryCmd)
				if !ok || b.Op != syntax.AndStmt || first.Negated || first.Background || first.Coprocess || len(first.Redirs) > 0 {
					break
				}
				items = append(items, b.Y)
				first = b.X
			}
			w.stmt(first, st)
			moved := false
			maybe := st.maybe
			st.maybe = true
			for i := len(items) - 1; i >= 0; i-- {
				before := st.dir
				w.stmt(items[i], st)
				moved = moved || st.dir != before
			}
			st.maybe = maybe
			if moved {
				st.dir = ""
			}
		}
	case *syntax.Subshell:
		inner := sub(st)
		w.stmts(x.Stmts, &inner)
	case *syntax.Block:
		w.stmts(x.Stmts, st)
	default:
		// if, while, for, case, [[ ]], functions: what runs depends on
		// the data; their calls count, conditionally.
		inner := sub(st)
		inner.conditional = true
		if fd, ok := x.(*syntax.FuncDecl); ok {
			if fd.Name != nil && (overriding()[fd.Name.Value] || replaced()[fd.Name.Value]) {
				// Every later call of that name runs the function: what
				// the reader takes the builtin to do (source a file, cd)
				// is not what runs.
				from, to := w.mapper.span(fd)
				w.c.Gaps = append(w.c.Gaps, Gap{Word: Word{Text: fd.Name.Value, From: from, To: to}, Code: true,
					Why: "defines a function named " + fd.Name.Value + ", which the shell runs in place of the command of that name wherever the code calls it: what those calls run is not known"})
				w.c.cdUnsure = true
				defer func() { st.dir = "" }()
			}
			if st.sc != nil {
				// A function's body runs at its calls, with what the
				// script knows then.
				inner.sc = w.fn
			}
			if w.moves.any {
				inner.dir = "" // and in the folder the shell is in then
			}
			// and with the descriptors of its call.
			inner.in = calledInputs
			w.c.fnsDefined = true
		}
		syntax.Walk(x, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.Stmt:
				w.stmt(n, &inner)
				return false
			case *syntax.Word:
				w.substs(n, &inner)
				return false
			}
			return true
		})
		if _, fn := x.(*syntax.FuncDecl); !fn && inner.dir != st.dir {
			st.dir = "" // a function's cd runs at its calls (movesAs)
		}
	}
}

func (w *walker) call(x *syntax.CallExpr, st *state, in inputs) {
	for _, a := range x.Assigns {
		if a.Value != nil {
			w.substs(a.Value, st)
		}
	}
	for _, a := range x.Args {
		w.substs(a, st)
	}
	call := &Call{Dir: st.dir, Conditional: st.conditional, Depth: w.depth, Inputs: in,
		unsure: w.c.envDirty || st.sc != nil && st.sc.off, fns: w.c.fnsDefined, assigned: w.assigned}
	if stdin := in.of(0); stdin.File != nil {
		call.Stdin = stdin.File
	} else {
		call.Piped = stdin.Piped
	}
	if st.sc != nil {
		if v, ok := st.sc.vals["0"]; ok {
			call.arg0 = &v
		}
	}
	for _, a := range x.Assigns {
		if a.Name != nil {
			call.Assigns = append(call.Assigns, a.Name.Value)
		}
	}
	for _, a := range x.Args {
		call.Args = append(call.Args, w.word(a, st))
	}
	if len(call.Args) == 0 {
		return
	}
	xargsReplaced(call.Args)
	w.c.Calls = append(w.c.Calls, call)
	// What the call runs as code sees its redirections.
	outer := st.in
	st.in = in
	w.codeArgs(call, st)
	w.inputCode(call, st)
	st.in = outer
	name := call.Args[0]
	switch {
	case name.Lit && name.Text == "cd" && st.sc != nil:
		st.dir = st.sc.cdStmt(st.dir, call.Args[1:])
	case name.Lit && name.Text == "cd" && !w.c.cdUnsure && !slices.Contains(call.Assigns, "CDPATH"):
		st.dir = cdTarget(st.dir, call.Args[1:])
	case name.Lit && name.Text == "cd":
		st.dir = ""
	case w.movesAs(call.Args):
		// pushd and popd (dash has neither; pushd +1 turns the stack),
		// builtin cd, command cd, a function that may cd.
		st.dir = ""
	case name.Lit && (name.Text == "[" || name.Text == "test"):
		// What follows a test runs only when it passes.
		st.conditional = true
	}
	if st.sc != nil && callTaints(call) && (!w.tainted(call, st) || w.moves.fnMoves) {
		// Code not read may have changed the folder; a sourced file
		// read may call a function of the script's that may cd.
		st.dir = ""
	}
	if st.sc == nil && callTaints(call) {
		// eval 'cd x', $X with X=cd, alias, trap, a sourced file (not
		// read here, so it may cd): the folder, and what a later cd
		// does, are not known.
		st.dir = ""
		w.c.cdUnsure = true
	}
	i, code := shellCode(call.Args)
	if i < 0 {
		return
	}
	if code.Lit {
		nst := *st
		nst.in = in
		if w.c.envDirty || setsEnviron(call, i) {
			// BASH_ENV, an exported function, may cd before the code runs.
			nst.dir = ""
		}
		w.nestedCode(code, x.Args[i], &nst)
		return
	}
	call.Code = x.Args[i]
}

// setsCDPATH reports whether a statement may assign CDPATH.
func setsCDPATH(s *syntax.Stmt) bool {
	found := false
	syntax.Walk(s, func(n syntax.Node) bool {
		for _, name := range assignedBy(n, nil) {
			found = found || name == "CDPATH" || name == "*"
		}
		return !found
	})
	return found
}

// cdTarget is the folder a cd with these arguments goes to from dir, ""
// when it cannot be known.
func cdTarget(dir string, args []Word) string {
	for len(args) > 0 && (args[0].Text == "-L" || args[0].Text == "-P" || args[0].Text == "--") && args[0].Lit {
		args = args[1:]
	}
	if dir == "" || len(args) != 1 || !args[0].Lit || args[0].Text == "-" || args[0].Text == "" {
		return "" // cd alone goes to $HOME; cd - to $OLDPWD
	}
	t := args[0].Text
	if strings.HasPrefix(t, "/") {
		return t
	}
	return dir + "/" + t
}

// nestedCode reads the literal code given to a shell with -c.
func (w *walker) nestedCode(code Word, node *syntax.Word, st *state) {
	m := offsets{from: code.From, to: code.To}
	if len(node.Parts) == 1 {
		if q, ok := node.Parts[0].(*syntax.SglQuoted); ok && !q.Dollar && w.mapper.exact {
			m = offsets{base: w.mapper.base + int(q.Pos().Offset()) + 1, exact: true}
		}
	}
	w.nestedAt(code, m, st)
}

// nestedAt reads code that a shell runs, m mapping its places onto the
// command.
func (w *walker) nestedAt(code Word, m offsets, st *state) {
	if w.depth >= maxNesting {
		return
	}
	f, err := parse(code.Text)
	inner := &walker{c: w.c, depth: w.depth + 1, mapper: m, assigned: w.assigned}
	if err == nil {
		inner.assigned = withNames(w.assigned, assignedNames(f.Stmts))
	}
	// The nested shell starts where the call runs; its cds are its own,
	// and its $0 is not the script's.
	nst := sub(st)
	nst.sc = nil
	if err != nil {
		inner.unreadable(code.Text, err, m, &nst)
		return
	}
	inner.moves = scanMoves(f.Stmts)
	inner.stmts(f.Stmts, &nst)
}

// codeArgs reads the code that eval, trap and alias are given: eval runs
// it in the shell, there and then; a trap's handler and an alias's value
// run later, in a folder not known.
func (w *walker) codeArgs(call *Call, st *state) {
	args := call.Args
	i := 0
	for i < len(args) && args[i].Lit && (args[i].Text == "command" || args[i].Text == "builtin") {
		i++
	}
	if i >= len(args) || !args[i].Lit {
		return
	}
	rest := args[i+1:]
	later := sub(st)
	later.dir, later.conditional, later.in = "", true, calledInputs
	built := func(a Word, what string) {
		w.c.Gaps = append(w.c.Gaps, Gap{Word: a, Why: what + " code built only when the command runs", Code: true})
	}
	switch args[i].Text {
	case "eval":
		var texts []string
		for _, a := range rest {
			if !a.Lit {
				return // named by the reader of refs
			}
			texts = append(texts, a.Text)
		}
		if len(texts) > 0 {
			now := sub(st)
			w.nestedCode(Word{Text: strings.Join(texts, " "), Lit: true, From: rest[0].From, To: rest[len(rest)-1].To}, &syntax.Word{}, &now)
		}
	case "trap":
		if len(rest) > 0 && rest[0].Lit && rest[0].Text == "--" {
			rest = rest[1:]
		}
		switch {
		case len(rest) < 2 || rest[0].Lit && strings.HasPrefix(rest[0].Text, "-"):
		case !rest[0].Lit:
			built(rest[0], "trap runs")
		default:
			w.nestedCode(rest[0], &syntax.Word{}, &later)
		}
	case "alias":
		for _, a := range rest {
			switch _, v, ok := strings.Cut(a.Text, "="); {
			case !a.Lit:
				built(a, "alias defines")
			case ok:
				w.nestedCode(Word{Text: v, Lit: true, From: a.From, To: a.To}, &syntax.Word{}, &later)
			}
		}
	}
}

// nested reads the -c code of a simple command's shell, which needs the
// parser after all.
func (c *Command) nested(call *Call, depth int, dir string) {
	i, code := shellCode(call.Args)
	if i < 0 || !code.Lit {
		return
	}
	w := &walker{c: c, depth: depth, mapper: offsets{from: code.From, to: code.To}}
	w.nestedCode(code, &syntax.Word{}, &state{dir: dir})
}

// substs walks the command substitutions inside a word: they run in
// subshells of their own, conditionally on nothing.
func (w *walker) substs(word *syntax.Word, st *state) {
	syntax.Walk(word, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst:
			inner := sub(st)
			w.stmts(n.Stmts, &inner)
			return false
		case *syntax.ProcSubst:
			inner := sub(st)
			w.stmts(n.Stmts, &inner)
			return false
		}
		return true
	})
}

// defaultOf returns the literal default of a word the user decides that
// is one variable with one (${X:-lit}, ${X-lit}, quoted or not), "" for
// any other.
func defaultOf(x *syntax.Word, decided uint8) string {
	if decided != chosenByUser || len(x.Parts) != 1 {
		return ""
	}
	part := x.Parts[0]
	if q, ok := part.(*syntax.DblQuoted); ok && len(q.Parts) == 1 {
		part = q.Parts[0]
	}
	p, ok := part.(*syntax.ParamExp)
	if !ok || p.Exp == nil || p.Exp.Word == nil || (p.Exp.Op != syntax.DefaultUnset && p.Exp.Op != syntax.DefaultUnsetOrNull) {
		return ""
	}
	if v, ok := literal(p.Exp.Word, nil); ok {
		return v
	}
	return ""
}

func (w *walker) word(x *syntax.Word, st *state) Word {
	from, to := w.mapper.span(x)
	var wd Word
	if st.sc != nil {
		v, ok := w.eval(x, st, false, 0)
		wd = Word{Text: v.s, Lit: ok, From: from, To: to, anchor: v.anchor}
	} else {
		text, ok := literal(x, w.c.workspace)
		wd = Word{Text: text, Lit: ok, From: from, To: to}
		if ok && len(w.c.workspace) > 0 {
			wd.anchor = spelled(x, text, w.c.workspace)
		}
	}
	if !wd.Lit {
		wd.decided, wd.vars = decidedBy(x, w.assigned)
		wd.deflt = defaultOf(x, wd.decided)
	}
	return wd
}

// spelled returns, for a word literal read, how much of its text stands
// for a folder a known variable names ($HOOKCTL_WORKSPACE), which the
// shell may spell otherwise: the value's length when the variable begins
// the word and a slash or the end follows, -1 when a variable stands
// elsewhere, 0 for none.
func spelled(x *syntax.Word, text string, vars known) int {
	var parts []syntax.WordPart
	for _, p := range x.Parts {
		if q, ok := p.(*syntax.DblQuoted); ok {
			parts = append(parts, q.Parts...)
			continue
		}
		parts = append(parts, p)
	}
	n := 0
	for i, p := range parts {
		pe, ok := p.(*syntax.ParamExp)
		if !ok {
			continue
		}
		v, _ := vars.value(pe)
		if i > 0 || len(text) > len(v) && text[len(v)] != '/' {
			return -1
		}
		n = len(v)
	}
	return n
}

// shellCode returns, for a call that runs a shell with -c (past wrappers
// such as env, timeout or nice), the index and word of the code, else -1.
func shellCode(args []Word) (int, Word) {
	i, _ := skipWrappers(args)
	if i >= len(args) || !args[i].Lit || !shells()[path.Base(args[i].Text)] {
		return -1, Word{}
	}
	option := func(a Word) bool {
		return a.Lit && len(a.Text) > 1 && (a.Text[0] == '-' || a.Text[0] == '+') && a.Text != "--"
	}
	for j := i + 1; j < len(args); j++ {
		a := args[j]
		if !option(a) {
			return -1, Word{}
		}
		if shellOptValue(a.Text) {
			j++ // -o posix, -euo pipefail, -O extglob, --rcfile FILE
			continue
		}
		if strings.HasPrefix(a.Text, "--") || a.Text[0] == '+' {
			continue
		}
		if strings.ContainsRune(a.Text[1:], 'c') {
			// The code is the first word after the options.
			for k := j + 1; k < len(args); k++ {
				if option(args[k]) {
					if shellOptValue(args[k].Text) {
						k++
					}
					continue
				}
				if args[k].Lit && args[k].Text == "--" {
					continue
				}
				return k, args[k]
			}
			return -1, Word{}
		}
	}
	return -1, Word{}
}

// literal returns the value of a word the shell leaves as written: plain
// text, quotes, backslashes, and the variables known before it runs, such
// as $HOOKCTL_WORKSPACE, which every handler receives.
func literal(w *syntax.Word, vars known) (string, bool) {
	var b strings.Builder
	for i, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			v := p.Value
			if isGlob(v) || (i == 0 && strings.HasPrefix(v, "~")) {
				return "", false
			}
			if strings.Contains(v, `\`) {
				v = unescape(v)
			}
			b.WriteString(v)
		case *syntax.SglQuoted:
			v := p.Value
			if p.Dollar {
				// $'\x73h' is sh: bash's ANSI-C quoting.
				var ok bool
				if v, ok = ansiC(v); !ok {
					return "", false
				}
			}
			b.WriteString(v)
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", false
			}
			for _, q := range p.Parts {
				switch q := q.(type) {
				case *syntax.Lit:
					b.WriteString(unescapeDouble(q.Value))
				case *syntax.ParamExp:
					v, ok := vars.value(q)
					if !ok {
						return "", false
					}
					b.WriteString(v)
				default:
					return "", false
				}
			}
		case *syntax.ParamExp:
			v, ok := vars.value(p)
			if !ok {
				return "", false
			}
			b.WriteString(v)
		default:
			return "", false
		}
	}
	return b.String(), true
}

// ansiC returns the text of bash's $'...' quoting (its escapes: \a, \n,
// \\, \', \NNN in octal, \xHH, \uHHHH, \UHHHHHHHH, \cX, ...), false for
// one it does not read.
func ansiC(v string) (string, bool) {
	if !strings.Contains(v, `\`) {
		return v, true
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] != '\\' {
			b.WriteByte(v[i])
			continue
		}
		i++
		if i >= len(v) {
			b.WriteByte('\\')
			break
		}
		if e, ok := controlEscape(v[i]); ok {
			b.WriteByte(e)
			continue
		}
		switch c := v[i]; c {
		case 'e', 'E':
			b.WriteByte(0x1b)
		case '\\', '\'', '"', '?':
			b.WriteByte(c)
		case '0', '1', '2', '3', '4', '5', '6', '7':
			n, k := escDigits(v[i:], 3, false)
			b.WriteByte(byte(n))
			i += k - 1
		case 'x', 'u', 'U':
			max := 2
			switch c {
			case 'u':
				max = 4
			case 'U':
				max = 8
			}
			i++
			n, k := escDigits(v[i:], max, true)
			if k == 0 {
				return "", false
			}
			if c == 'x' {
				b.WriteByte(byte(n))
			} else {
				b.WriteRune(rune(n))
			}
			i += k - 1
		default:
			return "", false // \cX and what bash leaves as written
		}
	}
	return b.String(), true
}

// escDigits reads the value of the up to max octal digits, or hex ones,
// that v begins with, and how many there are.
func escDigits(v string, max int, hex bool) (uint64, int) {
	n, k := uint64(0), 0
	for ; k < max && k < len(v); k++ {
		c := v[k]
		var d uint64
		switch {
		case c >= '0' && c <= '7', hex && c >= '8' && c <= '9':
			d = uint64(c - '0')
		case hex && c >= 'a' && c <= 'f':
			d = uint64(c-'a') + 10
		case hex && c >= 'A' && c <= 'F':
			d = uint64(c-'A') + 10
		default:
			return n, k
		}
		if hex {
			n = n*16 + d
		} else {
			n = n*8 + d
		}
	}
	return n, k
}

// isGlob reports whether unquoted text holds a pattern the shell expands:
// * or ?, or a [ with a ] after it ("[" alone is the test command).
func isGlob(v string) bool {
	if strings.ContainsAny(v, "*?") {
		return true
	}
	i := strings.IndexByte(v, '[')
	return i >= 0 && strings.IndexByte(v[i+1:], ']') >= 0
}

// value returns what a plain $NAME or ${NAME} of a known variable holds.
func (vars known) value(p *syntax.ParamExp) (string, bool) {
	if p.Param == nil || p.Excl || p.Length || p.Width || p.Index != nil || p.Slice != nil || p.Repl != nil ||
		p.Exp != nil || p.Names != 0 || p.NestedParam != nil {
		return "", false
	}
	v, ok := vars[p.Param.Value]
	return v.s, ok && v.s != ""
}

// unescape drops the backslashes of an unquoted word, as the shell does.
func unescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			if s[i] == '\n' {
				continue // a line continuation
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// unescapeDouble resolves the backslashes that double quotes honour:
// before $, `, ", \ and a newline.
func unescapeDouble(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
