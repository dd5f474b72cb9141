package shellcmd

import (
	"fmt"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/hookctl/hookctl/schema"
)

// A shell runs code it reads from a descriptor as surely as code it reads
// from a file by its name: "sh < f", "sh /dev/stdin < f", ". /dev/fd/3
// 3< f", "sh <<EOF", "bash <<< '. f'", "cat f | sh". Each call knows, for
// the descriptors the command sets up for it, what they read (Input), so
// that the file that feeds such a shell is covered exactly, and any other
// input is named. The paths that name a descriptor (/dev/stdin, /dev/fd/N,
// /proc/self/fd/N) are read as the descriptor, never looked up: in
// hookctl's own process they would name hookctl's own files.

// Input is what one descriptor of a call reads, as the command's
// redirections and pipes set it up.
type Input struct {
	// File is the file it was opened on ("< f", "3< f", or the one file
	// "cat f |" prints into a pipe), as the word that names it.
	File *Word
	// Text is the text of a here-document or a here-string, Lit when the
	// shell reads it as written; nil for other input.
	Text *Word
	// Piped is set for the output of another command of a pipeline.
	Piped bool
	// Why says, for input that is neither, what it is ("descriptor 3,
	// which the command does not open").
	Why string
	// exact and base: the text stands in the command byte for byte from
	// base, so that a here-document's code maps onto the command.
	exact bool
	base  int
}

// inputs are the descriptors a command has set up, by number; a
// descriptor missing is the one the command inherited (0: the agent's
// payload). The map is never changed once made: with returns a copy.
type inputs map[int]Input

func (in inputs) with(fd int, v Input) inputs {
	out := make(inputs, len(in)+1)
	for k, x := range in {
		out[k] = x
	}
	out[fd] = v
	return out
}

// of returns what descriptor fd reads, inherited ones included.
func (in inputs) of(fd int) Input {
	if v, ok := in[fd]; ok {
		return v
	}
	if fd == 0 {
		return Input{}
	}
	return Input{Why: fmt.Sprintf("descriptor %d, which the command does not open", fd)}
}

// descriptor returns the descriptor a path names, as the process that
// opens it: /dev/stdin is 0, /dev/fd/3 and /proc/self/fd/3 are 3; -1 for
// a descriptor of another process (/proc/1234/fd/0). ok is false for any
// other path, the rest of /proc included.
func descriptor(p string) (fd int, ok bool) {
	if !strings.HasPrefix(p, "/") {
		return 0, false
	}
	p = filepath.Clean(p)
	switch p {
	case "/dev/stdin":
		return 0, true
	case "/dev/stdout":
		return 1, true
	case "/dev/stderr":
		return 2, true
	}
	var n string
	switch {
	case strings.HasPrefix(p, "/dev/fd/"):
		n = p[len("/dev/fd/"):]
	case strings.HasPrefix(p, "/proc/self/fd/"):
		n = p[len("/proc/self/fd/"):]
	case strings.HasPrefix(p, "/proc/thread-self/fd/"):
		n = p[len("/proc/thread-self/fd/"):]
	default:
		rest, found := strings.CutPrefix(p, "/proc/")
		pid, fdpart, _ := strings.Cut(rest, "/")
		if found && isNumber(pid) && strings.HasPrefix(fdpart, "fd/") && isNumber(fdpart[3:]) {
			return -1, true
		}
		return 0, false
	}
	if !isNumber(n) || len(n) > 9 {
		return 0, false
	}
	fd, _ = strconv.Atoi(n)
	return fd, true
}

