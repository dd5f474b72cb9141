package lint

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/scope"
)

// Target is one hooks.json to read.
type Target struct {
	// Path is where to read the file.
	Path string
	// Name is how findings name the file; Path when empty.
	Name string
	// Scope is the file's scope; see TargetOf.
	Scope Scope
	// Root is the workspace folder for a workspace file in a .agents
	// folder, "" otherwise; see TargetOf.
	Root string
	// Config is the .hookctl.json that chooses the file's rules, nil for
	// none: NewRequest finds it, upward from the file.
	Config *schema.LoadedConfig
}

// Place is a folder searched for hooks.json files the agent does not read.
type Place struct {
	// Dir is the folder; Name is how findings name it ("" for the current
	// folder, "~" for the home folder).
	Dir, Name string
	// Config is the .hookctl.json that governs the folder, nil for none.
	Config *schema.LoadedConfig

	choice *Choice
}

// Request says what one run of the linter looks at.
type Request struct {
	// Files are linted.
	Files []Target
	// Context files are read only to compare with Files (the user's
	// hooks.json when a workspace is linted): their own mistakes are not
	// reported.
	Context []Target
	// Workspaces are searched for misplaced workspace configurations.
	Workspaces []Place
	// Home, when set, is searched for misplaced user configurations.
	Home *Place
	// Rules limits the run to these rule IDs; all rules when empty.
	Rules []string
	// Enable and Disable are the rules that --enable and --disable name:
	// they win over each file's .hookctl.json.
	Enable, Disable []string
	// ShellCheck is the ShellCheck program the shellcheck rule runs (see
	// FindShellCheck); "" skips the rule's checks.
	ShellCheck string
	// ReportSkipped asks for an info when a check is skipped because a
	// program it needs is missing (ShellCheck), once per run: hookctl lint
	// sets it with --fail-on info.
	ReportSkipped bool
	// Stop, when set, stops the run early once it is done: Lint then
	// returns the context's error (errors.Is(err, context.Canceled) when
	// it was cancelled) and no result. It is looked at between files,
	// between rules and between ShellCheck's runs, and it kills a
	// shellcheck under way.
	Stop context.Context
}

// Run is one run of the linter: the files it read and what it looks at.
type Run struct {
	Files      []*File
	Context    []*File
	Workspaces []Place
	Home       *Place

	fs      *fsCache
	out     []Finding
	dropped []DroppedFile
	// unread are the files of Files that were not read, as a link they
	// are reached through leads out of the repository: outside-link
	// names them.
	unread []unreadFile
	// sources are the texts of other files that findings point into (the
	// scripts ShellCheck read), by the name findings give them.
	sources map[string][]byte
	// choices are those of the files and places, each once.
	choices       []*Choice
	shellcheck    string
	reportSkipped bool
	// ctx stops the run early; nil never does.
	ctx context.Context
}

// unreadFile is a hooks.json that was not read, and why.
type unreadFile struct {
	name, reason string
	choice       *Choice
}

// context is the run's context, never nil.
func (r *Run) context() context.Context {
	if r.ctx == nil {
		return context.Background()
	}
	return r.ctx
}

// stopped reports whether the run's context is done: the run ends early
// and its findings are thrown away.
func (r *Run) stopped() bool {
	return r.ctx != nil && r.ctx.Err() != nil
}

// newRun returns a run that ctx (nil for none) stops.
func newRun(ctx context.Context) *Run {
	fs := newFSCache()
	fs.ctx = ctx
	return &Run{fs: fs, ctx: ctx}
}

// Result is what a run found.
type Result struct {
	// Findings sorted by file, line and column.
	Findings []Finding
	// Files are the files linted, for printers that show source lines.
	Files []*File
	// Dropped are the files the agent loads none of, in the order of
	// Files.
	Dropped []DroppedFile

	sources map[string][]byte
}

// Source returns the bytes of the named file (a hooks.json linted, or a
// script a finding points into), nil when it was not read.
func (r *Result) Source(name string) []byte {
	for _, f := range r.Files {
		if f.Name == name {
			return f.Config.Src
		}
	}
	return r.sources[name]
}

