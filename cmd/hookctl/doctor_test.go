package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/lint/doctor"
	"github.com/hookctl/hookctl/schema"
)

// doctorEnv is a machine for doctor: a home, a workspace, and a fake agy
// answering as the testdata/doctor folder shape says ("" for no agent).
type doctorEnv struct {
	t        *testing.T
	home, ws string
}

func newDoctorEnv(t *testing.T, shape string) *doctorEnv {
	t.Helper()
	e := &doctorEnv{t: t, home: t.TempDir(), ws: t.TempDir()}
	e.ws, _ = filepath.EvalSymlinks(e.ws)
	t.Setenv("HOME", e.home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(e.home, ".config"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(e.home, "state"))
	t.Setenv("HOOKCTL_LOG", "")
	t.Setenv("HOOKCTL_AGY_LOG", "")
	t.Setenv("HOOKCTL_AGY", "")
	// PATH keeps the system's programs, never a real agy.
	t.Setenv("PATH", "/usr/bin:/bin")
	if shape != "" {
		dir, err := filepath.Abs(filepath.Join("testdata", "doctor"))
		if err != nil {
			t.Fatal(err)
		}
		t.Setenv("PATH", dir+":/usr/bin:/bin")
		t.Setenv("FAKE_AGY", filepath.Join(dir, shape))
		if b, err := os.ReadFile(filepath.Join(dir, shape, "cli.log")); err == nil {
			e.write(filepath.Join(e.home, ".gemini", "antigravity-cli", "cli.log"), strings.ReplaceAll(string(b), "WORKSPACE", e.ws), 0o644)
		}
	}
	e.write(filepath.Join(e.home, ".gemini", "config", "hooks.json"), `{"mine": {"Stop": [{"command": "true"}]}}`, 0o644)
	e.workspace(`{
  "gate": {
    "PreToolUse": [{"matcher": "run_command", "hooks": [{"command": "./hooks/gate.sh", "timeout": 5}]}]
  }
}`)
	e.write(filepath.Join(e.ws, ".agents", "hooks", "gate.sh"), "#!/bin/sh\necho '{\"decision\":\"allow\"}'\n", 0o755)
	return e
}

func (e *doctorEnv) write(p, content string, mode os.FileMode) {
	e.t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		e.t.Fatal(err)
	}
}

func (e *doctorEnv) workspace(src string) {
	e.write(filepath.Join(e.ws, ".agents", "hooks.json"), src, 0o644)
}

// doctor runs hookctl doctor and returns its exit status, its checks (from
// --format json) and its text report.
func (e *doctorEnv) doctor(args ...string) (int, []doctor.Result, string) {
	e.t.Helper()
	var out, errOut bytes.Buffer
	base := []string{"hookctl", "--color", "never", "doctor", "--workspace", e.ws}
	code := run(append(append(base, args...), "--format", "json"), streams{strings.NewReader(""), &out, &errOut})
	var checks []doctor.Result
	if err := json.Unmarshal(out.Bytes(), &checks); err != nil {
		e.t.Fatalf("doctor --format json: %v\n%s\nstderr %s", err, out.String(), errOut.String())
	}
	out.Reset()
	run(append(base, args...), streams{strings.NewReader(""), &out, &errOut})
	return code, checks, out.String()
}

// find returns the checks of a kind.
func find(checks []doctor.Result, kind string) []doctor.Result {
	var out []doctor.Result
	for _, c := range checks {
		if c.Check == kind {
			out = append(out, c)
		}
	}
	return out
}

func TestDoctorWithoutAgent(t *testing.T) {
	e := newDoctorEnv(t, "")
	code, checks, text := e.doctor()
	if code != 0 {
		t.Errorf("exit %d:\n%s", code, text)
	}
	a := find(checks, "agent")
	if len(a) != 1 || a[0].Status != doctor.Warn || !strings.Contains(a[0].Message, "agy is not on PATH") || a[0].Fix == "" {
		t.Errorf("agent check %+v", a)
	}
	if len(find(checks, "agent-view")) != 0 {
		t.Errorf("asked an agent that is not there: %+v", checks)
	}
	ws := find(checks, "workspace-file")
	if len(ws) != 1 || ws[0].Status != doctor.OK || !strings.Contains(ws[0].Message, "1 enabled hook (PreToolUse 1)") {
		t.Errorf("workspace-file %+v", ws)
	}
	for _, want := range []string{"[!] agent", "[✓] workspace-file", "checks:", "hookctl test --contract"} {
		if !strings.Contains(text, want) {
			t.Errorf("the report lacks %q:\n%s", want, text)
		}
	}
}

