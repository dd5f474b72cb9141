//go:build unix

package scope

import (
	"path/filepath"
	"syscall"
	"testing"
)

func TestFindHostileEntries(t *testing.T) {
	top := tree(t, "fifo/sub/")
	// A .git that is a FIFO is no repository, and is never opened: the
	// search would hang.
	if err := syscall.Mkfifo(filepath.Join(top, "fifo", ".git"), 0o644); err != nil {
		t.Fatal(err)
	}
	from := filepath.Join(top, "fifo", "sub")
	if f := find(t, from); f.Root != from || f.By != ByCurrent {
		t.Errorf("%s (%s)", f.Root, f.By)
	}
	if _, err := Find("relative/dir"); err == nil {
		t.Error("a relative folder was searched")
	}
}
