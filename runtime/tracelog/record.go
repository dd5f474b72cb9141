package tracelog

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/hookctl/hookctl/schema"
)

// Limits of a record.
const (
	// MaxRecord is the largest line written to the log, its newline
	// included. Larger records are cut down (see Record.Line).
	MaxRecord = 64 << 10
	// StderrCap is how much of a handler's stderr a record keeps.
	StderrCap = 4 << 10
	// AnswerCap is how much of a handler's stdout is kept to be recorded as
	// its answer; an answer that is longer is recorded as the start of its
	// text.
	AnswerCap = 16 << 10
	// PayloadCap is how much of a payload is kept to be read (for the tool
	// name and the event) and, with --payload, recorded.
	PayloadCap = 1 << 20
)

// The kinds of record.
const (
	// KindTrace is one handler run through hookctl trace.
	KindTrace = "trace"
	// KindRun is one dispatch of hookctl run: every handler, the merged
	// answer.
	KindRun = "run"
	// KindAdapt is one handler run through hookctl adapt whose answer held
	// something that has no equivalent here: its notes say what.
	KindAdapt = "adapt"
)

// From says how a record knows its hook's name or its event.
type From string

// The ways a hook's name or event is known. The agent tells a handler
// neither, so hookctl trace takes them from its flags, from the environment
// hookctl run gives its handlers, or from what the payload shows.
const (
	FromFlag        From = "flag"
	FromEnvironment From = "environment"
	FromPayload     From = "payload"
	FromUnknown     From = "unknown"
)

// Record is one line of the log: one handler run through hookctl trace, or
// one dispatch of hookctl run.
type Record struct {
	// ID identifies the record, for hookctl log --show and
	// hookctl test --add-from-log: random then time-based, 16 characters.
	ID string `json:"id"`
	// Time is when the handler (or the dispatch) started.
	Time time.Time `json:"time"`
	// Duration is how long it ran.
	Duration Millis `json:"durationMs"`
	// Kind is KindTrace or KindRun.
	Kind string `json:"kind"`

	// Hook is the hook's name, "" when unknown; HookFrom says how it is
	// known (trace records only).
	Hook     string `json:"hook,omitempty"`
	HookFrom From   `json:"hookFrom,omitempty"`
	// Event is the event; when the payload fits two events it names both,
	// "PreToolUse or PostToolUse" (see Events). EventFrom says how it is
	// known (trace records only).
	Event     string `json:"event,omitempty"`
	EventFrom From   `json:"eventFrom,omitempty"`
	// Tool is the tool a tool event is about.
	Tool string `json:"tool,omitempty"`

	// Command is what ran: the wrapped command and its arguments, or
	// hookctl run's own command line.
	Command []string `json:"command,omitempty"`
	// Dir is the folder it ran in; PID its process ID (the wrapped
	// command's for trace, hookctl run's own for run).
	Dir string `json:"dir,omitempty"`
	PID int    `json:"pid,omitempty"`

	// Exit is the exit status, absent when the command was killed by a
	// signal, which Signal then names ("SIGKILL"). Error says why a command
	// could not be started (Exit is then 126 or 127, as a shell's).
	Exit   *int   `json:"exit,omitempty"`
	Signal string `json:"signal,omitempty"`
	Error  string `json:"error,omitempty"`

	// Answer is what the handler printed on stdout when it is JSON
	// (compacted), and for a run record the merged answer. Output is the
	// start of what it printed when that is not JSON. StdoutBytes counts
	// everything it printed.
	Answer      json.RawMessage `json:"answer,omitempty"`
	Output      string          `json:"output,omitempty"`
	StdoutBytes int64           `json:"stdoutBytes,omitempty"`
	// Stderr is the start of what it printed on stderr (StderrCap bytes);
	// StderrBytes counts everything.
	Stderr      string `json:"stderr,omitempty"`
	StderrBytes int64  `json:"stderrBytes,omitempty"`

	// Payload is the payload, with the values of secret-looking keys
	// redacted (see Redact), when recording payloads was asked for.
	// PayloadBytes is the payload's size, recorded or not.
	Payload      json.RawMessage `json:"payload,omitempty"`
	PayloadBytes int64           `json:"payloadBytes,omitempty"`
	// PayloadError says what was wrong with a payload that was to be
	// recorded and is not JSON ("not JSON: 1:2: ..."): its bytes are not
	// kept, as no secret in them could be told.
	PayloadError string `json:"payloadError,omitempty"`

	// Handlers are, for a run record, the handlers of the dispatch in
	// config order; Notes are the lines hookctl run printed on stderr.
	Handlers        []Handler `json:"handlers,omitempty"`
	HandlersOmitted int       `json:"handlersOmitted,omitempty"`
	Notes           []string  `json:"notes,omitempty"`

	// Truncated names the fields that were cut or left out to keep the
	// line within MaxRecord or a field within its cap: "payload",
	// "answer", "stdout", "stderr", "handlers", "notes".
	Truncated []string `json:"truncated,omitempty"`
}