func TestDoctorAgentListsEveryHook(t *testing.T) {
	e := newDoctorEnv(t, "listed-all")
	code, checks, text := e.doctor()
	if code != 0 {
		t.Errorf("exit %d:\n%s", code, text)
	}
	if a := find(checks, "agent"); len(a) != 1 || a[0].Status != doctor.OK || !strings.HasPrefix(a[0].Message, "agy 1.2.7 (") {
		t.Errorf("agent %+v", a)
	}
	v := find(checks, "agent-view")
	if len(v) != 1 || v[0].Status != doctor.OK {
		t.Fatalf("agent-view %+v", v)
	}
	if data, _ := v[0].Data.(map[string]any); data == nil || !strings.Contains(data["output"].(string), `"name": "gate"`) {
		t.Errorf("the agent's answer is not kept in the json output: %+v", v[0].Data)
	}
}

func TestDoctorNamesTheHookTheAgentDidNotLoad(t *testing.T) {
	e := newDoctorEnv(t, "listed-some")
	code, checks, text := e.doctor()
	if code != 1 {
		t.Errorf("exit %d, want 1:\n%s", code, text)
	}
	v := find(checks, "agent-view")
	if len(v) != 1 || v[0].Status != doctor.Fail || v[0].File != ".agents/hooks.json" || v[0].Line != 2 || v[0].Column != 3 ||
		!strings.Contains(v[0].Message, `the hook "gate" is declared and enabled, but agy did not load it`) || v[0].Fix == "" {
		t.Errorf("agent-view %+v", v)
	}
	if !strings.Contains(text, "[✗] agent-view") || !strings.Contains(text, "fix: ") {
		t.Errorf("report:\n%s", text)
	}
}

func TestDoctorMapsTheLogsErrorToItsLine(t *testing.T) {
	e := newDoctorEnv(t, "none-loaded")
	e.workspace(`{
  "gate": {
    "PreToolUse": [{"matcher": "run_command", "hooks": [{"command": "./hooks/gate.sh", "timeout": "5"}]}]
  }
}`)
	code, checks, text := e.doctor()
	if code != 1 {
		t.Errorf("exit %d, want 1:\n%s", code, text)
	}
	ws := find(checks, "workspace-file")
	if len(ws) != 1 || ws[0].Status != doctor.Fail || ws[0].Line != 3 || ws[0].Column != 99 ||
		!strings.Contains(ws[0].Message, "the agent loads none of this file's 1 hook:") {
		t.Errorf("workspace-file %+v", ws)
	}
	logs := find(checks, "agent-log")
	if len(logs) != 2 {
		t.Fatalf("agent-log %+v", logs)
	}
	if l := logs[0]; l.Status != doctor.Fail || l.File != ".agents/hooks.json" || l.Line != 3 || l.Column != 99 ||
		!strings.Contains(l.Message, "the agent's log (line 3) says it failed to parse this file: json: cannot unmarshal string") {
		t.Errorf("the log's failure %+v", l)
	}
	if l := logs[1]; l.Status != doctor.OK || !strings.Contains(l.Message, "last loaded 1 named hook from 1 file (log line 4); 1 is declared here") {
		t.Errorf("the log's count %+v", l)
	}
}

func TestDoctorOldAgentAndUnreadableAnswer(t *testing.T) {
	e := newDoctorEnv(t, "old")
	e.workspace(`{"context": {"SessionStart": [{"command": "true"}]}}`)
	_, checks, text := e.doctor()
	var warned bool
	for _, c := range find(checks, "workspace-file") {
		if c.Status == doctor.Warn && strings.Contains(c.Message, "agy 1.0.5 never runs SessionStart handlers") {
			warned = true
		}
	}
	if !warned {
		t.Errorf("no SessionStart warning for agy 1.0.5:\n%s", text)
	}
	if v := find(checks, "agent-view"); len(v) != 1 || v[0].Status != doctor.Warn || !strings.Contains(v[0].Message, "holds no list of hooks hookctl can read") {
		t.Errorf("agent-view %+v", v)
	}
	// --offline never asks.
	if _, checks, _ := e.doctor("--offline"); len(find(checks, "agent-view")) != 0 {
		t.Errorf("--offline asked the agent")
	}
}

func TestDoctorNeverHangsOnTheAgent(t *testing.T) {
	e := newDoctorEnv(t, "hangs")
	_, checks, text := e.doctor("--agent-timeout", "200ms")
	if a := find(checks, "agent"); len(a) != 1 || a[0].Status != doctor.Warn || !strings.Contains(a[0].Message, "did not answer within 200ms") {
		t.Errorf("agent %+v\n%s", a, text)
	}
}

