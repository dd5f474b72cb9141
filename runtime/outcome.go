package runtime

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"syscall"
	"time"

	"github.com/hookctl/hookctl/schema"
)

// Kind says how a handler ended, as far as the answer is concerned.
type Kind uint8

// The kinds of outcome.
const (
	// NoAnswer: exit 0 with nothing (or only white space) on stdout.
	NoAnswer Kind = iota
	// Answered: exit 0 with one JSON object valid for the event.
	Answered
	// Blocked: exit 2 for PreToolUse (a deny) or Stop (a continue), the
	// reason being its stderr.
	Blocked
	// Failed: any other ending, or a part that cannot run.
	Failed
	// Skipped: not run, because an earlier handler denied the call under
	// sequential dispatch.
	Skipped
)

func (k Kind) String() string {
	switch k {
	case NoAnswer:
		return "no answer"
	case Answered:
		return "answered"
	case Blocked:
		return "blocked"
	case Failed:
		return "failed"
	}
	return "not run"
}

// Outcome is how one handler (or one part that cannot run) ended.
type Outcome struct {
	// Step is the planned step.
	Step *Step
	// Hook names the hook; for a file that cannot be used, it is "".
	Hook string
	// Kind says how the handler ended.
	Kind Kind
	// Answer is the handler's answer as compact JSON with the event's known
	// fields in documented order, when Kind is Answered.
	Answer json.RawMessage
	// Reason is the block's reason (the handler's stderr) when Kind is
	// Blocked.
	Reason string
	// Cause says what went wrong when Kind is Failed.
	Cause string
	// ExitCode is the handler's exit status, -1 when it did not exit by
	// itself (signal, timeout, not started, not run).
	ExitCode int
	// Stdout is what it printed, up to the cap; Stderr likewise, and
	// StderrTruncated tells when more was discarded.
	Stdout          []byte
	Stderr          []byte
	StderrTruncated bool
	// Duration is how long it ran.
	Duration time.Duration
	// Notes are remarks about its answer, such as keys that were ignored.
	Notes []string
	// Again marks a user handler run a second time, on the tool's arguments
	// as the merged overwrite changed them (see Plan.Run).
	Again bool

	ans *answer
}

// parsed returns the outcome's answer, reading Answer when the outcome was
// built outside this package.
func (o *Outcome) parsed(e schema.Event) *answer {
	if o.ans == nil && o.Kind == Answered && len(o.Answer) > 0 {
		o.ans, _, _ = parseAnswer(e, o.Answer)
	}
	return o.ans
}

// Label names the outcome's source for a message: hook "NAME", or the file.
// A handler run again on overwritten arguments is "hook NAME (run again)".
func (o *Outcome) Label() string {
	if o.Hook == "" && o.Step != nil {
		return o.Step.Source.Path
	}
	if o.Again {
		return "hook " + o.Hook + " (run again)"
	}
	return "hook " + o.Hook
}

// again is what a message adds for a handler run a second time.
func (o *Outcome) again() string {
	if o.Again {
		return " on the overwritten arguments"
	}
	return ""
}

// Message is the line that reports a failure on stderr, without the
// "hookctl: " prefix: "hook NAME: CAUSE", with FILE:LINE:COL for a part of a
// file that cannot run, and FILE:LINE:COL alone for a file that cannot be
// used at all.
func (o *Outcome) Message() string {
	switch {
	case o.Hook == "" && o.Step != nil && o.Step.Source.unfound:
		return o.Cause
	case o.Hook == "" && o.Step != nil:
		return o.Step.Where() + ": " + o.Cause
	case o.Step != nil && o.Step.Handler == nil:
		return fmt.Sprintf("hook %s: %s: %s", o.Hook, o.Step.Where(), o.Cause)
	case o.Again:
		return fmt.Sprintf("hook %s, run again%s: %s", o.Hook, o.again(), o.Cause)
	}
	return fmt.Sprintf("hook %s: %s", o.Hook, o.Cause)
}

// failureReason is the reason a failure gives to the decision it adds.
func (o *Outcome) failureReason() string {
	switch {
	case o.Hook == "" && o.Step != nil && o.Step.Source.unfound:
		return o.Cause
	case o.Hook == "" && o.Step != nil:
		return o.Step.Where() + ": " + o.Cause
	case o.Step != nil && o.Step.Handler == nil:
		return fmt.Sprintf("hook %s failed: %s: %s", o.Hook, o.Step.Where(), o.Cause)
	}
	return fmt.Sprintf("hook %s failed%s: %s", o.Hook, o.again(), o.Cause)
}

// brokenOutcome is the failure of a step that cannot run.
func brokenOutcome(s *Step) *Outcome {
	return &Outcome{Step: s, Hook: s.Hook, Kind: Failed, Cause: s.Why, ExitCode: -1}
}

