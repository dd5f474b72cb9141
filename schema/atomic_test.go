package schema

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "hooks.json")
	if err := WriteFileAtomic(path, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("new file mode %v, want 0600", fi.Mode().Perm())
	}
	if err := os.Chmod(path, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(path, []byte("{\"a\": {}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	b, _ := os.ReadFile(path)
	if fi.Mode().Perm() != 0o640 || string(b) != "{\"a\": {}}\n" {
		t.Errorf("mode %v content %q: permissions must be kept", fi.Mode().Perm(), b)
	}
	// A symbolic link is written through and survives.
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(link, []byte("[]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the link was replaced by a file")
	}
	if b, _ := os.ReadFile(path); string(b) != "[]\n" {
		t.Errorf("target holds %q", b)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("temporary files left behind: %v", entries)
	}
	err := WriteFileAtomic(filepath.Join(dir, "missing", "x.json"), nil, 0o644)
	if err == nil || !strings.Contains(err.Error(), "missing/x.json: its folder does not exist") {
		t.Errorf("missing folder: %v", err)
	}
}