// Lint runs the rules over the request's files. Its error is for a file
// that cannot be read; every mistake in a file is a finding, and so is a
// file reached through a link out of its repository, which is not read
// (outside-link).
func Lint(req Request) (*Result, error) {
	run := newRun(req.Stop)
	run.Workspaces, run.shellcheck, run.reportSkipped = slices.Clone(req.Workspaces), req.ShellCheck, req.ReportSkipped
	choices := map[*schema.LoadedConfig]*Choice{}
	choose := func(cfg *schema.LoadedConfig) (*Choice, error) {
		if c, ok := choices[cfg]; ok {
			return c, nil
		}
		c, err := NewChoice(cfg, req.Enable, req.Disable)
		if err != nil {
			return nil, err
		}
		choices[cfg] = c
		run.choices = append(run.choices, c)
		return c, nil
	}
	for i := range run.Workspaces {
		c, err := choose(run.Workspaces[i].Config)
		if err != nil {
			return nil, err
		}
		run.Workspaces[i].choice = c
	}
	if req.Home != nil {
		home := *req.Home
		c, err := choose(home.Config)
		if err != nil {
			return nil, err
		}
		home.choice = c
		run.Home = &home
	}
	load := func(t Target) (*File, error) {
		choice, err := choose(t.Config)
		if err != nil {
			return nil, err
		}
		c, err := schema.Load(t.Path)
		if err != nil {
			return nil, err
		}
		f := run.newFile(t, c)
		f.choice = choice
		return f, nil
	}
	for _, t := range req.Files {
		if run.stopped() {
			return nil, run.ctx.Err()
		}
		f, err := load(t)
		if ol := (*schema.OutsideLinkError)(nil); errors.As(err, &ol) {
			choice, _ := choose(t.Config)
			run.unread = append(run.unread, unreadFile{name: t.shown(), reason: ol.Reason(), choice: choice})
			continue
		}
		if err != nil {
			return nil, err
		}
		run.Files = append(run.Files, f)
	}
	for _, t := range req.Context {
		if f, err := load(t); err == nil {
			run.Context = append(run.Context, f)
		}
	}
	run.check(req.Rules)
	if run.stopped() {
		return nil, run.ctx.Err()
	}
	return &Result{Findings: run.out, Files: run.Files, Dropped: run.dropped, sources: run.sources}, nil
}

// LintSource lints src as the hooks.json at t.Path without reading it, for
// tests, fuzzing and editors. Script rules still look at the disk, and the
// rules are chosen by t.Config or else the .hookctl.json found upward from
// t.Path (one that cannot be used leaves every rule as it is: hookctl lint
// reports it).
func LintSource(t Target, src []byte) []Finding {
	run := &Run{fs: newFSCache()}
	run.lintSource(t, src, nil)
	return run.out
}

// SourceRequest is one lint of an unsaved text, for editors; see
// LintSourceRequest.
type SourceRequest struct {
	// Target is the hooks.json the text is linted as.
	Target Target
	// Src is the text.
	Src []byte
	// Rules limits the run to these rule IDs; all rules when empty. The
	// rules the .hookctl.json turns off stay off.
	Rules []string
	// ShellCheck is the ShellCheck program the shellcheck rule runs (see
	// FindShellCheck); "" skips the rule's checks.
	ShellCheck string
	// Stop, when set, stops the run early once it is done, as
	// Request.Stop does.
	Stop context.Context
}

// LintSourceRequest lints the request's text as LintSource does, with the
// rules and the ShellCheck it names, and also returns what the run saw of
// every file it looked at on disk (the scripts, the hooks.json itself, the
// .hookctl.json that chooses its rules): the file's information, nil
// where there was no file. An editor compares it with the disk to know
// when the findings are out of date: a script created, deleted, changed or
// given another mode. When its context is done before the run ends, it
// returns the context's error and nothing else.
func LintSourceRequest(req SourceRequest) ([]Finding, map[string]fs.FileInfo, error) {
	run := newRun(req.Stop)
	run.shellcheck = req.ShellCheck
	run.lintSource(req.Target, req.Src, req.Rules)
	if run.stopped() {
		return nil, nil, run.ctx.Err()
	}
	return run.out, run.seen(), nil
}

// seen is what the run saw of every file it looked at on disk: the file's
// information, nil where there was no file.
func (r *Run) seen() map[string]fs.FileInfo {
	seen := make(map[string]fs.FileInfo, len(r.fs.stats))
	for path, st := range r.fs.stats {
		if st.err == nil {
			seen[path] = st.info
		} else {
			seen[path] = nil
		}
	}
	return seen
}

// lintSource lints src as the hooks.json at t.Path with the rules named
// (all when empty).
//
// A text whose file is reached through a link out of its repository
// (schema.LeadsOut) is not linted: outside-link names the file, as lint
// does when it does not read it, so that an editor shows what hookctl
// lint says.
func (r *Run) lintSource(t Target, src []byte, only []string) {
	f := r.newFile(t, schema.Parse(t.Path, src))
	cfg := t.Config
	if p := schema.FindConfig(filepath.Dir(t.Path)); cfg == nil && p != "" {
		r.fs.stat(p) // an editor watches it
		cfg, _ = loadConfig(p, nil)
	}
	if c, err := NewChoice(cfg, nil, nil); err == nil {
		f.choice = c
		r.choices = []*Choice{c}
	}
	if ol := schema.LeadsOut(t.Path); ol != nil {
		r.unread = append(r.unread, unreadFile{name: f.Name, reason: ol.Reason(), choice: f.choice})
		r.check(only)
		return
	}
	r.Files = []*File{f}
	r.check(only)
}

