package tracelog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/schema"
)

// TestRunsOf: a run record's handler is the hook's when it names the
// hook, one of its commands and its file; a trace record when it ran one
// of its commands in its folder. A failure says why.
func TestRunsOf(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "hooks.json")
	if err := os.WriteFile(path, []byte(`{"gate": {"Stop": [{"command": "hookctl trace -- ./gate.sh"}]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := schema.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	recs := []*Record{
		{ID: "t1", Time: at, Kind: KindTrace, Event: "Stop", Command: []string{"./gate.sh"}, Dir: dir, Exit: Int(3)},
		{ID: "t2", Time: at, Kind: KindTrace, Event: "Stop", Command: []string{"./gate.sh"}, Dir: t.TempDir(), Exit: Int(0)},
		{ID: "r1", Time: at, Kind: KindRun, Event: "Stop", Handlers: []Handler{{Hook: "gate", Command: "hookctl trace -- ./gate.sh", Where: path + ":1:21", Outcome: "failed"}}},
		{ID: "r2", Time: at, Kind: KindRun, Event: "Stop", Handlers: []Handler{{Hook: "gate", Command: "hookctl trace -- ./gate.sh", Where: filepath.Join(t.TempDir(), "hooks.json") + ":1:21"}}},
	}
	var got []string
	for _, r := range RunsOf(recs, cfg.File.Hooks[0], path, dir) {
		got = append(got, r.ID+" "+r.Failed)
	}
	if want := "t1 exit status 3,r1 failed"; strings.Join(got, ",") != want {
		t.Errorf("runs %q, want %q", strings.Join(got, ","), want)
	}
}
