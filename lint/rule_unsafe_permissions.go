package lint

import (
	"os"
)

type unsafePermissions struct{ RuleBase }

func newUnsafePermissions() Rule {
	return &unsafePermissions{newBase("unsafe-permissions", Error,
		"hooks.json or a handler script writable by group or others")}
}

func (r *unsafePermissions) Check(f *File) {
	if info, err := f.fs.stat(f.Config.Path); err == nil && writableByOthers(info) {
		r.report(f, fileStart, "",
			"%s is writable by %s (mode %04o): whoever can change it can run commands as you; run chmod go-w %s",
			f.Name, whoCanWrite(info), info.Mode().Perm(), f.Name)
	}
	for _, s := range f.scripts() {
		info, err := f.statScript(s)
		if err != nil || info.IsDir() || !writableByOthers(info) {
			continue
		}
		p := s.text()
		r.report(f, s.span, "",
			"%s is writable by %s (mode %04o): whoever can change it can run commands as you; run chmod go-w on it",
			p, whoCanWrite(info), info.Mode().Perm())
	}
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
