package schema

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSameFile: a link and its target are one file; two paths of which
// one is missing are one file when they are the same absolute path.
func TestSameFile(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	if err := os.WriteFile(a, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "l")
	if err := os.Symlink(a, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if !SameFile(a, link) || SameFile(a, b) {
		t.Errorf("SameFile(a, link) = %v, SameFile(a, b) = %v", SameFile(a, link), SameFile(a, b))
	}
	gone := filepath.Join(dir, "gone")
	if !SameFile(gone, filepath.Join(dir, "x", "..", "gone")) || SameFile(gone, a) {
		t.Errorf("missing files compared wrongly")
	}
}