// Handler is one handler of a dispatch recorded by hookctl run.
type Handler struct {
	// Hook is the hook's name, "" for a file that could not be used.
	Hook string `json:"hook,omitempty"`
	// Command is the handler's command; Where the file and line that
	// declare it.
	Command string `json:"command,omitempty"`
	Where   string `json:"where,omitempty"`
	// Outcome is "answered", "no answer", "blocked", "failed" or "not run".
	Outcome string `json:"outcome"`
	// Exit is the exit status, absent when it did not exit by itself.
	Exit     *int   `json:"exit,omitempty"`
	Duration Millis `json:"durationMs"`
	// Answer is its answer as the runtime read it; Output what it printed
	// when that was not an answer.
	Answer json.RawMessage `json:"answer,omitempty"`
	Output string          `json:"output,omitempty"`
	// Reason is a block's reason; Cause what went wrong in a failure.
	Reason string `json:"reason,omitempty"`
	Cause  string `json:"cause,omitempty"`
	// Stderr is the start of what it printed on stderr.
	Stderr string `json:"stderr,omitempty"`
}

// Millis is a duration recorded as milliseconds, to the microsecond.
type Millis float64

// MillisOf converts a duration.
func MillisOf(d time.Duration) Millis {
	return Millis(math.Round(float64(d)/1e3) / 1e3)
}

// Duration converts back.
func (m Millis) Duration() time.Duration {
	return time.Duration(float64(m) * 1e6)
}

// Int returns a pointer to n, for Record.Exit and Handler.Exit.
func Int(n int) *int { return &n }

// idAlphabet is Crockford's base 32: no I, L, O or U to misread.
const idAlphabet = "0123456789abcdefghjkmnpqrstvwxyz"

// idEpoch starts the time half of IDs: 2024-01-01 UTC, in Unix
// milliseconds.
const idEpoch = 1704067200000

// NewID returns a new record ID: 40 random bits, then the milliseconds
// since 2024 (40 bits, enough until 2058), each as 8 characters of base
// 32. The random half comes first so that a few leading characters tell
// records apart, as hookctl log prints them. The random bits are
// math/rand/v2's, the runtime's ChaCha8 generator seeded by the kernel:
// an ID must not repeat, not stay secret, and crypto/rand's first read in
// a process (0.1 to 0.2 ms) would be paid by every traced handler.
func NewID(t time.Time) string {
	hi := rand.Uint64() >> 24
	lo := uint64(t.UnixMilli()-idEpoch) & (1<<40 - 1)
	var id [16]byte
	for i := 7; i >= 0; i-- {
		id[i] = idAlphabet[hi&31]
		hi >>= 5
		id[8+i] = idAlphabet[lo&31]
		lo >>= 5
	}
	return string(id[:])
}

// ShortID is the part of an ID that hookctl log shows: its random half.
func ShortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// Events returns the events the record may be of: one, two when the
// payload fit both ("PreToolUse or PostToolUse"), none when unknown.
func (r *Record) Events() []string {
	if r.Event == "" {
		return nil
	}
	return strings.Split(r.Event, " or ")
}

