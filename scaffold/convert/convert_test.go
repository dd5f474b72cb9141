package convert

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/lint"
	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/runtime/adapter"
	"github.com/hookctl/hookctl/schema"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata from the real output")

// samples are realistic configurations of each agent, each in a project of
// its own under testdata with the scripts its commands name.
var samples = []struct {
	name, file string
	agent      schema.Agent
}{
	{"claude", "testdata/claude/.claude/settings.json", schema.Claude},
	{"plugin", "testdata/plugin/hooks/hooks.json", schema.Claude},
	{"gemini", "testdata/gemini/.gemini/settings.json", schema.Gemini},
	{"cursor", "testdata/cursor/.cursor/hooks.json", schema.Cursor},
	{"codex", "testdata/codex/.codex/hooks.json", schema.Codex},
}

// convertSample converts a sample for the .agents/hooks.json of its own
// project, as hookctl import does.
func convertSample(t *testing.T, file string, from schema.Agent) *Result {
	t.Helper()
	return convertSampleWith(t, file, from, Options{Adapt: true, Answer: adapter.Literal})
}

// convertSampleWith converts a sample with options, whose target and root
// are the sample's project.
func convertSampleWith(t *testing.T, file string, from schema.Agent, opts Options) *Result {
	t.Helper()
	src, err := Read(workDir(t), file, from)
	if err != nil {
		t.Fatalf("Read(%s): %v", file, err)
	}
	root, err := filepath.Abs(filepath.Join("testdata", strings.Split(filepath.ToSlash(file), "/")[1]))
	if err != nil {
		t.Fatal(err)
	}
	opts.Target, opts.Root = filepath.Join(root, ".agents", "hooks.json"), root
	return Convert(src, opts)
}

func reportText(r *Result) string {
	var b bytes.Buffer
	if _, err := r.Report.WriteTo(&b); err != nil {
		panic(err)
	}
	b.WriteString(r.Summary() + "\n")
	return b.String()
}

