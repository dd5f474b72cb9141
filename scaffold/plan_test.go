package scaffold

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/scope"
	"github.com/hookctl/hookctl/templates"
)

func write(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}

// planFor plans opts over the scope's hooks.json, read as hookctl init
// reads it (Tx.Load): through the bounds first, so that a file whose link
// leads out is refused as a write would be, before a read refuses it.
func planFor(t *testing.T, opts Options) (*Plan, error) {
	t.Helper()
	path := ConfigPath(opts.Scope, opts.Dir, opts.Home)
	x, err := LoadExisting(path)
	if err != nil {
		if b, berr := NewBounds(opts.Scope, opts.Dir, opts.Home); berr == nil {
			if _, cerr := b.Check(path); cerr != nil {
				return nil, cerr
			}
		}
		return nil, err
	}
	opts.Fill(x)
	return NewPlan(opts, x)
}

// apply writes a plan as hookctl init does: under the lock of its folders,
// all or nothing.
func apply(t *testing.T, opts Options, p *Plan) error {
	t.Helper()
	tx, err := Begin(context.Background(), opts)
	if err != nil {
		return err
	}
	defer tx.Close()
	if err := p.Apply(tx); err != nil {
		return err
	}
	tx.Commit()
	return nil
}

func TestPlanKeepsTheExistingFile(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, ".agents", "hooks.json")
	orig := "{\n\t\"audit\": {\"PostToolUse\": [{\"hooks\": [{\"command\": \"./a.sh\"}]}]}\n}"
	write(t, config, orig, 0o600)
	opts := Options{Answers: Answers{Scope: Workspace, Template: "notify"}, Dir: dir}
	p, err := planFor(t, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := apply(t, opts, p); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(config)
	want := orig[:len(orig)-2] + ",\n\t\"notify\": {\n\t\t\"Stop\": [\n\t\t\t{\n\t\t\t\t\"type\": \"command\",\n\t\t\t\t\"command\": \"./hooks/notify.sh\",\n\t\t\t\t\"timeout\": 10\n\t\t\t}\n\t\t]\n\t}\n}"
	if string(got) != want {
		t.Errorf("hooks.json:\n%s\nwant:\n%s", got, want)
	}
	if fi, _ := os.Stat(config); fi.Mode().Perm() != 0o600 {
		t.Errorf("hooks.json's mode is now %v, want it kept at 0600", fi.Mode().Perm())
	}
}

func TestPlanRefusesWithoutWriting(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, ".agents", "hooks.json")
	script := filepath.Join(dir, ".agents", "hooks", "reminder.sh")
	write(t, config, `{"reminder-old": {}}`, 0o644)
	write(t, script, "#!/bin/sh\necho mine\n", 0o755)

	_, err := planFor(t, Options{Answers: Answers{Scope: Workspace, Template: "reminder"}, Dir: dir})
	if err == nil || !strings.Contains(err.Error(), "already exists: pass --force") {
		t.Fatalf("an existing script gives %v", err)
	}
	p, err := planFor(t, Options{Answers: Answers{Scope: Workspace, Template: "reminder"}, Dir: dir, Force: true})
	if err != nil {
		t.Fatal(err)
	}
	if !p.Overwrite {
		t.Error("Overwrite is not set")
	}

	x, _ := LoadExisting(config)
	for _, a := range []Answers{
		{Scope: Workspace, Name: "reminder-old", Event: schema.PreInvocation, Template: "reminder", Lang: "sh", Timeout: 5},
		{Scope: Workspace, Name: "x", Event: schema.Stop, Template: "reminder", Lang: "sh", Timeout: 5},
		{Scope: Workspace, Name: "x", Event: schema.Stop, Template: "notify", Lang: "sh", Timeout: 5, Matcher: "run_command", MatcherSet: true},
		{Scope: Workspace, Name: "x", Event: schema.PreToolUse, Template: "block-dangerous", Lang: "sh", Timeout: 5, Matcher: "(run", MatcherSet: true},
		{Scope: Workspace, Name: "x", Event: schema.Stop, Template: "notify", Lang: "rb", Timeout: 5},
		{Scope: Workspace, Name: "PreToolUse", Event: schema.Stop, Template: "notify", Lang: "sh", Timeout: 5},
	} {
		if _, err := NewPlan(Options{Answers: a, Dir: dir}, x); err == nil {
			t.Errorf("%+v is accepted", a)
		}
	}
	if got, _ := os.ReadFile(script); string(got) != "#!/bin/sh\necho mine\n" {
		t.Errorf("the script changed")
	}

	write(t, config, "{\"a\": {},}", 0o644)
	_, err = LoadExisting(config)
	if err == nil || !strings.Contains(err.Error(), config+":1:9: ") {
		t.Errorf("a broken hooks.json gives %v, want its file:line:col", err)
	}
	write(t, config, "[1]", 0o644)
	if _, err = LoadExisting(config); err == nil || !strings.Contains(err.Error(), "not an object") {
		t.Errorf("an array gives %v", err)
	}
}

