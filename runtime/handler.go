package runtime

import (
	"context"

	"github.com/hookctl/hookctl/schema"
)

// Ending says how a handler's process came to an end.
type Ending uint8

// The endings of a handler.
const (
	// Exited: the handler exited by itself, with Outcome.ExitCode.
	Exited Ending = iota
	// Signaled: a signal that hookctl did not send ended it (a crash, such
	// as SIGSEGV or SIGABRT, or a kill from elsewhere).
	Signaled
	// TimedOut: it was still running at its timeout, and its process group
	// was stopped.
	TimedOut
	// OverCap: it printed more than StdoutCap on stdout, and was stopped.
	OverCap
	// Cancelled: the context was cancelled while it ran, and it was
	// stopped.
	Cancelled
	// NotStarted: it could not be started, or was refused (a script that
	// others may write).
	NotStarted
)

func (e Ending) String() string {
	switch e {
	case Exited:
		return "exited"
	case Signaled:
		return "killed by a signal"
	case TimedOut:
		return "timed out"
	case OverCap:
		return "stdout over the cap"
	case Cancelled:
		return "cancelled"
	}
	return "not started"
}

// RunHandler runs one handler of a hook on its own, merged with nothing,
// exactly as a dispatch runs each of its handlers: /bin/sh -c COMMAND in
// the folder that holds src, in its own process group, the payload bytes
// on its stdin, opts.Env with HOOKCTL_EVENT, HOOKCTL_HOOK, HOOKCTL_CONFIG
// and HOOKCTL_WORKSPACE (the workspace being opts.Workspace, else the
// payload's, else the one found from opts.Dir) set, stopped with SIGTERM and then SIGKILL
// (after opts.Grace) at its timeout, stdout capped at StdoutCap. The
// outcome is classified for the event as a dispatch classifies it; the
// ending says how the process ended. The handler runs whether or not src is
// trusted: the caller chose it.
func RunHandler(ctx context.Context, e schema.Event, src *Source, hook string, h *schema.Handler, payload []byte, opts Options) (*Outcome, Ending) {
	opts = opts.withDefaults()
	s := &Step{Source: src, Hook: hook, Pos: h.Pos, Handler: h, State: Run}
	var named *Payload
	if opts.Workspace == "" {
		named = payloadWorkspace(e, payload)
	}
	ws, _, err := resolveWorkspace(opts.Workspace, named, opts.Dir)
	if err != nil {
		return &Outcome{Step: s, Hook: hook, Kind: Failed, Cause: err.Error(), ExitCode: -1}, NotStarted
	}
	p := &Plan{Event: e, Workspace: ws, opts: opts}
	if err := unsafeScript(h.Command, src.Dir, ws); err != nil {
		return &Outcome{Step: s, Hook: hook, Kind: Failed, Cause: err.Error(), ExitCode: -1}, NotStarted
	}
	r := runProc(ctx, procSpec{
		command: h.Command,
		dir:     src.Dir,
		env:     p.env(s),
		stdin:   payload,
		timeout: s.Timeout(),
		grace:   opts.Grace,
	})
	o := classify(e, s, r)
	switch {
	case r.startErr != nil:
		return o, NotStarted
	case r.stopped == stoppedTimeout:
		return o, TimedOut
	case r.stopped == stoppedFlood:
		return o, OverCap
	case r.stopped == stoppedCancel:
		return o, Cancelled
	}
	if _, ok := signalOf(r.state); ok {
		return o, Signaled
	}
	return o, Exited
}

// payloadWorkspace reads the workspaces a payload names, nil when it names
// none or cannot be read.
func payloadWorkspace(e schema.Event, payload []byte) *Payload {
	p, err := ParsePayload(e, payload)
	if err != nil {
		return nil
	}
	return p
}