// classify turns how a handler's process ended into its outcome for the
// event.
func classify(e schema.Event, s *Step, r procResult) *Outcome {
	o := &Outcome{Step: s, Hook: s.Hook, ExitCode: exitCode(r.state), Stdout: r.stdout, Stderr: r.stderr,
		StderrTruncated: r.stderrTrunc, Duration: r.elapsed}
	fail := func(format string, args ...any) *Outcome {
		o.Kind, o.Cause = Failed, fmt.Sprintf(format, args...)
		return o
	}
	switch {
	case r.startErr != nil:
		o.ExitCode = -1
		return fail("cannot start /bin/sh in %s: %v", s.Source.Dir, unwrapPath(r.startErr))
	case r.stopped == stoppedTimeout:
		o.ExitCode = -1
		return fail("timed out after %s; its process group was stopped%s", seconds(s.Timeout()), stderrTail(r.stderr))
	case r.stopped == stoppedFlood:
		o.ExitCode = -1
		return fail("printed more than 1 MiB on stdout; it was stopped")
	case r.stopped == stoppedCancel:
		o.ExitCode = -1
		return fail("interrupted: the dispatch was cancelled")
	}
	if sig, ok := signalOf(r.state); ok {
		return fail("killed by signal %d (%s)%s", int(sig), sigName(sig), stderrTail(r.stderr))
	}
	judge(e, o)
	return o
}

// Judge returns the outcome of a handler of the event that exited with
// the status given, having printed stdout and stderr, by the rules every
// dispatch applies: exit 0 with nothing is no answer, with an answer valid
// for the event is that answer; exit 2 blocks PreToolUse and Stop; all
// else fails. A status of -1 is a handler that did not exit by itself (a
// signal, a timeout, no start), which fails.
func Judge(e schema.Event, exit int, stdout, stderr []byte) *Outcome {
	o := &Outcome{ExitCode: exit, Stdout: stdout, Stderr: stderr}
	if exit < 0 {
		o.Kind, o.Cause = Failed, "did not exit by itself"+stderrTail(stderr)
		return o
	}
	judge(e, o)
	return o
}

// judge sets the outcome of a handler that exited with o.ExitCode, having
// printed o.Stdout and o.Stderr.
func judge(e schema.Event, o *Outcome) {
	fail := func(format string, args ...any) {
		o.Kind, o.Cause = Failed, fmt.Sprintf(format, args...)
	}
	switch o.ExitCode {
	case 0:
		a, notes, err := parseAnswer(e, o.Stdout)
		o.Notes = notes
		if err != nil {
			fail("%v", err)
			return
		}
		if a == nil {
			o.Kind = NoAnswer
			return
		}
		o.Kind, o.ans, o.Answer = Answered, a, encodeAnswer(e, a)
	case 2:
		if e.Exit2Decision() != "" {
			o.Kind = Blocked
			o.Reason = strings.TrimSpace(string(o.Stderr))
			return
		}
		fail("exit status 2, which blocks only PreToolUse and Stop%s", stderrTail(o.Stderr))
	default:
		fail("exit status %d%s", o.ExitCode, stderrTail(o.Stderr))
	}
}

// stderrTail quotes the last line a handler wrote on stderr, which is
// where scripts and interpreters put the error.
func stderrTail(b []byte) string {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return ""
	}
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		b = bytes.TrimSpace(b[i+1:])
	}
	s := string(b)
	if r := []rune(s); len(r) > 200 {
		s = string(r[:197]) + "..."
	}
	return ": " + s
}

func seconds(d time.Duration) string {
	return fmt.Sprintf("%gs", d.Seconds())
}

func sigName(sig syscall.Signal) string {
	switch sig {
	case syscall.SIGKILL:
		return "SIGKILL"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGHUP:
		return "SIGHUP"
	case syscall.SIGSEGV:
		return "SIGSEGV"
	case syscall.SIGABRT:
		return "SIGABRT"
	case syscall.SIGPIPE:
		return "SIGPIPE"
	case syscall.SIGQUIT:
		return "SIGQUIT"
	case syscall.SIGBUS:
		return "SIGBUS"
	}
	return sig.String()
}

// MaxBrokenListed is how many parts of one file that cannot run an answer's
// reason and the notes name one by one; the rest are counted in one line
// that points to hookctl lint, which names every one. A file of thousands
// of broken parts would otherwise make an answer of megabytes.
const MaxBrokenListed = 20

// brokenTally counts the failures of broken parts per file, to list the
// first MaxBrokenListed of each.
type brokenTally struct {
	n     map[*Source]int
	order []*Source
}

// listed reports whether the failure o is one to name: any failure that is
// not a broken part, and the first MaxBrokenListed broken parts of a file.
func (t *brokenTally) listed(o *Outcome) bool {
	s := o.Step
	if s == nil || s.State != Broken || s.Source == nil || o.Again {
		return true
	}
	if t.n == nil {
		t.n = map[*Source]int{}
	}
	if t.n[s.Source] == 0 {
		t.order = append(t.order, s.Source)
	}
	t.n[s.Source]++
	return t.n[s.Source] <= MaxBrokenListed
}

// rest returns one line for each file with more broken parts than were
// named.
func (t *brokenTally) rest() []string {
	var out []string
	for _, src := range t.order {
		if more := t.n[src] - MaxBrokenListed; more > 0 {
			out = append(out, fmt.Sprintf("%d more parts of %s cannot run, not listed here: hookctl lint %s names each one", more, src.Path, src.Path))
		}
	}
	return out
}
