package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/lint/doctor"
	"github.com/hookctl/hookctl/runtime/tracelog"
)

// TestDoctorAsksTheAgentInTheWorkspace: agy loads the workspace hooks of
// the folder it starts in, so doctor runs it there, wherever doctor itself
// runs.
func TestDoctorAsksTheAgentInTheWorkspace(t *testing.T) {
	e := newDoctorEnv(t, "in-workspace")
	t.Chdir(e.home) // not the workspace
	_, checks, text := e.doctor()
	v := find(checks, "agent-view")
	if len(v) != 1 || v[0].Status != doctor.OK {
		t.Errorf("agent-view %+v\n%s", v, text)
	}
}

// TestDoctorReadsTheAgentsCheckOfAHook: the log lines of the agent's own
// check of a hook (a plugin's, and the workspace's file) are failures at
// the hook they name.
func TestDoctorReadsTheAgentsCheckOfAHook(t *testing.T) {
	e := newDoctorEnv(t, "plugin-failed")
	e.workspace(`{
  "gate": {
    "SessionStart": [{"matcher": "*", "hooks": [{"command": "./hooks/gate.sh"}]}]
  }
}`)
	plugin := filepath.Join(e.home, ".gemini", "config", "plugins", "superpowers", "hooks", "hooks.json")
	e.write(plugin, "{\n  \"hooks\": {\"SessionStart\": [{\"matcher\": \"startup\", \"hooks\": [{\"type\": \"command\", \"command\": \"x\"}]}]}\n}\n", 0o644)
	code, checks, text := e.doctor("--offline")
	if code != exitFindings {
		t.Errorf("exit %d, want 1:\n%s", code, text)
	}
	var ws, pl *doctor.Result
	for i, c := range find(checks, "agent-log") {
		switch {
		case strings.Contains(c.Message, `plugin "superpowers"`):
			pl = &find(checks, "agent-log")[i]
		case strings.Contains(c.Message, `invalid hook "gate"`):
			ws = &find(checks, "agent-log")[i]
		}
	}
	if ws == nil || ws.Status != doctor.Fail || ws.File != ".agents/hooks.json" || ws.Line != 2 || ws.Column != 3 || ws.Fix == "" {
		t.Errorf("the workspace file's check %+v\n%s", ws, text)
	}
	if pl == nil || pl.Status != doctor.Fail || pl.File != "~/.gemini/config/plugins/superpowers/hooks/hooks.json" || pl.Line != 2 || pl.Column != 3 ||
		!strings.Contains(pl.Message, "command hook must specify 'command'") {
		t.Errorf("the plugin's check %+v\n%s", pl, text)
	}
}

