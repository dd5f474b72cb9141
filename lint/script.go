package lint

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/shellcmd"
)

// handlerScript is one file a handler's command runs: its program by a
// path, the script it hands to an interpreter, or the module one finds by
// its name (the file shellcmd's Target takes, as trust covers it).
type handlerScript struct {
	handler handlerRef
	ref     shellcmd.Ref
	// path is the file as the call reaches it: relative paths start from
	// the folder that holds hooks.json, where handlers run, or from the
	// folder a cd in the command went to.
	path string
	// moved is set when a cd in the command changed the folder first.
	moved bool
	span  schema.Span
	// missing is set for a module none of whose files is there
	// (shellcmd's Target): python3 -m hooks.gate without hooks/gate.py,
	// node hooks/gate without hooks/gate.js.
	missing bool
	// notFile says why the file is none a handler can run (a FIFO, a link
	// into /proc: shellcmd.NotAFile, which trust and run ask too), or "".
	notFile string
	// outside says why the file is not read when a link on its way leads
	// out of the repository (schema.LeadsOut), or "": path is then the
	// file as named, which every reader refuses.
	outside string
	// away is set when the hooks.json is a repository's (or a
	// workspace's) and the script lies out of it, named there by its path
	// (/home/me/.aws/credentials, ../../.netrc): lint does not read it, as
	// the hooks.json's author chose which file of yours it names, and its
	// #! line or ShellCheck's snippets of it would show that file.
	away bool
}

// unread reports whether the file is not one lint reads: not a file, or
// one a link leads to out of the repository.
func (s handlerScript) unread() bool { return s.notFile != "" || s.outside != "" }

// unreadText reports whether lint does not read the file's bytes: unread,
// or away from the hooks.json's repository.
func (s handlerScript) unreadText() bool { return s.unread() || s.away }

// text is the path as the command writes it.
func (s handlerScript) text() string { return s.ref.Word.Text }

// viaInterpreter reports whether an interpreter reads the file, so that
// its execute bit and #! line do not matter.
func (s handlerScript) viaInterpreter() bool { return s.ref.Role != shellcmd.Program }

// scripts returns the files the handlers' commands run, for every call
// that runs unconditionally. A call after a test, or in an if, may be
// guarded by a check that the file exists, so it is left alone.
func (f *File) scripts() []handlerScript {
	if f.scriptsDone {
		return f.scriptList
	}
	f.scriptsDone = true
	// Most handlers run one script: room for that many at once, rather
	// than growing a slice of large elements.
	out := make([]handlerScript, 0, len(f.allHandlers()))
	// The handlers' scripts share a few folders: each is resolved once.
	var res shellcmd.Resolver
	// Many handlers name the same script: each path is resolved once.
	resolved := map[string]string{}
	resolve := func(p string) string {
		r, ok := resolved[p]
		if !ok {
			r = res.Resolve(p)
			resolved[p] = r
		}
		return r
	}
	// Many handlers name the same files: each is looked at once.
	notFiles := map[string]string{}
	notFile := func(ref shellcmd.Ref) string {
		key := strings.Join(append([]string{strconv.FormatBool(ref.Role.Runs()), ref.Path}, ref.Alternatives...), "\x00")
		why, ok := notFiles[key]
		if !ok {
			if nf := shellcmd.NotFiles([]shellcmd.Ref{ref}); len(nf) > 0 {
				why = nf[0].Why
			}
			notFiles[key] = why
		}
		return why
	}
	// Each path is asked once whether a link leads it out.
	outsides := map[string]string{}
	outside := func(p string) string {
		why, ok := outsides[p]
		if !ok {
			if ol := schema.LeadsOut(p); ol != nil {
				why = ol.Reason()
			}
			outsides[p] = why
		}
		return why
	}
	// The folder the scripts lint reads lie in: the hooks.json's
	// repository, else its workspace; "" for the user's own.
	home := ""
	if p, err := filepath.Abs(f.Config.Path); err == nil && f.Config.Path != "" {
		if root, _ := schema.Boundary(p); root != "" {
			if r, err := filepath.EvalSymlinks(root); err == nil {
				home = r
			}
		}
	}
	for _, h := range f.allHandlers() {
		c := f.command(h)
		if c == nil {
			continue
		}
		refs := c.fileRefs()
		for _, ref := range refs {
			// platform-specific says what is wrong with a Windows path,
			// when it runs.
			if !ref.Needed() || ref.Call.Conditional || isWindowsPath(ref.Word.Text) && f.runs("platform-specific") {
				continue
			}
			s := handlerScript{handler: h, ref: ref, path: resolve(ref.Path),
				moved: ref.Call.Dir != f.Dir() && !filepath.IsAbs(ref.Word.Text),
				span:  f.strSpan(h.Command, ref.Word.From, ref.Word.To)}
			if len(ref.Alternatives) > 0 {
				// The file the interpreter takes, as trust covers it.
				t, ok := ref.Target()
				switch {
				case ok:
					s.path = t
				case ref.Role != shellcmd.Module:
				case !ref.Missing():
					continue // found elsewhere: an installed module
				default:
					s.missing = true
				}
			}
			// A link into /proc says what it is first: no file at all.
			if s.notFile = notFile(ref); s.notFile == "" {
				if why := outside(ref.Path); why != "" {
					s.path, s.outside = filepath.Clean(ref.Path), why
				}
			}
			// A file of the process itself is refused by every reader,
			// which says so.
			if home != "" && !s.unread() && schema.ProcessFile(s.path) == "" {
				real := resolve(s.path)
				s.away = filepath.IsAbs(real) && !schema.Within(home, real)
			}
			out = append(out, s)
		}
	}
	f.scriptList = out
	return out
}

func isWindowsPath(p string) bool {
	return len(p) >= 2 && p[1] == ':' || strings.ContainsAny(p, `\%`)
}

// reportScript adds a finding about the file s, with its certain fix
// (nil for none), that names the file and its handler (Finding.Script)
// in the words of problem.
func (b *RuleBase) reportScript(f *File, s handlerScript, problem string, fix *Fix, suggestion, format string, args ...any) {
	i, listed := b.reportSeverity(f, b.severity, s.span, suggestion, format, args...)
	if !listed {
		return
	}
	if fix != nil && len(fix.Edits) > 0 {
		(*b.out)[i].Fix = fix
	}
	(*b.out)[i].Script = &ScriptRef{Path: s.text(), Problem: problem, Hook: s.handler.Hook, Handler: s.handler.Node.Span.Start}
}

// statScript returns what the disk says about a script, through the run's
// cache.
func (f *File) statScript(s handlerScript) (os.FileInfo, error) { return f.fs.stat(s.path) }