// redirect applies one redirection to in, as the shell does, in the order
// they stand.
func (w *walker) redirect(in inputs, r *syntax.Redirect, st *state) inputs {
	fd := -1
	switch r.Op {
	case syntax.RdrIn, syntax.RdrInOut, syntax.DplIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		fd = 0
	case syntax.RdrAll, syntax.AppAll, syntax.RdrAllClob, syntax.AppAllClob:
		written := Input{Why: "a file it writes"}
		return in.with(1, written).with(2, written)
	default:
		fd = 1
	}
	if r.N != nil {
		if strings.HasPrefix(r.N.Value, "{") {
			return in // {NAME}<f: bash opens a new descriptor, whose number is known only when it runs
		}
		n, err := strconv.Atoi(r.N.Value)
		if err != nil {
			return in
		}
		fd = n
	}
	switch r.Op {
	case syntax.RdrIn, syntax.RdrInOut:
		wd := w.word(r.Word, st)
		if wd.Lit {
			if m, ok := descriptor(wd.Text); ok {
				if m < 0 {
					return in.with(fd, Input{Why: wd.Text + ", a descriptor of another process"})
				}
				return in.with(fd, in.of(m))
			}
			if filepath.IsAbs(wd.Text) && schema.ProcessFile(filepath.Clean(wd.Text)) != "" {
				return in.with(fd, Input{Why: wd.Text + ", which names something of the process that opens it"})
			}
		}
		return in.with(fd, Input{File: &wd})
	case syntax.DplIn, syntax.DplOut:
		wd := w.word(r.Word, st)
		t := strings.TrimSuffix(wd.Text, "-")
		switch {
		case !wd.Lit:
			return in.with(fd, Input{Why: "a descriptor named only when the command runs"})
		case wd.Text == "-":
			return in.with(fd, Input{Why: "a closed descriptor"})
		case isNumber(t):
			m, _ := strconv.Atoi(t)
			out := in.with(fd, in.of(m))
			if strings.HasSuffix(wd.Text, "-") && m != fd {
				out = out.with(m, Input{Why: "a closed descriptor"})
			}
			return out
		case r.Op == syntax.DplOut && r.N == nil:
			// >&file: stdout and stderr to the file.
			written := Input{Why: "a file it writes"}
			return in.with(1, written).with(2, written)
		}
		return in.with(fd, Input{Why: "a descriptor named only when the command runs"})
	case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		text, from, to, exact, ok := hereText(r, w.vars(st))
		f, t := w.mapper.at(from, to)
		v := Input{Text: &Word{Text: text, Lit: ok, From: f, To: t}}
		if exact && w.mapper.exact {
			v.exact, v.base = true, w.mapper.base+from
		}
		return in.with(fd, v)
	}
	return in.with(fd, Input{Why: "a file it writes"})
}

// vars are the variables a here-document's text may use with a value
// known before the command runs.
func (w *walker) vars(st *state) known {
	if st.sc != nil {
		return nil
	}
	return w.c.workspace
}

// at maps offsets in the code the walker reads to offsets in the command.
func (o offsets) at(from, to int) (int, int) {
	if !o.exact {
		return o.from, o.to
	}
	return o.base + from, o.base + to
}

// pipeInput is what the right side of a pipe reads from its left side s:
// the file cat prints, for "cat FILE |", else another command's output.
func (w *walker) pipeInput(s *syntax.Stmt, st *state) Input {
	if c, ok := s.Cmd.(*syntax.CallExpr); ok && !s.Negated && !s.Background && len(s.Redirs) == 0 && len(c.Assigns) == 0 && len(c.Args) == 2 {
		if name, ok := literal(c.Args[0], nil); ok && name == "cat" {
			f := w.word(c.Args[1], st)
			if f.Lit && f.Text != "" && !strings.HasPrefix(f.Text, "-") {
				if _, fd := descriptor(f.Text); !fd && !(filepath.IsAbs(f.Text) && schema.ProcessFile(filepath.Clean(f.Text)) != "") {
					return Input{File: &f}
				}
			}
		}
	}
	return Input{Piped: true}
}

