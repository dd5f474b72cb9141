package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutput writes the findings inside the current folder, replacing a
// link at the file's name instead of writing through it, and refuses a
// file outside, beyond a link among its folders, or that is a folder.
func TestOutput(t *testing.T) {
	cwd, outside := t.TempDir(), t.TempDir()
	victim := filepath.Join(outside, "victim")
	if err := os.WriteFile(victim, []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(cwd, "out.sarif")); err != nil {
		t.Fatal(err)
	}
	o, err := OpenOutput(cwd, filepath.Join(cwd, "out.sarif"))
	if err != nil {
		t.Fatal(err)
	}
	o.Buf.WriteString("findings\n")
	if err := o.Write(); err != nil {
		t.Fatal(err)
	}
	o.Close()
	if b, err := os.ReadFile(filepath.Join(cwd, "out.sarif")); err != nil || string(b) != "findings\n" {
		t.Errorf("out.sarif holds %q, %v", b, err)
	}
	if info, err := os.Lstat(filepath.Join(cwd, "out.sarif")); err != nil || !info.Mode().IsRegular() {
		t.Errorf("out.sarif is not a file of its own: %v", err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "mine\n" {
		t.Errorf("the write went through the link: %q", b)
	}

	if err := os.Symlink(outside, filepath.Join(cwd, "away")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(cwd, "dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		filepath.Join(outside, "x"): filepath.Join(outside, "x") + " is outside the current folder " + cwd + ": lint writes its findings only inside it",
		"../x":                      "../x is outside the current folder " + cwd,
		"away/x":                    "the folder of away/x cannot be reached inside the current folder " + cwd + " (",
		"dir":                       "dir is a folder",
	} {
		if o, err := OpenOutput(cwd, path); err == nil || !strings.HasPrefix(err.Error(), want) {
			if err == nil {
				o.Close()
			}
			t.Errorf("%s: %v, want %s...", path, err, want)
		}
	}
}
