package hooktest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/runtime"
)

// workspace writes a workspace whose gate denies rm -rf and whose "broken"
// hook fails, and returns its folder.
func workspace(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		".agents/hooks.json": `{
  "gate": {
    "PreToolUse": [{"matcher": "run_command", "hooks": [{"command": "./gate.sh"}]}]
  },
  "broken": {
    "PreToolUse": [{"matcher": "view_file", "hooks": [{"command": "echo 'cannot parse the payload' >&2; exit 3"}]}]
  }
}`,
		".agents/gate.sh": `#!/bin/sh
case "$(cat)" in
*'rm -rf'*) echo '{"decision":"deny","reason":"gate: no rm -rf"}' ;;
*) echo '{"decision":"allow"}' ;;
esac
`,
	}
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func runSuite(t *testing.T, dir, src string) []*Report {
	t.Helper()
	s, ps := Parse(filepath.Join(dir, ".agents", "hooks.test.json"), []byte(src))
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	opts := runtime.Options{Workspace: dir, Home: t.TempDir(), Env: []string{"PATH=" + os.Getenv("PATH")}}
	var out []*Report
	for _, c := range s.Cases {
		out = append(out, Run(context.Background(), c, opts))
	}
	return out
}

func TestRunDecides(t *testing.T) {
	dir := workspace(t)
	reports := runSuite(t, dir, `{"tests": [
  {"name": "deny", "tool": "run_command", "args": {"CommandLine": "rm -rf /"}, "expect": {"decision": "deny"}, "expectReason": "no rm"},
  {"name": "wrong decision", "tool": "run_command", "args": {"CommandLine": "ls"}, "expect": {"decision": "deny"}},
  {"name": "wrong reason", "tool": "run_command", "args": {"CommandLine": "rm -rf /"}, "expectReason": "sudo"},
  {"name": "unexpected failure", "tool": "view_file", "args": {"AbsolutePath": "/etc"}, "expect": {"decision": "deny"}},
  {"name": "expected failure", "tool": "view_file", "args": {"AbsolutePath": "/etc"}, "expect": {"decision": "deny"}, "expectFailures": ["broken"]},
  {"name": "failure that did not happen", "tool": "run_command", "expectFailures": ["gate", "nobody"]}
]}`)
	want := []bool{true, false, false, false, true, false}
	for i, r := range reports {
		if r.Err != nil {
			t.Fatalf("%s: %v", r.Case.Name, r.Err)
		}
		if r.Passed() != want[i] {
			t.Errorf("%s: passed = %v, want %v (answer %s, mismatches %+v, failures %d, missing %v)",
				r.Case.Name, r.Passed(), want[i], r.Answer, r.Mismatches, len(r.Failures), r.Missing)
		}
	}
	if m := reports[1].Mismatches; len(m) != 1 || m[0].Path != "decision" || m[0].Want != "deny" || m[0].Got != "allow" {
		t.Errorf("wrong decision: mismatches %+v", m)
	}
	if m := reports[2].Mismatches; len(m) != 1 || !m[0].Contains || m[0].Got != "gate: no rm -rf" || m[0].Pos.Line != 4 {
		t.Errorf("wrong reason: mismatches %+v", m)
	}
	// The gate's fail-closed deny matches expect, but the failure fails
	// the case: a crashed gate must not pass for a working one.
	if f := reports[3].Failures; len(f) != 1 || f[0].Expected || f[0].Outcome.Hook != "broken" || string(f[0].Outcome.Stderr) != "cannot parse the payload\n" {
		t.Errorf("unexpected failure: %+v", f)
	}
	if got := strings.Join(reports[5].Missing, "\n"); got != `hook "gate" was expected to fail, but it did not (answered)`+"\n"+
		`hook "nobody" was expected to fail, but no handler of it ran for this PreToolUse` {
		t.Errorf("missing failures:\n%s", got)
	}
}

var durations = regexp.MustCompile(`\(\d+(\.\d+)?m?s\)`)

