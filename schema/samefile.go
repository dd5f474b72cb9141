package schema

import (
	"os"
	"path/filepath"
)

// SameFile reports whether two paths name one file: the same file when
// both exist, else the same absolute path.
func SameFile(a, b string) bool {
	if a == b {
		return true
	}
	ia, err1 := os.Stat(a)
	ib, err2 := os.Stat(b)
	if err1 == nil && err2 == nil {
		return os.SameFile(ia, ib)
	}
	ca, _ := filepath.Abs(a)
	cb, _ := filepath.Abs(b)
	return ca == cb
}