// shown is the target's name in findings: Name, else its path.
func (t Target) shown() string {
	if t.Name == "" {
		return t.Path
	}
	return t.Name
}

func (r *Run) newFile(t Target, c *schema.Config) *File {
	if c.Syntax != nil && c.SyntaxErrors == nil {
		// Read on past the syntax mistakes, so that one run reports them
		// all and, when none stops the reading, what else is wrong.
		c = schema.ParseRecovering(c.Path, c.Src)
	}
	f := &File{Name: t.shown(), Config: c, Scope: t.Scope, Root: t.Root, fs: r.fs}
	f.foreign = detectForeign(f)
	return f
}

func (r *Run) check(only []string) {
	rules := newRules()
	if len(only) > 0 {
		keep := rules[:0]
		for _, rule := range rules {
			for _, id := range only {
				if rule.ID() == id {
					keep = append(keep, rule)
				}
			}
		}
		rules = keep
		limited := map[string]bool{}
		for _, rule := range rules {
			limited[rule.ID()] = true
		}
		for _, f := range r.Files {
			f.only = limited
		}
	}
	for _, rule := range rules {
		rule.base().out = &r.out
	}
	for _, f := range r.Files {
		for _, rule := range rules {
			if r.stopped() {
				return
			}
			if f.choice.runs(rule.ID()) {
				rule.Check(f)
			}
		}
	}
	for _, rule := range rules {
		if r.stopped() {
			return
		}
		if r.runs(rule.ID()) {
			rule.CheckRun(r)
		}
	}
	if r.stopped() {
		return
	}
	Sort(r.out)
	r.out = dedupe(r.out)
	r.dropped = r.assess()
}

// runs reports whether a rule runs on any file or place of the run.
func (r *Run) runs(id string) bool {
	if len(r.choices) == 0 {
		return true
	}
	for _, c := range r.choices {
		if c.runs(id) {
			return true
		}
	}
	return false
}

// TargetOf is the file at path to lint, with the scope and workspace
// scope.Of gives it under the home folder home.
func TargetOf(path, home string) Target {
	sc, root := scope.Of(path, home)
	return Target{Path: path, Scope: sc, Root: root}
}

// fsCache remembers, within one run, what the disk said about each path
// (many handlers name the same script) and what each matcher selects.
type fsCache struct {
	stats    map[string]statResult
	heads    map[string][]byte
	matchers map[string]*matcherInfo
	bodies   map[string][]byte
	dirs     map[string][]string
	// ctx is the run's: once it is done, the disk is not looked at any
	// more (the findings are thrown away), and the per-handler work that
	// asks the cache stops short.
	ctx context.Context
}

// errStopped is what the disk says once the run is stopped.
var errStopped = errors.New("the lint run was stopped")

// stopped reports whether the run the cache serves is stopped.
func (c *fsCache) stopped() bool {
	return c != nil && c.ctx != nil && c.ctx.Err() != nil
}

type statResult struct {
	info os.FileInfo
	err  error
}

func newFSCache() *fsCache {
	return &fsCache{stats: map[string]statResult{}, heads: map[string][]byte{}, matchers: map[string]*matcherInfo{}}
}

func (c *fsCache) stat(path string) (os.FileInfo, error) {
	if r, ok := c.stats[path]; ok {
		return r.info, r.err
	}
	if c.stopped() {
		return nil, errStopped
	}
	info, err := os.Stat(path)
	c.stats[path] = statResult{info, err}
	return info, err
}

// exists reports whether path names a regular file (or a link to one).
func (c *fsCache) exists(path string) bool {
	info, err := c.stat(path)
	return err == nil && !info.IsDir()
}

// existsAny reports whether path names anything on disk: a file, a
// folder, or a link to one.
func (c *fsCache) existsAny(path string) bool {
	_, err := c.stat(path)
	return err == nil
}

// head returns the first bytes of a file: enough for a #! line (the 256
// bytes the kernel reads of it) or a binary's magic number.
func (c *fsCache) head(path string) []byte {
	if b, ok := c.heads[path]; ok {
		return b
	}
	var b []byte
	// Only regular files: opening a FIFO or a terminal named in a command
	// would block.
	if info, err := c.stat(path); err != nil || !info.Mode().IsRegular() {
		c.heads[path] = nil
		return nil
	}
	if fh, _, err := schema.OpenRegular(path); err == nil {
		buf := make([]byte, 256)
		n, _ := fh.Read(buf)
		b = buf[:n]
		fh.Close()
	}
	c.heads[path] = b
	return b
}
