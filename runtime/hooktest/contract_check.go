package hooktest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/shellcmd"
)

// Check names one thing a contract check holds a call to.
type Check string

// The checks of a call, each something the agent punishes.
const (
	// CheckNotJSON: stdout holds text that is not JSON.
	CheckNotJSON Check = "not-json"
	// CheckTextAroundJSON: stdout holds a JSON answer with other text
	// before or after it (a log line, a second object).
	CheckTextAroundJSON Check = "text-around-json"
	// CheckNotObject: stdout holds JSON that is not an object.
	CheckNotObject Check = "not-object"
	// CheckUnknownKey: the answer holds a key the event's answer does not
	// have; the agent aborts the invocation on one.
	CheckUnknownKey Check = "unknown-key"
	// CheckKeyCase: a key that differs from one of the answer's keys only
	// in case ("Decision"). The agent's Go decoder takes it for that key;
	// hookctl run, test cases, lint and decoders that read keys exactly
	// take it for an unknown key.
	CheckKeyCase Check = "key-case"
	// CheckNoDecision: a PreToolUse answer without a decision, such as {};
	// the agent denies every call it matches.
	CheckNoDecision Check = "no-decision"
	// CheckInvalidAnswer: a known key with a value of the wrong type or
	// outside its values.
	CheckInvalidAnswer Check = "invalid-answer"
	// CheckExitStatus: an exit status other than 0, or 2 on an event that
	// exit 2 does not block (PreToolUse and Stop).
	CheckExitStatus Check = "exit-status"
	// CheckCrash: a signal ended the handler.
	CheckCrash Check = "crash"
	// CheckTimeout: the handler ran into its timeout and was stopped.
	CheckTimeout Check = "timeout"
	// CheckBudget: the call took longer than the budget.
	CheckBudget Check = "budget"
	// CheckStdoutCap: the handler printed more than runtime.StdoutCap.
	CheckStdoutCap Check = "stdout-cap"
	// CheckNotStarted: the handler could not be started, or was refused.
	CheckNotStarted Check = "not-started"
)

// check holds one call's outcome to the contract. dir is the folder the
// handler runs in.
func check(e schema.Event, o *runtime.Outcome, ending runtime.Ending, h *schema.Handler, dir string, budget time.Duration) []Failed {
	var out []Failed
	fail := func(c Check, format string, args ...any) {
		out = append(out, Failed{Check: c, Message: fmt.Sprintf(format, args...)})
	}
	switch ending {
	case runtime.NotStarted, runtime.Cancelled:
		fail(CheckNotStarted, "%s", o.Cause)
		return out
	case runtime.TimedOut:
		fail(CheckTimeout, "still running at its timeout of %ds: its process group was stopped, and the agent counts it as failed%s",
			h.TimeoutSeconds(), stderrNote(o.Stderr))
		return out
	case runtime.OverCap:
		fail(CheckStdoutCap, "printed more than %d MiB on stdout: it was stopped", runtime.StdoutCap>>20)
		return out
	case runtime.Signaled:
		fail(CheckCrash, "crashed: %s", o.Cause)
	}
	if ending == runtime.Exited {
		switch {
		case o.ExitCode == 2 && o.Kind == runtime.Blocked:
			// A block: a deny for PreToolUse, a continue for Stop.
		case o.ExitCode == 126 || o.ExitCode == 127:
			// /bin/sh's statuses for a command it cannot run.
			fail(CheckNotStarted, "%s", cannotStart(h.Command, dir, o))
		case o.ExitCode == 2:
			fail(CheckExitStatus, "exited with status 2, which blocks only PreToolUse and Stop: on %s the agent counts it as a failure%s", e, stderrNote(o.Stderr))
		case o.ExitCode != 0:
			fail(CheckExitStatus, "exited with status %d: the agent counts it as a failure%s", o.ExitCode, stderrNote(o.Stderr))
		default:
			out = append(out, checkAnswer(e, o)...)
		}
	}
	if o.Duration > budget {
		fail(CheckBudget, "took %s, over the budget of %s per call", formatDuration(o.Duration), formatDuration(budget))
	}
	return out
}