// TestGolden converts each agent's sample and compares the hooks.json and
// the report with the golden files (go test -update rewrites them).
func TestGolden(t *testing.T) {
	for _, s := range samples {
		t.Run(s.name, func(t *testing.T) {
			res := convertSample(t, s.file, "")
			if res.Source.Agent != s.agent {
				t.Errorf("recognised as %s, want %s", res.Source.Agent, s.agent)
			}
			golden(t, filepath.Join("testdata", s.name+".golden.json"), res.JSON())
			golden(t, filepath.Join("testdata", s.name+".report"), []byte(reportText(res)))
		})
	}
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the output (go test -update rewrites it):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// TestReportLines checks the report items that matter most by place and
// level: every element not carried over is named at its line and column.
func TestReportLines(t *testing.T) {
	cases := []struct {
		sample string
		line   int
		col    int
		level  Level
		has    string
	}{
		{"claude", 32, 20, Warning, `the matcher "NotebookEdit" names only tools with no equivalent`},
		{"claude", 27, 24, Note, "protect_paths.py reads Claude Code's payload (tool_input, file_path) and answers in its way (hookSpecificOutput, permissionDecision"},
		{"claude", 27, 24, Note, "it runs through hookctl adapt, which hands it Claude Code's payload and reads its answer as Claude Code does"},
		{"claude", 47, 24, Note, "the command reads Claude Code's payload (tool_input, file_path): it runs through hookctl adapt"},
		{"claude", 58, 13, Warning, "async is not carried over"},
		{"claude", 68, 24, Note, "remind.sh exits with status 2, which Claude Code reads on UserPromptSubmit as this format does not: it runs through hookctl adapt"},
		{"claude", 73, 5, Note, "SessionStart is SessionStart here too, but it needs agy 1.1.27 or later"},
		{"claude", 84, 5, Warning, "Notification has no equivalent"},
		{"claude", 103, 21, Warning, `a handler of type "agent" is not carried over`},
		{"claude", 17, 24, Note, `"$CLAUDE_PROJECT_DIR"/.claude/hooks/block-rm.sh → ../.claude/hooks/block-rm.sh`},
		{"claude", 53, 20, Note, "MCP tool names are kept as written"},
		{"gemini", 14, 9, Warning, "sequential is true"},
		{"gemini", 27, 24, Note, "the timeout of 1500 ms becomes 2 s"},
		{"gemini", 60, 24, Note, "answers in Gemini CLI's way (hookSpecificOutput, additionalContext): it runs through hookctl adapt"},
		{"gemini", 88, 5, Warning, "BeforeToolSelection has no equivalent"},
		{"cursor", 8, 9, Warning, `the matcher "git push" narrows beforeShellExecution`},
		{"cursor", 6, 20, Note, `answers in Cursor's way (user_message, agent_message, "permission"): it runs through hookctl adapt`},
		{"cursor", 45, 5, Warning, "afterAgentThought has no equivalent"},
		{"cursor", 50, 5, Note, "sessionStart becomes SessionStart: SessionStart needs agy 1.1.27 or later"},
		{"codex", 3, 5, Note, "SessionStart is SessionStart here too"},
		{"codex", 33, 27, Note, "the timeout of 2500 ms becomes 3 s"},
		{"codex", 66, 24, Note, `stop_continue.py reads Codex's payload (stop_hook_active) and answers in its way ("decision": "block"): it runs through hookctl adapt`},
	}
	results := map[string]*Result{}
	for _, s := range samples {
		results[s.name] = convertSample(t, s.file, "")
	}
	for _, c := range cases {
		res := results[c.sample]
		found := false
		for _, it := range res.Report.Items {
			if it.Pos.Line == c.line && it.Pos.Col == c.col && it.Level == c.level && strings.Contains(it.Msg, c.has) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no %s at %d:%d containing %q; the report is:\n%s", c.sample, c.level, c.line, c.col, c.has, reportText(res))
		}
	}
}

// TestConvertedLintsClean lints each converted sample where it would be
// written: the only findings are those the report already names.
func TestConvertedLintsClean(t *testing.T) {
	// Rules whose findings the report announces as notes.
	announced := map[string]string{
		"matcher-no-tool": "MCP tool names are kept as written",
		"foreign-payload": "'s payload (",
		"agent-version":   "it needs agy 1.1.27 or later",
		"literal-answer":  "the command answers in ",
	}
	for _, s := range samples {
		t.Run(s.name, func(t *testing.T) {
			res := convertSample(t, s.file, "")
			target := res.Source.Abs
			root := filepath.Dir(filepath.Dir(target))
			if s.name == "plugin" {
				root = filepath.Dir(filepath.Dir(target))
			}
			tgt := lint.Target{Path: filepath.Join(root, ".agents", "hooks.json"), Name: ".agents/hooks.json", Scope: lint.Workspace, Root: root}
			report := reportText(res)
			for _, f := range lint.LintSource(tgt, res.JSON()) {
				why, ok := announced[f.Rule]
				if !ok || !strings.Contains(report, why) {
					t.Errorf("lint finds what the report does not announce: %s", f)
				}
			}
		})
	}
}

// TestDetect recognises each agent from the content alone, wherever the
// file lives.
func TestDetect(t *testing.T) {
	cases := []struct {
		name string
		src  string
		want schema.Agent
	}{
		{"claude", `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"x"}]}]}}`, schema.Claude},
		{"gemini events", `{"hooks":{"BeforeTool":[{"matcher":"run_shell_command","hooks":[{"type":"command","command":"x","timeout":5000}]}]}}`, schema.Gemini},
		{"gemini milliseconds", `{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"x","timeout":60000}]}]}}`, schema.Gemini},
		{"cursor", `{"version":1,"hooks":{"stop":[{"command":"x"}]}}`, schema.Cursor},
		{"codex tools", `{"hooks":{"PreToolUse":[{"matcher":"apply_patch","hooks":[{"type":"command","command":"x"}]}]}}`, schema.Codex},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := Parse(workDir(t), "hooks.json", []byte(c.src), "")
			if err != nil {
				t.Fatal(err)
			}
			if s.Agent != c.want || s.DetectedBy != "its content" {
				t.Errorf("recognised as %s by %s, want %s by its content", s.Agent, s.DetectedBy, c.want)
			}
		})
	}
}