// Exited reports the outcome as a word: the exit status, the signal's
// name, or "-" when neither is known.
func (r *Record) Exited() string {
	switch {
	case r.Signal != "":
		return r.Signal
	case r.Exit != nil:
		return fmt.Sprint(*r.Exit)
	}
	return "-"
}

// Decision is what the answer decided, in a word: a PreToolUse or Stop
// decision, "deny" or "continue" for a block by exit status 2, "inject"
// for injected steps, a termination behaviour; "" when the answer decides
// nothing.
func (r *Record) Decision() string {
	var a struct {
		Decision            string            `json:"decision"`
		InjectSteps         []json.RawMessage `json:"injectSteps"`
		TerminationBehavior string            `json:"terminationBehavior"`
	}
	if len(r.Answer) > 0 && json.Unmarshal(r.Answer, &a) == nil {
		switch {
		case a.Decision != "":
			return a.Decision
		case a.TerminationBehavior != "":
			return a.TerminationBehavior
		case len(a.InjectSteps) > 0:
			return "inject"
		}
	}
	if r.Kind == KindTrace && r.Exit != nil && *r.Exit == 2 {
		for _, e := range r.Events() {
			if d := schema.Event(e).Exit2Decision(); d != "" {
				return d
			}
		}
	}
	return ""
}

// Line returns the record as one line of JSON, newline included, never
// longer than MaxRecord: when the whole record does not fit, the payload's
// long strings are shortened, then the payload, the answer, stderr, the
// handlers and the notes are cut in that order, each named in Truncated.
// The record itself is not changed.
func (r *Record) Line() ([]byte, error) {
	b, err := encodeLine(r)
	if err != nil || len(b) <= MaxRecord {
		return b, err
	}
	c := *r
	c.Truncated = append([]string(nil), r.Truncated...)
	c.Handlers = append([]Handler(nil), r.Handlers...)
	steps := []func() bool{
		func() bool { return shortenPayload(&c, 1024) },
		func() bool { return shortenPayload(&c, 128) },
		func() bool {
			if c.Payload == nil {
				return false
			}
			c.Payload = nil
			c.mark("payload")
			return true
		},
		func() bool {
			if len(c.Answer) <= 2048 {
				return false
			}
			c.Output = cutText(string(c.Answer), 2048)
			c.Answer = nil
			c.mark("answer")
			return true
		},
		func() bool {
			if len(c.Stderr) <= 512 {
				return false
			}
			c.Stderr = cutText(c.Stderr, 512)
			c.mark("stderr")
			return true
		},
		func() bool {
			changed := false
			for i := range c.Handlers {
				h := &c.Handlers[i]
				if len(h.Stderr) > 256 || len(h.Output) > 256 || len(h.Answer) > 256 || len(h.Reason) > 1024 {
					h.Stderr, h.Output, h.Reason = cutText(h.Stderr, 256), cutText(h.Output, 256), cutText(h.Reason, 1024)
					if len(h.Answer) > 256 {
						h.Output, h.Answer = cutText(string(h.Answer), 256), nil
					}
					changed = true
				}
			}
			if changed {
				c.mark("handlers")
			}
			return changed
		},
		func() bool {
			if len(c.Handlers) <= 16 {
				return false
			}
			c.HandlersOmitted += len(c.Handlers) - 16
			c.Handlers = c.Handlers[:16]
			c.mark("handlers")
			return true
		},
		func() bool {
			if len(c.Notes) == 0 {
				return false
			}
			c.Notes = nil
			c.mark("notes")
			return true
		},
		func() bool {
			if len(c.Answer) == 0 && c.Output == "" {
				return false
			}
			c.Answer, c.Output = nil, ""
			c.mark("answer")
			return true
		},
		func() bool {
			if len(c.Handlers) == 0 {
				return false
			}
			c.HandlersOmitted += len(c.Handlers)
			c.Handlers = nil
			c.mark("handlers")
			return true
		},
	}
	for _, step := range steps {
		if !step() {
			continue
		}
		if b, err = encodeLine(&c); err != nil || len(b) <= MaxRecord {
			return b, err
		}
	}
	// Only the short fields are left; hostile names could still be long.
	min := Record{ID: r.ID, Time: r.Time, Duration: r.Duration, Kind: r.Kind,
		Hook: cutText(r.Hook, 256), HookFrom: r.HookFrom, Event: cutText(r.Event, 256), EventFrom: r.EventFrom,
		Tool: cutText(r.Tool, 256), Dir: cutText(r.Dir, 1024), PID: r.PID, Exit: r.Exit, Signal: cutText(r.Signal, 64),
		Error: cutText(r.Error, 1024), PayloadError: cutText(r.PayloadError, 1024), StdoutBytes: r.StdoutBytes, StderrBytes: r.StderrBytes, PayloadBytes: r.PayloadBytes,
		Truncated: []string{"command", "payload", "answer", "stderr", "handlers", "notes"}}
	return encodeLine(&min)
}

