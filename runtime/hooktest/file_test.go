package hooktest

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/schema"
)

func TestParseCases(t *testing.T) {
	src := `{
  "$schema": "https://hookctl.dev/schema/hooks.test.schema.json",
  "tests": [
    {"name": "shorthand", "tool": "run_command", "args": {"CommandLine": "rm -rf /"}, "payload": {"stepIdx": 4}, "expect": {"decision": "deny"}},
    {"name": "payload", "event": "PostToolUse", "payload": {"toolCall": {"name": "view_file", "args": {}}, "error": "boom"}},
    {"name": "stop", "event": "Stop", "payload": {"executionNum": 9}, "expectReason": "tests", "expectFailures": ["flaky"]},
    {"name": "no payload", "event": "PreInvocation"}
  ]
}`
	s, ps := Parse("t.json", []byte(src))
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	want := []struct {
		name    string
		event   schema.Event
		payload string
		line    int
	}{
		{"shorthand", schema.PreToolUse, `{"toolCall":{"name":"run_command","args":{"CommandLine":"rm -rf /"}},"stepIdx":4}`, 4},
		{"payload", schema.PostToolUse, `{"toolCall":{"name":"view_file","args":{}},"error":"boom"}`, 5},
		{"stop", schema.Stop, `{"executionNum":9}`, 6},
		{"no payload", schema.PreInvocation, ``, 7},
	}
	if len(s.Cases) != len(want) {
		t.Fatalf("got %d cases, want %d", len(s.Cases), len(want))
	}
	for i, w := range want {
		c := s.Cases[i]
		if c.Name != w.name || c.Event != w.event || string(c.Payload) != w.payload || c.Pos.Line != w.line || c.Pos.Col != 5 {
			t.Errorf("case %d = %q %s %s at %d:%d, want %q %s %s at %d:5", i, c.Name, c.Event, c.Payload, c.Pos.Line, c.Pos.Col, w.name, w.event, w.payload, w.line)
		}
	}
	if c := s.Cases[2]; !c.HasExpectReason || c.ExpectReason != "tests" || len(c.ExpectFailures) != 1 || c.ExpectFailures[0] != "flaky" {
		t.Errorf("stop case expects reason %q (%v), failures %v", c.ExpectReason, c.HasExpectReason, c.ExpectFailures)
	}
}

