package schema

import (
	"io/fs"
	"os"
	"path/filepath"
)

// UnsafeFolder returns the nearest folder holding path, at any depth,
// that others can write and that has no sticky bit, with its mode; unsafe
// is false when there is none.
func UnsafeFolder(path string) (dir string, mode fs.FileMode, unsafe bool) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", 0, false
	}
	for d := filepath.Dir(abs); ; d = filepath.Dir(d) {
		if info, err := os.Stat(d); err == nil {
			if m := info.Mode(); m.Perm()&0o002 != 0 && m&fs.ModeSticky == 0 {
				return d, m.Perm(), true
			}
		}
		if filepath.Dir(d) == d {
			return "", 0, false
		}
	}
}