// TestDoctorHandlersWhateverLintsChoice: the scripts handlers need are
// lint's findings, named in doctor's words, even where the workspace's
// .hookctl.json turns the rules off or a path is one machine's.
func TestDoctorHandlersWhateverLintsChoice(t *testing.T) {
	e := newDoctorEnv(t, "")
	e.workspace(`{
  "gate": {"Stop": [{"command": "python3 -m hooks.gone"}, {"command": "python3 /home/nobody-here/gate.py"}, {"command": "./hooks/gate.sh"}]}
}`)
	e.write(filepath.Join(e.ws, schema.ConfigFileName), `{"lint": {"disable": ["script-not-found", "platform-specific"]}}`, 0o644)
	_, checks, text := e.doctor("--offline")
	var msgs []string
	for _, c := range find(checks, "handlers") {
		msgs = append(msgs, c.Status+" "+c.Message)
	}
	want := "fail hooks/gone.py (no such module), needed by .agents/hooks.json:2:21 (gate)\n" +
		"fail /home/nobody-here/gate.py (no such file), needed by .agents/hooks.json:2:59 (gate)"
	if got := strings.Join(msgs, "\n"); got != want {
		t.Errorf("handlers:\n%s\nwant\n%s\n%s", got, want, text)
	}
}

func TestDoctorHandlersAndTrust(t *testing.T) {
	e := newDoctorEnv(t, "")
	e.workspace(`{
  "gate": {"PreToolUse": [{"hooks": [{"command": "./hooks/gate.sh"}, {"command": "nosuch-program-4711 --check"}, {"command": "python3 hooks/missing.py"}]}]}
}`)
	e.write(filepath.Join(e.home, ".gemini", "trustedFolders.json"), `{"`+e.ws+`": "DO_NOT_TRUST"}`, 0o644)
	code, checks, text := e.doctor()
	if code != 1 {
		t.Errorf("exit %d:\n%s", code, text)
	}
	var msgs []string
	for _, c := range find(checks, "handlers") {
		msgs = append(msgs, c.Status+" "+c.Message)
	}
	joined := strings.Join(msgs, "\n")
	for _, want := range []string{"fail nosuch-program-4711 (not on PATH), needed by .agents/hooks.json:2:70 (gate)", "fail hooks/missing.py (no such file)"} {
		if !strings.Contains(joined, want) {
			t.Errorf("handlers lack %q:\n%s", want, joined)
		}
	}
	tr := find(checks, "agent-trust")
	if len(tr) != 1 || tr[0].Status != doctor.Fail || !strings.Contains(tr[0].Message, "does not trust this workspace") {
		t.Errorf("agent-trust %+v", tr)
	}
	if h := find(checks, "hookctl-trust"); len(h) != 1 || h[0].Status != doctor.Warn || !strings.HasPrefix(h[0].Fix, "hookctl trust ") {
		t.Errorf("hookctl-trust %+v", h)
	}
	// A trusting entry for a parent folder trusts the workspace.
	e.write(filepath.Join(e.home, ".gemini", "trustedFolders.json"), `{"`+filepath.Join(e.ws, "x")+`": "TRUST_PARENT"}`, 0o644)
	if _, checks, _ := e.doctor(); find(checks, "agent-trust")[0].Status != doctor.OK {
		t.Errorf("TRUST_PARENT of a child: %+v", find(checks, "agent-trust"))
	}
}

func TestDoctorFindsMisplacedFiles(t *testing.T) {
	e := newDoctorEnv(t, "")
	e.write(filepath.Join(e.ws, ".gemini", "hooks.json"), `{}`, 0o644)
	e.write(filepath.Join(e.home, ".gemini", "hooks.json"), `{}`, 0o644)
	_, checks, _ := e.doctor()
	m := find(checks, "misplaced")
	if len(m) != 2 {
		t.Fatalf("misplaced %+v", m)
	}
	for _, c := range m {
		if c.Status != doctor.Warn || c.Fix == "" {
			t.Errorf("misplaced %+v", c)
		}
	}
}

// TestDoctorCountsDroppedHooksAsLint: a file the agent drops whole is
// counted as lint counts it, every hook of the file, whatever its shape.
func TestDoctorCountsDroppedHooksAsLint(t *testing.T) {
	e := newDoctorEnv(t, "")
	src := `{
  "gate": {"enabled": "false", "PreToolUse": [{"hooks": [{"command": "true"}]}]},
  "b": ["x"],
  "c": {"Stop": [{"command": 7}]}
}`
	e.workspace(src)
	_, checks, _ := e.doctor("--offline")
	var out, errOut bytes.Buffer
	run([]string{"hookctl", "--color", "never", "lint", filepath.Join(e.ws, ".agents", "hooks.json")}, streams{strings.NewReader(""), &out, &errOut})
	if !strings.Contains(out.String(), "the agent loads none of this file's 3 hooks (first cause: 2:23)") {
		t.Fatalf("lint:\n%s", out.String())
	}
	ws := find(checks, "workspace-file")
	if len(ws) != 1 || ws[0].Status != doctor.Fail || ws[0].Line != 2 || ws[0].Column != 23 ||
		!strings.Contains(ws[0].Message, "the agent loads none of this file's 3 hooks:") {
		t.Errorf("workspace-file %+v", ws)
	}
}

