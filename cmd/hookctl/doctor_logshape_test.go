package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/lint/doctor"
)

// TestDoctorLogFieldShapes: the agent's log names the field it cannot
// read in the shape of the Go release agy was built with: the struct's
// name and the last field (before the full path), the innermost struct's
// name and the whole path, and, from encoding/json on encoding/json/v2, no
// struct name and every key and index from the top. Each is matched by
// the field's last name and the value's kind, at the value's line and
// column, whenever the line was written.
func TestDoctorLogFieldShapes(t *testing.T) {
	shapes := map[string]string{
		"struct and field":  "handler.timeout",
		"struct and path":   "handler.PreToolUse.hooks.timeout",
		"keys from the top": ".gate.PreToolUse.0.hooks.0.timeout",
	}
	for name, field := range shapes {
		for _, older := range []bool{true, false} {
			t.Run(name+when(older), func(t *testing.T) {
				msg := "json: cannot unmarshal string into Go struct field " + field + " of type int"
				e := logShapeEnv(t, msg, older)
				_, checks, _ := e.doctor("--offline")
				logs := find(checks, "agent-log")
				want := ".agents/hooks.json:3:88: the agent's log (line 1) says it failed to parse this file: " + msg
				if len(logs) != 1 || logs[0].Status != doctor.Fail || logs[0].Line != 3 || logs[0].Column != 88 || logs[0].Message != want {
					t.Errorf("agent-log %+v\nwant %q", logs, want)
				}
			})
		}
	}
}

// TestDoctorLogEarlierVersionByTime: a logged type error the file as it is
// now does not have (a number where "command" is, in any shape) is of "an
// earlier version of this file" only when the line is older than the
// file; a line as new as the file or newer is the agent's word on this
// file, a failure, with no place hookctl can point at. A line with no time
// is dated by the log's own modification time.
func TestDoctorLogEarlierVersionByTime(t *testing.T) {
	for _, field := range []string{"handler.command", "handler.PreToolUse.hooks.command", ".gate.PreToolUse.0.hooks.0.command"} {
		for _, stamped := range []bool{true, false} {
			for _, older := range []bool{true, false} {
				name := field + when(older)
				if !stamped {
					name += " no time"
				}
				t.Run(name, func(t *testing.T) {
					msg := "json: cannot unmarshal number into Go struct field " + field + " of type string"
					e := logShapeEnv(t, msg, older)
					if !stamped {
						e.write(filepath.Join(e.home, ".gemini", "antigravity-cli", "cli.log"),
							"failed to parse hooks.json at "+e.ws+"/.agents/hooks.json: "+msg+"\n", 0o644)
						setLogTimes(t, e, older)
					}
					_, checks, _ := e.doctor("--offline")
					logs := find(checks, "agent-log")
					if len(logs) != 1 {
						t.Fatalf("agent-log %+v", logs)
					}
					l := logs[0]
					if older {
						if l.Status != doctor.Warn || l.Line != 0 || !strings.Contains(l.Message, "the agent failed to load an earlier version of this file") || !strings.HasSuffix(l.Message, "it has changed since: "+msg) {
							t.Errorf("agent-log %+v; want an earlier version's failure", l)
						}
						return
					}
					want := ".agents/hooks.json: the agent's log (line 1) says it failed to parse this file: " + msg
					if l.Status != doctor.Fail || l.Line != 0 || l.Message != want {
						t.Errorf("agent-log %+v\nwant %q", l, want)
					}
				})
			}
		}
	}
}

// logShapeEnv is a workspace whose file the agent cannot read for its
// timeout "5" (at 3:88), and an agent log whose one line says msg of it,
// stamped an hour before the file was written, or an hour after.
func logShapeEnv(t *testing.T, msg string, older bool) *doctorEnv {
	e := newDoctorEnv(t, "")
	e.workspace(`{
  "gate": {
    "PreToolUse": [{"matcher": "run_command", "hooks": [{"command": "true", "timeout": "5"}]}]
  }
}`)
	file := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	if err := os.Chtimes(filepath.Join(e.ws, ".agents", "hooks.json"), file, file); err != nil {
		t.Fatal(err)
	}
	at := file.Add(time.Hour)
	if older {
		at = file.Add(-time.Hour)
	}
	e.write(filepath.Join(e.home, ".gemini", "antigravity-cli", "cli.log"),
		at.Format(time.RFC3339)+" WARN failed to parse hooks.json at "+e.ws+"/.agents/hooks.json: "+msg+"\n", 0o644)
	setLogTimes(t, e, older)
	return e
}

// setLogTimes dates the agent's log an hour and a half before the file,
// or after it.
func setLogTimes(t *testing.T, e *doctorEnv, older bool) {
	at := time.Date(2026, 12, 1, 11, 30, 0, 0, time.UTC)
	if older {
		at = time.Date(2026, 12, 1, 8, 30, 0, 0, time.UTC)
	}
	if err := os.Chtimes(filepath.Join(e.home, ".gemini", "antigravity-cli", "cli.log"), at, at); err != nil {
		t.Fatal(err)
	}
}

func when(older bool) string {
	if older {
		return " older than the file"
	}
	return " newer than the file"
}