// hereText is the text a here-document or a here-string feeds: from and
// to are its bytes in the code, exact is set when the text stands there
// byte for byte, ok when it holds no expansion other than vars.
func hereText(r *syntax.Redirect, vars known) (text string, from, to int, exact, ok bool) {
	if r.Op == syntax.WordHdoc {
		from, to = int(r.Word.Pos().Offset()), int(r.Word.End().Offset())
		text, ok = literal(r.Word, vars)
		if len(r.Word.Parts) == 1 {
			if q, sq := r.Word.Parts[0].(*syntax.SglQuoted); sq && !q.Dollar {
				from, to, exact = from+1, to-1, true
			}
		}
		return text + "\n", from, to, exact, ok
	}
	if r.Hdoc == nil {
		return "", 0, 0, false, true
	}
	// <<'EOF', <<"EOF" and <<\EOF leave the body as written.
	quoted := r.Word != nil && !isLit(r.Word)
	var raw strings.Builder
	for _, part := range r.Hdoc.Parts {
		l, isLit := part.(*syntax.Lit)
		if !isLit {
			return "", int(r.Hdoc.Pos().Offset()), int(r.Hdoc.End().Offset()), false, false // an expansion
		}
		raw.WriteString(l.Value)
	}
	text = raw.String()
	if !quoted {
		text = unescapeHeredoc(text)
	}
	if r.Op == syntax.DashHdoc {
		text = stripTabs(text)
	}
	from = int(r.Hdoc.Pos().Offset())
	return text, from, from + raw.Len(), r.Op == syntax.Hdoc && text == raw.String(), true
}

// execInputs returns the descriptors the shell has after "exec
// REDIRECTIONS": those the exec set up hold for the rest of it. An exec
// that may not run (in an if, after || or &&) leaves them unknown.
func (w *walker) execInputs(outer, in inputs, st *state) inputs {
	out := outer
	for fd, v := range in {
		if old, ok := outer[fd]; ok && old == v {
			continue
		}
		if st.conditional || st.maybe {
			v = Input{Why: fmt.Sprintf("descriptor %d, which an exec may have opened", fd)}
		}
		out = out.with(fd, v)
	}
	return out
}

// calledInputs are the descriptors of code that runs later, where it is
// called (a function's body, a trap's handler, an alias): its stdin is
// the call's, not known where the code stands.
var calledInputs = inputs{0: {Why: "the input it is called with, known only where it runs"}}

// inputCode reads the code a shell, or a . or source, reads from a
// here-document or a here-string ("sh <<EOF", "bash <<< '. f'", ". /dev/stdin
// <<EOF"), where it stands in the command: what that code runs is the
// command's own. Code it reads from any other descriptor is the reader of
// refs' (fromInput).
func (w *walker) inputCode(call *Call, st *state) {
	fd, interp := codeFd(call)
	if fd < 0 || !(isShell(interp) || interp == "." || interp == "source") {
		return
	}
	in := inputs(call.Inputs).of(fd)
	if in.Text == nil || !in.Text.Lit {
		return
	}
	m := offsets{from: in.Text.From, to: in.Text.To}
	if in.exact {
		m = offsets{base: in.base, exact: true}
	}
	nst := *st
	// What the code reads on its own stdin is the rest of the text, as
	// far as the shell has not read it yet.
	nst.in = st.in.with(fd, Input{Why: "the rest of the here-document its shell reads"})
	w.nestedAt(*in.Text, m, &nst)
}

// ofProcess reports whether a literal word names a file of the process
// that opens it (schema.ProcessFile), which is never looked up.
func ofProcess(w Word) bool {
	return w.Lit && filepath.IsAbs(w.Text) && schema.ProcessFile(filepath.Clean(w.Text)) != ""
}

