package adapter

import (
	"fmt"

	"github.com/hookctl/hookctl/schema"
)

// MaxAnswer bounds what an adapted handler may print on stdout, as
// hookctl run bounds a handler's answer: over it, the handler failed.
const MaxAnswer = 1 << 20

// Ran is how a handler's process went.
type Ran struct {
	// Stdout is what it printed, up to MaxAnswer+1 bytes; Stderr the
	// start of its stderr (which the runner passed on as it came).
	Stdout, Stderr []byte
	// Exit is its exit status; Signaled says that a signal killed it
	// instead; StartErr says why it could not be started (Exit is then
	// 126 or 127, as a shell's).
	Exit     int
	Signaled bool
	StartErr string
}

// Runner runs a handler's command directly (no shell) with stdin as its
// standard input and env added to its environment, passes its stderr on
// as it comes, and returns how it went.
type Runner func(argv []string, stdin []byte, env []string) Ran

// ServeOptions are what hookctl adapt was given.
type ServeOptions struct {
	Agent schema.Agent
	// Event is the agent's name for the event, "" to tell it.
	Event   string
	Command []string
	// Payload is this format's payload, as read on stdin.
	Payload []byte
	Env     Env
	Run     Runner
}

// Served is what hookctl adapt answers.
type Served struct {
	// Stdout is this format's answer.
	Stdout []byte
	// Exit is the exit status: 0, ExitError for a handler that failed
	// or an invocation that cannot be served, or the handler's own status
	// when it could not be started.
	Exit int
	// Lines are hookctl's own lines for stderr; Notes those of them that
	// say what had no equivalent here, for the log too.
	Lines []string
	Notes []string
	// Signaled says that a signal killed the handler: the caller ends the
	// same way.
	Signaled bool
	// Adapted is the translation, nil when the payload could not be read.
	Adapted *Adapted
}

// Serve runs a handler written for another agent under this format: the
// payload in the agent's form to the handler, its answer read by the
// agent's rules and written as this format's.
func Serve(o ServeOptions) Served {
	ad, err := Adapt(o.Agent, o.Event, o.Payload, o.Env)
	if err != nil {
		return Served{Exit: ExitError, Lines: []string{err.Error()}}
	}
	out := Served{Adapted: ad}
	if ad.Skip != "" {
		out.Notes = []string{ad.Skip}
		out.Lines = out.Notes
		return out
	}
	ran := o.Run(o.Command, ad.Payload, ad.Env)
	switch {
	case ran.Signaled:
		out.Signaled = true
		return out
	case ran.StartErr != "":
		// The runner said why on stderr; the status is the shell's.
		out.Exit = ran.Exit
		return out
	case len(ran.Stdout) > MaxAnswer:
		out.Exit = ExitError
		out.Lines = []string{fmt.Sprintf("%s printed more than %d MiB on stdout: no answer is read from it", o.Command[0], MaxAnswer>>20)}
		return out
	}
	ans := ad.Answer(Ending{Stdout: ran.Stdout, Stderr: ran.Stderr, Exit: ran.Exit})
	out.Stdout, out.Exit, out.Notes = ans.Stdout, ans.Exit, ans.Notes
	if ans.Failure != "" {
		out.Lines = append(out.Lines, fmt.Sprintf("%s failed: %s; here a failed handler is the runtime's to judge (hookctl run --on-error; a PreToolUse is denied by default)", o.Command[0], ans.Failure))
	}
	out.Lines = append(out.Lines, ans.Notes...)
	return out
}
