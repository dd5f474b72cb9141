package hooktest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/runtime/tracelog"
	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/shellcmd"
)

// MaxFile bounds a test file read before it is edited.
const MaxFile = 16 << 20

// CaseFromRecord builds the test case of a recorded run (hookctl test
// --add-from-log): its event, its payload without the fields the runtime
// fills in, and what was answered as the expectation, read by the
// runtime's own rules (runtime.Judge). config is the workspace's
// hooks.json, which tells PreToolUse from PostToolUse when the payload
// fits both. The case has no name: the caller gives it one. Warnings say
// where the case may not be the run.
func CaseFromRecord(r *tracelog.Record, config string) (schema.TestCase, []string, error) {
	var c schema.TestCase
	var warnings []string
	if len(r.Payload) == 0 {
		how := "hookctl trace --payload -- COMMAND"
		if r.Kind == tracelog.KindRun {
			how = "hookctl run --log-payload"
		}
		return c, nil, fmt.Errorf("no payload was recorded, so there is nothing to send: record with %s, then add that record", how)
	}
	events := r.Events()
	switch {
	case len(events) == 0:
		return c, nil, errors.New("the record does not say which event it was: record with hookctl trace --event EVENT (or through hookctl run, which tells trace)")
	case len(events) > 1:
		e, where, ok := settleEvent(r, events, config)
		if !ok {
			return c, nil, fmt.Errorf("the payload fits %s, and nothing told which: record with hookctl trace --event EVENT (or through hookctl run, which tells trace); %s", r.Event, where)
		}
		events = []string{e}
		warnings = append(warnings, "the record fits "+r.Event+"; "+where+", so the case is for "+e)
	}
	e := schema.Event(events[0])
	if !e.Valid() {
		return c, nil, fmt.Errorf("%q is not an event of this agent (%s)", r.Event, strings.Join(schema.EventNames(), ", "))
	}
	c.Event = e

	root, _, serr := schema.ParseJSON(r.Payload)
	if serr != nil || root.Kind != schema.Object {
		return c, nil, errors.New("the recorded payload is not a JSON object")
	}
	c.Payload = map[string]any{}
	for _, m := range root.Members {
		if tracelog.IsCommonField(m.Key) {
			continue
		}
		// The value's bytes as recorded: key order and numbers kept.
		c.Payload[m.Key] = json.RawMessage(r.Payload[m.Value.Span.Start.Offset:m.Value.Span.End.Offset])
	}
	if e.IsTool() && r.Tool == "" {
		return c, nil, fmt.Errorf("the %s payload names no tool", e)
	}
	if slices.Contains(r.Truncated, "payload") {
		warnings = append(warnings, "the payload was cut to fit the log (strings end in "+tracelog.Cut+"): the case sends it as recorded")
	}
	if bytes.Contains(r.Payload, []byte(`"`+tracelog.Redacted+`"`)) {
		warnings = append(warnings, "values of secret-looking keys were recorded as "+tracelog.Redacted+": the case sends them so")
	}

	var failed []string
	switch r.Kind {
	case tracelog.KindRun:
		if err := expectAnswer(&c, r.Answer); err != nil {
			return c, nil, err
		}
		for _, h := range r.Handlers {
			if h.Outcome == "failed" && h.Hook != "" && !slices.Contains(failed, h.Hook) {
				failed = append(failed, h.Hook)
			}
		}
	default:
		var err error
		if failed, err = expectTraced(&c, r); err != nil {
			return c, nil, err
		}
		warnings = append(warnings, "the case expects this handler's answer; the workspace's other "+string(e)+" hooks join the merged answer it checks")
	}
	c.ExpectFailures = failed
	return c, warnings, nil
}

// settleEvent tells which of the events a record fits (PreToolUse or
// PostToolUse, whose payloads differ only in some fields) its handler
// ran for, from the hooks.json that declares it: the events for which a
// handler of the record's hook, whose matcher selects the record's tool
// and whose command runs the record's command (through hookctl trace or
// not), is declared. It says where it looked, and why it could not tell.
func settleEvent(r *tracelog.Record, events []string, config string) (string, string, bool) {
	if r.Hook == "" && len(r.Command) == 0 {
		return "", "the record names neither its hook nor its command", false
	}
	cfg, err := schema.Load(config)
	if err != nil || cfg.File == nil {
		return "", "no hooks.json at " + config + " to tell it", false
	}
	var found []string
	where := ""
	for _, h := range cfg.File.Hooks {
		if r.Hook != "" && h.Name != r.Hook {
			continue
		}
		for _, e := range events {
			for _, g := range h.Groups(schema.Event(e)) {
				if m, err := schema.CompileMatcher(g.MatcherText()); err != nil || !m.Match(r.Tool) {
					continue
				}
				for _, hd := range g.Hooks {
					if len(r.Command) > 0 && !runsCommand(hd.Command, cfg.Dir, r.Command) {
						continue
					}
					if !slices.Contains(found, e) {
						found = append(found, e)
						where = fmt.Sprintf("%s:%d:%d declares it for %s", config, hd.Pos.Line, hd.Pos.Col, e)
					}
				}
			}
		}
	}
	switch len(found) {
	case 0:
		return "", config + " declares no handler for either that ran it", false
	case 1:
		return found[0], where + " alone", true
	}
	return "", config + " declares it for both", false
}

