package lint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/hookctl/hookctl/schema"
)

type scriptNotFound struct{ RuleBase }

func newScriptNotFound() Rule {
	return &scriptNotFound{newBase("script-not-found", Error,
		"the command's program, or the script given to an interpreter, does not exist from the folder handlers run in")}
}

func (r *scriptNotFound) Check(f *File) {
	for _, s := range f.scripts() {
		if s.notFile != "" {
			r.reportScript(f, s, "not a file", nil, "", "%s %s: no handler can run it (reading it would block, or hand the interpreter the kernel's bytes); put the script itself there", s.text(), s.notFile)
			continue
		}
		if s.outside != "" {
			continue // outside-link says it
		}
		if s.missing {
			r.reportMissingModule(f, s)
			continue
		}
		_, err := f.statScript(s)
		if err == nil || !errors.Is(err, fs.ErrNotExist) && !isNotDir(err) && !errors.Is(err, syscall.ENAMETOOLONG) {
			continue
		}
		p := s.text()
		where := f.dirName()
		if s.moved {
			r.reportScript(f, s, "no such file", nil, "", "%s does not exist in %s, where the command goes with cd first", p, f.shownDir(s.ref.Call.Dir))
			continue
		}
		if filepath.IsAbs(p) {
			if f.Scope == Workspace && homePath().MatchString(p) && f.runs("platform-specific") {
				continue // platform-specific says it: the path is one machine's
			}
			r.reportScript(f, s, "no such file", nil, "", "%s does not exist on this machine", p)
			continue
		}
		if f.Root != "" && !s.moved {
			fromRoot := filepath.Join(f.Root, p)
			if f.fs.exists(fromRoot) {
				fix := filepath.ToSlash(rel(f.Dir(), fromRoot))
				if !s.viaInterpreter() && !strings.Contains(fix, "/") {
					fix = "./" + fix
				}
				var edit *Fix
				if s.handler.Command.Str[s.ref.Word.From:s.ref.Word.To] == p {
					// The word is the path as written, without quotes.
					edit = replaceFix("write "+fix, s.span, jsonInner(fix))
				}
				r.reportScript(f, s, "no such file", edit, fix,
					"%s does not exist in %s, where handlers run; it exists from the workspace root, so write %s", p, where, fix)
				continue
			}
		}
		if rest, ok := strings.CutPrefix(strings.TrimPrefix(p, "./"), ".agents/"); ok && filepath.Base(f.Dir()) == ".agents" && !s.moved {
			r.reportScript(f, s, "no such file", nil, "",
				"%s does not exist: handlers run in %s, so a path that starts with .agents/ points into .agents/.agents/; write it from there, as %s (which does not exist either)", p, where, rest)
			continue
		}
		if near := f.fs.nearestEntry(s.path); near != "" {
			fix := filepath.ToSlash(filepath.Join(filepath.Dir(p), near))
			if strings.HasPrefix(p, "./") && !strings.HasPrefix(fix, ".") {
				fix = "./" + fix
			}
			r.reportScript(f, s, "no such file", nil, fix, "%s does not exist in %s, where handlers run: did you mean %s?", p, where, fix)
			continue
		}
		r.reportScript(f, s, "no such file", nil, "", "%s does not exist in %s, where handlers run (relative paths in commands start from the folder that holds hooks.json)", p, where)
	}
}

// reportMissingModule reports a module none of whose files is there:
// each file the interpreter would take, from where the call runs.
func (r *scriptNotFound) reportMissingModule(f *File, s handlerScript) {
	dir := s.ref.Call.Dir
	where := f.dirName() + ", where handlers run"
	if s.moved {
		where = f.shownDir(dir) + ", where the command goes with cd first"
	}
	if f.fs.existsAny(s.path) {
		return // a folder without __main__.py: script-not-executable's
	}
	var others []string
	for _, c := range s.ref.Candidates() {
		if c != s.ref.Path {
			others = append(others, filepath.ToSlash(rel(dir, filepath.Clean(c))))
		}
	}
	if n := len(others); n > 3 {
		others = append(others[:3], fmt.Sprintf("or %d more", n-3))
	}
	r.reportScript(f, s, "no such module", nil, "", "%s does not exist in %s, nor does any other file %s takes for it (%s)",
		s.text(), where, filepath.Base(s.ref.Interpreter), strings.Join(others, ", "))
}

// shownDir names a folder a command goes to, for messages: from where
// the file's name starts, "the workspace root" for the parent of .agents.
func (f *File) shownDir(dir string) string {
	d := filepath.Clean(dir)
	if f.Root != "" && d == filepath.Clean(f.Root) {
		return "the workspace root"
	}
	r := rel(filepath.Dir(f.Dir()), d)
	return filepath.ToSlash(filepath.Join(filepath.Dir(filepath.Dir(f.Name)), r)) + "/"
}

func isNotDir(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && strings.Contains(pe.Err.Error(), "not a directory")
}

// nearestEntry returns the name in path's folder that path's name most
// likely meant ("gaurd.py" for "guard.py"), or "".
func (c *fsCache) nearestEntry(path string) string {
	dir, base := filepath.Split(path)
	names, ok := c.dirs[dir]
	if !ok {
		if entries, err := os.ReadDir(dir); err == nil && len(entries) <= 1000 {
			for _, e := range entries {
				names = append(names, e.Name())
			}
		}
		if c.dirs == nil {
			c.dirs = map[string][]string{}
		}
		c.dirs[dir] = names
	}
	if near := schema.Nearest(base, names); near != base {
		return near
	}
	return ""
}