// TestRefused checks that what is no other agent's configuration is refused
// with a message that says what it looks like instead, and where.
func TestRefused(t *testing.T) {
	cases := []struct {
		name, src string
		line, col int
		has       string
	}{
		{"syntax", "{\n  \"hooks\": {,}\n}", 2, 13, "not valid JSON"},
		{"list", `{"hooks": [{"name": "a", "event": "Stop", "command": "x"}]}`, 1, 2, `a list under "hooks" (1 entry with the keys name, event, command)`},
		{"git hooks", `{"hooks": {"pre-commit": ["npm test"]}}`, 1, 12, "pre-commit is a git hook"},
		{"native", `{"gate": {"PreToolUse": [{"matcher": "run_command", "hooks": [{"command": "./x.sh"}]}]}}`, 0, 0, "already a hooks.json of this format"},
		{"array", `[1, 2]`, 1, 1, "the top level is an array"},
		{"no hooks", `{"model": "opus", "permissions": {}}`, 0, 0, `no "hooks" object (its keys are model, permissions)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse(workDir(t), "in.json", []byte(c.src), "")
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("err = %v, want a *FormatError", err)
			}
			if fe.Pos.Line != c.line || fe.Pos.Col != c.col || !strings.Contains(fe.Msg, c.has) {
				t.Errorf("got %d:%d %q, want %d:%d containing %q", fe.Pos.Line, fe.Pos.Col, fe.Msg, c.line, c.col, c.has)
			}
		})
	}
}

// TestTimeouts converts Gemini CLI's milliseconds to whole seconds,
// rounding up, at least 1; other agents' seconds stay.
func TestTimeouts(t *testing.T) {
	cases := []struct {
		agent   schema.Agent
		timeout string
		want    int
	}{
		{schema.Gemini, "60000", 60},
		{schema.Gemini, "1500", 2},
		{schema.Gemini, "1", 1},
		{schema.Gemini, "999", 1},
		{schema.Claude, "10", 10},
		{schema.Claude, "2.5", 3},
		{schema.Cursor, "20", 20},
	}
	for _, c := range cases {
		src := `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"true","timeout":` + c.timeout + `}]}]}}`
		if c.agent == schema.Cursor {
			src = `{"version":1,"hooks":{"stop":[{"command":"true","timeout":` + c.timeout + `}]}}`
		}
		got := convertString(t, src, c.agent)
		if len(got.Hooks) != 1 || got.Hooks[0].Def.Stop[0].Timeout != c.want {
			t.Errorf("%s timeout %s: got %s, want %d s", c.agent, c.timeout, got.JSON(), c.want)
		}
	}
	got := convertString(t, `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"true","timeout_ms":2500}]}]}}`, schema.Codex)
	if to := got.Hooks[0].Def.PreToolUse[0].Hooks[0].Timeout; to != 3 {
		t.Errorf("Codex timeout_ms 2500: got %d s, want 3", to)
	}
}

// TestTimeoutsTooLong: a timeout longer than any hookctl can run becomes
// the longest there is, with a warning at its place, never a short one
// (1e30 ms became 1 s) nor one run refuses.
func TestTimeoutsTooLong(t *testing.T) {
	for _, c := range []struct {
		agent   schema.Agent
		key     string
		timeout string
		want    int
		warned  bool
	}{
		{schema.Gemini, "timeout", "1e30", schema.MaxTimeout, true},
		{schema.Gemini, "timeout", "9223372036854775807", schema.MaxTimeout, true},
		{schema.Gemini, "timeout", "1e400", schema.MaxTimeout, true},
		{schema.Gemini, "timeout", "2147483647001", schema.MaxTimeout, true},
		{schema.Gemini, "timeout", "2147483647000", schema.MaxTimeout, false},
		{schema.Claude, "timeout", "2147483648", schema.MaxTimeout, true},
		{schema.Claude, "timeout", "1e30", schema.MaxTimeout, true},
		{schema.Codex, "timeout_ms", "18446744073709551616", schema.MaxTimeout, true},
	} {
		src := `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"true","` + c.key + `":` + c.timeout + `}]}]}}`
		got := convertString(t, src, c.agent)
		if len(got.Hooks) != 1 || got.Hooks[0].Def.Stop[0].Timeout != c.want {
			t.Errorf("%s %s %s: got %s, want %d s", c.agent, c.key, c.timeout, got.JSON(), c.want)
			continue
		}
		col := strings.Index(src, c.timeout) + 1
		warned := false
		for _, it := range got.Report.Items {
			if it.Level == Warning && it.Pos.Line == 1 && it.Pos.Col == col &&
				strings.Contains(it.Msg, "the timeout of "+c.timeout+" ") && strings.Contains(it.Msg, "it becomes 2147483647 s (about 68 years), the longest there is") {
				warned = true
			}
		}
		if warned != c.warned {
			t.Errorf("%s %s %s: warned %v, want %v: %+v", c.agent, c.key, c.timeout, warned, c.warned, got.Report.Items)
		}
	}
}

func convertString(t *testing.T, src string, from schema.Agent) *Result {
	t.Helper()
	return convertStringWith(t, src, from, Options{})
}

// convertStringAdapt converts a configuration as hookctl import does:
// handlers written for the other agent run through hookctl adapt.
func convertStringAdapt(t *testing.T, src string, from schema.Agent) *Result {
	t.Helper()
	return convertStringWith(t, src, from, Options{Adapt: true, Answer: adapter.Literal})
}

// convertStringWith converts a configuration for the .agents/hooks.json of
// a folder of its own.
func convertStringWith(t *testing.T, src string, from schema.Agent, opts Options) *Result {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Read(workDir(t), path, from)
	if err != nil {
		t.Fatal(err)
	}
	opts.Target, opts.Root = filepath.Join(dir, ".agents", "hooks.json"), dir
	return Convert(s, opts)
}

// TestNames derives readable names and keeps them unique.
func TestNames(t *testing.T) {
	res := convertString(t, `{"hooks":{
	  "PreToolUse":[
	    {"matcher":"Bash","hooks":[{"type":"command","command":"a"}]},
	    {"matcher":"Bash","hooks":[{"type":"command","command":"b"}]},
	    {"matcher":"Edit|Write","hooks":[{"type":"command","command":"c"}]},
	    {"matcher":"mcp__github__.*","hooks":[{"type":"command","command":"d"}]}],
	  "Stop":[{"hooks":[{"type":"command","command":"e"}]}]}}`, schema.Claude)
	var names []string
	for _, h := range res.Hooks {
		names = append(names, h.Name)
	}
	want := "pre-tool-use-bash pre-tool-use-bash-2 pre-tool-use-edit-write pre-tool-use-mcp-github stop"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("names %q, want %q", got, want)
	}
}

// TestMixed converts a hooks.json of this format that holds other agents'
// events: the hooks keep their names, the native parts stay.
func TestMixed(t *testing.T) {
	src := `{
  "apm": {
    "SessionStart": [{"type": "command", "command": "node x.js", "timeout": 5}],
    "UserPromptSubmit": [{"type": "command", "command": "node y.js", "timeout": 5}]
  },
  "gate": {
    "PreToolUse": [{"matcher": "write_file|replace", "hooks": [{"command": "./gate.sh", "timeout": 60}]}],
    "Stop": [{"matcher": ".*", "hooks": [{"command": "./stop.sh"}]}]
  }
}`
	res := convertString(t, src, "")
	want := `{
  "apm": {
    "SessionStart": [
      {
        "type": "command",
        "command": "node x.js",
        "timeout": 5
      }
    ],
    "PreInvocation": [
      {
        "type": "command",
        "command": "node y.js",
        "timeout": 5
      }
    ]
  },
  "gate": {
    "PreToolUse": [
      {
        "matcher": "write_to_file|replace_file_content",
        "hooks": [
          {
            "type": "command",
            "command": "./gate.sh",
            "timeout": 60
          }
        ]
      }
    ],
    "Stop": [
      {
        "type": "command",
        "command": "./stop.sh"
      }
    ]
  }
}
`
	if got := string(res.JSON()); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// SessionStart is an event here too: it stays, with a note.
	if !strings.Contains(reportText(res), "3:5: note: SessionStart is SessionStart here too") {
		t.Errorf("the report does not note SessionStart at 3:5:\n%s", reportText(res))
	}
}

// TestCommandList: a command given as a list of arguments becomes one
// shell command, each argument quoted as needed.
func TestCommandList(t *testing.T) {
	res := convertString(t, `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":["/opt/hooks/gate", "--mode", "strict mode"]}]}]}}`, schema.Codex)
	if got := res.Hooks[0].Def.PreToolUse[0].Hooks[0].Command; got != `/opt/hooks/gate --mode 'strict mode'` {
		t.Errorf("command %q", got)
	}
}

