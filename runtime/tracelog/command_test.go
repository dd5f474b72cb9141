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
