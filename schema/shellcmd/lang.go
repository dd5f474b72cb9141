package shellcmd

import (
	"bytes"
	"path"
	"path/filepath"
	"strings"

	"github.com/hookctl/hookctl/internal/lazyre"
)

// A file is read in the language of the program that runs it, and this
// file is the one place that decides which program that is:
//
//   - a file handed to an interpreter (python3 x, sh x, . x, perl x) is
//     read by that interpreter's reader, whatever its #! line says (but
//     perl, given a file whose #! line names another program, runs that
//     program in its place);
//   - a file started as a program (./x, find -exec ./x) is read as the
//     kernel reads it: a #! line names the program that runs it, and the
//     kernel's call (the interpreter, the line's one argument, the path
//     the file was started by) is read like a command, so that the
//     interpreter and every path on the line are covered like the file;
//   - a file started as a program without a #! line is run by the shell
//     that started it (execve fails with ENOEXEC, and sh, bash and
//     execvp then hand it to a shell), unless it is a compiled program.

// Lang is the language a file's code is read in.
type Lang uint8

// The languages hookctl reads a file in.
const (
	// LangNone: no reader, because the file is no code a reader knows (a
	// compiled program, a script of an interpreter hookctl does not read)
	// or is not run at all.
	LangNone Lang = iota
	LangShell
	LangPython
	LangNode
	LangPerl
	LangRuby
	LangPHP
	LangAwk
	LangMake
)

func (l Lang) String() string {
	switch l {
	case LangShell:
		return "shell"
	case LangPython:
		return "Python"
	case LangNode:
		return "JavaScript"
	case LangPerl:
		return "Perl"
	case LangRuby:
		return "Ruby"
	case LangPHP:
		return "PHP"
	case LangAwk:
		return "awk"
	case LangMake:
		return "make"
	}
	return "none"
}

var (
	perlName = lazyre.New(`^perl[0-9.]*$`)
	rubyName = lazyre.New(`^(ruby|jruby|truffleruby)[0-9.]*$`)
	phpName  = lazyre.New(`^php[0-9.]*(-cli)?$`)
)

// LangOf returns the language the program (a name or a path: its base name
// decides) reads the file it is given in: "." and "source" read shell.
func LangOf(program string) Lang {
	if program == "" {
		return LangNone
	}
	switch name := path.Base(program); {
	case name == "." || name == "source" || isShell(name):
		return LangShell
	case isPython(name):
		return LangPython
	case isNode(name):
		return LangNode
	case perlName().MatchString(name):
		return LangPerl
	case rubyName().MatchString(name):
		return LangRuby
	case phpName().MatchString(name):
		return LangPHP
	case isAwk(name):
		return LangAwk
	case isMake(name):
		return LangMake
	}
	return LangNone
}

// Shebang is a #! line as the Linux kernel reads it (fs/binfmt_script.c,
// load_script): the first 256 bytes of the file (BINPRM_BUF_SIZE); the
// interpreter is the first word after "#!" and blanks (spaces and tabs),
// and the rest of the line, its blanks at both ends trimmed, is one
// argument, however many words it holds. A line longer than the buffer is
// cut at its 255th byte, unless the interpreter's name itself does not
// end within it: then the kernel refuses the line (ENOEXEC).
type Shebang struct {
	// Interp is the interpreter's path as written. The kernel opens it as
	// a path, relative to the folder the process runs in when it does not
	// begin with /; it never searches PATH.
	Interp string
	// Arg is the one optional argument, "" for none.
	Arg string
	// Cut is set when the line is longer than the kernel reads, so that
	// Arg is what remains of it.
	Cut bool
}

// shebangBuf is the kernel's BINPRM_BUF_SIZE.
const shebangBuf = 256