// TestGeminiExtension recognises a Gemini CLI extension's hooks/hooks.json
// and resolves ${extensionPath}.
func TestGeminiExtension(t *testing.T) {
	root := t.TempDir()
	ext := filepath.Join(root, "ext")
	for _, f := range []string{"gemini-extension.json", "hooks/hooks.json", "scripts/check.sh"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(ext, f)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		"gemini-extension.json": `{"name": "ext", "version": "1.0.0"}`,
		"hooks/hooks.json":      `{"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "${extensionPath}/scripts/check.sh", "timeout": 3000}]}]}}`,
		"scripts/check.sh":      "#!/bin/sh\n",
	}
	for f, c := range files {
		if err := os.WriteFile(filepath.Join(ext, f), []byte(c), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Read(workDir(t), filepath.Join(ext, "hooks", "hooks.json"), "")
	if err != nil {
		t.Fatal(err)
	}
	if s.Agent != schema.Gemini || s.DetectedBy != "its path" {
		t.Errorf("recognised as %s by %s", s.Agent, s.DetectedBy)
	}
	res := Convert(s, Options{Target: filepath.Join(root, ".agents", "hooks.json"), Root: root})
	h := res.Hooks[0].Def.PreToolUse[0].Hooks[0]
	if h.Command != "../ext/scripts/check.sh" || h.Timeout != 3 {
		t.Errorf("got %+v", h)
	}
}

// TestMixedInPlace converts a workspace hooks.json that names other agents'
// tools: its commands already run from .agents/ and stay, but paths written
// from the project root are rebased.
func TestMixedInPlace(t *testing.T) {
	root := t.TempDir()
	target := filepath.Join(root, ".agents", "hooks.json")
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		t.Fatal(err)
	}
	src := `{"guard": {"PreToolUse": [{"matcher": "Bash|Edit", "hooks": [
	  {"command": "./gate.sh"},
	  {"command": "python3 \"$(git rev-parse --show-toplevel)/tools/check.py\""},
	  {"command": "node .agents/hooks/x.js"}]}]}}`
	if err := os.WriteFile(target, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Read(workDir(t), target, "")
	if err != nil {
		t.Fatal(err)
	}
	res := Convert(s, Options{Target: target, Root: root})
	var got []string
	for _, h := range res.Hooks[0].Def.PreToolUse[0].Hooks {
		got = append(got, h.Command)
	}
	want := []string{"./gate.sh", "python3 ../tools/check.py", "node hooks/x.js"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("commands %q, want %q", got, want)
	}
	if m := *res.Hooks[0].Def.PreToolUse[0].Matcher; m != "run_command|replace_file_content" {
		t.Errorf("matcher %q", m)
	}
}

// TestRebaseKeepsWhatRuns: importing again a file import wrote, or a file of
// this format from another folder of the project, never changes which
// folder or file a command reaches; a cd out of the project stays relative
// instead of becoming an absolute path of this machine.
func TestRebaseKeepsWhatRuns(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{".agents", "sub", ".claude"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	target := filepath.Join(root, ".agents", "hooks.json")
	for _, tc := range []struct {
		file, src string
		want      []string
	}{
		// What import --write wrote, with a foreign matcher that makes
		// lint advise importing it again.
		{".agents/hooks.json", `{"build": {"PostToolUse": [{"matcher": "Bash", "hooks": [
			{"command": "cd .. && make"}, {"command": "cd .. && npm test"}]}]}}`,
			[]string{"cd .. && make", "cd .. && npm test"}},
		{".agents/hooks.json", `{"build": {"PostToolUse": [{"matcher": "Bash", "hooks": [{"command": "cd ../sub && make"}]}]}}`,
			[]string{"cd .. && cd sub && make"}},
		// The same hooks in a file of this format one folder down.
		{"sub/hooks.json", `{"build": {"PostToolUse": [{"matcher": "Bash", "hooks": [{"command": "cd .. && make"}]}]}}`,
			[]string{"cd .. && make"}},
		// Claude Code runs hooks in the project root: its cd .. leaves the
		// project, and still does.
		{".claude/settings.json", `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "cd .. && make"}]}]}}`,
			[]string{"cd .. && cd .. && make"}},
	} {
		path := filepath.Join(root, tc.file)
		if err := os.WriteFile(path, []byte(tc.src), 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := Read(workDir(t), path, "")
		if err != nil {
			t.Fatal(err)
		}
		res := Convert(s, Options{Target: target, Root: root})
		var got []string
		for _, h := range res.Hooks {
			for _, g := range h.Def.PostToolUse {
				for _, hd := range g.Hooks {
					got = append(got, hd.Command)
				}
			}
			for _, hd := range h.Def.Stop {
				got = append(got, hd.Command)
			}
		}
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s: commands %q, want %q", tc.file, got, tc.want)
		}
		if strings.Contains(strings.Join(got, "\n"), root) {
			t.Errorf("%s: a command names an absolute path: %q", tc.file, got)
		}
		if got[0] == "cd .. && make" && strings.Contains(reportText(res), "goes to the project root first") {
			t.Errorf("a command that did not change is reported as changed:\n%s", reportText(res))
		}
	}
}

// TestSchemaAndHooksOnly: Claude Code settings that hold only "$schema" and
// "hooks" are Claude Code's, not a hooks.json of this format with one hook
// named "hooks".
func TestSchemaAndHooksOnly(t *testing.T) {
	res := convertString(t, `{
  "$schema": "https://json.schemastore.org/claude-code-settings.json",
  "hooks": {
    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}]
  }
}`, "")
	if res.Source.Shape != Wrapped || res.Source.Agent != schema.Claude {
		t.Fatalf("read as shape %v of %q", res.Source.Shape, res.Source.Agent)
	}
	if len(res.Hooks) != 1 || res.Hooks[0].Name != "pre-tool-use-bash" || *res.Hooks[0].Def.PreToolUse[0].Matcher != "run_command" {
		t.Errorf("hooks %+v", res.Hooks)
	}
}

// TestExecForm: Claude Code's "args" (the program's arguments, no shell)
// become words of the command, never dropped: a bare bash would read the
// payload as its script.
func TestExecForm(t *testing.T) {
	res := convertString(t, `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
	  {"type": "command", "command": "bash", "args": [".claude/hooks/gate.sh", "it's a \"test\" $HOME"]},
	  {"type": "command", "command": "node", "args": ["${CLAUDE_PROJECT_DIR}/scripts/format.js", "--fix"]},
	  {"type": "command", "command": "bash", "args": "gate.sh"}
	]}]}}`, schema.Claude)
	got := res.Hooks[0].Def.PreToolUse[0].Hooks
	if len(got) != 2 {
		t.Fatalf("%d handlers, want 2 (the one with args that are no list is refused): %+v", len(got), got)
	}
	if got[0].Command != `bash ../.claude/hooks/gate.sh 'it'\''s a "test" $HOME'` {
		t.Errorf("exec form: %s", got[0].Command)
	}
	if got[1].Command != `node ../scripts/format.js --fix` {
		t.Errorf("exec form with a placeholder: %s", got[1].Command)
	}
	report := reportText(res)
	if !strings.Contains(report, `warning: "args" is the string "gate.sh", not a list of strings: the handler is not carried over`) ||
		!strings.Contains(report, `note: the program and its "args" (exec form, no shell) become one shell command`) {
		t.Errorf("report:\n%s", report)
	}
	// The words reach the program exactly as the agent passed them.
	out, err := exec.Command("sh", "-c", `printf '[%s]' `+execWord("it's a \"test\" $HOME `x`")+` `+execWord("a b")).Output()
	if err != nil || string(out) != "[it's a \"test\" $HOME `x`][a b]" {
		t.Errorf("words %q %v", out, err)
	}
}

// TestOtherAgentsEvents: an event of another agent inside Claude Code's
// settings was never run by Claude Code, and import says so at its line;
// Claude Code's current events are its own.
func TestOtherAgentsEvents(t *testing.T) {
	res := convertString(t, `{"hooks": {
  "preToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}],
  "TeammateIdle": [{"hooks": [{"type": "command", "command": "true"}]}],
  "PostToolBatch": [{"hooks": [{"type": "command", "command": "true"}]}]
}}`, schema.Claude)
	report := reportText(res)
	for _, want := range []string{
		`settings.json:2:3: warning: preToolUse is not a Claude Code event (it is Cursor's), so Claude Code never ran these hooks; they are carried over as PreToolUse and will run here: check that they should (Claude Code's own is PreToolUse)`,
		`settings.json:3:3: warning: TeammateIdle has no equivalent, so its 1 handler is not carried over: there are no agent teams`,
		`settings.json:4:3: warning: PostToolBatch has no equivalent`,
	} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
	if strings.Contains(report, "not a Claude Code event, nor an event of this format") {
		t.Errorf("a current Claude Code event is called unknown:\n%s", report)
	}
}

// TestReportLinesNoAdapt: with --no-adapt, a handler written for the other
// agent keeps its command, and the report says what to rewrite.
func TestReportLinesNoAdapt(t *testing.T) {
	cases := []struct {
		sample string
		line   int
		col    int
		has    string
	}{
		{"claude", 27, 24, "protect_paths.py reads Claude Code's payload (tool_input, file_path)"},
		{"claude", 27, 24, "answers in Claude Code's way (hookSpecificOutput, permissionDecision"},
		{"claude", 47, 24, "the command reads Claude Code's payload (tool_input, file_path)"},
		{"claude", 68, 24, "remind.sh exits with status 2, which Claude Code takes as a block but PreInvocation takes as a failure"},
		{"gemini", 60, 24, "answers in Gemini CLI's way (hookSpecificOutput, additionalContext)"},
		{"cursor", 6, 20, `answers in Cursor's way (user_message, agent_message, "permission")`},
		{"codex", 66, 24, `stop_continue.py answers in Codex's way ("decision": "block")`},
	}
	results := map[string]*Result{}
	for _, s := range samples {
		results[s.name] = convertSampleWith(t, s.file, "", Options{})
		if out := results[s.name].JSON(); bytes.Contains(out, []byte("hookctl adapt")) {
			t.Errorf("%s: a handler runs through hookctl adapt under --no-adapt:\n%s", s.name, out)
		}
	}
	for _, c := range cases {
		res := results[c.sample]
		found := false
		for _, it := range res.Report.Items {
			if it.Pos.Line == c.line && it.Pos.Col == c.col && it.Level == Warning && strings.Contains(it.Msg, c.has) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no warning at %d:%d containing %q; the report is:\n%s", c.sample, c.line, c.col, c.has, reportText(res))
		}
	}
}

// TestPlainTextContext: a Claude Code UserPromptSubmit or SessionStart
// handler that prints plain text, which Claude Code gives the model, would
// print text the runtime rejects on every call; import wraps its output
// into injectSteps, and the wrapped command works through the runtime.
func TestPlainTextContext(t *testing.T) {
	res := convertString(t, `{"hooks": {
  "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "printf 'Branch: %s\\n\\tq\"uo\\\\te %%\\033[0m\\n' \"$(echo main)\""}]}],
  "SessionStart": [{"hooks": [
    {"type": "command", "command": "git log -1 --format=%s"},
    {"type": "command", "command": "echo '{\"injectSteps\":[{\"ephemeralMessage\":\"native\"}]}'"},
    {"type": "command", "command": "echo '{\"hookSpecificOutput\":{\"additionalContext\":\"x\"}}'"}
  ]}]
}}`, schema.Claude)
	pre := res.Hooks[0].Def.PreInvocation[0].Command
	ss := res.Hooks[1].Def.SessionStart
	if !strings.HasPrefix(pre, "out=$(sh -c ") || !strings.HasPrefix(ss[0].Command, "out=$(sh -c 'git log -1 --format=%s')") {
		t.Errorf("not wrapped: %s | %s", pre, ss[0].Command)
	}
	if strings.HasPrefix(ss[1].Command, "out=") || strings.HasPrefix(ss[2].Command, "out=") {
		t.Errorf("a JSON answer was wrapped: %s | %s", ss[1].Command, ss[2].Command)
	}
	if !strings.Contains(reportText(res), "Claude Code adds what a UserPromptSubmit handler prints to the model's context") {
		t.Errorf("report:\n%s", reportText(res))
	}
	// Run the wrapped command as the runtime does.
	cmd := exec.Command("sh", "-c", pre)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		InjectSteps []struct{ EphemeralMessage string } `json:"injectSteps"`
	}
	if err := json.Unmarshal(out, &v); err != nil || len(v.InjectSteps) != 1 || v.InjectSteps[0].EphemeralMessage != "Branch: main\n\tq\"uo\\te %[0m" {
		t.Errorf("output %q: %+v %v", out, v, err)
	}
	if _, _, err := runtime.ParseAnswer(schema.PreInvocation, out); err != nil {
		t.Errorf("the runtime refuses the wrapped output %s: %v", out, err)
	}
	// Nothing printed, nothing answered; a failure keeps its status.
	if out, err := exec.Command("sh", "-c", asContext("true")).Output(); err != nil || len(out) != 0 {
		t.Errorf("empty output: %q %v", out, err)
	}
	err = exec.Command("sh", "-c", asContext("echo no >&2; exit 3")).Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Errorf("status: %v", err)
	}
}

// A NUL in a command converts as written, and the report says that the
// handler cannot run, at the command.
func TestNULInACommandIsReported(t *testing.T) {
	src := `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"echo a\u0000b"}]}]}}`
	got := convertString(t, src, schema.Claude)
	col := strings.Index(src, `"echo`) + 1
	for _, it := range got.Report.Items {
		if it.Level == Warning && it.Pos.Line == 1 && it.Pos.Col == col && strings.Contains(it.Msg, `a NUL character (\u0000)`) {
			return
		}
	}
	t.Errorf("no warning of the NUL at 1:%d: %+v", col, got.Report.Items)
}

// workDir is the working folder of the test, from which the paths the
// tests name start, as a command line's do.
func workDir(t testing.TB) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return wd
}