// runsCommand reports whether a handler's command runs argv as its one
// call, through hookctl trace or not.
func runsCommand(command, dir string, argv []string) bool {
	p := shellcmd.Parse(command, dir, "")
	var top []*shellcmd.Call
	for _, c := range p.Calls {
		if c.Depth == 0 {
			top = append(top, c)
		}
	}
	if len(top) != 1 {
		return false
	}
	words := make([]string, len(top[0].Args))
	for i, w := range top[0].Args {
		if !w.Lit {
			return false
		}
		words[i] = w.Text
	}
	if i, ok := shellcmd.TraceCommand(words); ok {
		words = words[i:]
	}
	return slices.Equal(words, argv)
}

// expectAnswer makes the merged answer the case's expectation.
func expectAnswer(c *schema.TestCase, answer json.RawMessage) error {
	if len(answer) == 0 {
		return nil
	}
	var m map[string]any
	d := json.NewDecoder(bytes.NewReader(answer))
	d.UseNumber()
	if err := d.Decode(&m); err != nil {
		return fmt.Errorf("the recorded answer is not a JSON object: %v", err)
	}
	if len(m) > 0 {
		c.Expect = m
	}
	return nil
}

// expectTraced sets the expectation of a case from one handler's run, as
// the runtime judges its outcome (runtime.Judge): its answer, a block by
// exit status 2, or a failure (which PreToolUse turns into a deny). It
// returns the hooks expected to fail.
func expectTraced(c *schema.TestCase, r *tracelog.Record) ([]string, error) {
	e := c.Event
	exit := -1
	if r.Exit != nil && r.Error == "" {
		exit = *r.Exit
	}
	if slices.Contains(r.Truncated, "stdout") {
		return nil, errors.New("what the handler printed was too long to be recorded whole, so the case cannot expect it")
	}
	// What it printed: an answer the record keeps as compact JSON, or
	// else the text.
	stdout := []byte(r.Answer)
	if r.Output != "" {
		stdout = []byte(r.Output)
	}
	o := runtime.Judge(e, exit, stdout, []byte(r.Stderr))
	switch o.Kind {
	case runtime.Failed:
		if r.Hook == "" {
			return nil, errors.New("the handler failed, and the record does not name its hook, which the case must expect to fail: record with hookctl trace --hook NAME")
		}
		if e == schema.PreToolUse {
			c.Expect = map[string]any{"decision": string(schema.Deny)}
		}
		return []string{r.Hook}, nil
	case runtime.Blocked:
		decision := string(schema.Deny)
		if e == schema.Stop {
			decision = schema.Continue
		}
		c.Expect = map[string]any{"decision": decision}
		if line, _, _ := strings.Cut(o.Reason, "\n"); line != "" {
			c.ExpectReason = line
		}
	case runtime.Answered:
		return nil, expectAnswer(c, o.Answer)
	case runtime.NoAnswer:
		switch e {
		case schema.PreToolUse:
			// No answer: the gate leaves the call to the user's settings.
			c.Expect = map[string]any{"decision": string(schema.Ask)}
		case schema.Stop:
			c.Expect = map[string]any{"decision": string(schema.Allow)}
		}
	}
	return nil, nil
}

// CaseName names the case of a recorded run, whose event is e: who ran,
// for what, and which record it is.
func CaseName(r *tracelog.Record, e schema.Event) string {
	what := string(e)
	if r.Tool != "" {
		what += " " + r.Tool
	}
	who := r.Hook
	if r.Kind == tracelog.KindRun {
		who, _ = r.Ran()
		who = strings.TrimPrefix(who, "run: ")
	}
	if who == "" {
		who = "a handler"
	}
	return fmt.Sprintf("%s: %s, as recorded %s (%s)", who, what, schema.FormatTime(r.Time), tracelog.ShortID(r.ID))
}

// ReadForEdit reads the test file to edit (file as the user named it, abs
// its absolute path) with read, nil when it does not exist yet. A file
// that is not a regular one, is larger than MaxFile, or holds other than
// its size says (a file of the kernel's, such as those of /proc, made up
// as it is read) is refused.
func ReadForEdit(file, abs string, read func(string) ([]byte, error)) ([]byte, error) {
	info, err := os.Stat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", file, err)
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is %s, not a test file", file, schema.FileKind(info.Mode()))
	}
	if info.Size() > MaxFile {
		return nil, fmt.Errorf("%s is larger than %d MiB: not a test file", file, MaxFile>>20)
	}
	if info.Size() == 0 {
		empty, err := emptyAsSaid(abs)
		var pf *schema.ProcessFileError
		if errors.As(err, &pf) {
			return nil, fmt.Errorf("%s %s", file, pf.Reason())
		}
		if !empty {
			return nil, fmt.Errorf("%s says it is empty and is not: a file the kernel makes up as it is read (such as those of /proc) is no test file", file)
		}
	}
	src, err := read(abs)
	if err != nil {
		return nil, err
	}
	if src == nil {
		return nil, fmt.Errorf("%s was removed while it was read: run the command again", file)
	}
	if int64(len(src)) != info.Size() {
		return nil, fmt.Errorf("%s holds %d bytes where its size says %d: it is no ordinary file (or it changed while it was read)", file, len(src), info.Size())
	}
	return src, nil
}

// emptyAsSaid reports whether a file whose size is 0 holds nothing: the
// files of /proc and /sys have that size whatever they hold. Eight bytes
// are asked for, as some of them refuse smaller reads. A file that cannot
// be opened is empty as far as it can tell, with the error: the read that
// follows says what else is wrong.
func emptyAsSaid(path string) (bool, error) {
	f, err := schema.Open(path)
	if err != nil {
		return true, err
	}
	defer f.Close()
	n, _ := f.Read(make([]byte, 8))
	return n == 0, nil
}
