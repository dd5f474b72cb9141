package runtime

import (
	"bytes"
	"encoding/json"
	"os"
	"syscall"
	"time"

	"github.com/hookctl/hookctl/internal/capture"
	"github.com/hookctl/hookctl/runtime/tracelog"
	"github.com/hookctl/hookctl/schema/shellcmd"
)

// Wrapped is what running a command under a wrapper (hookctl trace,
// hookctl adapt) produced.
type Wrapped struct {
	Start    time.Time
	Duration time.Duration
	PID      int
	// Exit is the status to exit with; Signal, when not 0, the signal
	// that killed the command.
	Exit   int
	Signal syscall.Signal
	// StartErr says why the command could not be started.
	StartErr string
	// What went through each stream, up to what the limits keep.
	Stdout, Stderr, Stdin capture.Buffer
	// Teed is whether stdin went through the wrapper (not a terminal).
	Teed bool
}

// WrapLimits say how much of each stream a wrapper keeps, and what it adds
// to the environment.
type WrapLimits struct {
	Stdout, Stderr, Stdin int
	// Env are variables added to the command's environment, as NAME=VALUE.
	Env []string
	// Name is the wrapper's name in its messages: trace, adapt.
	Name string
}

// TraceLimits are hookctl trace's: enough for the record.
var TraceLimits = WrapLimits{Stdout: tracelog.AnswerCap, Stderr: tracelog.StderrCap, Stdin: tracelog.PayloadCap, Name: "trace"}

// kept returns what c kept, whether that is everything, and how much
// went through. A pump may still be adding: stdin is not waited for.
func kept(c *capture.Buffer) (b []byte, all bool, total int64) {
	b, cut := c.Snapshot()
	return b, cut == 0, int64(len(b)) + cut
}

// TraceRecord builds the record of a run of hookctl trace: opts are its
// arguments, getenv reads the environment (HOOKCTL_HOOK, HOOKCTL_EVENT).
func (w *Wrapped) TraceRecord(opts shellcmd.TraceArgs, getenv func(string) string) *tracelog.Record {
	rec := &tracelog.Record{
		ID: tracelog.NewID(w.Start),
		// In UTC: encoding a local time would read the time zone database,
		// on the path of every traced handler. hookctl log shows local time.
		Time:     w.Start.UTC(),
		Duration: tracelog.MillisOf(w.Duration),
		Kind:     tracelog.KindTrace,
		Command:  opts.Command,
		PID:      w.PID,
		Error:    w.StartErr,
	}
	rec.Dir, _ = os.Getwd()
	if w.Signal != 0 {
		rec.Signal = tracelog.SignalName(w.Signal)
	} else {
		rec.Exit = tracelog.Int(w.Exit)
	}

	stdout, outAll, outBytes := kept(&w.Stdout)
	rec.StdoutBytes = outBytes
	if trimmed := bytes.TrimSpace(stdout); len(trimmed) > 0 {
		var c bytes.Buffer
		if outAll && json.Compact(&c, trimmed) == nil {
			rec.Answer = c.Bytes()
		} else {
			rec.Output = tracelog.Head(string(stdout), 4096)
			if !outAll || len(stdout) > 4096 {
				rec.Output += tracelog.Cut
				rec.Truncated = append(rec.Truncated, "stdout")
			}
		}
	}
	stderr, errAll, errBytes := kept(&w.Stderr)
	rec.StderrBytes = errBytes
	rec.Stderr = tracelog.Head(string(stderr), tracelog.StderrCap)
	if !errAll {
		rec.Truncated = append(rec.Truncated, "stderr")
	}

	payload, inAll, inBytes := kept(&w.Stdin)
	rec.PayloadBytes = inBytes
	var facts tracelog.Facts
	if inAll {
		facts = tracelog.Infer(payload, rec.Answer)
	}
	if opts.Payload && w.Teed {
		switch {
		case !inAll:
			rec.Truncated = append(rec.Truncated, "payload")
		case len(bytes.TrimSpace(payload)) == 0:
		default:
			if red, err := tracelog.Redact(payload); err == nil {
				rec.Payload = red
			} else {
				rec.PayloadError = err.Error()
			}
		}
	}
	rec.Tool = facts.Tool
	rec.Hook, rec.HookFrom = opts.Hook, tracelog.FromFlag
	if rec.Hook == "" {
		rec.Hook, rec.HookFrom = getenv("HOOKCTL_HOOK"), tracelog.FromEnvironment
	}
	if rec.Hook == "" {
		rec.HookFrom = tracelog.FromUnknown
	}
	rec.Event, rec.EventFrom = opts.Event, tracelog.FromFlag
	if rec.Event == "" {
		rec.Event, rec.EventFrom = getenv("HOOKCTL_EVENT"), tracelog.FromEnvironment
	}
	if rec.Event == "" {
		rec.Event, rec.EventFrom = facts.Event, tracelog.FromPayload
	}
	if rec.Event == "" {
		rec.EventFrom = tracelog.FromUnknown
	}
	return rec
}

// WrapperExit is the exit status of a wrapper (trace, adapt) whose
// command w ended with status exit; w is nil when the command never ran.
// When w was killed by a signal, the wrapper dies of the same signal
// (Reraise) and does not return; where it cannot, its status is 128 +
// the signal, as a shell reports it.
func WrapperExit(w *Wrapped, exit int) int {
	if w != nil && w.Signal != 0 {
		Reraise(w.Signal)
		return 128 + int(w.Signal)
	}
	return exit
}

// AppendRecord appends rec to the log a command names: path (--log),
// else $HOOKCTL_LOG, else the default log. A log the command names is
// never written through a link that leads out of its workspace, the
// dispatch's ($HOOKCTL_WORKSPACE, which Run sets) or the one found from
// the current folder (tracelog.CommandLog). getenv reads the environment.
func AppendRecord(path string, rec *tracelog.Record, getenv func(string) string) error {
	l, err := tracelog.CommandLog(path, getenv("HOOKCTL_WORKSPACE"), getenv)
	if err != nil {
		return err
	}
	return l.Append(rec)
}
