package runtime

import (
	"os"
	"time"

	"github.com/hookctl/hookctl/runtime/tracelog"
)

// Record returns the dispatch as a record of the log (see package
// tracelog): its event and tool, every handler's hook, outcome, exit
// status, duration and answer in config order, the merged answer and the
// notes. The payload is recorded, with the values of secret-looking keys
// redacted, only withPayload. start and took are the dispatch's start and
// length, which the caller measures around Run.
func (r *Result) Record(start time.Time, took time.Duration, withPayload bool) *tracelog.Record {
	p := r.Plan
	rec := &tracelog.Record{
		ID:       tracelog.NewID(start),
		Time:     start.UTC(),
		Duration: tracelog.MillisOf(took),
		Kind:     tracelog.KindRun,
		Event:    string(p.Event),
		Tool:     p.Payload.Tool,
		Dir:      p.opts.Dir,
		PID:      os.Getpid(),
		// The record is of a dispatch that answered, which hookctl run
		// ends with status 0.
		Exit:         tracelog.Int(0),
		Answer:       r.Answer,
		Notes:        r.Notes,
		PayloadBytes: int64(len(p.Payload.Raw)),
	}
	if withPayload {
		if red, err := tracelog.Redact(p.Payload.Raw); err == nil {
			rec.Payload = red
		} else {
			rec.PayloadError = err.Error()
		}
	}
	for _, o := range r.Outcomes {
		h := tracelog.Handler{
			Hook:     o.Hook,
			Outcome:  o.Kind.String(),
			Duration: tracelog.MillisOf(o.Duration),
			Reason:   o.Reason,
			Cause:    o.Cause,
			Stderr:   tracelog.Head(string(o.Stderr), tracelog.StderrCap),
		}
		if o.Step != nil {
			h.Where = o.Step.Where()
			if o.Step.Handler != nil {
				h.Command = o.Step.Handler.Command
			}
		}
		if o.ExitCode >= 0 {
			h.Exit = tracelog.Int(o.ExitCode)
		}
		switch {
		case o.Kind == Answered:
			h.Answer = o.Answer
		case o.Kind == Failed && len(o.Stdout) > 0:
			h.Output = tracelog.Head(string(o.Stdout), 1024)
		}
		rec.Handlers = append(rec.Handlers, h)
	}
	return rec
}
