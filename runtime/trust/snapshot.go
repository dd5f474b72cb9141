package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/shellcmd"
	"github.com/hookctl/hookctl/templates"
)

// HooksFile is the workspace's hooks.json, relative to the workspace root.
const HooksFile = ".agents/hooks.json"

// State says what a covered file was when a snapshot was taken.
type State string

// The states of a file.
const (
	// Present: a regular file (or a link to one), hashed.
	Present State = "file"
	// Missing: nothing there yet. Creating it later withdraws the trust.
	Missing State = "missing"
	// NotFile: a folder, or what no hook may run (File.Special says
	// why): a FIFO, a device, a link into /proc.
	NotFile State = "not-a-file"
	// Unreadable: it exists but could not be read, so the workspace
	// cannot be trusted.
	Unreadable State = "unreadable"
	// TooLarge: larger than MaxHashed, so it cannot be trusted.
	TooLarge State = "too-large"
)

// Bounds of what a snapshot reads. A workspace controls what it covers,
// and a link to /proc/self/pagemap or to the user's home must not make
// hookctl read for ever.
const (
	// MaxHashed is the largest file a snapshot hashes; a larger one is
	// TooLarge, and the workspace cannot be trusted.
	MaxHashed = schema.MaxFileSize
	// MaxFiles is the most files a snapshot covers.
	MaxFiles = 2000
	// MaxTotal is the most bytes a snapshot hashes in all.
	MaxTotal = 256 << 20
)

// File is one file a snapshot covers.
type File struct {
	// Path is the file relative to the workspace root, with forward
	// slashes: ".agents/hooks.json", ".agents/hooks/guard.sh".
	Path string
	// State says whether it was there.
	State State
	// SHA256 is the hex SHA-256 of its content, for a Present file.
	SHA256 string
	// Size is its size in bytes, for a Present file.
	Size int64
	// Content is the file's bytes, for a Present file no larger than
	// MaxKeptFile that was read; nil otherwise.
	Content []byte
	// Stat identifies the file's inode and its last change, for a Present
	// file: the next check rehashes only files whose Stat differs.
	Stat *StatID
	// Why says why a command names the file ("./hooks/gate.sh, run by
	// gate"), or "" for a file covered because it is code in the hooks'
	// folder.
	Why string
	// Alternative is set for a file an interpreter would run only if it
	// existed (node hooks/gate finds gate.js, or gate/index.js): missing,
	// it is not worth showing, but creating it withdraws the trust.
	Alternative bool
	// Special says why a NotFile is no file a hook may run ("is a named
	// pipe (FIFO), not a file"), "" for a folder, or why an Unreadable one
	// is not read (a link out of the repository): the workspace cannot be
	// trusted while a command names one.
	Special string
}

// StatID is what the file system says of a file that changes when its
// content does: its inode, size, modification and change times. The change
// time (ctime) is set by the kernel on every write and cannot be set back
// by its owner, so an equal StatID means unchanged content.
type StatID struct {
	Dev   uint64 `json:"dev"`
	Ino   uint64 `json:"ino"`
	Size  int64  `json:"size"`
	Mtime int64  `json:"mtime"`
	Ctime int64  `json:"ctime"`
}

// Command is one handler's command as a snapshot shows it.
type Command struct {
	Hook    string
	Event   schema.Event
	Matcher string
	Command string
	// Pos is where the handler stands in hooks.json.
	Pos schema.Pos
	// Files are the paths (as in File.Path) the command names inside the
	// workspace; Outside are the ones it names outside, which a clone
	// cannot bring and the fingerprint does not cover.
	Files   []string
	Outside []string
	// Gaps say what the command runs that cannot be known before it runs,
	// and so is not covered (a program named by a variable, a cd to a
	// folder known only then, the project's npm scripts).
	Gaps []string
	// Logs are the files the command tells hookctl to write its log to
	// (trace --log, run --log), which hookctl never writes through a link
	// that leads out of the workspace: relative to the workspace root
	// when they lie in it, each after where it is named in a script or a
	// nested hooks.json.
	Logs []string
}

