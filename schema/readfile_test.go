package schema

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/internal/fifo"
)

func TestReadFileBounds(t *testing.T) {
	dir := t.TempDir()
	ok := filepath.Join(dir, "ok.json")
	if err := os.WriteFile(ok, []byte(strings.Repeat("x", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(ok, 100); err != nil || len(b) != 100 {
		t.Errorf("a file of exactly the bound: %d bytes, %v", len(b), err)
	}
	var tl *TooLargeError
	if _, err := ReadFile(ok, 99); !errors.As(err, &tl) {
		t.Errorf("a file over the bound: %v", err)
	}
	pipe := filepath.Join(dir, "fifo")
	if err := fifo.Make(pipe, 0o644); errors.Is(err, fifo.ErrUnsupported) {
		t.Skip(err)
	} else if err != nil {
		t.Fatal(err)
	}
	var nr *NotRegularError
	for _, p := range []string{pipe, "/dev/zero", dir} {
		if _, err := ReadFile(p, MaxFileSize); !errors.As(err, &nr) {
			t.Errorf("%s: %v, want a NotRegularError", p, err)
		}
	}
	// /proc says its files are empty and then never stop: the bound holds
	// (for a file opened otherwise: ReadFile does not open this one, see
	// TestProcessFilesAreNotRead).
	if f, err := os.Open("/proc/self/pagemap"); err == nil {
		defer f.Close()
		if _, err := ReadOpen(f, "/proc/self/pagemap", 1<<20); !errors.As(err, &tl) {
			t.Errorf("/proc/self/pagemap: %v, want a TooLargeError", err)
		}
	}
}