// cannotStart says why /bin/sh could not run a handler's command, which
// it tells by exit status 127 (no such command) or 126 (not executable):
// the script it names is missing, not executable, or names in its #! line
// an interpreter that is not installed.
func cannotStart(command, dir string, o *runtime.Outcome) string {
	why := "the command was not found"
	if o.ExitCode == 126 {
		why = "the command is not executable"
	}
	if main, ok := shellcmd.Parse(command, dir, "").Main(); ok && main.Role == shellcmd.Program {
		word := printable(main.Word.Text)
		info, err := os.Stat(main.Path)
		switch {
		case err != nil:
			why = word + " does not exist"
		case o.ExitCode == 126 && info.Mode().IsRegular() && info.Mode().Perm()&0o111 == 0:
			why = fmt.Sprintf("%s is not executable: chmod +x %s", word, word)
		case o.ExitCode == 127:
			if interp := missingInterpreter(main.Path); interp != "" {
				why = fmt.Sprintf("%s names %s in its #! line, which is not installed", word, printable(interp))
			}
		}
	}
	return fmt.Sprintf("could not start (exit status %d from /bin/sh): %s%s", o.ExitCode, why, stderrNote(o.Stderr))
}

// missingInterpreter returns the interpreter a script's #! line names
// when it cannot be found ("/usr/bin/env python9" is python9, looked up
// on PATH), "" when it is there or the script has no #! line. It reads
// the first line alone, at most 256 bytes.
func missingInterpreter(script string) string {
	f, err := schema.Open(script)
	if err != nil {
		return ""
	}
	defer f.Close()
	head := make([]byte, 256)
	n, _ := io.ReadFull(f, head)
	line, _, _ := bytes.Cut(head[:n], []byte("\n"))
	rest, ok := bytes.CutPrefix(line, []byte("#!"))
	if !ok {
		return ""
	}
	fields := strings.Fields(string(rest))
	if len(fields) == 0 {
		return ""
	}
	interp := fields[0]
	if filepath.Base(interp) == "env" {
		args := fields[1:]
		for len(args) > 0 && strings.HasPrefix(args[0], "-") {
			args = args[1:]
		}
		if len(args) == 0 {
			return ""
		}
		if _, err := exec.LookPath(args[0]); err != nil {
			return args[0]
		}
		return ""
	}
	if _, err := os.Stat(interp); err != nil {
		return interp
	}
	return ""
}