// Snapshot is a workspace's hooks as they stand: hooks.json, the files its
// handlers may run, and the fingerprint over all of them.
type Snapshot struct {
	// Root is the workspace folder, an absolute real path.
	Root string
	// Files are hooks.json first, then the covered files by path.
	Files []File
	// Commands are every handler of the valid parts of hooks.json, in file
	// order.
	Commands []Command
	// Config is hooks.json as parsed.
	Config *schema.Config
	// Fingerprint is "sha256:" and the hex SHA-256 over every file's path,
	// state and hash.
	Fingerprint string
	// Refused says why the workspace cannot be trusted as it is (a file too
	// large to hash, too many files), "" when it can.
	Refused string
	// probed are the paths taking the snapshot asked the file system
	// about, sorted: what it found is a function of hooks.json and of
	// their answers (see Probe).
	probed []string
}

// MaxKeptFile is the largest file whose content a snapshot keeps for
// later diffs.
const MaxKeptFile = 64 << 10

// ErrNoHooks is returned by Take for a workspace without .agents/hooks.json.
var ErrNoHooks = errors.New("no .agents/hooks.json")

// Key returns the store's key for a workspace folder: its absolute path
// with every symbolic link resolved, so that one workspace reached by two
// paths is one entry, and a link swapped to another folder is not trusted
// by the old one's entry.
func Key(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// Take reads the workspace rooted at root (an absolute real path, see
// Key) from disk.
func Take(root string) (*Snapshot, error) {
	p := filepath.Join(root, filepath.FromSlash(HooksFile))
	src, err := schema.ReadFile(p, schema.MaxFileSize)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNoHooks
	}
	if err != nil {
		return nil, fmt.Errorf("%s %s", HooksFile, schema.ReadReason(err))
	}
	return FromConfig(root, schema.Parse(p, src)), nil
}

// FromConfig takes the snapshot of a workspace whose hooks.json is already
// loaded, so that the bytes judged are the bytes that run. The other files
// are read from disk.
func FromConfig(root string, cfg *schema.Config) *Snapshot {
	return snapshot(root, cfg, nil)
}

// What the hooks' folder holds that is not the hooks' code: the agent's
// own content (skills, rules, workflows), which changes as the agent is
// taught and runs nothing by itself, and git's own folder. Dependencies
// installed there (node_modules, a virtual environment) are code the hooks
// load, which a repository can commit: they are covered like the rest.
var (
	agentContent = map[string]bool{"skills": true, "rules": true, "workflows": true}
	notCode      = map[string]bool{".git": true}
)

// codeExts are the extensions of files that run or are loaded as code. A
// .pth file in a virtual environment's site-packages runs its import
// lines each time that environment's python starts.
var codeExts = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		".py": true, ".pyw": true, ".js": true, ".mjs": true, ".cjs": true, ".ts": true, ".mts": true, ".cts": true,
		".jsx": true, ".tsx": true, ".sh": true, ".bash": true, ".zsh": true, ".ksh": true, ".fish": true,
		".rb": true, ".pl": true, ".pm": true, ".php": true, ".lua": true, ".r": true, ".R": true,
		".jar": true, ".class": true, ".so": true, ".dylib": true, ".node": true, ".wasm": true,
		".pyc": true, ".pth": true, ".awk": true, ".sed": true, ".jq": true, ".tcl": true, ".ps1": true, ".psm1": true,
	}
})

// codeNames are files that choose what runs, whatever their extension: a
// virtual environment's pyvenv.cfg names the Python installation (home)
// whose standard library and site-packages its python loads.
var codeNames = sync.OnceValue(func() map[string]bool { return map[string]bool{"pyvenv.cfg": true} })