// TestParseProblems checks that every mistake is reported at its line and
// column, all at once.
func TestParseProblems(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"not JSON", "{\n  \"tests\": [,]\n}", []string{`2:13: not valid JSON`}},
		{"trailing comma", "{\"tests\": [{\"name\": \"a\", \"event\": \"Stop\"},]}", []string{`1:42: not valid JSON`}},
		{"empty file", "", []string{`1:1: not valid JSON`}},
		{"not an object", `[]`, []string{`1:1: the file must be an object`}},
		{"no tests", `{}`, []string{`1:1: no "tests"`}},
		{"tests not an array", `{"tests": {}}`, []string{`1:11: "tests" must be an array of cases, not an object`}},
		{"unknown top-level key", `{"test": []}`, []string{`1:1: no "tests"`, `1:2: unknown key "test" (did you mean "tests"?)`}},
		{"case not an object", `{"tests": ["x"]}`, []string{`1:12: a case must be an object`}},
		{"unknown event", "{\"tests\": [\n  {\"name\": \"a\", \"event\": \"PretoolUse\"}\n]}", []string{`2:26: unknown event "PretoolUse" (did you mean "PreToolUse"?)`}},
		{"no event", `{"tests": [{"name": "a"}]}`, []string{`1:12: a case without an "event"`}},
		{"no name", `{"tests": [{"event": "Stop"}]}`, []string{`1:12: a case without a "name"`}},
		{"empty name", `{"tests": [{"name": " ", "event": "Stop"}]}`, []string{`1:21: "name" is empty`}},
		{"duplicate name", "{\"tests\": [\n{\"name\": \"a\", \"event\": \"Stop\"},\n{\"name\": \"a\", \"event\": \"Stop\"}\n]}", []string{`3:10: case "a" is named twice (first at 2:1)`}},
		{"tool on a non-tool event", `{"tests": [{"name": "a", "event": "Stop", "tool": "run_command"}]}`, []string{`1:43: "tool" is for PreToolUse and PostToolUse cases: a Stop payload names no tool`}},
		{"args without tool", `{"tests": [{"name": "a", "event": "PreToolUse", "args": {}, "payload": {"toolCall": {"name": "x"}}}]}`, []string{`1:49: "args" goes with "tool"`}},
		{"tool event without a tool", `{"tests": [{"name": "a", "event": "PreToolUse"}]}`, []string{`1:12: a PreToolUse case names its tool`}},
		{"tool given twice", `{"tests": [{"name": "a", "tool": "x", "payload": {"toolCall": {"name": "y"}}}]}`, []string{`1:51: the tool call is given twice`}},
		{"unknown case key", `{"tests": [{"name": "a", "event": "Stop", "expected": {}}]}`, []string{`1:43: unknown key "expected" in a case (did you mean "expect"?)`}},
		{"unknown expect key", `{"tests": [{"name": "a", "tool": "x", "expect": {"decison": "deny"}}]}`, []string{`1:50: unknown key "decison" in expect (did you mean "decision"?)`}},
		{"not a decision", `{"tests": [{"name": "a", "tool": "x", "expect": {"decision": "dney"}}]}`, []string{`1:62: "dney" is not a decision of a merged PreToolUse answer (did you mean "deny"?)`}},
		{"PostToolUse answers {}", `{"tests": [{"name": "a", "tool": "x", "event": "PostToolUse", "expect": {"decision": "deny"}}]}`, []string{`1:74: unknown key "decision" in expect: a PostToolUse answer is always {}`}},
		{"expectReason without a reason", `{"tests": [{"name": "a", "event": "PreInvocation", "expectReason": "x"}]}`, []string{`1:52: "expectReason" is for PreToolUse and Stop`}},
		{"expectFailures not names", `{"tests": [{"name": "a", "event": "Stop", "expectFailures": [1]}]}`, []string{`1:62: "expectFailures" holds hook names, not the number 1`}},
		{"payload not an object", `{"tests": [{"name": "a", "event": "Stop", "payload": []}]}`, []string{`1:54: "payload" must be an object, not an array`}},
		{"duplicate key", `{"tests": [{"name": "a", "name": "b", "event": "Stop"}]}`, []string{`1:26: key "name" repeated (first at 1:13)`}},
		{"several cases at once", "{\"tests\": [\n{\"name\": \"a\", \"event\": \"Stpo\"},\n{\"name\": \"b\", \"event\": \"Stop\", \"tool\": \"x\"}\n]}",
			[]string{`2:24: unknown event "Stpo" (did you mean "Stop"?)`, `3:32: "tool" is for PreToolUse`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, ps := Parse("t.json", []byte(tt.src))
			if s != nil {
				t.Fatalf("Parse accepted %s", tt.src)
			}
			var got []string
			for _, p := range ps {
				got = append(got, p.Error())
			}
			if len(got) != len(tt.want) {
				t.Fatalf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			for i, w := range tt.want {
				if !strings.HasPrefix(got[i], "t.json:"+w) {
					t.Errorf("problem %d = %s\nwant prefix t.json:%s", i, got[i], w)
				}
			}
		})
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	if _, err := Load(filepath.Join(dir, "none.json")); !errors.Is(err, ErrNotFound) {
		t.Errorf("Load of a missing file: %v, want ErrNotFound", err)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"tests": [}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(bad)
	var ps Problems
	if !errors.As(err, &ps) || len(ps) != 1 || ps[0].Pos.Line != 1 || ps[0].Pos.Col != 12 {
		t.Errorf("Load of a broken file: %v", err)
	}
}

func TestWorkspaceOf(t *testing.T) {
	if got := WorkspaceOf("/w/project/.agents/hooks.test.json", "/cwd"); got != "/w/project" {
		t.Errorf("WorkspaceOf(.agents file) = %s", got)
	}
	if got := WorkspaceOf("/w/project/tests/gate.test.json", "/cwd"); got != "/cwd" {
		t.Errorf("WorkspaceOf(other file) = %s", got)
	}
}

func TestResolveFolder(t *testing.T) {
	dir := t.TempDir()
	if got := Resolve(dir); got != filepath.Join(dir, ".agents", "hooks.test.json") {
		t.Errorf("Resolve(folder) = %s", got)
	}
	if got := Resolve("x.json"); got != "x.json" {
		t.Errorf("Resolve(file) = %s", got)
	}
}
