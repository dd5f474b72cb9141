package hooktest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/runtime/tracelog"
	"github.com/hookctl/hookctl/schema"
)

// TestCaseFromTracedRecord expects of a traced handler what the runtime
// makes of its run: each exit status and output as hookctl run reads them.
func TestCaseFromTracedRecord(t *testing.T) {
	payload := json.RawMessage(`{"toolName":"run_command","toolArguments":{"CommandLine":"rm -rf /"},"workspacePaths":["/w"]}`)
	for _, c := range []struct {
		name           string
		event          string
		exit           int
		answer, output string
		stderr         string
		expect         string
		reason         string
		failures       []string
	}{
		{name: "answer", event: "PreToolUse", answer: `{"decision":"deny","reason":"no"}`, expect: `{"decision":"deny","reason":"no"}`},
		{name: "no answer at a gate", event: "PreToolUse", expect: `{"decision":"ask"}`},
		{name: "no answer at Stop", event: "Stop", expect: `{"decision":"allow"}`},
		{name: "block", event: "PreToolUse", exit: 2, stderr: "\n  dangerous\nmore\n", expect: `{"decision":"deny"}`, reason: "dangerous"},
		{name: "stop continues", event: "Stop", exit: 2, expect: `{"decision":"continue"}`},
		{name: "exit 2 elsewhere fails", event: "PostToolUse", exit: 2, expect: `null`, failures: []string{"gate"}},
		{name: "not JSON fails and denies", event: "PreToolUse", output: "hello", expect: `{"decision":"deny"}`, failures: []string{"gate"}},
		{name: "answer without a decision fails", event: "PreToolUse", answer: `{"reason":"x"}`, expect: `{"decision":"deny"}`, failures: []string{"gate"}},
		{name: "exit 1 fails", event: "PreToolUse", exit: 1, expect: `{"decision":"deny"}`, failures: []string{"gate"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := payload
			if c.event == "Stop" {
				p = json.RawMessage(`{"executionNum":1}`)
			}
			r := &tracelog.Record{Kind: tracelog.KindTrace, Event: c.event, Hook: "gate", Payload: p, Exit: tracelog.Int(c.exit),
				Answer: json.RawMessage(c.answer), Output: c.output, Stderr: c.stderr}
			if c.event != "Stop" {
				r.Tool = "run_command"
			}
			tc, _, err := CaseFromRecord(r, filepath.Join(t.TempDir(), "hooks.json"))
			if err != nil {
				t.Fatal(err)
			}
			got, _ := json.Marshal(tc.Expect)
			if string(got) != c.expect || tc.ExpectReason != c.reason || !slices.Equal(tc.ExpectFailures, c.failures) {
				t.Errorf("expect %s, reason %q, failures %q; want %s, %q, %q", got, tc.ExpectReason, tc.ExpectFailures, c.expect, c.reason, c.failures)
			}
			if tc.Event != schema.Event(c.event) || (c.event != "Stop" && string(tc.Payload["toolName"].(json.RawMessage)) != `"run_command"`) {
				t.Errorf("event %s, payload %v", tc.Event, tc.Payload)
			}
			if _, ok := tc.Payload["workspacePaths"]; ok {
				t.Error("the case sends workspacePaths, which the runtime fills in")
			}
		})
	}
}

// TestCaseFromRecordRefuses says what to record when a case cannot be
// made.
func TestCaseFromRecordRefuses(t *testing.T) {
	for _, c := range []struct {
		r    tracelog.Record
		want string
	}{
		{tracelog.Record{Kind: tracelog.KindTrace}, "no payload was recorded, so there is nothing to send: record with hookctl trace --payload -- COMMAND, then add that record"},
		{tracelog.Record{Kind: tracelog.KindRun}, "record with hookctl run --log-payload"},
		{tracelog.Record{Kind: tracelog.KindTrace, Payload: json.RawMessage(`{}`)}, "the record does not say which event it was"},
		{tracelog.Record{Kind: tracelog.KindTrace, Event: "Stop", Payload: json.RawMessage(`{}`), Exit: tracelog.Int(1)}, "the handler failed, and the record does not name its hook"},
		{tracelog.Record{Kind: tracelog.KindTrace, Event: "Stop", Payload: json.RawMessage(`{}`), Truncated: []string{"stdout"}}, "too long to be recorded whole"},
	} {
		if _, _, err := CaseFromRecord(&c.r, "/nonexistent/hooks.json"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.r, err, c.want)
		}
	}
}

// TestCaseFromRecordSettlesTheEvent tells PreToolUse from PostToolUse by
// the handler hooks.json declares, through hookctl trace or not.
func TestCaseFromRecordSettlesTheEvent(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "hooks.json")
	src := `{"gate": {"PostToolUse": [{"matcher": "run_command", "hooks": [{"command": "hookctl trace -- ./gate.sh"}]}]}}`
	if err := os.WriteFile(config, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &tracelog.Record{Kind: tracelog.KindTrace, Event: "PreToolUse or PostToolUse", Hook: "gate", Tool: "run_command",
		Command: []string{"./gate.sh"}, Payload: json.RawMessage(`{"toolName":"run_command"}`), Exit: tracelog.Int(0)}
	tc, warnings, err := CaseFromRecord(r, config)
	if err != nil {
		t.Fatal(err)
	}
	col := strings.Index(src, `{"command"`) + 1 // the handler's line and column
	want := fmt.Sprintf("the record fits PreToolUse or PostToolUse; %s:1:%d declares it for PostToolUse alone, so the case is for PostToolUse", config, col)
	if tc.Event != schema.PostToolUse || len(warnings) == 0 || warnings[0] != want {
		t.Errorf("event %s, warnings %q; want %q", tc.Event, warnings, want)
	}
}

// TestCaseName names a case by who ran, for what, when and which record:
// the hook of a traced run, the hooks of a dispatch, or "a handler".
func TestCaseName(t *testing.T) {
	at := time.Date(2026, 12, 2, 11, 0, 0, 0, time.FixedZone("", 3600))
	for _, c := range []struct {
		r    *tracelog.Record
		e    schema.Event
		want string
	}{
		{&tracelog.Record{Kind: tracelog.KindTrace, Hook: "gate", Tool: "run_command", ID: "0123456789abcdef", Time: at}, schema.PreToolUse,
			"gate: PreToolUse run_command, as recorded 2026-12-02T10:00:00Z (01234567)"},
		{&tracelog.Record{Kind: tracelog.KindTrace, ID: "abc", Time: at}, schema.Stop,
			"a handler: Stop, as recorded 2026-12-02T10:00:00Z (abc)"},
		{&tracelog.Record{Kind: tracelog.KindRun, Handlers: []tracelog.Handler{{Hook: "a"}, {Hook: "a"}, {Hook: "b"}}, ID: "0123456789", Time: at}, schema.Stop,
			"a,b: Stop, as recorded 2026-12-02T10:00:00Z (01234567)"},
	} {
		if got := CaseName(c.r, c.e); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}
