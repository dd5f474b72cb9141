package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/lint/doctor"
)

// TestDoctorLogOfAFilePastTheBound: the agent's log says it failed to
// parse a file hookctl reads no further than its bound on values: whether
// the file parses now is not known, so doctor neither says it does nor
// takes the bound for the agent's cause.
func TestDoctorLogOfAFilePastTheBound(t *testing.T) {
	src := handlersPastTheBound() + "]}]}\n" // one '}' short: the agent reads to the end and fails
	e := newDoctorEnv(t, "")
	e.write(filepath.Join(e.home, ".gemini", "antigravity-cli", "cli.log"),
		"2026-12-01T10:12:03Z WARN failed to parse hooks.json at "+e.ws+"/.agents/hooks.json: unexpected end of JSON input\n", 0o644)
	e.workspace(src)
	_, checks, _ := e.doctor("--offline")
	logs := find(checks, "agent-log")
	if len(logs) != 1 {
		t.Fatalf("agent-log %+v", logs)
	}
	l := logs[0]
	for _, wrong := range []string{"; it parses now", "new agy session to load it"} {
		if strings.Contains(l.Message+l.Fix, wrong) {
			t.Errorf("agent-log says %q of a file hookctl did not read whole: %+v", wrong, l)
		}
	}
	if l.Status == doctor.OK || !strings.Contains(l.Message, "unexpected end of JSON input") || !strings.Contains(l.Message, "reads no further") || l.Line != 0 {
		t.Errorf("agent-log %+v, want the agent's failure, at no place, and the bound", l)
	}
}
