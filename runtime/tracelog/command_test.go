package tracelog

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestParseSince(t *testing.T) {
	for in, want := range map[string]time.Duration{"90s": 90 * time.Second, "1h30m": 90 * time.Minute, "7d": 7 * 24 * time.Hour, "0.5d": 12 * time.Hour} {
		if d, err := ParseSince(in); err != nil || d != want {
			t.Errorf("ParseSince(%q) = %v, %v; want %v", in, d, err, want)
		}
	}
	for _, in := range []string{"", "-1h", "-2d", "7days", "x"} {
		if _, err := ParseSince(in); err == nil || err.Error() != "write a duration such as 30m, 2h or 7d" {
			t.Errorf("ParseSince(%q): %v", in, err)
		}
	}
}

// TestRan sums up a dispatch: each hook once in a row, the first exit
// status that is not 0, and the handlers the record left out.
func TestRan(t *testing.T) {
	for _, tc := range []struct {
		r           Record
		hooks, exit string
	}{
		{Record{}, "run: none", "-"},
		{Record{Handlers: []Handler{{Hook: "gate", Exit: Int(0)}, {Hook: "gate", Exit: Int(2)}, {Hook: "", Outcome: "failed"}, {Hook: "audit", Exit: Int(1)}}, HandlersOmitted: 3},
			"run: gate,(file),audit,+3", "2"},
		{Record{Handlers: []Handler{{Hook: "gate", Outcome: "failed"}, {Hook: "gate", Exit: Int(1)}}}, "run: gate", "failed"},
	} {
		if hooks, exit := tc.r.Ran(); hooks != tc.hooks || exit != tc.exit {
			t.Errorf("%+v: %q %q, want %q %q", tc.r, hooks, exit, tc.hooks, tc.exit)
		}
	}
}

// TestCommandLog: a log a command names is confined to the workspace
// given; /dev/null is no log; without a name, the default log.
func TestCommandLog(t *testing.T) {
	ws := t.TempDir()
	env := map[string]string{"XDG_STATE_HOME": filepath.Join(ws, "state")}
	getenv := func(k string) string { return env[k] }
	l, err := CommandLog("runs.jsonl", ws, getenv)
	if err != nil || l.Path != "runs.jsonl" || l.Within != ws {
		t.Errorf("named: %+v, %v", l, err)
	}
	env[EnvLog] = os.DevNull
	if l, err := CommandLog("", ws, getenv); err != nil || l.Path != os.DevNull || l.Within != "" {
		t.Errorf("HOOKCTL_LOG=%s: %+v, %v", os.DevNull, l, err)
	}
	delete(env, EnvLog)
	if l, err := CommandLog("", ws, getenv); err != nil || l.Path != filepath.Join(ws, "state", "hookctl", "runs.jsonl") || l.Within != "" {
		t.Errorf("default: %+v, %v", l, err)
	}
}

func TestNewFilterCountsBackFromNow(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	f, err := NewFilter("gate", "Stop", "2d", now)
	if err != nil || f.Hook != "gate" || f.Event != "Stop" || !f.Since.Equal(now.Add(-48*time.Hour)) {
		t.Errorf("NewFilter = %+v, %v", f, err)
	}
	if f, err := NewFilter("", "", "", now); err != nil || !f.Since.IsZero() {
		t.Errorf("no --since: %+v, %v", f, err)
	}
	if _, err := NewFilter("", "", "2 days", now); err == nil {
		t.Error("a wrong --since was taken")
	}
}

func TestEmptyTellsAnEmptyLogFromAFilter(t *testing.T) {
	l := &Log{Path: filepath.Join(t.TempDir(), "runs.jsonl")}
	if !l.Empty() {
		t.Error("a missing log is not empty")
	}
	if err := l.Append(&Record{ID: NewID(time.Now()), Kind: KindTrace, Hook: "gate", Event: "Stop", Time: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if l.Empty() {
		t.Error("a log with a record is empty")
	}
}

func TestEventNameAndWho(t *testing.T) {
	for _, c := range []struct {
		r                 Record
		event, hook, exit string
	}{
		{Record{Kind: KindTrace, Event: "PreToolUse or PostToolUse", Exit: Int(2)}, "Pre|PostToolUse", "?", "2"},
		{Record{Kind: KindTrace, Event: "PreToolUse or Stop", Hook: "gate", Signal: "SIGKILL"}, "PreToolUse or Stop", "gate", "SIGKILL"},
		{Record{Kind: KindRun, Event: "Stop", Handlers: []Handler{{Hook: "a", Exit: Int(0)}, {Hook: "b", Exit: Int(3)}}}, "Stop", "run: a,b", "3"},
	} {
		if got := c.r.EventName(); got != c.event {
			t.Errorf("%+v: EventName %q, want %q", c.r, got, c.event)
		}
		if hook, exit := c.r.Who(); hook != c.hook || exit != c.exit {
			t.Errorf("%+v: Who %q %q, want %q %q", c.r, hook, exit, c.hook, c.exit)
		}
	}
	if _, ok := ToolPair("PreToolUse", "PostInvocation"); ok {
		t.Error("two events of different things paired")
	}
}