// writeRuns records runs in the log hookctl log reads.
func writeRuns(t *testing.T, e *doctorEnv, recs ...tracelog.Record) {
	t.Helper()
	path := filepath.Join(e.home, "runs.jsonl")
	t.Setenv("HOOKCTL_LOG", path)
	var b strings.Builder
	for _, r := range recs {
		line, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	e.write(path, b.String(), 0o644)
}

// TestDoctorRunsPerHook: a record is a hook's when it ran one of its
// commands in its file's folder, so two hooks of one name in the user's
// and the workspace's file are told apart; a failed last run is a warning
// pointing at hookctl test --contract; runs are counted from the time the
// agent's log last loaded the files.
func TestDoctorRunsPerHook(t *testing.T) {
	e := newDoctorEnv(t, "none-loaded") // its log loaded the files at 2026-12-01T10:12:03Z
	e.workspace(`{
  "mine": {"Stop": [{"command": "./hooks/gate.sh"}]}
}`)
	loaded := time.Date(2026, 12, 1, 10, 12, 3, 0, time.UTC)
	dir := filepath.Join(e.ws, ".agents")
	writeRuns(t, e,
		tracelog.Record{ID: "r1", Time: loaded.Add(-time.Hour), Kind: tracelog.KindTrace, Hook: "mine", Event: "Stop", Command: []string{"./hooks/gate.sh"}, Dir: dir, Exit: tracelog.Int(0)},
		tracelog.Record{ID: "r2", Time: loaded.Add(time.Minute), Kind: tracelog.KindTrace, Hook: "mine", Event: "Stop", Command: []string{"./hooks/gate.sh"}, Dir: dir, Exit: tracelog.Int(0)},
		tracelog.Record{ID: "r3", Time: loaded.Add(2 * time.Minute), Kind: tracelog.KindTrace, Hook: "mine", Event: "Stop", Command: []string{"./hooks/gate.sh"}, Dir: dir, Exit: tracelog.Int(1)},
	)
	_, checks, text := e.doctor("--offline")
	runs := find(checks, "runs")
	var ws, never *doctor.Result
	for i := range runs {
		switch {
		case runs[i].File == ".agents/hooks.json":
			ws = &runs[i]
		case strings.HasPrefix(runs[i].Message, "no recorded run of"):
			never = &runs[i]
		}
	}
	if ws == nil || ws.Status != doctor.Warn || !strings.Contains(ws.Message, "failed: exit status 1") || !strings.Contains(ws.Fix, "hookctl test --contract") || !strings.Contains(ws.Fix, "hookctl log --show r3") {
		t.Errorf("the workspace hook's runs %+v\n%s", ws, text)
	}
	// The user's hook of the same name runs "true" in ~/.gemini/config:
	// none of the records is its.
	if never == nil || !strings.Contains(never.Message, "mine (~/.gemini/config/hooks.json:1:2)") {
		t.Errorf("the user's hook %+v\n%s", never, text)
	}

	writeRuns(t, e,
		tracelog.Record{ID: "r1", Time: loaded.Add(-time.Hour), Kind: tracelog.KindTrace, Event: "Stop", Command: []string{"./hooks/gate.sh"}, Dir: dir, Exit: tracelog.Int(0)},
		tracelog.Record{ID: "r2", Time: loaded.Add(time.Minute), Kind: tracelog.KindRun, Event: "Stop",
			Handlers: []tracelog.Handler{{Hook: "mine", Command: "./hooks/gate.sh", Where: filepath.Join(dir, "hooks.json") + ":2:3", Outcome: "no answer"}}},
	)
	_, checks, text = e.doctor("--offline")
	for _, c := range find(checks, "runs") {
		if c.File == ".agents/hooks.json" {
			if c.Status != doctor.OK || !strings.Contains(c.Message, "1 run since the agent last loaded the files") {
				t.Errorf("runs since the load: %+v\n%s", c, text)
			}
			return
		}
	}
	t.Errorf("no runs check of the workspace hook:\n%s", text)
}

// TestDoctorEveryProblemHasAFix walks doctor's checks over machines that
// make each kind of warning and failure, and holds every one to a fix.
func TestDoctorEveryProblemHasAFix(t *testing.T) {
	kinds := map[string]bool{}
	walk := func(name string, checks []doctor.Result) {
		for _, c := range checks {
			if c.Status == doctor.OK {
				continue
			}
			kinds[c.Check+" "+c.Status] = true
			if c.Fix == "" {
				t.Errorf("%s: %s %s has no fix: %s", name, c.Status, c.Check, c.Message)
			}
		}
	}
	for _, shape := range []string{"", "listed-all", "listed-some", "none-loaded", "old", "in-workspace", "plugin-failed"} {
		e := newDoctorEnv(t, shape)
		_, checks, _ := e.doctor()
		walk("agent "+shape, checks)
	}
	hangs := newDoctorEnv(t, "hangs")
	_, checks, _ := hangs.doctor("--agent-timeout", "100ms")
	walk("an agent that hangs", checks)

	e := newDoctorEnv(t, "none-loaded")
	e.workspace(`{"gate": {"enabled": true, "Stop": [{"command": "./hooks/missing.sh"}, {"command": "./hooks/plain.sh"}, {"command": "python9 x.py"}]}, "x": {"stop": [{"command": "true"}]}}`)
	e.write(filepath.Join(e.ws, ".agents", "hooks", "plain.sh"), "#!/bin/sh\n", 0o644)
	e.write(filepath.Join(e.ws, ".agent", "hooks.json"), `{}`, 0o644)
	e.write(filepath.Join(e.home, ".gemini", "trustedFolders.json"), fmt.Sprintf(`{%q: "DO_NOT_TRUST"}`, e.ws), 0o644)
	e.write(filepath.Join(e.home, ".gemini", "antigravity-cli", "plugins", "p", "hooks", "hooks.json"), `{}`, 0o644)
	writeRuns(t, e, tracelog.Record{ID: "r1", Time: time.Now(), Kind: tracelog.KindTrace, Hook: "gate", Event: "Stop", Command: []string{"./hooks/plain.sh"}, Dir: filepath.Join(e.ws, ".agents"), Exit: tracelog.Int(3)})
	_, checks, _ = e.doctor()
	walk("a broken workspace", checks)

	e = newDoctorEnv(t, "listed-all")
	e.workspace(`{"gate": {"Stop": [{"command": "true", "timeout": "5"}]}}`)
	e.write(filepath.Join(e.home, ".gemini", "trustedFolders.json"), `[1]`, 0o644)
	_, checks, _ = e.doctor()
	walk("a dropped file", checks)

	e = newDoctorEnv(t, "")
	e.write(filepath.Join(e.home, ".gemini", "trustedFolders.json"), `{}`, 0o644)
	e.write(filepath.Join(e.ws, ".agents", "hooks.json"), `{"gate": {"Stop": [{"command": "true"},]}}`, 0o644)
	_, checks, _ = e.doctor()
	walk("broken JSON", checks)

	for _, want := range []string{"agent warn", "workspace-file fail", "agent-view fail", "agent-view warn", "agent-log fail",
		"agent-log warn", "agent-trust fail", "agent-trust warn", "hookctl-trust warn", "handlers fail", "lint warn", "runs warn", "misplaced warn"} {
		if !kinds[want] {
			t.Errorf("no machine made a %s check", want)
		}
	}
	if t.Failed() {
		t.Logf("kinds seen: %v", kinds)
	}
}

// BenchmarkDoctorWithoutAgent: doctor on a workspace of a few hooks, no
// agent installed (docs/performance.md).
func BenchmarkDoctorWithoutAgent(b *testing.B) {
	home, ws := b.TempDir(), b.TempDir()
	b.Setenv("HOME", home)
	b.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	b.Setenv("XDG_STATE_HOME", filepath.Join(home, "state"))
	b.Setenv("HOOKCTL_LOG", "")
	b.Setenv("HOOKCTL_AGY_LOG", "")
	b.Setenv("HOOKCTL_AGY", "")
	b.Setenv("PATH", "/usr/bin:/bin")
	write := func(p, s string, mode os.FileMode) {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), mode); err != nil {
			b.Fatal(err)
		}
	}
	write(filepath.Join(home, ".gemini", "config", "hooks.json"), `{"mine": {"Stop": [{"command": "true"}]}}`, 0o644)
	write(filepath.Join(ws, ".agents", "hooks.json"), `{
  "gate": {"PreToolUse": [{"matcher": "run_command", "hooks": [{"command": "./hooks/gate.sh", "timeout": 5}]}]},
  "format": {"PostToolUse": [{"matcher": "write_to_file|replace_file_content", "hooks": [{"command": "./hooks/format.sh"}]}]},
  "remind": {"PreInvocation": [{"command": "./hooks/remind.sh"}]},
  "context": {"SessionStart": [{"command": "./hooks/context.sh"}]},
  "done": {"Stop": [{"command": "./hooks/done.sh"}]}
}`, 0o644)
	for _, s := range []string{"gate", "format", "remind", "context", "done"} {
		write(filepath.Join(ws, ".agents", "hooks", s+".sh"), "#!/bin/sh\necho '{}'\n", 0o755)
	}
	args := []string{"hookctl", "--color", "never", "doctor", "--workspace", ws}
	b.ResetTimer()
	for b.Loop() {
		var out, errOut strings.Builder
		if code := run(args, streams{strings.NewReader(""), &out, &errOut}); code != 0 {
			b.Fatalf("exit %d: %s%s", code, out.String(), errOut.String())
		}
	}
}

// TestDoctorFixesFromTheCurrentFolder: the paths in fixes are typed where
// doctor runs, not where the workspace is; doctor points at hookctl test
// --contract in JSON too.
func TestDoctorFixesFromTheCurrentFolder(t *testing.T) {
	e := newDoctorEnv(t, "")
	e.workspace(`{"gate": {"Stop": [{"command": "true", "timeout": "5"}]}}`)
	t.Chdir(filepath.Dir(e.ws))
	_, checks, text := e.doctor()
	ws := find(checks, "workspace-file")
	want := "hookctl lint " + filepath.Join(filepath.Base(e.ws), ".agents", "hooks.json") + " shows every cause"
	if len(ws) != 1 || !strings.HasPrefix(ws[0].Fix, want) || ws[0].File != ".agents/hooks.json" {
		t.Errorf("workspace-file %+v, want a fix starting %q\n%s", ws, want, text)
	}
	next := find(checks, "next")
	if len(next) != 1 || next[0].Fix != "hookctl test --contract" {
		t.Errorf("next %+v", next)
	}
}