// ReadShebang returns the #! line the kernel runs a file by, and false
// when it runs none: no #! line, or one the kernel refuses (nothing after
// #!, a name longer than its buffer), which makes the shell that started
// the file read it itself.
func ReadShebang(content []byte) (Shebang, bool) {
	var buf [shebangBuf]byte
	copy(buf[:], content)
	if buf[0] != '#' || buf[1] != '!' {
		return Shebang{}, false
	}
	spacetab := func(b byte) bool { return b == ' ' || b == '\t' }
	nonBlank := func(from, to int) int {
		for ; from < to; from++ {
			if !spacetab(buf[from]) {
				return from
			}
		}
		return -1
	}
	terminator := func(from, to int) int {
		for ; from < to; from++ {
			if spacetab(buf[from]) || buf[from] == 0 {
				return from
			}
		}
		return -1
	}
	last := shebangBuf - 1
	end := bytes.IndexByte(buf[:], '\n')
	cut := false
	if end < 0 {
		first := nonBlank(2, last)
		if first < 0 || terminator(first, last) < 0 {
			return Shebang{}, false
		}
		end, cut = last, len(content) > last && bytes.IndexByte(content[:last], 0) < 0
	}
	for end > 2 && spacetab(buf[end-1]) {
		end--
	}
	name := nonBlank(2, end)
	if name < 0 {
		return Shebang{}, false
	}
	cstr := func(b []byte) string {
		if i := bytes.IndexByte(b, 0); i >= 0 {
			b = b[:i]
		}
		return string(b)
	}
	s := Shebang{Cut: cut}
	sep := terminator(name, end)
	if sep < 0 {
		s.Interp = cstr(buf[name:end])
		return s, s.Interp != ""
	}
	s.Interp = cstr(buf[name:sep])
	if buf[sep] != 0 {
		if a := nonBlank(sep, end); a >= 0 {
			s.Arg = cstr(buf[a:end])
		}
	}
	return s, s.Interp != ""
}

// ShebangProgram returns the program a file's #! line runs it with, by
// its base name, past env and its options ("bash" for "#!/usr/bin/env -S
// bash -e"), "" when the kernel runs no #! line.
func ShebangProgram(content []byte) string {
	s, ok := ReadShebang(content)
	if !ok {
		return ""
	}
	words := []string{s.Interp}
	if s.Arg != "" {
		if split, ok := envSplit(path.Base(s.Interp), s.Arg); ok {
			words = append(words, split...)
		} else {
			words = append(words, s.Arg)
		}
	}
	ws := make([]Word, len(words))
	for i, w := range words {
		ws[i] = Word{Text: w, Lit: true}
	}
	i, implied := skipWrappers(ws)
	if implied != "" {
		return implied
	}
	if i >= len(ws) {
		return ""
	}
	return path.Base(ws[i].Text)
}

// envSplit returns the words env makes of a #! line's argument: with -S
// (or -vS, --split-string=), the string after it split as GNU env splits
// it, the options before it kept; ok is false for an argument of env
// without -S (one word), and for a string whose split is not read here
// (a ${VAR} env expands, an escape it may not take).
func envSplit(interp, arg string) ([]string, bool) {
	if interp != "env" {
		return nil, false
	}
	var pre []string
	rest := ""
	switch {
	case strings.HasPrefix(arg, "--split-string="):
		rest = strings.TrimPrefix(arg, "--split-string=")
	case strings.HasPrefix(arg, "-") && !strings.HasPrefix(arg, "--"):
		k := strings.IndexByte(arg, 'S')
		if k < 0 || strings.Trim(arg[1:k], "v") != "" {
			return nil, false
		}
		if k > 1 {
			pre = append(pre, "-"+arg[1:k])
		}
		rest = arg[k+1:]
	default:
		return nil, false
	}
	words, ok := splitString(rest)
	if !ok {
		return nil, false
	}
	return append(pre, words...), true
}