func TestPlanUserScope(t *testing.T) {
	dir, home := t.TempDir(), t.TempDir()
	opts := Options{Answers: Answers{Scope: User, Template: "audit-log", Lang: "py"}, Dir: dir, Home: home}
	p, err := planFor(t, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := apply(t, opts, p); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{".gemini/config/hooks.json", ".gemini/config/hooks/audit-log.py", ".gemini/config/hooks.test.json"} {
		if _, err := os.Stat(filepath.Join(home, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("the workspace got %d entries", len(entries))
	}
}

func TestFillTakesAFreeName(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, ".agents", "hooks.json"), `{"notify": {}, "notify-2": {}}`, 0o644)
	x, err := LoadExisting(filepath.Join(dir, ".agents", "hooks.json"))
	if err != nil {
		t.Fatal(err)
	}
	a := Answers{Event: schema.Stop, Template: "notify"}
	a.Fill(x)
	if a.Name != "notify-3" || a.Scope != Workspace || a.Lang != "sh" || a.Timeout != 10 || a.MatcherSet {
		t.Errorf("filled %+v", a)
	}
	a = Answers{}
	a.Fill(x)
	if a.Event != schema.PreToolUse || a.Template != "block-dangerous" || a.Matcher != "run_command" {
		t.Errorf("defaults %+v", a)
	}
	if m := (&Answers{Template: "notify"}).Missing(); strings.Join(m, " ") != "--scope --name --lang --timeout" {
		t.Errorf("missing %v", m)
	}
	if m := (&Answers{}).Missing(); strings.Join(m, " ") != "--scope --name --event --template --matcher --lang --timeout" {
		t.Errorf("missing %v", m)
	}
}

func TestCaseForFollowsTheMatcher(t *testing.T) {
	tmpl, _ := templates.Lookup("protect-paths")
	c := CaseFor(tmpl, Answers{Name: "g", Event: schema.PreToolUse, Matcher: "write_to_file"})
	if c.Name != "g: denies writing into .git/" {
		t.Errorf("case %q", c.Name)
	}
	c = CaseFor(tmpl, Answers{Name: "g", Event: schema.PreToolUse, Matcher: "ask_question"})
	if c.Name != "g: answers a ask_question call" || c.Expect["decision"] != "ask" {
		t.Errorf("case %+v", c)
	}
	// A matcher of no documented tool (an MCP server's) gets a name it
	// selects.
	c = CaseFor(tmpl, Answers{Name: "g", Event: schema.PreToolUse, Matcher: "mcp_github_(issue|pr)_.*"})
	if call, _ := c.Payload["toolCall"].(schema.ToolCall); c.Name != "g: answers a mcp_github_issue_x call" || call.Name != "mcp_github_issue_x" {
		t.Errorf("case %+v", c)
	}
	if c := CaseFor(tmpl, Answers{Name: "g", Event: schema.PreToolUse, Matcher: "a^b"}); c != nil {
		t.Errorf("a matcher of no name gives %+v", c)
	}
}

func TestSampleTool(t *testing.T) {
	for _, tc := range []struct{ matcher, want string }{
		{"", "view_file"},
		{"*", "view_file"},
		{"run_command", "run_command"},
		{"foo|run_command", "run_command"},
		{"browser_.*", "browser_subagent"},
		{"mcp__github__.*", "mcp__github__x"},
		{"mcp_[a-z]+_(read|write)", "mcp_x_read"},
		{"(?i)MCP_A{2,3}", "MCP_AA"},
		{"tool[0-9]?", "tool"},
		{"x*", "x"},
		{"a^b", ""},
		{"(", ""},
	} {
		got, ok := SampleTool(tc.matcher)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("SampleTool(%q) = %q, %v; want %q", tc.matcher, got, ok, tc.want)
		}
	}
}