// checkAnswer holds what a handler that exited 0 printed to the event's
// answer, strictly: one JSON object and nothing else, every key one the
// event's answer has.
func checkAnswer(e schema.Event, o *runtime.Outcome) []Failed {
	stdout := o.Stdout
	if len(bytes.TrimSpace(stdout)) == 0 {
		return nil // no answer, which every event accepts
	}
	root, _, serr := schema.ParseJSON(stdout)
	if serr != nil {
		if before, after, ok := aroundJSON(stdout); ok {
			var where []string
			if before != "" {
				where = append(where, excerpt(before)+" before it")
			}
			if after != "" {
				where = append(where, excerpt(after)+" after it")
			}
			return []Failed{{CheckTextAroundJSON, "printed text around its JSON answer, " + strings.Join(where, " and ") +
				": the agent reads all of stdout as the answer and rejects it (print logs on stderr)"}}
		}
		return []Failed{{CheckNotJSON, "printed text, not a JSON answer: " + excerpt(string(stdout)) +
			" (print logs on stderr, and nothing or one JSON object on stdout)"}}
	}
	if root.Kind != schema.Object {
		what := root.Describe()
		if root.Kind == schema.Array {
			what += " " + excerpt(string(stdout))
		}
		return []Failed{{CheckNotObject, fmt.Sprintf("printed %s, not a JSON object: an answer is one object, or nothing", what)}}
	}
	var out []Failed
	var unknown, cased []string
	for _, k := range schema.UnknownAnswerKeys(e, root) {
		if known := foldedKey(k); known != "" {
			cased = append(cased, fmt.Sprintf("%s for %s", strconv.Quote(k.Path), strconv.Quote(known)))
			continue
		}
		unknown = append(unknown, strconv.Quote(k.Path))
	}
	if len(cased) > 0 {
		// The agent reads the answer as meant, so what the key holds is
		// not judged further: the key is what to fix.
		return []Failed{{CheckKeyCase, fmt.Sprintf("answered with %s: the agent takes a key written in another case for the key (its Go decoder matches keys ignoring case), but hookctl run, test cases and decoders that read keys exactly take it for an unknown one: write the key as documented",
			strings.Join(cased, ", "))}}
	}
	if len(unknown) > 0 {
		keys := "key " + unknown[0]
		if len(unknown) > 1 {
			keys = "keys " + strings.Join(unknown, ", ")
		}
		out = append(out, Failed{CheckUnknownKey, fmt.Sprintf("answered with the unknown %s: a %s answer holds %s, and the agent aborts the invocation on any other",
			keys, e, listKeys(e))})
	}
	if e == schema.PreToolUse && root.Get("decision") == nil {
		what := "{}"
		if len(root.Members) > 0 {
			what = excerpt(string(bytes.TrimSpace(stdout)))
		}
		out = append(out, Failed{CheckNoDecision, fmt.Sprintf("answered %s without a decision: the agent denies every call it matches (print nothing, or {\"decision\":\"ask\"}, to leave the call to the user's settings)", what)})
		return out
	}
	if o.Kind == runtime.Failed {
		out = append(out, Failed{CheckInvalidAnswer, o.Cause})
	}
	return out
}

// foldedKey returns the key of the answer that an unknown key stands for
// in the agent's eyes: encoding/json matches an object's keys to a struct's
// fields ignoring case, by Unicode simple folding ("Decision" and
// "deciſion" are "decision"), as strings.EqualFold compares; "" when the
// key is unknown to the agent too.
func foldedKey(k schema.AnswerKey) string {
	for _, known := range k.Known {
		if strings.EqualFold(known, k.Member.Key) {
			prefix := strings.TrimSuffix(k.Path, k.Member.Key)
			return prefix + known
		}
	}
	return ""
}

// aroundJSON finds a JSON object inside stdout that is not JSON as a whole,
// and returns the text before and after it.
func aroundJSON(stdout []byte) (before, after string, ok bool) {
	for i := 0; i < len(stdout); i++ {
		if stdout[i] != '{' {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(stdout[i:]))
		var v map[string]json.RawMessage
		if dec.Decode(&v) != nil {
			continue
		}
		end := i + int(dec.InputOffset())
		before = strings.TrimSpace(string(stdout[:i]))
		after = strings.TrimSpace(string(stdout[end:]))
		return before, after, before != "" || after != ""
	}
	return "", "", false
}

// listKeys lists the keys of the event's answer for a message.
func listKeys(e schema.Event) string {
	keys := schema.AnswerKeys(e)
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = strconv.Quote(k)
	}
	switch len(q) {
	case 0:
		return "no key (it is {})"
	case 1:
		return "only " + q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

// stderrNote quotes the last line of a handler's stderr, where scripts and
// interpreters put the error.
func stderrNote(stderr []byte) string {
	s := strings.TrimSpace(string(stderr))
	if s == "" {
		return ""
	}
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[i+1:])
	}
	return "; its stderr ends with " + excerpt(s)
}

// excerpt quotes the start of a handler's output, on one line, escaped so
// that nothing it printed can reach a terminal as a control sequence.
func excerpt(s string) string {
	s = strings.TrimSpace(s)
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if r := []rune(s); len(r) > 60 {
		s = string(r[:57]) + "..."
	}
	return strconv.Quote(s)
}

// printable returns s as it is when every character prints, else quoted
// with escapes: hook names and commands come from a file the workspace
// controls.
func printable(s string) string {
	for _, r := range s {
		if r == utf8.RuneError || !strconv.IsPrint(r) {
			return strconv.Quote(s)
		}
	}
	return s
}