// splitString splits s as GNU env's -S does (coreutils, env.c): blanks
// separate words; '...' is literal but for \\ and \'; "..." takes the
// escapes \" \\ \_ (a space) \f \n \r \t \v; outside quotes \_ separates
// words, \c ends the string and # at the start of a word begins a
// comment. A ${VAR}, which env replaces by the variable's value, and any
// other escape are not read: ok is false.
func splitString(s string) ([]string, bool) {
	var words []string
	var cur strings.Builder
	in := false // a word is open
	flush := func() {
		if in {
			words = append(words, cur.String())
		}
		cur.Reset()
		in = false
	}
	escapes := map[byte]byte{'"': '"', '\\': '\\', '\'': '\'', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t', 'v': '\v'}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == ' ' || ch == '\t' || ch == '\n' || ch == '\v' || ch == '\f' || ch == '\r':
			flush()
		case ch == '#' && !in:
			flush()
			return words, true
		case ch == '$':
			return nil, false
		case ch == '\'':
			in = true
			for i++; ; i++ {
				if i >= len(s) {
					return nil, false
				}
				if s[i] == '\'' {
					break
				}
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '\\' || s[i+1] == '\'') {
					i++
				}
				cur.WriteByte(s[i])
			}
		case ch == '"':
			in = true
			for i++; ; i++ {
				if i >= len(s) {
					return nil, false
				}
				c := s[i]
				if c == '"' {
					break
				}
				if c == '$' {
					return nil, false
				}
				if c == '\\' {
					if i+1 >= len(s) {
						return nil, false
					}
					i++
					switch e, ok := escapes[s[i]]; {
					case s[i] == '_':
						c = ' '
					case ok:
						c = e
					default:
						return nil, false
					}
				}
				cur.WriteByte(c)
			}
		case ch == '\\':
			if i+1 >= len(s) {
				return nil, false
			}
			i++
			switch e, ok := escapes[s[i]]; {
			case s[i] == '_':
				flush()
			case s[i] == 'c':
				flush()
				return words, true
			case ok:
				in = true
				cur.WriteByte(e)
			default:
				return nil, false
			}
		default:
			in = true
			cur.WriteByte(ch)
		}
	}
	flush()
	return words, true
}

// Reading says how a file a ref names is read, given its content: in
// which language, or in its place the command the kernel runs for its #!
// line.
type Reading struct {
	// Lang is the language of the file's own code, LangNone when none is
	// read (see Why, and Kernel).
	Lang Lang
	// Kernel is set for a program started by its #! line: the command the
	// kernel runs in its place (the interpreter, the line's argument, the
	// path the file was started by), in the folder the program runs in.
	// Its files are the interpreter when it is a path the workspace may
	// hold (a relative one, or one inside it), the files on the line, and
	// this file handed to the interpreter.
	Kernel *Command
	// Line is the #! line that made Kernel.
	Line Shebang
	// Why, when not empty, says what runs the file that hookctl does not
	// read: a compiled program, an interpreter without a reader here, a
	// #! line not read exactly. What the file loads that way is not
	// known.
	Why string
}

// Read says how the file the ref names runs, from its content (its first
// bytes are enough for a program). workspace is the workspace root, a
// real path: an absolute #! interpreter outside it is a program of the
// system, which a clone cannot change, read by its name.
func (r Ref) Read(content []byte, workspace string) Reading {
	if r.Role.Runs() && IsBinary(content) {
		// A compiled program, or a compiled addon node loads.
		return Reading{Why: "is a compiled program: what it loads or runs is not read"}
	}
	switch r.Role {
	case Program:
		s, ok := ReadShebang(content)
		if !ok {
			// ENOEXEC: sh, bash and execvp run it with the shell.
			return Reading{Lang: LangShell}
		}
		return kernelReading(r, s, workspace)
	case Script, Module, Code:
		l := LangOf(r.Interpreter)
		if l == LangPerl {
			// perl runs the program a #! line names in its place, when
			// the line does not name perl (perlrun, "#!" and quoting).
			line, _, _ := bytes.Cut(content, []byte("\n"))
			line = bytes.TrimLeft(line, " \t")
			if bytes.HasPrefix(line, []byte("#!")) && !bytes.Contains(line, []byte("perl")) && !bytes.Contains(line, []byte("indir")) {
				return Reading{Why: "is handed to perl, but its #! line names another program, which perl runs in its place: what that program does with it is not read"}
			}
		}
		if l == LangNone {
			return Reading{Why: "is run by " + path.Base(r.Interpreter) + ", whose code hookctl does not read: what it loads is not known"}
		}
		return Reading{Lang: l}
	}
	return Reading{}
}

