package main

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
	"github.com/hookctl/hookctl/runtime/hooktest"
	"github.com/hookctl/hookctl/runtime/tracelog"
	"github.com/hookctl/hookctl/scaffold"
	"github.com/hookctl/hookctl/schema"
)

// maxTestFile bounds the test file read before it is edited.
const maxTestFile = 16 << 20

// testAddFromLog adds to a test file the case of the recorded run id: its
// event and payload, expecting what was answered. The file keeps every
// other byte, and is written atomically.
func testAddFromLog(s streams, id string, files []string) error {
	if len(files) > 1 {
		return usageErrorf("--add-from-log adds to one test file, not %d", len(files))
	}
	file := hooktest.DefaultFile
	if len(files) == 1 {
		file = hooktest.Resolve(files[0])
	}
	l, err := tracelog.Default()
	if err != nil {
		return usageErrorf("%v", err)
	}
	r, err := findRecord(l, id)
	if err != nil {
		return err
	}
	c, warnings, err := caseFromRecord(r)
	if err != nil {
		return usageErrorf("record %s: %s", r.ID, tracelog.Visible(err.Error()))
	}

	src, err := readTestFile(file)
	if err != nil {
		return usageErrorf("%v", err)
	}
	out, added, err := scaffold.AddTestCase(src, c)
	if err != nil {
		return usageErrorf("%s: %v; fix it, then add the case again", file, err)
	}
	if !added {
		fmt.Fprintf(s.out, "%s already holds the case %q: nothing to add\n", file, tracelog.Visible(c.Name))
		return nil
	}
	if err := schema.WriteFileAtomic(file, out, 0o644); err != nil {
		return usageErrorf("%v", err)
	}
	for _, w := range warnings {
		fmt.Fprintf(s.err, "hookctl: note: %s\n", tracelog.Visible(w))
	}
	fmt.Fprintf(s.out, "added the case %q to %s; hookctl test runs it\n", tracelog.Visible(c.Name), file)
	return nil
}

// readTestFile reads the test file to edit: "{}" when it does not exist
// yet. A file that is not a regular one, or too large to be a test file,
// is refused before it is read.
func readTestFile(file string) ([]byte, error) {
	info, err := os.Stat(file)
	if errors.Is(err, fs.ErrNotExist) {
		return []byte("{}\n"), nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", file, err)
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", file)
	}
	if info.Size() > maxTestFile {
		return nil, fmt.Errorf("%s is larger than %d MiB: not a test file", file, maxTestFile>>20)
	}
	return os.ReadFile(file)
}

// caseFromRecord builds the test case of a recorded run: its event, its
// payload without the fields the runtime fills in, and what was answered
// as the expectation. Warnings say where the case may not be the run.
func caseFromRecord(r *tracelog.Record) (schema.TestCase, []string, error) {
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
		return c, nil, fmt.Errorf("the payload fits %s, and nothing told which: record with hookctl trace --event EVENT (or through hookctl run, which tells trace)", r.Event)
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

	what := string(e)
	if r.Tool != "" {
		what += " " + r.Tool
	}
	who := r.Hook
	if r.Kind == tracelog.KindRun {
		who, _ = runHooks(r)
		who = strings.TrimPrefix(who, "run: ")
	}
	if who == "" {
		who = "a handler"
	}
	c.Name = fmt.Sprintf("%s: %s, as recorded %s (%s)", who, what, formatTime(r.Time), tracelog.ShortID(r.ID))
	return c, warnings, nil
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
// the runtime reads its outcome: its answer, a block by exit status 2, or
// a failure (which PreToolUse turns into a deny). It returns the hooks
// expected to fail.
func expectTraced(c *schema.TestCase, r *tracelog.Record) ([]string, error) {
	e := c.Event
	exit := -1
	if r.Exit != nil && r.Error == "" {
		exit = *r.Exit
	}
	var answer json.RawMessage
	failedRun := exit != 0 && exit != 2
	if slices.Contains(r.Truncated, "stdout") {
		return nil, errors.New("what the handler printed was too long to be recorded whole, so the case cannot expect it")
	}
	if exit == 0 {
		if r.Output != "" {
			failedRun = true // printed something that is not JSON
		} else if a, _, err := runtime.ParseAnswer(e, r.Answer); err != nil {
			failedRun = true
		} else {
			answer = a
		}
	}
	if exit == 2 && e != schema.PreToolUse && e != schema.Stop {
		failedRun = true
	}
	if failedRun {
		if r.Hook == "" {
			return nil, errors.New("the handler failed, and the record does not name its hook, which the case must expect to fail: record with hookctl trace --hook NAME")
		}
		if e == schema.PreToolUse {
			c.Expect = map[string]any{"decision": string(schema.Deny)}
		}
		return []string{r.Hook}, nil
	}
	switch {
	case exit == 2:
		decision := string(schema.Deny)
		if e == schema.Stop {
			decision = schema.Continue
		}
		c.Expect = map[string]any{"decision": decision}
		if line, _, _ := strings.Cut(strings.TrimSpace(r.Stderr), "\n"); line != "" {
			c.ExpectReason = line
		}
	case answer != nil:
		return nil, expectAnswer(c, answer)
	case e == schema.PreToolUse:
		// No answer: the gate leaves the call to the user's settings.
		c.Expect = map[string]any{"decision": string(schema.Ask)}
	case e == schema.Stop:
		c.Expect = map[string]any{"decision": string(schema.Allow)}
	}
	return nil, nil
}
