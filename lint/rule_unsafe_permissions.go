package lint

import (
	"os"
	"path/filepath"

	"github.com/hookctl/hookctl/schema"
)

type unsafePermissions struct{ RuleBase }

func newUnsafePermissions() Rule {
	return &unsafePermissions{newBase("unsafe-permissions", Error,
		"hooks.json or a handler script writable by group or others, or in a folder others can write")}
}

func (r *unsafePermissions) Check(f *File) {
	// folders are the unsafe folders reported, once a file; looked are the
	// files' folders already looked up, as most scripts share one.
	folders, looked := map[string]bool{}, map[string]bool{}
	if info, err := f.fs.stat(f.Config.Path); err == nil && writableByOthers(info) {
		r.report(f, fileStart, "",
			"%s is writable by %s (mode %04o): whoever can change it can run commands as you; run chmod go-w %s",
			f.Name, whoCanWrite(info), info.Mode().Perm(), f.Name)
	} else if err == nil {
		r.folder(f, f.Config.Path, fileStart, f.Name, folders, looked)
	}
	for _, s := range f.scripts() {
		info, err := f.statScript(s)
		if err != nil || info.IsDir() {
			continue
		}
		p := s.text()
		if !writableByOthers(info) {
			r.folder(f, s.path, s.span, p, folders, looked)
			continue
		}
		r.report(f, s.span, "",
			"%s is writable by %s (mode %04o): whoever can change it can run commands as you; run chmod go-w on it",
			p, whoCanWrite(info), info.Mode().Perm())
	}
}

// folder reports the file at path, shown as shown, when it lies in a
// folder that others can write without the sticky bit (hookctl run
// refuses it, see schema.UnsafeFolder), each folder once; a file in a
// folder already looked up is not looked up again.
func (r *unsafePermissions) folder(f *File, path string, at schema.Span, shown string, seen, looked map[string]bool) {
	if looked[filepath.Dir(path)] {
		return
	}
	looked[filepath.Dir(path)] = true
	dir, mode, unsafe := schema.UnsafeFolder(path)
	if !unsafe || seen[dir] {
		return
	}
	seen[dir] = true
	// UnsafeFolder names the folder absolute; it is shown from where the
	// file's name starts when it lies under the file's folder.
	if base, err := filepath.Abs(filepath.Dir(f.Config.Path)); err == nil {
		if rel, err := filepath.Rel(base, dir); err == nil && (rel == "." || filepath.IsLocal(rel)) {
			dir = filepath.Join(filepath.Dir(f.Name), rel)
		}
	}
	r.report(f, at, "",
		"%s is in the folder %s, which others can write (mode %04o, no sticky bit): anyone can put their own file in its place, and hookctl run refuses it; run chmod o-w %s",
		shown, dir, mode, dir)
}

func writableByOthers(info os.FileInfo) bool { return info.Mode().Perm()&0o022 != 0 }

func whoCanWrite(info os.FileInfo) string {
	switch m := info.Mode().Perm(); {
	case m&0o022 == 0o022:
		return "group and others"
	case m&0o002 != 0:
		return "others"
	}
	return "its group"
}
