package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
	if len(v) != 1 || v[0].Status != statusOK {
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
	var ws, pl *doctorCheck
	for i, c := range find(checks, "agent-log") {
		switch {
		case strings.Contains(c.Message, `plugin "superpowers"`):
			pl = &find(checks, "agent-log")[i]
		case strings.Contains(c.Message, `invalid hook "gate"`):
			ws = &find(checks, "agent-log")[i]
		}
	}
	if ws == nil || ws.Status != statusFail || ws.File != ".agents/hooks.json" || ws.Line != 2 || ws.Column != 3 || ws.Fix == "" {
		t.Errorf("the workspace file's check %+v\n%s", ws, text)
	}
	if pl == nil || pl.Status != statusFail || pl.File != "~/.gemini/config/plugins/superpowers/hooks/hooks.json" || pl.Line != 2 || pl.Column != 3 ||
		!strings.Contains(pl.Message, "command hook must specify 'command'") {
		t.Errorf("the plugin's check %+v\n%s", pl, text)
	}
}

func TestAgentLogForms(t *testing.T) {
	modified := time.Date(2026, 12, 3, 12, 0, 0, 0, time.Local)
	l := parseAgentLog(strings.Join([]string{
		"2026-12-01T10:12:03Z WARN failed to parse hooks.json at /home/a user/my project/.agents/hooks.json: json: cannot unmarshal string into Go struct field handler.Stop.timeout of type int",
		"W1202 08:00:01.250000 4242 hooks.go:73] Failed to parse hooks for plugin my plugin: invalid hook \"a \\\"b\\\"\": command hook must specify 'command'",
		"I1202 08:00:02.500000 4242 hooks.go:95] loaded 3 named hooks from 2 hooks.json file(s)\r",
	}, "\n"), modified)
	if l.FailedPath != "/home/a user/my project/.agents/hooks.json" || !strings.HasPrefix(l.FailedMsg, "json: cannot unmarshal string") || l.FailedLine != 1 {
		t.Errorf("failed line read as %q %q %d", l.FailedPath, l.FailedMsg, l.FailedLine)
	}
	if l.Plugin != "my plugin" || l.PluginLine != 2 {
		t.Errorf("plugin line read as %q %d", l.Plugin, l.PluginLine)
	}
	if name, ok := hookNamed(l.PluginMsg); !ok || name != `a "b"` {
		t.Errorf("hook named %q", name)
	}
	if want := time.Date(2026, 12, 2, 8, 0, 2, 500000000, time.Local); l.Loaded != 3 || l.LoadedFiles != 2 || !l.LoadedAt.Equal(want) {
		t.Errorf("loaded line read as %d %d %v, want at %v", l.Loaded, l.LoadedFiles, l.LoadedAt, want)
	}
	if at := logTime("2026-11-30T09:00:00Z INFO loaded 2 named hooks", modified); !at.Equal(time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)) {
		t.Errorf("RFC 3339 time read as %v", at)
	}
	if at := logTime("W1231 23:59:00.000000 1 x.go:1] y", time.Date(2027, 1, 1, 0, 5, 0, 0, time.Local)); at.Year() != 2026 {
		t.Errorf("a glog time of the last year read as %v", at)
	}
	if at := logTime("loaded 2 named hooks", modified); !at.IsZero() {
		t.Errorf("a line without a time read as %v", at)
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
	var ws, never *doctorCheck
	for i := range runs {
		switch {
		case runs[i].File == ".agents/hooks.json":
			ws = &runs[i]
		case strings.HasPrefix(runs[i].Message, "no recorded run of"):
			never = &runs[i]
		}
	}
	if ws == nil || ws.Status != statusWarn || !strings.Contains(ws.Message, "failed: exit status 1") || !strings.Contains(ws.Fix, "hookctl test --contract") || !strings.Contains(ws.Fix, "hookctl log --show r3") {
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
			if c.Status != statusOK || !strings.Contains(c.Message, "1 run since the agent last loaded the files") {
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
	walk := func(name string, checks []doctorCheck) {
		for _, c := range checks {
			if c.Status == statusOK {
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

// TestAgentLogLinesPastTheTail checks that a log longer than what doctor
// reads names its lines as an editor numbers them, and that the line cut
// where the read starts is not taken for a whole one.
func TestAgentLogLinesPastTheTail(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cli.log")
	var b strings.Builder
	line := "I1202 08:00:00.000000 4242 main.go:1] some other line of the agent's work\n"
	for b.Len() < maxLogTail+1<<20 {
		b.WriteString(line)
	}
	// The read of the last maxLogTail bytes starts inside this line, whose
	// end, read alone, would be a plugin's failure.
	cutLine := "I1202 08:00:01.000000 4242 main.go:1] the user typed: " + strings.Repeat("x", 200) + "W1202 08:00:00.250000 4242 hooks.go:73] Failed to parse hooks for plugin decoy: bad\n"
	tail := "I1202 08:00:02.000000 4242 hooks.go:95] loaded 3 named hooks from 2 hooks.json file(s)\n" +
		"2026-12-01T10:12:03Z WARN failed to parse hooks.json at /w/.agents/hooks.json: unexpected end of JSON input\n"
	pad := maxLogTail - len(tail) - 60 // the read starts 60 bytes before cutLine's end
	// As many whole lines as fit while more than a line's length is left
	// (built at once: prepending them one by one copied gigabytes).
	n := max(pad-1, 0) / len(line)
	tail = strings.Repeat(line, n) + tail
	pad -= n * len(line)
	tail = strings.Repeat("y", pad) + "\n" + tail
	b.WriteString(cutLine)
	b.WriteString(tail)
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := readAgentLog(path)
	if err != nil {
		t.Fatal(err)
	}
	total := strings.Count(b.String(), "\n")
	if l.FailedLine != total || l.LoadedLine != total-1 || l.Loaded != 3 {
		t.Errorf("failed at line %d, loaded %d hooks at line %d; want lines %d and %d, 3 hooks",
			l.FailedLine, l.Loaded, l.LoadedLine, total, total-1)
	}
	if l.Plugin != "" {
		t.Errorf("the cut line was read as a failure of the plugin %q", l.Plugin)
	}
	if got := l.line(l.FailedLine); got != fmt.Sprintf("line %d", total) {
		t.Errorf("named %q", got)
	}
	// Past maxLogCount, lines are named within the tail read.
	l.Tail = maxLogTail
	if got := l.line(7); got != "line 7 of its last 4 MiB" {
		t.Errorf("named %q within the tail", got)
	}
	if l.lineData(7) != nil {
		t.Errorf("--json gave a line counted within the tail")
	}
}