func TestValidateMatcher(t *testing.T) {
	for _, tc := range []struct{ matcher, err, suggestion string }{
		{"run_command|view_file", "", ""},
		{"mcp_files_.*", "", ""},
		{"Bash", `"Bash" is a Claude Code tool, which this agent does not have: write "run_command"`, "run_command"},
		{"Edit|Write|browser_*", `"Write" is a Claude Code and Cursor tool`, "replace_file_content|write_to_file|browser_.*"},
		{"^(?:Read|view_file)$", `"Read" is a Claude Code and Cursor tool`, "^(?:view_file|view_file)$"},
		{"(?!x)", "lookahead", ""},
	} {
		err := ValidateMatcher(tc.matcher)
		if tc.err == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.matcher, err)
			}
			continue
		}
		var me *MatcherError
		if !errors.As(err, &me) || !strings.Contains(err.Error(), tc.err) || me.Suggestion != tc.suggestion {
			t.Errorf("%s: %v (suggestion %q), want %q and %q", tc.matcher, err, me.Suggestion, tc.err, tc.suggestion)
		}
	}
	if got := UnknownTools("run_command|mcp_x"); len(got) != 1 || !strings.Contains(got[0], `"mcp_x" matches none of the documented tools`) {
		t.Errorf("UnknownTools: %q", got)
	}
}

func TestAddTestCaseKeepsTheFile(t *testing.T) {
	src := []byte("{\n    \"tests\": [\n        {\"name\": \"a\", \"event\": \"Stop\"}\n    ]\n}\n")
	out, added, err := AddTestCase(src, schema.TestCase{Name: "b", Event: schema.Stop, Expect: map[string]any{"decision": "allow"}})
	if err != nil || !added {
		t.Fatal(err, added)
	}
	want := "{\n    \"tests\": [\n        {\"name\": \"a\", \"event\": \"Stop\"},\n        {\n            \"name\": \"b\",\n            \"event\": \"Stop\",\n            \"expect\": {\n                \"decision\": \"allow\"\n            }\n        }\n    ]\n}\n"
	if string(out) != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
	if again, added, _ := AddTestCase(out, schema.TestCase{Name: "b", Event: schema.Stop}); added || !bytes.Equal(again, out) {
		t.Error("a case of the same name was added twice")
	}
	if _, _, err := AddTestCase([]byte(`{"tests": {}}`), schema.TestCase{Name: "c"}); err == nil || !strings.Contains(err.Error(), "not an array") {
		t.Errorf("tests as an object gives %v", err)
	}
	out, _, err = AddTestCase([]byte("{\"$schema\": \"x\"}\n"), schema.TestCase{Name: "c", Event: schema.Stop})
	if err != nil || !strings.HasPrefix(string(out), "{\"$schema\": \"x\", \"tests\": [{\"name\": \"c\", \"event\": \"Stop\"}]}") {
		t.Errorf("%v\n%s", err, out)
	}
}

// TestAssociateSchemaDeepSettings: VS Code settings of a million nested [
// are refused at the bracket past the bound, before hujson (which calls
// itself once a level) reads them. A small stack makes the test die as
// init --vscode died with Go's whole gigabyte when that was not so.
func TestAssociateSchemaDeepSettings(t *testing.T) {
	defer debug.SetMaxStack(debug.SetMaxStack(64 << 20))
	_, _, err := AssociateSchema([]byte("{\"a\": " + strings.Repeat("[", 1_000_000)))
	if err == nil || err.Error() != "1:10006: arrays and objects nest more than 10000 levels deep here, more than any settings file needs, so it is not read further" {
		t.Errorf("%v", err)
	}
	var many strings.Builder
	many.WriteString("{\"a\": [")
	for range schema.MaxOtherValues {
		many.WriteString("1,")
	}
	many.WriteString("1]}")
	if _, _, err := AssociateSchema([]byte(many.String())); err == nil || !strings.Contains(err.Error(), "the file holds more than 262144 JSON values and keys") {
		t.Errorf("%d values: %v", schema.MaxOtherValues+2, err)
	}
}

func TestAssociateSchemaKeepsComments(t *testing.T) {
	src := "// editor settings\n{\n  \"editor.tabSize\": 2, // two\n  /* formatting */\n  \"editor.formatOnSave\": true,\n}\n"
	out, changed, err := AssociateSchema([]byte(src))
	if err != nil || !changed {
		t.Fatal(err, changed)
	}
	want := "// editor settings\n{\n  \"editor.tabSize\": 2, // two\n  /* formatting */\n  \"editor.formatOnSave\": true,\n  \"json.schemas\": [\n    {\n      \"fileMatch\": [\n        \"**/.agents/hooks.json\"\n      ],\n      \"url\": \"./.vscode/hooks.schema.json\"\n    }\n  ],\n}\n"
	if string(out) != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
	if again, changed, err := AssociateSchema(out); err != nil || changed || !bytes.Equal(again, out) {
		t.Errorf("a second association changed the file: %v", err)
	}
	src = "{\n  \"json.schemas\": [\n    {\"fileMatch\": [\"*.foo.json\"], \"url\": \"./foo.json\"} // foo\n  ]\n}"
	out, _, err = AssociateSchema([]byte(src))
	want = "{\n  \"json.schemas\": [\n    {\"fileMatch\": [\"*.foo.json\"], \"url\": \"./foo.json\"}, // foo\n    {\n      \"fileMatch\": [\n        \"**/.agents/hooks.json\"\n      ],\n      \"url\": \"./.vscode/hooks.schema.json\"\n    }\n  ]\n}"
	if err != nil || string(out) != want {
		t.Errorf("%v\ngot:\n%s\nwant:\n%s", err, out, want)
	}
	if _, _, err := AssociateSchema([]byte(`{"json.schemas": {}}`)); err == nil {
		t.Error("json.schemas as an object is accepted")
	}
	if _, _, err := AssociateSchema([]byte(`{"a": `)); err == nil {
		t.Error("a truncated file is accepted")
	}
}

