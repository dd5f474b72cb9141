package lint

import (
	"path/filepath"
	"strings"

	"github.com/hookctl/hookctl/schema/shellcmd"
)

type argumentPath struct{ RuleBase }

func newArgumentPath() Rule {
	return &argumentPath{newBase("argument-path", Warning,
		"a path argument written from the workspace root in a handler that runs in .agents/ (git add .agents/MEMORY.md), with the path to write instead")}
}

// dirOptions are options that make a program read its paths from another
// folder than the one it runs in (git -C .., make -C, npm --prefix).
var dirOptions = map[string]bool{
	"-C": true, "--cwd": true, "--prefix": true, "--dir": true, "--directory": true, "--cd": true,
	"--work-tree": true, "--git-dir": true, "--root": true, "--chdir": true,
}

func (r *argumentPath) Check(f *File) {
	if filepath.Base(f.Dir()) != ".agents" || f.Root == "" {
		return
	}
	for _, h := range f.allHandlers() {
		c := f.command(h)
		if c == nil {
			continue
		}
		refs := c.fileRefs()
		for _, ref := range refs {
			// A script that runs only when a test passes is left alone by
			// script-not-found ([ -f x ] && x): the same mistake in both
			// words is reported here, so that both are fixed together.
			guarded := ref.Call.Conditional && (ref.Role == shellcmd.Program || ref.Role == shellcmd.Script)
			if ref.Role != shellcmd.Arg && !guarded || ref.Call.Dir != f.Dir() || readsElsewhere(ref.Call) {
				continue
			}
			r.check(f, h, c, ref, refs)
		}
	}
}

// readsElsewhere reports whether a call is told to read its paths from
// another folder, by an option or a variable.
func readsElsewhere(call *shellcmd.Call) bool {
	for _, a := range call.Args {
		opt, _, _ := strings.Cut(a.Text, "=")
		if dirOptions[opt] {
			return true
		}
	}
	for _, v := range call.Assigns {
		if strings.HasPrefix(v, "GIT_") {
			return true
		}
	}
	return false
}

// names reports whether a word of refs other than ref is text, or ./text.
func names(refs []shellcmd.Ref, ref shellcmd.Ref, text string) bool {
	for _, o := range refs {
		if o.Word != ref.Word && (o.Word.Text == text || o.Word.Text == "./"+text) {
			return true
		}
	}
	return false
}

func (r *argumentPath) check(f *File, h handlerRef, c *command, ref shellcmd.Ref, refs []shellcmd.Ref) {
	text := ref.Word.Text
	raw := c.src[ref.Word.From:ref.Word.To]
	if filepath.IsAbs(text) || strings.HasPrefix(text, "~") || strings.HasPrefix(text, "../") || isWindowsPath(text) || strings.Contains(raw, `\`) {
		return
	}
	if f.fs.existsAny(filepath.Join(f.Dir(), text)) {
		return // it is there, from where handlers run
	}
	where := f.dirName()
	if rest, ok := strings.CutPrefix(strings.TrimPrefix(text, "./"), ".agents/"); ok {
		// The prefix is wrong wherever the file is: from .agents/ it
		// names .agents/.agents/.
		i := strings.Index(raw, ".agents/")
		if i < 0 {
			return
		}
		at := ref.Word.From + i
		want, repl := rest, ""
		if strings.HasPrefix(text, "./") {
			want = "./" + rest
		}
		if want == "" || want == "./" {
			want = "."
		}
		if ref.Call.Conditional && names(refs, ref, rest) {
			// [ -f hooks/x.py ] && python3 hooks/x.py || python3
			// .agents/hooks/x.py: a fallback for an agent that runs
			// handlers from the root, beside the right path.
			return
		}
		if ref.Role == shellcmd.Program && !strings.Contains(want, "/") {
			want = "./" + want // a program without a folder is looked up in PATH
		}
		switch {
		case want == ".":
			repl = "."
		case want == "./"+rest && !strings.HasPrefix(text, "./"):
			repl = "./"
		}
		fix := &Fix{Description: "write " + want, Edits: []Edit{{Span: f.strSpan(h.Command, at, at+len(".agents/")), Text: repl}}}
		r.reportFix(f, f.strSpan(h.Command, ref.Word.From, ref.Word.To), fix, want,
			"%s is written from the workspace root, but handlers run in %s, so it names %s%s: write %s", text, where, where, strings.TrimPrefix(text, "./"), want)
		return
	}
	if !f.fs.existsAny(filepath.Join(f.Root, text)) {
		return
	}
	want := "../" + strings.TrimPrefix(text, "./")
	i := strings.Index(raw, text)
	if i < 0 {
		return
	}
	at := ref.Word.From + i
	end := at
	if strings.HasPrefix(text, "./") {
		end += 2 // ./docs becomes ../docs
	}
	fix := &Fix{Description: "write " + want, Edits: []Edit{{Span: f.strSpan(h.Command, at, end), Text: "../"}}}
	r.reportFix(f, f.strSpan(h.Command, ref.Word.From, ref.Word.To), fix, want,
		"%s does not exist in %s, where handlers run; it exists from the workspace root, so write %s", text, where, want)
}
