package lint

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/schema"
)

// copyMistakes copies examples/mistakes into a temporary workspace and
// returns its root.
func copyMistakes(t *testing.T) string {
	t.Helper()
	return copyTree(t, filepath.Join("..", "examples", "mistakes"))
}

func fixWorkspace(t *testing.T, ws string, disable ...string) FixedFile {
	t.Helper()
	req, err := NewRequest([]string{ws}, "")
	if err != nil {
		t.Fatal(err)
	}
	req.Disable = disable
	fixed, err := FixFiles(req)
	if err != nil {
		t.Fatal(err)
	}
	if len(fixed) != 1 {
		t.Fatalf("%d files fixed, want 1", len(fixed))
	}
	return fixed[0]
}

// TestFixMistakes fixes examples/mistakes: every byte the fixes were not
// asked to change stays, and fixing the result again changes nothing.
func TestFixMistakes(t *testing.T) {
	ws := copyMistakes(t)
	ff := fixWorkspace(t, ws)
	want := strings.NewReplacer(
		`"Bash|browser_*"`, `"run_command|browser_.*"`,
		`python3 .agents/hooks/guard.py`, `python3 hooks/guard.py`,
		`"timeout": 5000`, `"timeout": 5`,
		`"enabled": "false"`, `"enabled": false`,
		`"PreInvocaton"`, `"PreInvocation"`,
	).Replace(string(ff.Before))
	if string(ff.After) != want {
		t.Errorf("fixed:\n%s\nwant:\n%s", ff.After, want)
	}
	if ff.Fixes != 6 {
		t.Errorf("%d fixes applied, want 6", ff.Fixes)
	}
	path := filepath.Join(ws, ".agents", "hooks.json")
	if err := os.WriteFile(path, ff.After, 0o644); err != nil {
		t.Fatal(err)
	}
	again := fixWorkspace(t, ws)
	if again.Changed() || again.Fixes != 0 {
		t.Errorf("a second --fix changed the file (%d fixes):\n%s", again.Fixes, again.After)
	}
	res, err := Lint(Request{Files: []Target{{Path: path, Name: ".agents/hooks.json", Root: ws}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) > 0 {
		t.Errorf("findings left after --fix:\n%s", formatFindings(res.Findings))
	}
}

// TestFixHonoursRuleChoice: a rule turned off, by --disable or by
// .hookctl.json, never has its fix applied.
func TestFixHonoursRuleChoice(t *testing.T) {
	ws := copyMistakes(t)
	ff := fixWorkspace(t, ws, "timeout-value", "foreign-tool")
	if !bytes.Contains(ff.After, []byte(`"timeout": 5000`)) || !bytes.Contains(ff.After, []byte(`"Bash|browser_.*"`)) {
		t.Errorf("--disable timeout-value --disable foreign-tool: want 5000 and Bash kept, the glob fixed:\n%s", ff.After)
	}
	cfg := `{"lint": {"disable": ["enabled-type"], "severity": {"unknown-event": "off"}}}`
	if err := os.WriteFile(filepath.Join(ws, ".hookctl.json"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	ff = fixWorkspace(t, ws)
	if !bytes.Contains(ff.After, []byte(`"enabled": "false"`)) || !bytes.Contains(ff.After, []byte(`"PreInvocaton"`)) {
		t.Errorf(".hookctl.json turns off enabled-type and unknown-event: fixed anyway:\n%s", ff.After)
	}
	if !bytes.Contains(ff.After, []byte(`"timeout": 5}`)) {
		t.Errorf("timeout-value still runs: not fixed:\n%s", ff.After)
	}
}

// TestFixes: the fix of each kind of mistake, and the mistakes whose fix
// is not certain, which have none.
func TestFixes(t *testing.T) {
	ws := newWorkspace(t)
	path := filepath.Join(ws, ".agents", "hooks.json")
	tool := func(matcher string) string {
		return `{"g": {"PreToolUse": [{"matcher": "` + matcher + `", "hooks": [{"command": "true"}]}]}}`
	}
	stop := func(handler string) string { return `{"g": {"Stop": [` + handler + `]}}` }
	for _, c := range []struct{ name, src, want string }{
		{"trailing commas", "{\"g\": {\"Stop\": [{\"command\": \"true\",},],},}", `{"g": {"Stop": [{"command": "true"}]}}`},
		{"enabled string", `{"g": {"enabled": "true", "Stop": []}}`, `{"g": {"enabled": true, "Stop": []}}`},
		{"timeout string", stop(`{"command": "true", "timeout": "10"}`), stop(`{"command": "true", "timeout": 10}`)},
		{"timeout float", stop(`{"command": "true", "timeout": 10.0}`), stop(`{"command": "true", "timeout": 10}`)},
		{"timeout fraction", stop(`{"command": "true", "timeout": 1.5}`), ""},
		{"timeout milliseconds", stop(`{"command": "true", "timeout": 30000}`), stop(`{"command": "true", "timeout": 30}`)},
		{"timeout string of milliseconds", stop(`{"command": "true", "timeout": "5000"}`), stop(`{"command": "true", "timeout": 5}`)},
		{"timeout not whole seconds", stop(`{"command": "true", "timeout": 1500}`), ""},
		{"timeout in hours", stop(`{"command": "true", "timeout": 3600}`), ""},
		{"timeoutMs", stop(`{"command": "true", "timeoutMs": 5000}`), stop(`{"command": "true", "timeout": 5}`)},
		{"timeoutMs not whole", stop(`{"command": "true", "timeoutMs": 2500}`), ""},
		{"timeoutMs beside timeout", stop(`{"command": "true", "timeout": 5, "timeoutMs": 5000}`), ""},
		{"cmd", stop(`{"cmd": "true"}`), stop(`{"command": "true"}`)},
		{"matchers", `{"g": {"PreToolUse": [{"matchers": ["run_command", "view_file"], "hooks": [{"command": "true"}]}]}}`,
			`{"g": {"PreToolUse": [{"matcher": "run_command|view_file", "hooks": [{"command": "true"}]}]}}`},
		{"tools of another agent", `{"g": {"PreToolUse": [{"tools": ["Bash"], "hooks": [{"command": "true"}]}]}}`,
			`{"g": {"PreToolUse": [{"matcher": "run_command", "hooks": [{"command": "true"}]}]}}`},
		{"matchers not strings", `{"g": {"PreToolUse": [{"matchers": [1], "hooks": [{"command": "true"}]}]}}`, ""},
		{"comand", stop(`{"comand": "true"}`), stop(`{"command": "true"}`)},
		{"key case", stop(`{"Command": "true"}`), stop(`{"command": "true"}`)},
		{"key case overridden", stop(`{"command": "a", "Command": "true"}`), ""},
		{"event case", `{"g": {"PretoolUse": []}}`, `{"g": {"PreToolUse": []}}`},
		{"event spelling", `{"g": {"pre_tool_use": []}}`, `{"g": {"PreToolUse": []}}`},
		{"event typo", `{"g": {"PreInvocaton": []}}`, `{"g": {"PreInvocation": []}}`},
		{"gemini event", `{"g": {"BeforeTool": []}}`, `{"g": {"PreToolUse": []}}`},
		{"event that differs", `{"g": {"UserPromptSubmit": []}}`, ""},
		{"event beside itself", `{"g": {"PreToolUse": [], "pre_tool_use": []}}`, ""},
		{"glob", tool(`browser_*`), tool(`browser_.*`)},
		{"tool case", tool(`Run_Command`), tool(`run_command`)},
		{"tool misspelt", tool(`run_comand`), ""},
		{"claude tool", tool(`Bash|view_file`), tool(`run_command|view_file`)},
		{"claude tool for several", tool(`Edit`), tool(`replace_file_content`)},
		{"claude tools grouped", tool(`^(Write|Read)$`), tool(`^(write_to_file|view_file)$`)},
		{"claude tool with a glob star", tool(`Write*`), tool(`write_to_file`)},
		{"claude tools with glob stars", tool(`Edit*|Bash*|view_file`), tool(`replace_file_content|run_command|view_file`)},
		{"codex tool with a glob star", tool(`run_command|apply_patch*`), tool(`run_command|write_to_file|replace_file_content|multi_replace_file_content`)},
		{"glob star after a tool of no equivalent", tool(`NotebookEdit*`), ""},
		{"script from the root", stop(`{"command": "python3 .agents/hooks/check.py"}`), ""},
		{"comment after a value", "{\"g\": {} // x\n}", "{\"g\": {}\n}"},
		{"comment on its own line", "{\n  // x\r\n  \"g\": {}\n}", "{\n  \"g\": {}\n}"},
		{"comment before a value", "{\"g\": /* x */ {}}", "{\"g\": {}}"},
		{"comments side by side", "{\n  /* a */ /* b */\n  \"g\": {}\n}", "{\n  \"g\": {}\n}"},
		{"comment over lines", "{\n  /* a\n     b */\n  \"g\": {}\n}", "{\n  \"g\": {}\n}"},
		{"hash comment", "# hooks\n{\"g\": {}}\n", "{\"g\": {}}\n"},
		{"comment at the end", "{\"g\": {}}\n// end", "{\"g\": {}}\n"},
		{"comment and trailing comma", "{\n  \"g\": {}, // x\n}", "{\n  \"g\": {}\n}"},
		{"byte order mark", "\xEF\xBB\xBF{\"g\": {}}", "{\"g\": {}}"},
		{"no fix for a missing comma", "{\"g\": {}\n\"h\": {}}", ""},
		{"no fix for single quotes", "{'g': {}}", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			want := c.want
			if want == "" {
				want = c.src
			}
			got, _, _, err := fixSource(Target{Path: path, Name: ".agents/hooks.json", Root: ws}, mustChoice(t), nil, []byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != want {
				t.Errorf("fixed %s\ninto %s\nwant %s", c.src, got, want)
			}
		})
	}
}

// TestGlobStarOfAnotherAgentsTool: "Write*" is two mistakes, another
// agent's tool and a glob star, which one edit corrects; each rule's
// finding keeps its hint, the fix rides on foreign-tool's and, when that
// rule is off, on matcher-no-tool's.
func TestGlobStarOfAnotherAgentsTool(t *testing.T) {
	ws := newWorkspace(t)
	target := Target{Path: filepath.Join(ws, ".agents", "hooks.json"), Name: ".agents/hooks.json", Root: ws}
	src := `{"g": {"PreToolUse": [{"matcher": "Write*", "hooks": [{"command": "true"}]}]}}`
	want := `{"g": {"PreToolUse": [{"matcher": "write_to_file", "hooks": [{"command": "true"}]}]}}`
	fs := LintSource(target, []byte(src))
	var got []string
	for _, f := range fs {
		got = append(got, fmt.Sprintf("%s %s fix=%v", f.Rule, f.Message, f.Fix != nil))
	}
	wantFindings := []string{
		`foreign-tool "Write" is a Claude Code and Cursor tool, which this agent does not have: write "write_to_file" fix=true`,
		`matcher-no-tool "Write*" matches no tool: a matcher is a regular expression, not a glob, so * repeats the character before it, and "Write" is another agent's tool: write "write_to_file" fix=false`,
	}
	if strings.Join(got, "\n") != strings.Join(wantFindings, "\n") {
		t.Errorf("findings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantFindings, "\n"))
	}
	if fx := fs[0].Fix; fx == nil || fx.Description != `write "write_to_file" for "Write*"` || fx.Edits[0].Span.End.Offset-fx.Edits[0].Span.Start.Offset != len("Write*") {
		t.Errorf("fix %+v", fs[0].Fix)
	}
	for _, disable := range [][]string{nil, {"foreign-tool"}, {"matcher-no-tool"}} {
		choice, err := NewChoice(nil, nil, disable)
		if err != nil {
			t.Fatal(err)
		}
		got, n, _, err := fixSource(target, choice, nil, []byte(src))
		if err != nil || string(got) != want || n != 1 {
			t.Errorf("without %v: %d fixes (%v):\n%s\nwant\n%s", disable, n, err, got, want)
		}
	}
}

func mustChoice(t *testing.T) *Choice {
	t.Helper()
	c, err := NewChoice(nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestNonOverlapping: fixes whose edits clash wait for the next pass.
func TestNonOverlapping(t *testing.T) {
	at := func(from, to int) *Fix {
		return &Fix{Edits: []Edit{{Span: schema.Span{Start: schema.Pos{Offset: from, Line: 1, Col: from + 1}, End: schema.Pos{Offset: to, Line: 1, Col: to + 1}}, Text: "x"}}}
	}
	fs := []Finding{
		{Rule: "a", Fix: at(0, 3)},
		{Rule: "b", Fix: at(2, 4)}, // overlaps a
		{Rule: "c", Fix: at(3, 5)}, // touches a
		{Rule: "d", Fix: at(5, 5)}, // inserts where c ends
		{Rule: "e", Fix: at(4, 4)}, // inserts inside c
		{Rule: "f", Fix: at(9, 12)},
		{Rule: "g"},
	}
	var got []string
	for _, f := range NonOverlapping([]byte("0123456789"), fs) {
		got = append(got, f.Rule)
	}
	if strings.Join(got, " ") != "a c d" {
		t.Errorf("picked %v, want [a c d] (f ends outside the text)", got)
	}
	out, n := ApplyFixes([]byte("0123456789"), fs)
	if string(out) != "xxx56789" || n != 3 {
		t.Errorf("applied %d fixes: %q", n, out)
	}
}

// FuzzFix fixes arbitrary bytes and lints the result: no panic, valid JSON
// stays valid, and once the passes settle, fixing again changes nothing.
func FuzzFix(f *testing.F) {
	for _, dir := range []string{"ok", "err", "printer"} {
		files, _ := filepath.Glob(filepath.Join("testdata", dir, "*.json"))
		for _, file := range files {
			if b, err := os.ReadFile(file); err == nil {
				f.Add(b)
			}
		}
	}
	if b, err := os.ReadFile(filepath.Join("..", "examples", "mistakes", ".agents", "hooks.json")); err == nil {
		f.Add(b)
	}
	ws := f.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, ".agents"), 0o755); err != nil {
		f.Fatal(err)
	}
	t := Target{Path: filepath.Join(ws, ".agents", "hooks.json"), Name: ".agents/hooks.json", Root: ws}
	choice, err := NewChoice(nil, nil, nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(tt *testing.T, src []byte) {
		got, _, done, err := fixSource(t, choice, nil, src)
		if err != nil {
			return // refused: the fixes would break the file
		}
		if schema.Parse(t.Path, src).Syntax == nil && schema.Parse(t.Path, got).Syntax != nil {
			tt.Fatalf("fixing valid JSON made it invalid:\n%s\n->\n%s", src, got)
		}
		checkFindings(tt, got, LintSource(t, got))
		if !done {
			return
		}
		again, n, _, err := fixSource(t, choice, nil, got)
		if err != nil || n != 0 || !bytes.Equal(again, got) {
			tt.Fatalf("fixing twice changed it (%d fixes, %v):\n%s\n->\n%s", n, err, got, again)
		}
	})
}

// TestTrailingCommasAtOnce: every trailing comma is a finding of its own,
// at its line and column, with the fix that removes it; one pass of --fix
// removes them all.
func TestTrailingCommasAtOnce(t *testing.T) {
	src := "{\n  \"g\": {\"Stop\": [{\"command\": \"true\",},],},\n  \"h\": {\"Stop\": [],},\n}\n"
	ws := newWorkspace(t)
	target := Target{Path: filepath.Join(ws, ".agents", "hooks.json"), Name: ".agents/hooks.json", Root: ws}
	var at []string
	for _, f := range LintSource(target, []byte(src)) {
		if f.Rule != "json-syntax" {
			continue
		}
		if f.Fix == nil || len(f.Fix.Edits) != 1 || f.Fix.Description != "remove the trailing comma" {
			t.Fatalf("%s: fix %+v", f, f.Fix)
		}
		e := f.Fix.Edits[0]
		at = append(at, e.Span.Start.String()+"-"+e.Span.End.String())
		if src[e.Span.Start.Offset] != ',' || e.Span.End.Offset != e.Span.Start.Offset+1 || e.Span.Start != f.Span.Start {
			t.Errorf("edit at %v is not the comma of %s", e.Span.Start, f)
		}
	}
	if got, want := strings.Join(at, " "), "2:36-2:37 2:38-2:39 2:40-2:41 3:19-3:20 3:21-3:22"; got != want {
		t.Errorf("edits at %s, want %s", got, want)
	}
	got, n, done, err := fixSource(target, mustChoice(t), nil, []byte(src))
	want := "{\n  \"g\": {\"Stop\": [{\"command\": \"true\"}]},\n  \"h\": {\"Stop\": []}\n}\n"
	if err != nil || string(got) != want || n != 5 || !done {
		t.Errorf("fixed (%d fixes, done %v, %v):\n%s\nwant:\n%s", n, done, err, got, want)
	}
}

// TestFixTableOfDocs holds the table of docs/rules.md ("Fixes") to the
// rules whose findings carry a fix on the files of testdata/err and
// examples/mistakes.
func TestFixTableOfDocs(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile(docsFile)
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(doc), "\n## Fixes\n")
	section, _, _ = strings.Cut(section, "\n## ")
	listed := map[string]bool{}
	for _, line := range strings.Split(section, "\n") {
		if rule, ok := strings.CutPrefix(line, "| `"); ok {
			rule, _, _ = strings.Cut(rule, "`")
			listed[rule] = true
		}
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "err", "*.json"))
	files = append(files, filepath.Join("..", "examples", "mistakes", ".agents", "hooks.json"))
	fixing := map[string]bool{}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range lintInWorkspace(t, newWorkspace(t), src) {
			if f.Fix != nil {
				fixing[f.Rule] = true
			}
		}
	}
	for rule := range fixing {
		if !listed[rule] {
			t.Errorf("rules.md: the table of fixes leaves out %s, whose findings carry one", rule)
		}
	}
	for rule := range listed {
		if !fixing[rule] {
			t.Errorf("rules.md: the table of fixes lists %s, but no finding of testdata/err carries its fix", rule)
		}
	}
}
