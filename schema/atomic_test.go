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

// TestAtomicWriteOfAnExecutable: the temporary file of an executable is
// not executable while it is one (a write killed then leaves no file that
// runs); the file gets its mode once in place.
func TestAtomicWriteOfAnExecutable(t *testing.T) {
	dir := t.TempDir()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	var seen []string
	err = WriteFileAtomicIn(root, "gate.sh", []byte("#!/bin/sh\n"), 0o755, func() error {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			info, _ := e.Info()
			seen = append(seen, e.Name()+" "+info.Mode().String())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 1 || !strings.HasPrefix(seen[0], ".gate.sh.tmp") || !strings.HasSuffix(seen[0], " -rw-r--r--") {
		t.Errorf("before the rename: %q, want the temporary file alone, not executable", seen)
	}
	if info, err := os.Stat(filepath.Join(dir, "gate.sh")); err != nil || info.Mode().Perm() != 0o755 {
		t.Errorf("the file: %v, %v", info.Mode(), err)
	}
}

// TestRemoveLeftovers removes exactly the temporary files of the name's
// killed writes, and nothing else of the folder.
func TestRemoveLeftovers(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{".hooks.json.tmp1", ".hooks.json.tmp1z141z3", ".hooks.json.tmpabc", "hooks.json", ".hooks.json.tmp", ".hooks.json.tmp12345678",
		".hooks.json.tmpABC", ".hooks.json.tmp1.sh", ".hooks.json.undo1", ".other.json.tmp1", ".hooks.jsonx.tmp1", "x.hooks.json.tmp1"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, ".hooks.json.tmpdir"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("hooks.json", filepath.Join(dir, ".hooks.json.tmplink")); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	RemoveLeftovers(root, "hooks.json")
	var left []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		left = append(left, e.Name())
	}
	want := []string{".hooks.json.tmp", ".hooks.json.tmp1.sh", ".hooks.json.tmp12345678", ".hooks.json.tmpABC", ".hooks.json.tmpdir", ".hooks.json.tmplink",
		".hooks.json.undo1", ".hooks.jsonx.tmp1", ".other.json.tmp1", "hooks.json", "x.hooks.json.tmp1"}
	if strings.Join(left, " ") != strings.Join(want, " ") {
		t.Errorf("left %q\nwant %q", left, want)
	}
}
