package agy

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestAgentOutputs(t *testing.T) {
	for out, want := range map[string]string{
		`{"hooks": [{"name": "a"}, {"name": "b"}]}`:  "a b",
		"banner\n{\"result\": {\"Hooks\": [\"a\"]}}": "a",
		`{"hooks": []}`: "",
		`[{"plugin": {"hooks": [{"name": "p", "x": 1}]}}]`: "p",
	} {
		names, ok := Hooks(out)
		if !ok || strings.Join(names, " ") != want {
			t.Errorf("Hooks(%q) = %q, %v; want %q", out, names, ok, want)
		}
	}
	for _, out := range []string{"", "no json here", `{"response": "none"}`, "{broken"} {
		if _, ok := Hooks(out); ok {
			t.Errorf("Hooks(%q) read a list", out)
		}
	}
	for out, want := range map[string]string{"agy 1.2.7": "1.2.7", "Antigravity CLI v1.1.27 (abc)": "1.1.27", "dev": ""} {
		v, ok := ParseVersion(out)
		if ok != (want != "") || v.Text != want {
			t.Errorf("ParseVersion(%q) = %q", out, v.Text)
		}
	}
	v, _ := ParseVersion("1.1.27")
	if !v.AtLeast("1.1.27") || v.AtLeast("1.2.0") {
		t.Errorf("atLeast")
	}
}

func TestAgentLogForms(t *testing.T) {
	modified := time.Date(2026, 12, 3, 12, 0, 0, 0, time.Local)
	l := ParseLog(strings.Join([]string{
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

// TestAgentLogLinesPastTheTail checks that a log longer than what doctor
// reads names its lines as an editor numbers them, and that the line cut
// where the read starts is not taken for a whole one.
func TestAgentLogLinesPastTheTail(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cli.log")
	var b strings.Builder
	line := "I1202 08:00:00.000000 4242 main.go:1] some other line of the agent's work\n"
	for b.Len() < MaxLogTail+1<<20 {
		b.WriteString(line)
	}
	// The read of the last MaxLogTail bytes starts inside this line, whose
	// end, read alone, would be a plugin's failure.
	cutLine := "I1202 08:00:01.000000 4242 main.go:1] the user typed: " + strings.Repeat("x", 200) + "W1202 08:00:00.250000 4242 hooks.go:73] Failed to parse hooks for plugin decoy: bad\n"
	tail := "I1202 08:00:02.000000 4242 hooks.go:95] loaded 3 named hooks from 2 hooks.json file(s)\n" +
		"2026-12-01T10:12:03Z WARN failed to parse hooks.json at /w/.agents/hooks.json: unexpected end of JSON input\n"
	pad := MaxLogTail - len(tail) - 60 // the read starts 60 bytes before cutLine's end
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
	l, err := ReadLog(path)
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
	if got := l.Line(l.FailedLine); got != fmt.Sprintf("line %d", total) {
		t.Errorf("named %q", got)
	}
	// Past maxLogCount, lines are named within the tail read.
	l.Tail = MaxLogTail
	if got := l.Line(7); got != "line 7 of its last 4 MiB" {
		t.Errorf("named %q within the tail", got)
	}
	if l.LineData(7) != nil {
		t.Errorf("--json gave a line counted within the tail")
	}
}

// TestLoggedField reads the last field name out of each shape of
// encoding/json's path, in both forms of its message.
func TestLoggedField(t *testing.T) {
	for msg, want := range map[string]string{
		"json: cannot unmarshal string into Go struct field handler.timeout of type int":                    "timeout",
		"json: cannot unmarshal string into Go struct field handler.PreToolUse.hooks.timeout of type int":   "timeout",
		"json: cannot unmarshal string into Go struct field .gate.PreToolUse.0.hooks.0.timeout of type int": "timeout",
		"json: cannot unmarshal string into .block-dangerous.PreToolUse.0 of type main.group":               "PreToolUse",
		"json: cannot unmarshal array into Go struct field .gate of type main.hook":                         "",
		"json: cannot unmarshal array into Go value of type main.hook":                                      "",
	} {
		m := goTypeError().FindStringSubmatch(msg)
		if m == nil {
			t.Errorf("%q is not read as a type error", msg)
			continue
		}
		if got := loggedField(m[3] + m[4]); got != want {
			t.Errorf("%q: field %q, want %q", msg, got, want)
		}
	}
}

// TestFolderTrust: the most specific entry decides, TRUST_PARENT covers
// the folder that holds the path, and what is not a JSON object is said.
func TestFolderTrust(t *testing.T) {
	src := []byte(`{"/w": "TRUST_FOLDER", "/w/p/x": "TRUST_PARENT", "/w/p/no": "DO_NOT_TRUST", "/z": 7}`)
	for dir, want := range map[string]string{
		"/w/a":      Trusted + " /w: TRUST_FOLDER",
		"/w/p/y":    Trusted + " /w/p/x: TRUST_PARENT",
		"/w/p/no/s": Untrusted + " /w/p/no: DO_NOT_TRUST",
		"/z":        " ",
		"/wx":       " ",
	} {
		decision, rule, ok := FolderTrust(src, filepath.FromSlash(dir))
		if got := decision + " " + rule; !ok || got != want {
			t.Errorf("FolderTrust(%s) = %q, %v; want %q", dir, got, ok, want)
		}
	}
	if _, _, ok := FolderTrust([]byte(`["/w"]`), "/w"); ok {
		t.Errorf("an array was read as folders")
	}
}
