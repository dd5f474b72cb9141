package tracelog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfinedLogNeverFollowsALinkOut: a log a command names (Within set)
// is never written through a link: one planted where the log goes, or a
// folder on its way that leads out of the workspace, is refused with a
// message that says which, and the file the link leads to is untouched;
// links that stay inside, missing folders and a file named outside the
// workspace are written as usual, and rotation never follows the lock.
func TestConfinedLogNeverFollowsALinkOut(t *testing.T) {
	home := t.TempDir()
	bashrc := filepath.Join(home, ".bashrc")
	ws := t.TempDir()
	inside := filepath.Join(ws, "inside")
	for _, d := range []string{filepath.Join(ws, "logs"), inside, filepath.Join(home, "ssh")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, name string) {
		t.Helper()
		if err := os.Symlink(target, filepath.Join(ws, name)); err != nil {
			t.Fatal(err)
		}
	}
	link(bashrc, "logs/runs.jsonl")
	link(filepath.Join(home, "ssh"), "out")
	link(inside, "in")
	link(filepath.Join(ws, "logs", "runs.jsonl"), "inside/chain.jsonl")
	for _, c := range []struct {
		path, refused string
	}{
		{"logs/runs.jsonl", "it is a symbolic link"},
		{"out/authorized_keys", "its folder " + filepath.Join(ws, "out") + " is a symbolic link to " + filepath.Join(home, "ssh")},
		{"out/new/x.jsonl", "its folder " + filepath.Join(ws, "out") + " is a symbolic link to"},
		{"inside/chain.jsonl", "it is a symbolic link"},
		{"in/runs.jsonl", ""},
		{"new/folder/runs.jsonl", ""},
		{filepath.Join(home, "elsewhere.jsonl"), ""},
		{bashrc + ".link", "it is a symbolic link"},
	} {
		if err := os.WriteFile(bashrc, []byte("# mine\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Symlink(bashrc, bashrc+".link")
		p := c.path
		if !filepath.IsAbs(p) {
			p = filepath.Join(ws, p)
		}
		l := &Log{Path: p, Within: ws, RotateAt: 200}
		var err error
		for range 3 { // past a rotation
			if err = l.Append(&Record{ID: "x", Kind: KindTrace, Stderr: strings.Repeat("s", 100)}); err != nil {
				break
			}
		}
		switch {
		case c.refused == "" && err != nil:
			t.Errorf("%s: %v", c.path, err)
		case c.refused != "" && (err == nil || !strings.Contains(err.Error(), "refusing to write the log "+p+": "+c.refused)):
			t.Errorf("%s: error %v, want it refused: %s", c.path, err, c.refused)
		}
		if b, _ := os.ReadFile(bashrc); string(b) != "# mine\n" {
			t.Fatalf("%s: ~/.bashrc now holds %q", c.path, b)
		}
		if entries, _ := os.ReadDir(filepath.Join(home, "ssh")); len(entries) > 0 {
			t.Fatalf("%s: wrote %s in the folder a link leads to", c.path, entries[0].Name())
		}
	}
	// Without Within, the user's own log, a link is followed as before.
	if err := (&Log{Path: filepath.Join(ws, "logs", "runs.jsonl")}).Append(&Record{ID: "x"}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(bashrc); !strings.Contains(string(b), `"id":"x"`) {
		t.Errorf("the user's own log through a link: %q", b)
	}
}
