package doctor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/runtime/agy"
	"github.com/hookctl/hookctl/runtime/tracelog"
	"github.com/hookctl/hookctl/schema"
)

// TestDoctorChecksReadFactsAlone: each check is a function of the facts,
// so one run alone says what it says in the whole report: the runs since
// the agent's last load come from the log's facts, not from the log's
// check having run first.
func TestDoctorChecksReadFactsAlone(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "hooks.json")
	if err := os.WriteFile(path, []byte(`{"gate": {"Stop": [{"command": "./gate.sh"}]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := schema.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	loaded := time.Date(2026, 12, 1, 10, 12, 3, 0, time.UTC)
	f := &hooksFile{path: path, shown: ".agents/hooks.json", cfg: cfg, verdict: schema.VerdictOf(cfg, schema.AgentOptions{})}
	d := &Facts{files: []*hooksFile{f}, runsKnown: true,
		log: &agy.Log{Loaded: 1, LoadedAt: loaded},
		runs: []*tracelog.Record{{ID: "r1", Time: loaded.Add(time.Minute), Kind: tracelog.KindRun, Event: "Stop",
			Handlers: []tracelog.Handler{{Hook: "gate", Command: "./gate.sh", Where: path + ":1:21", Outcome: "no answer"}}}}}
	c := checkRuns(d)
	if len(c) != 1 || c[0].Status != OK || !strings.Contains(c[0].Message, "1 run since the agent last loaded the files") {
		t.Errorf("checkRuns alone: %+v", c)
	}
	d.log = nil
	if c := checkRuns(d); len(c) != 1 || c[0].Status != OK || strings.Contains(c[0].Message, "since the agent last loaded") {
		t.Errorf("checkRuns without a log: %+v", c)
	}
}
