package adapter

import (
	"bytes"
	"os"
	"time"

	"github.com/hookctl/hookctl/runtime/tracelog"
)

// Record is the log's record of a handler that hookctl adapt served,
// started at start with command, for the hook named (HOOKCTL_HOOK): kept
// when its answer held what has no equivalent here (Notes).
func (s Served) Record(command []string, hook string, start time.Time) *tracelog.Record {
	rec := &tracelog.Record{
		ID:       tracelog.NewID(start),
		Time:     start.UTC(),
		Duration: tracelog.MillisOf(time.Since(start)),
		Kind:     tracelog.KindAdapt,
		Command:  command,
		Hook:     hook,
		Exit:     tracelog.Int(s.Exit),
		Answer:   bytes.TrimSpace(s.Stdout),
		Notes:    s.Notes,
	}
	if ad := s.Adapted; ad != nil {
		rec.Event = string(ad.Event)
	}
	rec.Dir, _ = os.Getwd()
	return rec
}

// NotesRecord is the log's record of hookctl's notes about the call, made
// at now, where the agent would show them on stderr (hookctl run --from).
func (c *Call) NotesRecord(notes []string, now time.Time) *tracelog.Record {
	rec := &tracelog.Record{
		ID: tracelog.NewID(now), Time: now.UTC(), Kind: tracelog.KindRun, Event: string(c.Event),
		PID: os.Getpid(), Exit: tracelog.Int(0), Notes: notes,
		Command: []string{"hookctl", "run", "--from", string(c.Agent), c.Foreign},
	}
	rec.Dir, _ = os.Getwd()
	return rec
}