// TestDoctorLogOlderThanTheFile: a logged failure that is not the file as
// it is now (a syntax error, and the file is valid JSON; a type error at a
// field the file no longer gets wrong) is an earlier version's, never
// mapped to another finding's position.
func TestDoctorLogOlderThanTheFile(t *testing.T) {
	for name, msg := range map[string]string{
		"syntax":     "unexpected end of JSON input",
		"other type": "json: cannot unmarshal number into Go struct field handler.Stop.command of type string",
	} {
		t.Run(name, func(t *testing.T) {
			e := newDoctorEnv(t, "")
			e.write(filepath.Join(e.home, ".gemini", "antigravity-cli", "cli.log"),
				"2026-12-01T10:12:03Z WARN failed to parse hooks.json at "+e.ws+"/.agents/hooks.json: "+msg+"\n", 0o644)
			e.workspace(`{
  "gate": {
    "PreToolUse": [{"matcher": "run_command", "hooks": [{"command": "./hooks/gate.sh", "timeout": "5"}]}]
  }
}`)
			_, checks, _ := e.doctor("--offline")
			logs := find(checks, "agent-log")
			if len(logs) != 1 {
				t.Fatalf("agent-log %+v", logs)
			}
			want := ".agents/hooks.json: the agent failed to load an earlier version of this file at 2026-12-01T10:12:03Z (log line 1); it has changed since: " + msg
			if l := logs[0]; l.Status != doctor.Warn || l.Line != 0 || l.Message != want {
				t.Errorf("the log's failure %+v\nwant %q", l, want)
			}
		})
	}
	// A syntax error the file still has is mapped to it.
	e := newDoctorEnv(t, "")
	e.write(filepath.Join(e.home, ".gemini", "antigravity-cli", "cli.log"),
		"2026-12-01T10:12:03Z WARN failed to parse hooks.json at "+e.ws+"/.agents/hooks.json: unexpected end of JSON input\n", 0o644)
	e.workspace("{\n  \"gate\": {\n")
	_, checks, _ := e.doctor("--offline")
	logs := find(checks, "agent-log")
	if len(logs) != 1 || logs[0].Status != doctor.Fail || logs[0].Line == 0 || !strings.Contains(logs[0].Message, "says it failed to parse this file: unexpected end of JSON input") {
		t.Errorf("agent-log %+v", logs)
	}
}

// TestDoctorLogShowsNoEscapes: the agent's log holds what commands printed
// and what the user typed. A path with terminal escapes in a failure line
// is shown escaped, in the message and in the fix's command; the same words
// in the middle of another line (the user typed them) are not read as the
// agent's.
func TestDoctorLogShowsNoEscapes(t *testing.T) {
	e := newDoctorEnv(t, "")
	hostile := "/tmp/\x1b[2J\x1b]0;owned\x07\u202e/hooks.json"
	e.write(filepath.Join(e.home, ".gemini", "antigravity-cli", "cli.log"),
		"I1202 08:00:01.000000 4242 main.go:1] the user typed: failed to parse hooks.json at /decoy/hooks.json: boom\n"+
			"2026-12-01T10:12:03Z WARN failed to parse hooks.json at "+hostile+": unexpected end of JSON input\n"+
			"2026-12-01T10:12:04Z INFO tool output: loaded 9 named hooks from 9 hooks.json file(s)\n", 0o644)
	_, checks, text := e.doctor("--offline")
	if strings.ContainsAny(text, "\x1b\x07\u202e") {
		t.Errorf("the report holds terminal escapes:\n%q", text)
	}
	want := `[✗] agent-log      the agent's log (line 2) says it failed to parse /tmp/\x1b[2J\x1b]0;owned\x07\u202e/hooks.json: unexpected end of JSON input` + "\n" +
		`                   fix: hookctl lint '/tmp/\x1b[2J\x1b]0;owned\x07\u202e/hooks.json'` + "\n"
	if !strings.Contains(text, want) {
		t.Errorf("the report:\n%s\nwant it to hold:\n%s", text, want)
	}
	logs := find(checks, "agent-log")
	if len(logs) != 1 {
		t.Fatalf("agent-log: %+v; want the one failure", logs)
	}
	if data, _ := logs[0].Data.(map[string]any); data["file"] != hostile {
		t.Errorf("agent-log: %+v; want the one failure, of %q (json keeps it as it is)", logs, hostile)
	}
}