func TestPlanVSCode(t *testing.T) {
	dir := t.TempDir()
	opts := Options{Answers: Answers{Scope: Workspace, Template: "reminder"}, Dir: dir, VSCode: true}
	p, err := planFor(t, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := apply(t, opts, p); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, ".vscode", "hooks.schema.json"))
	want := schema.HooksSchema()
	if !bytes.Equal(got, want) {
		t.Error("the schema's copy differs from hookctl schema")
	}
	settings, _ := os.ReadFile(filepath.Join(dir, ".vscode", "settings.json"))
	if !strings.Contains(string(settings), `"url": "./.vscode/hooks.schema.json"`) {
		t.Errorf("settings:\n%s", settings)
	}
	hooks, _ := os.ReadFile(filepath.Join(dir, ".agents", "hooks.json"))
	if strings.Contains(string(hooks), "$schema") {
		t.Error("hooks.json got a $schema key")
	}
	if _, err := planFor(t, Options{Answers: Answers{Scope: User, Template: "reminder"}, Dir: dir, Home: t.TempDir(), VSCode: true}); err == nil {
		t.Error("--vscode with the user scope is accepted")
	}
}

func TestPlanFillsAnEmptyFile(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, ".agents", "hooks.json")
	write(t, config, "\n", 0o644)
	opts := Options{Answers: Answers{Scope: Workspace, Template: "notify"}, Dir: dir}
	p, err := planFor(t, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := apply(t, opts, p); err != nil {
		t.Fatal(err)
	}
	c, err := schema.Load(config)
	if err != nil || !c.Usable() || len(c.File.Hooks) != 1 || !strings.HasPrefix(string(c.Src), "{\n  \"notify\": {\n") {
		t.Errorf("%v\n%s", err, c.Src)
	}
}

func TestDefaultLanguageWorksHere(t *testing.T) {
	gate, _ := templates.Lookup("block-dangerous")
	notify, _ := templates.Lookup("notify")
	bin := t.TempDir()
	for _, p := range []string{"python3", "node"} {
		write(t, filepath.Join(bin, p), "#!/bin/sh\n", 0o755)
	}
	t.Setenv("PATH", bin)
	if got := DefaultLanguage(gate); got != "py" {
		t.Errorf("without jq, the gate's default language is %s, want py", got)
	}
	if got := DefaultLanguage(notify); got != "sh" {
		t.Errorf("notify's default language is %s, want sh: it needs no jq", got)
	}
	write(t, filepath.Join(bin, "jq"), "#!/bin/sh\n", 0o755)
	if got := DefaultLanguage(gate); got != "sh" {
		t.Errorf("with jq, the gate's default language is %s, want sh", got)
	}
}

// TestScopeNames holds init's and import's names of the scopes to the
// names scope gives them.
func TestScopeNames(t *testing.T) {
	if !slices.Equal(scope.Choices, []string{Workspace, User}) {
		t.Errorf("scope.Choices %q, want %q", scope.Choices, []string{Workspace, User})
	}
	if ConfigPath(User, "/w", "/h") != scope.UserFile("/h") || ConfigPath(Workspace, "/w", "/h") != scope.WorkspaceFile("/w") {
		t.Error("ConfigPath names other files than scope")
	}
}

// TestPlanWhere says what a hook runs on: a tool event's tools, every
// tool for an empty or "*" matcher, and another event alone.
func TestPlanWhere(t *testing.T) {
	for _, c := range []struct {
		a    Answers
		want string
	}{
		{Answers{Event: schema.PreToolUse, Matcher: "run_command|view_file"}, "PreToolUse on run_command|view_file"},
		{Answers{Event: schema.PostToolUse, Matcher: "*"}, "PostToolUse on every tool"},
		{Answers{Event: schema.PreToolUse}, "PreToolUse on every tool"},
		{Answers{Event: schema.Stop}, "Stop"},
	} {
		if got := (&Plan{Answers: c.a}).Where(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.a, got, c.want)
		}
	}
}