func (r *Record) mark(field string) {
	for _, f := range r.Truncated {
		if f == field {
			return
		}
	}
	r.Truncated = append(r.Truncated, field)
}

func shortenPayload(r *Record, max int) bool {
	if r.Payload == nil {
		return false
	}
	short, cut := Shorten(r.Payload, max)
	if !cut {
		return false
	}
	r.Payload = short
	r.mark("payload")
	return true
}

// Cut is the mark that ends text cut short.
const Cut = "…[cut]"

// cutText returns s whole when it is at most max bytes, else its start,
// ending on a whole character, followed by Cut.
func cutText(s string, max int) string {
	if len(s) <= max {
		return s
	}
	return Head(s, max-len(Cut)) + Cut
}

// Head returns at most n bytes from the start of s, without splitting a
// UTF-8 sequence at the end.
func Head(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if len(s) <= n {
		return s
	}
	s = s[:n]
	// Drop an incomplete sequence at the end: at most 3 bytes.
	for i := 1; i <= 3 && i <= len(s); i++ {
		c := s[len(s)-i]
		if c < utf8.RuneSelf {
			break
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRuneInString(s[len(s)-i:]) {
				s = s[:len(s)-i]
			}
			break
		}
	}
	return s
}

// SignalName returns a signal's conventional name, such as "SIGKILL".
func SignalName(sig syscall.Signal) string {
	for _, table := range [...][]namedSignal{signalNames[:], systemSignalNames[:]} {
		for _, n := range table {
			if n.sig == sig {
				return n.name
			}
		}
	}
	return fmt.Sprintf("SIG%d", int(sig))
}

// SignalNumber returns the signal a name from SignalName stands for.
func SignalNumber(name string) (syscall.Signal, bool) {
	for _, table := range [...][]namedSignal{signalNames[:], systemSignalNames[:]} {
		for _, n := range table {
			if n.name == name {
				return n.sig, true
			}
		}
	}
	var n int
	if _, err := fmt.Sscanf(name, "SIG%d", &n); err == nil && n > 0 {
		return syscall.Signal(n), true
	}
	return 0, false
}

type namedSignal struct {
	sig  syscall.Signal
	name string
}

// signalNames holds the signals Go names on every system hookctl runs on,
// systemSignalNames those of this system alone. They are arrays, not
// maps, so that nothing is built when the program starts: hookctl trace
// starts before every handler.
var signalNames = [...]namedSignal{
	{syscall.SIGABRT, "SIGABRT"}, {syscall.SIGALRM, "SIGALRM"}, {syscall.SIGBUS, "SIGBUS"},
	{syscall.SIGFPE, "SIGFPE"}, {syscall.SIGHUP, "SIGHUP"}, {syscall.SIGILL, "SIGILL"},
	{syscall.SIGINT, "SIGINT"}, {syscall.SIGKILL, "SIGKILL"}, {syscall.SIGPIPE, "SIGPIPE"},
	{syscall.SIGQUIT, "SIGQUIT"}, {syscall.SIGSEGV, "SIGSEGV"}, {syscall.SIGTERM, "SIGTERM"},
	{syscall.SIGTRAP, "SIGTRAP"},
}