// kernelReading builds the call the kernel makes for a program's #! line.
func kernelReading(r Ref, s Shebang, workspace string) Reading {
	rd := Reading{Line: s}
	shown := "#!" + s.Interp
	if s.Arg != "" {
		shown += " " + s.Arg
	}
	if s.Cut {
		rd.Why = "has a #! line longer than the 255 bytes Linux reads of it, which cuts it: what it runs is not read"
		return rd
	}
	at := func(t string) Word { return Word{Text: t, Lit: true, From: r.Word.From, To: r.Word.To} }
	interp := at(s.Interp)
	switch {
	case !strings.Contains(s.Interp, "/"):
		// The kernel opens the name in the folder the process runs in.
		interp.Text = "./" + s.Interp
	case filepath.IsAbs(s.Interp) && !insideOf(workspace, Resolve(s.Interp)):
		// A program of the system: read by its name, as the command
		// "env python3" or "python3" would be.
		interp.Text = path.Base(s.Interp)
	}
	args := []Word{interp}
	if s.Arg != "" {
		if words, ok := envSplit(interp.Text, s.Arg); ok {
			for _, w := range words {
				args = append(args, at(w))
			}
		} else {
			if interp.Text == "env" && strings.HasPrefix(s.Arg, "-") {
				rd.Why = "has a #! line (" + shown + ") whose options to env are not read: what it runs is not known"
				return rd
			}
			args = append(args, at(s.Arg))
		}
	}
	if i, _ := skipWrappers(args); i < len(args) && chdirs(args[:i]) {
		rd.Why = "has a #! line (" + shown + ") that changes the folder before it runs the file: what it runs is not read"
		return rd
	}
	args = append(args, r.Word)
	// The program's descriptors are the interpreter's: sh -s reads the
	// file the caller gave the program on stdin.
	call := &Call{Args: args, Dir: r.Call.Dir, Assigns: r.Call.Assigns, Stdin: r.Call.Stdin, Piped: r.Call.Piped,
		Inputs: r.Call.Inputs, Conditional: r.Call.Conditional, Depth: r.Call.Depth,
		unsure: r.Call.unsure || setsEnviron(r.Call, len(r.Call.Args))}
	rd.Kernel = &Command{Src: shown, Calls: []*Call{call}}
	refs, _ := rd.Kernel.Refs()
	for _, k := range refs {
		if k.Role == Script || k.Role == Module || k.Role == Code {
			return rd
		}
	}
	rd.Why = "is started by its #! line (" + shown + "), whose program hookctl does not read: what it does with the file is not known"
	return rd
}

// chdirs reports whether wrappers change the folder of what they run
// (env -C DIR, env --chdir=DIR).
func chdirs(ws []Word) bool {
	env := false
	for _, w := range ws {
		t := w.Text
		switch {
		case path.Base(t) == "env":
			env = true
		case env && (strings.HasPrefix(t, "--chdir") || strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && strings.ContainsRune(t, 'C')):
			return true
		}
	}
	return false
}

// insideOf reports whether the real path p lies in the folder dir.
func insideOf(dir, p string) bool {
	if dir == "" {
		return false
	}
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../") && !filepath.IsAbs(rel)
}

// IsBinary reports whether a file starts like an executable binary
// (ELF, Mach-O or a universal binary), which needs no #! line.
func IsBinary(head []byte) bool {
	if len(head) < 4 {
		return false
	}
	switch string(head[:4]) {
	case "\x7fELF", "\xfe\xed\xfa\xce", "\xfe\xed\xfa\xcf", "\xce\xfa\xed\xfe", "\xcf\xfa\xed\xfe", "\xca\xfe\xba\xbe":
		return true
	}
	return false
}
