package oracle

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Way is how a process took in a file that may be code.
type Way string

const (
	// Exec: the file was started by execve (the program, or a #! script).
	Exec Way = "executed"
	// Interp: the file is the interpreter a #! line names.
	Interp Way = "#! interpreter"
	// Opened: an interpreter read a file it opened by its path.
	Opened Way = "opened and read"
	// Alias: an interpreter read a file it opened through a descriptor's
	// name, /dev/stdin, /dev/fd/N or /proc/self/fd/N.
	Alias Way = "read through a descriptor's name"
	// Stdin: an interpreter read its program on stdin, and stdin was the file.
	Stdin Way = "read as its program on stdin"
	// Mapped: a process mapped the file as executable code (a shared
	// library, an extension module).
	Mapped Way = "mapped as code"
	// Redirected: an interpreter read the file on a descriptor a
	// redirection gave it (read x < f, python3 x.py < f), not as its
	// program.
	Redirected Way = "read on a redirected descriptor"
)

// Load is one file of the workspace a process executed, mapped or read.
type Load struct {
	// Path is the file's absolute real path, as the kernel resolved it.
	Path string
	Way  Way
	// Via is the name the process gave: the path it executed or opened.
	Via string
	// Proc is the process that took the file in, as it was then.
	Proc Image
}

// Image is a process running one program: its pid, the real path of the
// program's file (the interpreter of a #! script) and its arguments.
type Image struct {
	Pid  int
	Exe  string
	Argv []string
	// Script is the #! script the image runs, when it runs one.
	Script string
}

// Name is the program's name, its file's base name: "dash",
// "python3.11", "node".
func (im Image) Name() string { return filepath.Base(im.Exe) }

// Text is code an interpreter took in from somewhere other than a file of
// the workspace: the code of sh -c, python3 -c, node -e, perl -e, ruby -e
// or awk's program argument, or what it read from a pipe or another file
// as its program, or from a pipe a command substitution reads.
type Text struct {
	Text string
	// From says where it came from ("argument -c", "pipe:[123]").
	From string
	// Program tells text the interpreter read as its program on stdin.
	Program bool
	Proc    Image
}

// Trace is what a traced run did to the workspace.
type Trace struct {
	// Images are every program the run started, in order.
	Images []Image
	Loads  []Load
	Texts  []Text
	// Unread are the traced calls strace printed in a way the oracle could
	// not read, each with why.
	Unread []string
}

type fdKind int

const (
	fdUnknown fdKind = iota // inherited or made by pipe(), socket()
	fdOpened
	fdRedirected
)

type fdesc struct {
	path string
	via  string
	id   int
	kind fdKind
	// read tells that the process read from it.
	read bool
}

type proc struct {
	Image
	cwd string
	fds map[int]*fdesc
	// program is the description the process reads its program from on
	// stdin (sh < f, cat f | sh, python3 -), 0 when none.
	program int
}

type analyzer struct {
	root  string
	procs map[int]*proc
	ids   int
	tr    *Trace
}

// Analyze reads the calls of a run started in dir (an absolute real path)
// and returns what the run executed, mapped and read inside root.
func Analyze(calls []*Call, root, dir string) *Trace {
	a := &analyzer{root: root, procs: map[int]*proc{}, tr: &Trace{}}
	// strace prints a call when it returns: a child's first calls may
	// come before the clone that made it returns in its parent (a vfork
	// returns once the child has called execve). The parent is in the
	// clone until then, so the child starts from the parent as it is when
	// the child's first call shows.
	parents := map[int]*Call{}
	for _, c := range calls {
		if isClone(c) {
			parents[int(c.Val)] = c
		}
	}
	for _, c := range calls {
		p := a.procs[c.Pid]
		if p == nil {
			if cl := parents[c.Pid]; cl != nil && a.procs[cl.Pid] != nil {
				a.start(a.procs[cl.Pid], cl)
				p = a.procs[c.Pid]
			} else {
				// The first process, or one whose start was not seen.
				p = &proc{Image: Image{Pid: c.Pid}, cwd: dir, fds: map[int]*fdesc{}}
				a.procs[c.Pid] = p
			}
		}
		if len(c.Args) > 0 {
			if n, path, ok := FD(c.Args[0]); ok && n == -100 {
				p.cwd = path
			}
		}
		a.call(p, c)
	}
	return a.tr
}

func (a *analyzer) newID() int { a.ids++; return a.ids }

// isClone tells a call that started a process or a thread, in its parent.
func isClone(c *Call) bool {
	switch c.Name {
	case "clone", "clone3", "fork", "vfork":
		return c.OK() && c.Val > 0
	}
	return false
}

// start makes the process or thread the clone c of p started: a thread
// is its process, a child process a copy of its parent.
func (a *analyzer) start(p *proc, c *Call) {
	child := int(c.Val)
	if strings.Contains(strings.Join(c.Args, ","), "CLONE_THREAD") {
		a.procs[child] = p
		return
	}
	q := &proc{Image: p.Image, cwd: p.cwd, fds: make(map[int]*fdesc, len(p.fds)), program: p.program}
	q.Pid = child
	for n, d := range p.fds {
		cp := *d
		q.fds[n] = &cp
	}
	a.procs[child] = q
}

