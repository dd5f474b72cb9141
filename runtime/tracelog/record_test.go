package tracelog

import (
	"encoding/json"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestNewIDUniqueAndShaped(t *testing.T) {
	now := time.Now()
	seen := map[string]bool{}
	for range 20000 {
		id := NewID(now)
		if len(id) != 16 || strings.Trim(id, idAlphabet) != "" {
			t.Fatalf("id %q: want 16 characters of %s", id, idAlphabet)
		}
		if seen[id] {
			t.Fatalf("id %q given twice in the same millisecond", id)
		}
		seen[id] = true
	}
	// The time half orders records: a later millisecond, a larger suffix.
	a, b := NewID(now), NewID(now.Add(time.Millisecond))
	if a[8:] >= b[8:] {
		t.Errorf("time halves %q and %q are not in order", a[8:], b[8:])
	}
	if ShortID(a) != a[:8] {
		t.Errorf("ShortID(%q) = %q", a, ShortID(a))
	}
}

func TestLineKeepsSmallRecordsWhole(t *testing.T) {
	r := &Record{ID: "abc", Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Duration: 12.5, Kind: KindTrace,
		Hook: "gate", HookFrom: FromFlag, Event: "PreToolUse", EventFrom: FromPayload, Tool: "run_command",
		Command: []string{"./gate.sh", "<x>&"}, Exit: Int(0), Answer: json.RawMessage(`{"decision":"allow"}`)}
	b, err := r.Line()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"abc","time":"2026-01-02T03:04:05Z","durationMs":12.5,"kind":"trace","hook":"gate","hookFrom":"flag",` +
		`"event":"PreToolUse","eventFrom":"payload","tool":"run_command","command":["./gate.sh","<x>&"],"exit":0,` +
		`"answer":{"decision":"allow"}}` + "\n"
	if string(b) != want {
		t.Errorf("line:\n got %s\nwant %s", b, want)
	}
}

func TestLineBoundsLargeRecords(t *testing.T) {
	big := strings.Repeat("x", 200<<10)
	payload, _ := json.Marshal(map[string]any{"toolCall": map[string]any{"name": "write_to_file",
		"args": map[string]any{"TargetFile": "/a", "CodeContent": big}}})
	answer, _ := json.Marshal(map[string]any{"decision": "deny", "reason": strings.Repeat("r", 30<<10)})
	r := &Record{ID: "big", Kind: KindTrace, Event: "PreToolUse", Tool: "write_to_file", Exit: Int(0),
		Payload: payload, Answer: answer, Stderr: strings.Repeat("\x1b", 4096)}
	b, err := r.Line()
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > MaxRecord {
		t.Fatalf("line of %d bytes, more than %d", len(b), MaxRecord)
	}
	got, err := ParseLine(b)
	if err != nil {
		t.Fatalf("the bounded line does not parse: %v", err)
	}
	if !strings.Contains(strings.Join(got.Truncated, ","), "payload") {
		t.Errorf("truncated = %v, want payload named", got.Truncated)
	}
	// The payload keeps its shape, its long string cut with the mark.
	var p struct {
		ToolCall struct {
			Name string
			Args map[string]string
		}
	}
	if err := json.Unmarshal(got.Payload, &p); err != nil {
		t.Fatalf("payload %s: %v", got.Payload, err)
	}
	if p.ToolCall.Name != "write_to_file" || !strings.HasSuffix(p.ToolCall.Args["CodeContent"], Cut) {
		t.Errorf("payload not shortened in place: %.200s", got.Payload)
	}
	if r.Payload == nil || len(r.Payload) != len(payload) {
		t.Error("Line changed the record itself")
	}

	// Hundreds of handlers with long stderr: cut, the count of those left
	// out recorded.
	run := &Record{ID: "run", Kind: KindRun, Event: "Stop", Answer: json.RawMessage(`{"decision":"allow"}`)}
	for range 400 {
		run.Handlers = append(run.Handlers, Handler{Hook: "h", Command: strings.Repeat("c", 300), Outcome: "failed",
			Stderr: strings.Repeat("e", 2000)})
	}
	b, err = run.Line()
	if err != nil {
		t.Fatal(err)
	}
	got, err = ParseLine(b)
	if err != nil || len(b) > MaxRecord {
		t.Fatalf("run record: %d bytes, parse error %v", len(b), err)
	}
	if got.HandlersOmitted+len(got.Handlers) != 400 || got.Decision() != "allow" {
		t.Errorf("handlers kept %d + omitted %d, decision %q", len(got.Handlers), got.HandlersOmitted, got.Decision())
	}
}

func TestLineBoundsHostileNames(t *testing.T) {
	long := strings.Repeat("h", 100<<10)
	r := &Record{ID: "x", Kind: KindTrace, Hook: long, Event: long, Tool: long, Command: []string{long}, Error: long}
	b, err := r.Line()
	if err != nil || len(b) > MaxRecord {
		t.Fatalf("%d bytes, %v", len(b), err)
	}
	if _, err := ParseLine(b); err != nil {
		t.Fatal(err)
	}
}

func TestDecisionAndExited(t *testing.T) {
	for _, c := range []struct {
		r        Record
		decision string
		exited   string
	}{
		{Record{Answer: json.RawMessage(`{"decision":"deny"}`), Exit: Int(0)}, "deny", "0"},
		{Record{Kind: KindTrace, Event: "PreToolUse", Exit: Int(2)}, "deny", "2"},
		{Record{Kind: KindTrace, Event: "PreToolUse or PostToolUse", Exit: Int(2)}, "deny", "2"},
		{Record{Kind: KindTrace, Event: "Stop", Exit: Int(2)}, "continue", "2"},
		{Record{Kind: KindTrace, Event: "PostToolUse", Exit: Int(2)}, "", "2"},
		{Record{Answer: json.RawMessage(`{"injectSteps":[{"ephemeralMessage":"x"}]}`)}, "inject", "-"},
		{Record{Answer: json.RawMessage(`{"terminationBehavior":"terminate"}`)}, "terminate", "-"},
		{Record{Answer: json.RawMessage(`{}`), Signal: "SIGKILL"}, "", "SIGKILL"},
	} {
		if d := c.r.Decision(); d != c.decision {
			t.Errorf("%+v: decision %q, want %q", c.r, d, c.decision)
		}
		if e := c.r.Exited(); e != c.exited {
			t.Errorf("%+v: exited %q, want %q", c.r, e, c.exited)
		}
	}
}

func TestHeadKeepsWholeCharacters(t *testing.T) {
	s := "ab€" // € is 3 bytes
	for n, want := range map[int]string{0: "", 2: "ab", 3: "ab", 4: "ab", 5: "ab€", 9: "ab€"} {
		if got := Head(s, n); got != want {
			t.Errorf("Head(%q, %d) = %q, want %q", s, n, got, want)
		}
	}
}

func TestSignalNames(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGTERM, syscall.SIGPIPE, syscall.SIGQUIT, syscall.Signal(40)} {
		n := SignalName(sig)
		back, ok := SignalNumber(n)
		if !ok || back != sig {
			t.Errorf("%d -> %q -> %d", sig, n, back)
		}
	}
	if SignalName(syscall.SIGSEGV) != "SIGSEGV" {
		t.Error(SignalName(syscall.SIGSEGV))
	}
}