// fromInput reads what a call runs as code from the path at names, a path
// of the process (a descriptor, /dev/stdin for an interpreter that reads
// its code on stdin): the file that feeds the descriptor is covered as
// role, run by interp, when the command names it; a here-document's code
// is read where it stands (inputCode), a shell's; anything else is named,
// subject saying who reads it, and the path, when written is set (the
// command wrote it), is a Ref marked Process.
func fromInput(call *Call, at Word, role Role, interp, subject string, xargs, written bool, add func(Word, Role, string, ...string), gaps *[]Gap) {
	gap := func(why string) {
		*gaps = append(*gaps, Gap{Word: at, Why: subject + " " + why, Code: true})
		if written {
			add(at, role, interp, processRef)
		}
	}
	fd, ok := descriptor(at.Text)
	switch {
	case !ok:
		gap("reads " + at.Text + ", which names something of the process that opens it, known only when it runs")
		return
	case fd < 0:
		gap("reads its code from " + at.Text + ", a descriptor of another process, known only when it runs")
		return
	case xargs && fd == 0:
		gap("reads its code from the input xargs leaves it, known only when the command runs")
		return
	}
	in := inputs(call.Inputs).of(fd)
	shell := isShell(path.Base(interp)) || interp == "." || interp == "source"
	switch {
	case in.File != nil && in.File.Lit:
		add(*in.File, role, interp)
	case in.File != nil:
		gap("reads its code from a file named only when the command runs")
	case in.Text != nil && !in.Text.Lit:
		gap("runs the code of a here-document built only when the command runs")
	case in.Text != nil && (!shell || role == Program):
		gap("runs the code of a here-document, and what that code loads is not followed")
	case in.Text != nil:
		// Read where it stands.
	case in.Piped:
		gap("runs the code that another command of the pipeline prints")
	case in.Why != "":
		gap("reads its code from " + in.Why)
	case fd == 0:
		gap("reads its code on stdin, where the agent's payload is")
	}
}

// processRef, given as the one alternative of a ref, marks it Process.
const processRef = "\x00process"

// codeFd returns the descriptor from which a call's shell, or its . or
// source, reads the code it runs, and that program's name: -1 when it
// reads none.
func codeFd(call *Call) (int, string) {
	args := call.Args
	i, implied := skipWrappers(args)
	if i >= len(args) || implied != "" || !args[i].Lit {
		return -1, ""
	}
	name := path.Base(args[i].Text)
	switch {
	case name == "." || name == "source":
		j := i + 1
		if j < len(args) && args[j].Lit && args[j].Text == "--" {
			j++
		}
		if j < len(args) && args[j].Lit {
			if fd, ok := descriptor(args[j].Text); ok {
				return fd, name
			}
		}
	case isShell(name):
		var gaps []Gap
		_, fd := interpreterScript(call, i, func(Word, Role, string, ...string) {}, &gaps)
		return fd, name
	}
	return -1, ""
}

// xargsReplaced marks, in the words of a call whose program xargs runs
// with a replacement string (-I R, -iR, --replace=R, BSD's -J R), each word
// after xargs's own that holds it as known only when the command runs:
// xargs puts the lines it reads there ("xargs -a f -I{} sh -c '{}'" runs
// the lines of f as code).
func xargsReplaced(args []Word) {
	prog, _ := skipWrappers(args)
	for k := 0; k < prog && k < len(args); k++ {
		if !args[k].Lit || path.Base(args[k].Text) != "xargs" {
			continue
		}
		var repl []string
		for o := k + 1; o < prog; o++ {
			t := args[o].Text
			switch {
			case t == "--":
				o = prog
			case (t == "-I" || t == "-J") && o+1 < prog:
				repl = append(repl, args[o+1].Text)
				o++
			case strings.HasPrefix(t, "-I") || strings.HasPrefix(t, "-J"):
				repl = append(repl, t[2:])
			case t == "-i" || t == "--replace":
				repl = append(repl, "{}")
			case strings.HasPrefix(t, "-i"):
				repl = append(repl, t[2:])
			case strings.HasPrefix(t, "--replace="):
				repl = append(repl, strings.TrimPrefix(t, "--replace="))
			}
		}
		for _, r := range repl {
			if r == "" {
				continue
			}
			for j := prog; j < len(args); j++ {
				if strings.Contains(args[j].Text, r) {
					args[j].Lit = false
				}
			}
		}
	}
}