func (a *analyzer) inside(p string) bool {
	return strings.HasPrefix(p, a.root+string(filepath.Separator))
}

func (a *analyzer) call(p *proc, c *Call) {
	switch c.Name {
	case "?":
		a.tr.Unread = append(a.tr.Unread, c.Ret)
	case "execve", "execveat":
		if c.OK() {
			a.exec(p, c)
		}
	case "clone", "clone3", "fork", "vfork":
		if isClone(c) && a.procs[int(c.Val)] == nil {
			a.start(p, c)
		}
	case "open", "openat", "openat2", "creat":
		if !c.OK() {
			return
		}
		via := ""
		for _, arg := range c.Args {
			if s, ok := Str(arg); ok {
				via = s
				break
			}
		}
		p.fds[int(c.Val)] = &fdesc{path: c.Path, via: via, id: a.newID(), kind: fdOpened}
	case "dup", "fcntl":
		if !c.OK() || len(c.Args) < 1 {
			return
		}
		if c.Name == "fcntl" && len(c.Args) == 2 && c.Args[1] == "F_GETFD" && Interpreter(p.Name(), p.Argv).Shell {
			// bash opens the file of "exec 3< f" right at 3 when 3 is
			// free, and then asks for its flags: that is a redirection,
			// where the file of ". f" is opened, measured and read.
			if d := a.fd(p, c.Args[0]); d.kind == fdOpened && !d.read {
				d.kind = fdRedirected
			}
			return
		}
		if c.Name == "fcntl" && (len(c.Args) < 2 || !strings.HasPrefix(c.Args[1], "F_DUPFD")) {
			return
		}
		old := a.fd(p, c.Args[0])
		cp := *old
		p.fds[int(c.Val)] = &cp
	case "dup2", "dup3":
		if !c.OK() || len(c.Args) < 2 {
			return
		}
		old := a.fd(p, c.Args[0])
		n, _, ok := FD(c.Args[1])
		if !ok {
			v, err := strconv.Atoi(c.Args[1])
			if err != nil {
				return
			}
			n = v
		}
		cp := *old
		if n <= 9 {
			cp.kind = fdRedirected
		}
		p.fds[n] = &cp
	case "chdir":
		if c.OK() && len(c.Args) == 1 {
			if s, ok := Str(c.Args[0]); ok {
				p.cwd = a.resolve(p, s)
			}
		}
	case "fchdir":
		if c.OK() && len(c.Args) == 1 {
			if _, path, ok := FD(c.Args[0]); ok {
				p.cwd = path
			}
		}
	case "read", "pread64", "readv", "preadv", "preadv2":
		if len(c.Args) < 2 {
			return
		}
		a.read(p, c)
	case "mmap":
		if !c.OK() || len(c.Args) < 5 || !strings.Contains(c.Args[2], "PROT_EXEC") {
			return
		}
		if _, path, ok := FD(c.Args[4]); ok && a.inside(path) {
			a.tr.Loads = append(a.tr.Loads, Load{Path: path, Way: Mapped, Via: path, Proc: p.snapshot()})
		}
	}
}

// fd returns the process's entry for a descriptor argument, making one
// for a descriptor whose start was not seen (inherited, a pipe).
func (a *analyzer) fd(p *proc, arg string) *fdesc {
	n, path, ok := FD(arg)
	if !ok {
		v, err := strconv.Atoi(arg)
		if err != nil {
			return &fdesc{id: a.newID()}
		}
		n = v
	}
	d := p.fds[n]
	switch {
	case d == nil || (ok && d.path != "" && d.path != path):
		d = &fdesc{path: path, id: a.newID()}
		p.fds[n] = d
	case ok && d.path == "":
		// An inherited descriptor, first seen at the exec that reads
		// its program on it.
		d.path = path
	}
	return d
}

func (p *proc) snapshot() Image {
	im := p.Image
	im.Argv = append([]string(nil), p.Argv...)
	return im
}

func (a *analyzer) read(p *proc, c *Call) {
	d := a.fd(p, c.Args[0])
	d.read = true
	interp := Interpreter(p.Name(), p.Argv)
	regular := strings.HasPrefix(d.path, "/") && !strings.HasPrefix(d.path, "/dev/") && !strings.HasPrefix(d.path, "/proc/")
	if regular && a.inside(d.path) {
		if !interp.Reads() {
			return
		}
		way := Opened
		switch {
		case p.program != 0 && d.id == p.program:
			way = Stdin
		case d.kind == fdOpened && isAlias(d.via):
			way = Alias
		case d.kind == fdRedirected:
			way = Redirected
		}
		a.tr.Loads = append(a.tr.Loads, Load{Path: d.path, Way: way, Via: d.via, Proc: p.snapshot()})
		return
	}
	if !interp.Evaluates() || c.Val <= 0 || c.Name != "read" && c.Name != "pread64" {
		return
	}
	program := p.program != 0 && d.id == p.program
	alias := d.kind == fdOpened && isAlias(d.via)
	pipe := strings.HasPrefix(d.path, "pipe:") || strings.HasPrefix(d.path, "socket:")
	// A file the run wrote outside the workspace (cp f /tmp/x; sh /tmp/x,
	// a here-document bash keeps in a file) may hold what it copied.
	temp := regular && d.kind == fdOpened && strings.HasPrefix(d.path, tempDir+string(filepath.Separator))
	if !program && !alias && !temp && !(pipe && d.kind == fdUnknown) {
		return
	}
	s, ok := Str(c.Args[1])
	if !ok {
		return
	}
	if int64(len(s)) > c.Val {
		s = s[:c.Val]
	}
	a.tr.Texts = append(a.tr.Texts, Text{Text: s, From: d.path, Program: program, Proc: p.snapshot()})
}