func TestTextPrinter(t *testing.T) {
	dir := workspace(t)
	reports := runSuite(t, dir, `{"tests": [
  {"name": "deny", "tool": "run_command", "args": {"CommandLine": "rm -rf /"}, "expect": {"decision": "deny"}},
  {"name": "allow rm", "tool": "run_command", "args": {"CommandLine": "rm -rf /"},
   "expect": {"decision": "allow", "reason": null}},
  {"name": "view", "tool": "view_file", "args": {"AbsolutePath": "/etc"}, "expect": {"decision": "deny"}}
]}`)
	var b bytes.Buffer
	p := &TextPrinter{W: &b, Dir: dir}
	passed, failed := 0, 0
	for _, r := range reports {
		if err := p.Case(r); err != nil {
			t.Fatal(err)
		}
		if r.Passed() {
			passed++
		} else {
			failed++
		}
	}
	if err := p.Summary(passed, failed); err != nil {
		t.Fatal(err)
	}
	got := strings.ReplaceAll(durations.ReplaceAllString(b.String(), "(T)"), filepath.Join(dir, ".agents", "hooks.test.json"), "T.json")
	want := `ok   deny (T)
FAIL allow rm (T)
    T.json:4:27: decision
        want: "allow"
        got:  "deny"
    T.json:4:46: reason
        want: null
        got:  "gate: no rm -rf"
    answer: {"decision":"deny","reason":"gate: no rm -rf"}
    hook "gate" answered {"decision":"deny","reason":"gate: no rm -rf"} (.agents/hooks.json:3:57)
FAIL view (T)
    answer: {"decision":"deny","reason":"hook broken failed: exit status 3: cannot parse the payload"}
    hook "broken" failed: exit status 3: cannot parse the payload (.agents/hooks.json:6:55)
        stderr:
        | cannot parse the payload
1 passed, 2 failed
`
	if got != want {
		t.Errorf("text report:\n%s\nwant:\n%s", got, want)
	}
}

func TestJSONReport(t *testing.T) {
	dir := workspace(t)
	reports := runSuite(t, dir, `{"tests": [
  {"name": "allow rm", "tool": "run_command", "args": {"CommandLine": "rm -rf /"}, "expect": {"decision": "allow"}}
]}`)
	j := reports[0].JSON()
	j.DurationMs = 0
	b, err := json.Marshal(j)
	if err != nil {
		t.Fatal(err)
	}
	file, _ := json.Marshal(filepath.Join(dir, ".agents", "hooks.test.json"))
	want := `{"name":"allow rm","file":` + string(file) + `,"line":2,"column":3,"event":"PreToolUse","passed":false,"durationMs":0,` +
		`"answer":{"decision":"deny","reason":"gate: no rm -rf"},` +
		`"mismatches":[{"path":"decision","line":2,"column":107,"want":"allow","got":"deny","missing":false,"contains":false}],` +
		`"failures":[],"missingFailures":[],"notes":[]}`
	if string(b) != want {
		t.Errorf("JSON report:\n%s\nwant:\n%s", b, want)
	}
}

// TestRunSetsHookctlTest checks that the handlers of a case see
// HOOKCTL_TEST=1, whatever the caller's environment holds, so that a hook
// with side effects can leave them out under test.
func TestRunSetsHookctlTest(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "hooks.json")
	src := `{"seen": {"Stop": [{"command": "printf '{\"decision\":\"continue\",\"reason\":\"HOOKCTL_TEST=%s\"}' \"$HOOKCTL_TEST\""}]}}`
	if err := os.WriteFile(config, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	s, ps := Parse(filepath.Join(dir, "hooks.test.json"), []byte(`{"tests": [{"name": "stop", "event": "Stop"}]}`))
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	for _, env := range [][]string{
		{"PATH=" + os.Getenv("PATH")},
		{"PATH=" + os.Getenv("PATH"), "HOOKCTL_TEST=0"},
	} {
		r := Run(context.Background(), s.Cases[0], runtime.Options{Configs: []string{config}, Workspace: dir, Home: dir, Env: env})
		if r.Err != nil || string(r.Answer) != `{"decision":"continue","reason":"HOOKCTL_TEST=1"}` {
			t.Errorf("env %q: answer %s (%v)", env, r.Answer, r.Err)
		}
	}
}

// TestJSONReportAdd counts the passed and failed cases and keeps each
// case's report in order; WriteJSON writes the object test --format json
// prints, without escaping what HTML would.
func TestJSONReportAdd(t *testing.T) {
	s, problems := Parse("t/hooks.test.json", []byte(`{"tests": [{"name": "a<b", "event": "Stop"}, {"name": "c", "event": "Stop"}]}`))
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	var j JSONReport
	j.Add(&Report{Case: s.Cases[0], Answer: json.RawMessage(`{}`)})
	j.Add(&Report{Case: s.Cases[1], Err: errors.New("no dispatch")})
	if j.Passed != 1 || j.Failed != 1 || len(j.Cases) != 2 || j.Cases[0].Name != "a<b" || j.Cases[1].Error != "no dispatch" {
		t.Fatalf("%+v", j)
	}
	var b bytes.Buffer
	if err := j.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), "{\n  \"cases\": [\n    {\n      \"name\": \"a<b\",\n      \"file\": \"t/hooks.test.json\",") ||
		!strings.HasSuffix(b.String(), "  \"passed\": 1,\n  \"failed\": 1\n}\n") {
		t.Errorf("wrote:\n%s", b.String())
	}
}
