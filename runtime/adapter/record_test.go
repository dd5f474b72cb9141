package adapter

import (
	"slices"
	"testing"
	"time"

	"github.com/hookctl/hookctl/runtime/tracelog"
	"github.com/hookctl/hookctl/schema"
)

// TestRecords: what adapt and run --from keep in the log of the notes
// that have nowhere else to go.
func TestRecords(t *testing.T) {
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("CET", 3600))
	served := Served{Stdout: []byte(" {\"decision\":\"deny\"}\n"), Exit: 0, Notes: []string{"n"}, Adapted: &Adapted{Event: schema.PreToolUse}}
	rec := served.Record([]string{"./gate.py"}, "gate", start)
	if rec.Kind != tracelog.KindAdapt || rec.Hook != "gate" || rec.Event != "PreToolUse" || string(rec.Answer) != `{"decision":"deny"}` ||
		*rec.Exit != 0 || !slices.Equal(rec.Notes, []string{"n"}) || rec.Time.Location() != time.UTC || rec.Dir == "" {
		t.Errorf("adapt's record: %+v", rec)
	}
	call := &Call{Agent: schema.Claude, Foreign: "UserPromptSubmit", Event: schema.PreInvocation}
	rec = call.NotesRecord([]string{"n"}, start)
	if rec.Kind != tracelog.KindRun || rec.Event != "PreInvocation" || !slices.Equal(rec.Command, []string{"hookctl", "run", "--from", "claude", "UserPromptSubmit"}) || rec.PID == 0 {
		t.Errorf("run --from's record: %+v", rec)
	}
}