// snapshot takes the snapshot; prev, when given, is the record the
// workspace was trusted with, whose hashes stand for files that have not
// changed since (same StatID), so that a check reads only what changed.
func snapshot(root string, cfg *schema.Config, prev *Record) *Snapshot {
	s := &Snapshot{Root: root, Config: cfg}
	s.Files = append(s.Files, hashBytes(HooksFile, cfg.Src))
	c := &coverage{root: root, files: map[string]*File{}, prev: map[string]*RecordFile{}, probed: map[string]bool{}}
	c.probe(filepath.Join(root, ".agents"))
	agents := shellcmd.Resolve(filepath.Join(root, ".agents"))
	c.agents = agents
	if prev != nil {
		for i := range prev.Files {
			c.prev[prev.Files[i].Path] = &prev.Files[i]
		}
	}
	c.walk(agents, ".agents")
	c.hooksRead = map[string]bool{shellcmd.Resolve(filepath.Join(root, filepath.FromSlash(HooksFile))): true}
	for at, hd := range cfg.File.AllHandlers() {
		s.Commands = append(s.Commands, c.command(at.Hook.Name, at.Event, at.MatcherText(), hd))
	}
	slices.SortStableFunc(s.Commands, func(a, b Command) int { return a.Pos.Offset - b.Pos.Offset })
	paths := make([]string, 0, len(c.files))
	for p := range c.files {
		if p != HooksFile {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	for _, p := range paths {
		s.Files = append(s.Files, *c.files[p])
	}
	s.Refused = c.refused
	for _, f := range s.Files {
		switch {
		case s.Refused != "":
		case f.State == TooLarge:
			s.Refused = fmt.Sprintf("%s is larger than %d MiB, too large to fingerprint", schema.Visible(f.Path), MaxHashed>>20)
		case f.State == Unreadable && f.Special != "":
			s.Refused = fmt.Sprintf("%s %s", schema.Visible(f.Path), f.Special)
		case f.State == Unreadable:
			s.Refused = fmt.Sprintf("%s cannot be read, so what it runs cannot be fingerprinted", schema.Visible(f.Path))
		case f.Special != "":
			s.Refused = fmt.Sprintf("%s %s, so no hook may run it", schema.Visible(f.Path), schema.Visible(f.Special))
		}
	}
	s.Fingerprint = fingerprint(s.Files)
	s.probed = make([]string, 0, len(c.probed))
	for p := range c.probed {
		s.probed = append(s.probed, p)
	}
	slices.Sort(s.probed)
	return s
}

// coverage gathers the files a snapshot covers.
type coverage struct {
	root, agents string
	files        map[string]*File
	prev         map[string]*RecordFile
	total        int64
	refused      string
	visited      map[string]bool
	followed     map[string]bool
	contents     map[string][]byte
	// listings are the compiled modules' names in the folders
	// pythonCompiled listed.
	listings map[string][]string
	// shadowed holds, by folder, the names of the modules there that are
	// named like the standard library's (pythonShadows).
	shadowed map[string][]string
	resolver shellcmd.Resolver
	// probed are the paths the snapshot asked the file system about
	// (see Probe).
	probed map[string]bool
	// hooksRead are the hooks.json files whose commands were read, by
	// real path: the workspace's, and those nested hookctl commands run.
	hooksRead map[string]bool
}

// walk covers the code in the hooks' folder, recursively: every file with
// an execute bit or a code extension, outside the agent's own content and
// installed dependencies. A linked folder is followed when it stays inside
// the workspace.
func (c *coverage) walk(dir, rel string) {
	if c.visited == nil {
		c.visited = map[string]bool{}
	}
	if c.visited[dir] || c.refused != "" {
		return
	}
	c.visited[dir] = true
	c.probe(dir)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		name := e.Name()
		p := filepath.Join(dir, name)
		r := rel + "/" + name
		if rel == ".agents" && (agentContent[name] || name == "hooks.json" || name == "hooks.test.json") || notCode[name] {
			continue
		}
		c.probe(p)
		t := e.Type()
		if t&fs.ModeSymlink != 0 {
			info, err := os.Stat(p)
			if err != nil {
				continue
			}
			if info.IsDir() {
				if real := shellcmd.Resolve(p); c.inside(real) {
					c.walk(real, r)
				}
				continue
			}
			t = info.Mode().Type()
		}
		if t.IsDir() {
			c.walk(p, r)
			continue
		}
		if !t.IsRegular() {
			continue
		}
		if path.Base(rel) == "__pycache__" {
			// Python's bytecode of a source beside the folder: loaded in
			// its place only when it matches the source, unless it was
			// compiled unchecked.
			if strings.HasSuffix(name, ".pyc") && uncheckedPyc(p) {
				c.cover(r, p, "bytecode Python loads without checking its source", false)
			}
			continue
		}
		info, err := os.Stat(p)
		if err != nil || info.Mode().Perm()&0o111 == 0 && !codeExts()[path.Ext(name)] && !codeNames()[name] {
			continue
		}
		c.cover(r, p, "", false)
	}
}

// inside reports whether a real path lies in the workspace.
func (c *coverage) inside(real string) bool {
	_, ok := relIn(c.root, real)
	return ok
}

// command reads one handler's command and covers the files it names.
func (c *coverage) command(hook string, e schema.Event, matcher string, hd *schema.Handler) Command {
	cmd := Command{Hook: hook, Event: e, Matcher: matcher, Command: hd.Command, Pos: hd.Pos}
	c.readCommand(&cmd, hd.Command, c.agents, c.root, hook, "", 0)
	slices.Sort(cmd.Files)
	slices.Sort(cmd.Outside)
	return cmd
}

// readCommand reads a handler's command, run in dir with
// $HOOKCTL_WORKSPACE ws, for cmd: it covers the files it runs and names
// what it cannot, each gap after at (where a nested hooks.json holds the
// command, "" for the workspace's own).
func (c *coverage) readCommand(cmd *Command, command, dir, ws, hook, at string, depth int) {
	parsed := shellcmd.Parse(command, dir, ws)
	refs, gaps := parsed.Refs()
	c.inline(cmd, parsed.Calls, depth)
	var found []string
	for _, g := range gaps {
		found = append(found, at+g.Why)
	}
	for _, r := range parsed.Repos() {
		if g := c.gitRepo(cmd, r); g != "" {
			found = append(found, at+g)
		}
	}
	addGaps(cmd, found)
	for _, r := range refs {
		c.coverRef(cmd, r, "by "+hook, shellcmd.Start{}, depth)
	}
	for _, n := range parsed.Nested() {
		addGaps(cmd, c.nested(cmd, n, depth))
	}
	c.logs(cmd, parsed, func(shellcmd.Word) string { return at })
}

// logs notes the logs the command's calls of hookctl write (Command.Logs),
// each after what at says of the word that names it.
func (c *coverage) logs(cmd *Command, parsed *shellcmd.Command, at func(shellcmd.Word) string) {
	for _, r := range parsed.Logs() {
		shown := r.Word.Text
		if r.Path != "" {
			if rel, ok := relIn(c.root, filepath.Clean(r.Path)); ok {
				shown = rel
			}
		}
		cmd.Logs = appendNew(cmd.Logs, at(r.Word)+schema.Visible(shown))
	}
}

// coverRef covers a file a command (or a script it runs, at depth > 0)
// names, and what that file loads in its turn. caller is how the script
// that names it was started, the zero Start for a handler's command.
func (c *coverage) coverRef(cmd *Command, r shellcmd.Ref, by string, caller shellcmd.Start, depth int) {
	if r.Process {
		return // never looked up; its gap names what runs
	}
	// Every file the interpreter may take (python3 hooks/pkg runs
	// hooks/pkg/__main__.py when pkg is a folder), as lint reads them.
	c.probe(r.Path) // Candidates asks whether it is a folder
	paths := r.Candidates()
	why := fmt.Sprintf("%s %s", r.Role, by)
	if r.Role == shellcmd.Module && r.Call != nil && shellcmd.IsPython(path.Base(r.Interpreter)) {
		// python -m pkg.mod imports pkg first: its __init__.py runs
		// before the module does.
		mod := strings.TrimSuffix(r.Word.Text, ".py")
		by := "python -m " + strings.ReplaceAll(mod, "/", ".")
		if parent := path.Dir(mod); parent != "." && parent != "/" {
			c.pythonModule(cmd, r.Call.Dir, parent, by, depth)
		}
		// The module itself may be compiled: an extension module,
		// taken before its .py, or sourceless bytecode.
		stem := strings.TrimSuffix(r.Path, ".py")
		for _, s := range []string{stem, stem + "/__init__", stem + "/__main__"} {
			for _, cand := range c.pythonCompiled(s) {
				c.coverPath(cmd, cand, "module run by "+by, true)
			}
		}
	}
	for i, p := range paths {
		c.probe(p)
		if real := c.resolver.Resolve(p); !c.inside(real) {
			if r.Role.Runs() && c.special(cmd, p, why) {
				continue
			}
			if c.linkedOut(cmd, p, why) != nil {
				continue
			}
			if i == 0 || r.Role != shellcmd.Module {
				cmd.Outside = appendNew(cmd.Outside, real)
			}
			continue
		}
		f, real := c.coverPath(cmd, p, why, r.Role == shellcmd.Module && p != r.Path)
		if f == nil || f.State != Present || !r.Role.Runs() {
			continue
		}
		cwd := ""
		if r.Call != nil {
			cwd = r.Call.Dir
		}
		base := ""
		py := shellcmd.LangOf(r.Interpreter) == shellcmd.LangPython
		if r.Role == shellcmd.Module && py {
			base = cwd // python -m: the current folder is searched first
			// and the module itself may run from its cached bytecode.
			c.pycache(cmd, real, schema.Visible(f.Path))
		}
		if r.Role == shellcmd.Script && r.Call != nil && r.Call.Stdin != nil && *r.Call.Stdin == r.Word && py {
			base = cwd // python - < x.py reads no script path: sys.path[0] is the current folder
		}
		// How the file runs, and so which reader reads it, is decided in
		// one place: shellcmd's Read.
		content := c.content(f, real)
		rd := r.Read(content, c.root)
		if rd.Kernel != nil {
			c.kernel(cmd, rd, f, caller, depth)
			continue
		}
		if rd.Why != "" {
			addGaps(cmd, []string{schema.Visible(f.Path) + " " + rd.Why})
		}
		n := len(cmd.Gaps)
		c.follow(cmd, rd.Lang, f, real, cwd, base, r.StartOf(caller, false), r.Call, depth)
		if t, ok := templates.Own(content); ok {
			cmd.Gaps = ownLines(cmd.Gaps, n, schema.Visible(f.Path), t.Runs)
		}
	}
}

// ownLines replaces, among the gaps found from n on, those at a line of
// the file named name by one that says what the template runs (runs):
// the file is one of hookctl's own templates, unchanged, whose lines
// build code at run time only from the user's environment
// (tests-must-pass's HOOK_TEST_COMMAND) and their own constants, as
// TestTemplatesLinesTheReadersName pins down. What the reader names there
// is said once, in the template's words, at the first line it named;
// what the template runs that the project decides is never dropped. A
// template that says it runs nothing of the kind (runs empty) keeps what
// the readers name, in their words: trust fails safe, and the template
// tests fail. What it loads from the workspace is still covered, and
// named when it cannot be.
func ownLines(gaps []string, n int, name, runs string) []string {
	if runs == "" {
		return gaps
	}
	out := gaps[:n]
	said := false
	for _, g := range gaps[n:] {
		at, ok := strings.CutPrefix(g, name+":")
		if !ok {
			out = append(out, g)
			continue
		}
		if said {
			continue
		}
		line, _, _ := strings.Cut(at, " ")
		out = append(out, name+":"+line+" "+runs)
		said = true
	}
	return out
}

// kernel covers what the kernel runs in place of a program with a #!
// line: the interpreter, when it is a path the workspace may hold, the
// files on the line, and the program handed to the interpreter, read in
// the interpreter's language; what that call runs that cannot be known is
// named at the file's first line.
func (c *coverage) kernel(cmd *Command, rd shellcmd.Reading, f *File, caller shellcmd.Start, depth int) {
	name := schema.Visible(f.Path)
	if depth >= maxFollow {
		addGaps(cmd, []string{fmt.Sprintf("%s:1 is started by an interpreter more than %d #! lines and scripts deep, which is not read", name, maxFollow)})
		return
	}
	if filepath.IsAbs(rd.Line.Interp) {
		// Whether it is the system's, read by its name, or a file of the
		// workspace, is where it resolves to.
		c.probe(rd.Line.Interp)
	}
	refs, gaps := rd.Kernel.Refs()
	var found []string
	for _, g := range gaps {
		found = append(found, fmt.Sprintf("%s:1 %s", name, inScript(g.Why)))
	}
	if rd.Why != "" {
		found = append(found, fmt.Sprintf("%s:1 %s", name, rd.Why))
	}
	addGaps(cmd, found)
	for _, r := range refs {
		d := depth
		if r.Role == shellcmd.Program {
			d++ // another program, which may have a #! line of its own
		}
		c.coverRef(cmd, r, "by the #! line of "+name, caller, d)
	}
}

// coverPath covers the file at the absolute path p (resolved as the kernel
// resolves it) for cmd: in the workspace, hashed and listed in cmd.Files;
// outside, listed in cmd.Outside. It returns the covered file, nil outside
// the workspace or past the bounds, and the real path.
func (c *coverage) coverPath(cmd *Command, p, why string, alt bool) (*File, string) {
	c.probe(p)
	real := c.resolver.Resolve(p)
	rel, ok := c.rel(real)
	if !ok {
		if c.special(cmd, p, why) {
			return nil, real
		}
		if f := c.linkedOut(cmd, p, why); f != nil {
			return f, real
		}
		if !alt {
			cmd.Outside = appendNew(cmd.Outside, real)
		}
		return nil, real
	}
	f := c.cover(rel, real, why, alt)
	if f != nil && (!alt || f.State != Missing) {
		cmd.Files = appendNew(cmd.Files, rel)
	}
	return f, real
}

// special covers a file named in the workspace whose link leads out of it
// to a file of /proc, /sys or /dev (shellcmd.NotAFile), under the name
// the command gives it, so that the review lists it and the workspace is
// refused; false for any other file.
func (c *coverage) special(cmd *Command, p, why string) bool {
	c.probe(p)
	rel, ok := c.named(p)
	if !ok {
		return false
	}
	nf := shellcmd.NotFiles([]shellcmd.Ref{{Path: p}})
	if len(nf) == 0 {
		return false
	}
	if _, seen := c.files[rel]; !seen {
		c.files[rel] = &File{Path: rel, State: NotFile, Why: why, Special: nf[0].Why}
	}
	cmd.Files = appendNew(cmd.Files, rel)
	return true
}

// linkedOut covers a file named in the workspace whose link leads out of
// its repository (schema.LeadsOut) under the name the command gives it,
// unread, so that the review says why and the workspace is refused: a
// clone chose where the link leads, so the file is not one a clone cannot
// change. nil for any other file.
func (c *coverage) linkedOut(cmd *Command, p, why string) *File {
	rel, ok := c.named(p)
	if !ok {
		return nil
	}
	ol := schema.LeadsOut(p)
	if ol == nil {
		return nil
	}
	f, seen := c.files[rel]
	if !seen {
		f = &File{Path: rel, State: Unreadable, Why: why, Special: ol.Reason()}
		c.files[rel] = f
	}
	cmd.Files = appendNew(cmd.Files, rel)
	return f
}

// rel names a real path for the store: under .agents/ when it lies in the
// hooks' folder (however that folder is linked), else from the workspace
// root; false when it lies outside the workspace.
func (c *coverage) rel(real string) (string, bool) {
	if r, ok := relIn(c.agents, real); ok {
		if r == "." {
			return ".agents", true
		}
		return ".agents/" + r, true
	}
	return relIn(c.root, real)
}

// named names the path p for the store as the command names it, its
// links not followed: false when it lies outside the workspace.
func (c *coverage) named(p string) (string, bool) { return c.rel(filepath.Clean(p)) }

// cover adds a file, once.
func (c *coverage) cover(rel, real, why string, alt bool) *File {
	if f, ok := c.files[rel]; ok {
		if why != "" && f.Why == "" {
			f.Why = why
		}
		if !alt {
			f.Alternative = false
		}
		return f
	}
	if len(c.files) >= MaxFiles {
		if c.refused == "" {
			c.refused = fmt.Sprintf("its hooks would cover more than %d files (code in its hooks' folder, and the files its commands and scripts name or import), more than hookctl fingerprints", MaxFiles)
		}
		return nil
	}
	f := c.hash(rel, real)
	f.Why, f.Alternative = why, alt
	c.files[rel] = &f
	return &f
}

// relIn returns p relative to dir, with forward slashes, when p lies
// inside dir.
func relIn(dir, p string) (string, bool) {
	rel, err := filepath.Rel(dir, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

func hashBytes(rel string, b []byte) File {
	sum := sha256.Sum256(b)
	f := File{Path: rel, State: Present, SHA256: hex.EncodeToString(sum[:]), Size: int64(len(b))}
	if len(b) <= MaxKeptFile {
		f.Content = b
	}
	return f
}

// hash hashes the file at real (links followed, as the handler's exec
// would), bounded; a file whose StatID matches the previous record keeps
// its recorded hash unread.
func (c *coverage) hash(rel, real string) File {
	c.probe(real)
	info, err := os.Stat(real)
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) || errors.Is(err, fs.ErrInvalid):
		return File{Path: rel, State: Missing}
	case err != nil:
		return File{Path: rel, State: Unreadable}
	case info.IsDir():
		return File{Path: rel, State: NotFile}
	case !info.Mode().IsRegular():
		return File{Path: rel, State: NotFile, Special: "is " + schema.FileKind(info.Mode()) + ", not a file"}
	}
	if l, err := os.Lstat(real); err == nil && l.Mode()&fs.ModeSymlink != 0 {
		// A link into /proc: the kernel's bytes, no script.
		if why := shellcmd.NotAFile(real); why != "" {
			return File{Path: rel, State: NotFile, Special: why}
		}
	}
	id := statID(info)
	if p := c.prev[rel]; p != nil && p.State == Present && p.Stat != nil && id != nil && *p.Stat == *id {
		return File{Path: rel, State: Present, SHA256: p.SHA256, Size: p.Size, Stat: id}
	}
	if c.total > MaxTotal {
		if c.refused == "" {
			c.refused = fmt.Sprintf("the files its hooks may run hold more than %d MiB, more than hookctl fingerprints", MaxTotal>>20)
		}
		return File{Path: rel, State: TooLarge}
	}
	fh, _, err := schema.OpenRegular(real)
	if ol := (*schema.OutsideLinkError)(nil); errors.As(err, &ol) {
		return File{Path: rel, State: Unreadable, Special: ol.Reason()}
	}
	if err != nil {
		return File{Path: rel, State: Unreadable}
	}
	defer fh.Close()
	h := sha256.New()
	kept := &keepBuffer{keep: info.Size() <= MaxKeptFile}
	n, err := schema.CopyBounded(io.MultiWriter(h, kept), fh, real, MaxHashed)
	c.total += n
	var tl *schema.TooLargeError
	switch {
	case errors.As(err, &tl):
		return File{Path: rel, State: TooLarge, Size: n}
	case err != nil:
		return File{Path: rel, State: Unreadable}
	}
	f := File{Path: rel, State: Present, SHA256: hex.EncodeToString(h.Sum(nil)), Size: n, Stat: id}
	if kept.keep {
		f.Content = kept.b
		if f.Content == nil {
			f.Content = []byte{}
		}
	}
	return f
}

// keepBuffer keeps what is written to it while it stays within
// MaxKeptFile bytes.
type keepBuffer struct {
	keep bool
	b    []byte
}

func (k *keepBuffer) Write(p []byte) (int, error) {
	if k.keep && len(k.b)+len(p) <= MaxKeptFile {
		k.b = append(k.b, p...)
	} else {
		k.keep, k.b = false, nil
	}
	return len(p), nil
}

// fingerprint hashes the files' paths, states and hashes, one line each.
func fingerprint(files []File) string {
	h := sha256.New()
	io.WriteString(h, "hookctl trust v2\n")
	for _, f := range files {
		fmt.Fprintf(h, "%s\x00%s\x00%s\n", f.Path, f.State, f.SHA256)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}