// tempDir is where programs write the files they make for a while.
var tempDir = filepath.Clean(os.TempDir())

var aliasRE = regexp.MustCompile(`^/(dev/(stdin|fd/\d+)|proc/(self|thread-self|\d+)/(task/\d+/)?fd/\d+)$`)

// isAlias tells a path that names a descriptor, not a file: /dev/stdin,
// /dev/fd/3, /proc/self/fd/0.
func isAlias(p string) bool { return aliasRE.MatchString(filepath.Clean(p)) }

// resolve resolves a path given by the process as the kernel does: from
// its folder, links first, then "..". A name of a descriptor is the
// descriptor's file.
func (a *analyzer) resolve(p *proc, name string) string {
	if isAlias(name) {
		m := aliasRE.FindStringSubmatch(filepath.Clean(name))
		n := 0
		if m[2] != "stdin" {
			n, _ = strconv.Atoi(name[strings.LastIndexByte(name, '/')+1:])
		}
		if d := p.fds[n]; d != nil {
			return d.path
		}
		return name
	}
	full := name
	if !strings.HasPrefix(name, "/") {
		full = p.cwd + "/" + name
	}
	if r, err := filepath.EvalSymlinks(full); err == nil {
		return r
	}
	return filepath.Clean(full)
}

// exec starts a new image in the process: the program, and for a #!
// script, the chain of interpreters the kernel runs (up to 4 deep, as
// Linux allows).
func (a *analyzer) exec(p *proc, c *Call) {
	name := ""
	argv := []string(nil)
	switch c.Name {
	case "execve":
		if len(c.Args) < 2 {
			return
		}
		name, _ = Str(c.Args[0])
		argv, _ = StrArray(c.Args[1])
	case "execveat":
		if len(c.Args) < 3 {
			return
		}
		name, _ = Str(c.Args[1])
		argv, _ = StrArray(c.Args[2])
		if _, dir, ok := FD(c.Args[0]); ok {
			if name == "" {
				name = dir
			} else if !strings.HasPrefix(name, "/") {
				name = dir + "/" + name
			}
		}
	}
	path := a.resolve(p, name)
	script := ""
	for depth := 0; depth < 5; depth++ {
		if a.inside(path) {
			way := Exec
			if depth > 0 {
				way = Interp
			}
			a.tr.Loads = append(a.tr.Loads, Load{Path: path, Way: way, Via: name, Proc: Image{Pid: p.Pid, Exe: path, Argv: argv}})
		}
		interp, arg, ok := shebang(path)
		if !ok {
			break
		}
		if script == "" {
			script = path
		}
		// The kernel runs INTERP [ARG] NAME ARGV[1:], and looks INTERP up
		// from the current folder.
		next := []string{interp}
		if arg != "" {
			next = append(next, arg)
		}
		next = append(next, name)
		if len(argv) > 1 {
			next = append(next, argv[1:]...)
		}
		argv = next
		name = interp
		path = a.resolve(p, interp)
	}
	p.Exe = path
	p.Argv = argv
	p.Script = script
	// What stays open across execve keeps its entries: a descriptor closed
	// on exec is replaced when its number is opened again.
	p.program = 0
	if Interpreter(p.Name(), argv).StdinProgram {
		if d := p.fds[0]; d != nil {
			p.program = d.id
		} else {
			d := &fdesc{id: a.newID()}
			p.fds[0] = d
			p.program = d.id
		}
	}
	im := p.snapshot()
	a.tr.Images = append(a.tr.Images, im)
	for _, code := range Interpreter(p.Name(), argv).Code {
		a.tr.Texts = append(a.tr.Texts, Text{Text: code, From: "its arguments", Proc: im})
	}
}

// shebang reads the #! line of a file as Linux does: the first 256 bytes,
// the interpreter up to the first blank, and the rest, trimmed, as one
// argument.
func shebang(path string) (interp, arg string, ok bool) {
	f, err := os.Open(path)
	if err != nil {
		return "", "", false
	}
	defer f.Close()
	buf := make([]byte, 256)
	n, _ := f.Read(buf)
	buf = buf[:n]
	if !bytes.HasPrefix(buf, []byte("#!")) {
		return "", "", false
	}
	line := buf[2:]
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	s := strings.Trim(string(line), " \t")
	if s == "" {
		return "", "", false
	}
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		return s[:i], strings.Trim(s[i+1:], " \t"), true
	}
	return s, "", true
}
