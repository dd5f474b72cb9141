package export

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/schema"
)

// workspace makes a workspace whose .agents/hooks.json holds src.
func workspace(t *testing.T, src string) string {
	t.Helper()
	ws := t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, ".agents"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, ".agents", "hooks.json"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return ws
}

// TestJob exports a workspace's hooks into Claude Code's settings under
// the lock, says what it did, finds nothing to do a second time, and
// removes what it added with the record it kept.
func TestJob(t *testing.T) {
	ws := workspace(t, `{"gate": {"Stop": [{"command": "./gate.sh"}]}}`)
	env := map[string]string{"XDG_STATE_HOME": t.TempDir()}
	q := Request{To: schema.Claude, Dir: ws, Getenv: func(k string) string { return env[k] }}
	j, err := q.Open()
	if err != nil {
		t.Fatal(err)
	}
	if j.Nothing() || len(j.Events) != 1 || j.Events[0] != schema.Stop {
		t.Fatalf("events %v", j.Events)
	}
	if want := filepath.Join(ws, ".claude", "settings.json"); j.Path != want || j.Shown != want {
		t.Errorf("path %s, shown %s", j.Path, j.Shown)
	}
	old, r, err := j.Preview()
	if err != nil || old != nil || !r.Changed() {
		t.Fatalf("preview: %q %v %v", old, r, err)
	}
	if got := j.Summary(r, false); got != "adds Stop" {
		t.Errorf("summary before writing: %q", got)
	}
	if _, err := os.Stat(j.Path); !os.IsNotExist(err) {
		t.Fatalf("a preview wrote the settings: %v", err)
	}
	write := func(j *Job) *Result {
		t.Helper()
		tx, err := j.Begin(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Close()
		old, r, err := j.Change(tx)
		if err != nil {
			t.Fatal(err)
		}
		if r.Changed() {
			if err := j.Write(tx, old, r); err != nil {
				t.Fatal(err)
			}
			if err := j.Remember(r); err != nil {
				t.Fatal(err)
			}
		}
		return r
	}
	r = write(j)
	if got := j.Summary(r, true); got != "added Stop" {
		t.Errorf("summary once written: %q", got)
	}
	if b, err := os.ReadFile(j.Path); err != nil || string(b) != string(r.New) {
		t.Fatalf("settings %q, %v; want %q", b, err, r.New)
	}

	if j, err = q.Open(); err != nil {
		t.Fatal(err)
	}
	if _, r, err = j.Preview(); err != nil || r.Changed() || j.Summary(r, false) != "Stop already there" {
		t.Errorf("second export: %v, %q", err, j.Summary(r, false))
	}

	q.Remove = true
	if j, err = q.Open(); err != nil {
		t.Fatal(err)
	}
	r = write(j)
	if got := j.Summary(r, true); got != "removed the entries of Stop" {
		t.Errorf("removal: %q", got)
	}
	if why := j.Unrecorded(r); why != "" {
		t.Errorf("a removal with a record says %q", why)
	}
	if b, _ := os.ReadFile(j.Path); strings.Contains(string(b), "hookctl") {
		t.Errorf("left after removal:\n%s", b)
	}
}

// TestJobNothing: a workspace whose hooks are all disabled has nothing to
// export, and no settings file is looked at.
func TestJobNothing(t *testing.T) {
	ws := workspace(t, `{"off": {"enabled": false, "Stop": [{"command": "./o.sh"}]}}`)
	j, err := Request{To: schema.Cursor, Dir: ws}.Open()
	if err != nil || !j.Nothing() || j.Path != "" {
		t.Fatalf("%+v, %v", j, err)
	}
	if want := filepath.Join(ws, ".agents", "hooks.json"); j.HooksFile != want {
		t.Errorf("hooks file %s, want %s", j.HooksFile, want)
	}
}

// TestJobRefusals: a folder that is not there, a settings folder that
// leads out of the workspace, and settings that are not valid JSON are
// each named.
func TestJobRefusals(t *testing.T) {
	const hooks = `{"gate": {"Stop": [{"command": "./gate.sh"}]}}`
	missing := filepath.Join(t.TempDir(), "gone")
	if _, err := (Request{To: schema.Claude, Dir: missing}).Open(); err == nil || err.Error() != missing+": no such folder" {
		t.Errorf("missing folder: %v", err)
	}

	ws := workspace(t, hooks)
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(ws, ".claude")); err != nil {
		t.Fatal(err)
	}
	_, err := Request{To: schema.Claude, Dir: ws}.Open()
	want := "refusing to write " + filepath.Join(ws, ".claude", "settings.json") + ": it leads out of the workspace " + ws + ", to "
	if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.HasSuffix(err.Error(), "; export writes only inside the workspace") {
		t.Errorf("a link out:\n got %v\nwant %s...", err, want)
	}

	ws = workspace(t, hooks)
	if err := os.MkdirAll(filepath.Join(ws, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, ".claude", "settings.json"), []byte("{\n  \"a\": ,\n}"), 0o644); err != nil {
		t.Fatal(err)
	}
	j, err := Request{To: schema.Claude, Dir: ws, Getenv: func(string) string { return "" }}.Open()
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := j.Preview(); err == nil || !strings.HasPrefix(err.Error(), filepath.Join(ws, ".claude", "settings.json")+":2:8: ") {
		t.Errorf("settings with a mistake: %v", err)
	}
}
