//go:build unix

package runtime

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/runtime/tracelog"
)

// TestAppendRecord: the record goes to the log named, confined to the
// workspace $HOOKCTL_WORKSPACE names: a link there that leads out of it is
// refused, and nothing is written where it leads.
func TestAppendRecord(t *testing.T) {
	ws, outside := t.TempDir(), t.TempDir()
	env := map[string]string{"HOOKCTL_WORKSPACE": ws}
	getenv := func(k string) string { return env[k] }
	rec := &tracelog.Record{ID: tracelog.NewID(time.Now()), Kind: tracelog.KindRun, Event: "Stop"}

	path := filepath.Join(ws, "runs.jsonl")
	if err := AppendRecord(path, rec, getenv); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil || strings.Count(string(b), "\n") != 1 || !strings.Contains(string(b), `"id":"`+rec.ID+`"`) {
		t.Fatalf("the log holds %q (%v), want the one record %s", b, err, rec.ID)
	}

	// A folder of the workspace that leads out of it: a log outside the
	// workspace may be named, but not reached through the workspace.
	link := filepath.Join(ws, "logs")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	if err := AppendRecord(filepath.Join(link, "runs.jsonl"), rec, getenv); err == nil || !strings.Contains(err.Error(), "outside the workspace "+ws) {
		t.Errorf("a log reached through a link out of the workspace: %v", err)
	}
	if _, err := os.Stat(filepath.Join(outside, "runs.jsonl")); err == nil {
		t.Error("the log was written outside the workspace")
	}
}
