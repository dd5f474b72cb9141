package adapter

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/schema"
)

var noEnv = Env{Getenv: func(string) string { return "" }}

func sample(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// native decodes a translated payload.
func native(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("payload %s: %v", b, err)
	}
	return m
}

type wantCall struct {
	tool string
	args map[string]any
}

// TestTranslateSamples reads every agent's real payloads: the event, the
// tool and its arguments in this format's names, the workspace and the
// common fields.
func TestTranslateSamples(t *testing.T) {
	for _, tc := range []struct {
		file      string
		agent     schema.Agent
		event     string
		want      schema.Event
		calls     []wantCall
		workspace string
		conv      string
	}{
		{"claude/PreToolUse-Bash.json", schema.Claude, "PreToolUse", schema.PreToolUse,
			[]wantCall{{"run_command", map[string]any{"CommandLine": "npm test", "Cwd": "/home/user/my-project", "description": "Run test suite"}}},
			"/home/user/my-project", "abc123"},
		{"claude/PreToolUse-Edit.json", schema.Claude, "PreToolUse", schema.PreToolUse,
			[]wantCall{{"replace_file_content", map[string]any{"TargetFile": "/home/user/my-project/src/index.ts",
				"TargetContent": "original text", "ReplacementContent": "replacement text", "AllowMultiple": false}}},
			"/home/user/my-project", "abc123"},
		{"claude/PostToolUse-Write.json", schema.Claude, "PostToolUse", schema.PostToolUse,
			[]wantCall{{"write_to_file", map[string]any{"TargetFile": "/path/to/file.txt", "CodeContent": "file content"}}},
			"/home/user/my-project", "abc123"},
		{"claude/PermissionRequest-Bash.json", schema.Claude, "PermissionRequest", schema.PreToolUse,
			[]wantCall{{"run_command", map[string]any{"CommandLine": "rm -rf node_modules"}}}, "/home/user/my-project", "abc123"},
		{"claude/UserPromptSubmit.json", schema.Claude, "UserPromptSubmit", schema.PreInvocation, nil, "/home/user/my-project", "abc123"},
		{"claude/SessionStart.json", schema.Claude, "SessionStart", schema.SessionStart, nil, "/home/user/my-project", "abc123"},
		{"claude/Stop.json", schema.Claude, "Stop", schema.Stop, nil, "/home/user/my-project", "abc123"},
		{"gemini/BeforeTool-run_shell_command.json", schema.Gemini, "BeforeTool", schema.PreToolUse,
			[]wantCall{{"run_command", map[string]any{"CommandLine": "rm -rf build", "Cwd": "/home/user/my-project"}}},
			"/home/user/my-project", "8c1f2a3b-0d4e-4f5a-9b6c-7d8e9f0a1b2c"},
		{"gemini/BeforeTool-write_file.json", schema.Gemini, "BeforeTool", schema.PreToolUse,
			[]wantCall{{"write_to_file", map[string]any{"TargetFile": "/home/user/my-project/.env", "CodeContent": "TOKEN=1"}}},
			"/home/user/my-project", "8c1f2a3b-0d4e-4f5a-9b6c-7d8e9f0a1b2c"},
		{"gemini/BeforeAgent.json", schema.Gemini, "BeforeAgent", schema.PreInvocation, nil, "/home/user/my-project", "8c1f2a3b-0d4e-4f5a-9b6c-7d8e9f0a1b2c"},
		{"gemini/AfterAgent.json", schema.Gemini, "AfterAgent", schema.Stop, nil, "/home/user/my-project", "8c1f2a3b-0d4e-4f5a-9b6c-7d8e9f0a1b2c"},
		{"cursor/preToolUse-Shell.json", schema.Cursor, "preToolUse", schema.PreToolUse,
			[]wantCall{{"run_command", map[string]any{"CommandLine": "npm install", "Cwd": "/project"}}}, "/project", "conv-123"},
		{"cursor/beforeShellExecution.json", schema.Cursor, "beforeShellExecution", schema.PreToolUse,
			[]wantCall{{"run_command", map[string]any{"CommandLine": "git push --force origin main", "Cwd": "/project"}}}, "/project", "conv-123"},
		{"cursor/beforeMCPExecution.json", schema.Cursor, "beforeMCPExecution", schema.PreToolUse,
			[]wantCall{{"create_issue", map[string]any{"title": "Crash on start", "repo": "acme/app"}}}, "/project", "conv-123"},
		{"cursor/stop.json", schema.Cursor, "stop", schema.Stop, nil, "/project", "conv-123"},
		{"cursor/sessionStart.json", schema.Cursor, "sessionStart", schema.SessionStart, nil, "/project", "conv-123"},
		{"codex/PreToolUse-Bash.json", schema.Codex, "PreToolUse", schema.PreToolUse,
			[]wantCall{{"run_command", map[string]any{"CommandLine": "rm -rf /", "Cwd": "/workspace"}}}, "/workspace", "thr_123"},
		{"codex/PreToolUse-apply_patch.json", schema.Codex, "PreToolUse", schema.PreToolUse, []wantCall{
			{"write_to_file", map[string]any{"TargetFile": "/workspace/notes/todo.md", "CodeContent": "# To do\n- ship it"}},
			{"replace_file_content", map[string]any{"TargetFile": "/workspace/src/app.py", "TargetContent": `    print("hi")`, "ReplacementContent": `    print("hello")`}},
			{"write_to_file", map[string]any{"TargetFile": "/workspace/.env", "CodeContent": "", "Overwrite": true}},
		}, "/workspace", "thr_123"},
		{"codex/Stop.json", schema.Codex, "Stop", schema.Stop, nil, "/workspace", "thr_123"},
		{"codex/PermissionRequest-Bash.json", schema.Codex, "PermissionRequest", schema.PreToolUse,
			[]wantCall{{"run_command", map[string]any{"CommandLine": "rm -f /tmp/example"}}}, "/path/to/cwd", "<session-id>"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			c, err := Translate(tc.agent, tc.event, sample(t, tc.file), noEnv)
			if err != nil {
				t.Fatal(err)
			}
			if c.Event != tc.want || c.Workspace != tc.workspace {
				t.Errorf("event %q workspace %q, want %q %q", c.Event, c.Workspace, tc.want, tc.workspace)
			}
			if !tc.want.IsTool() {
				if len(c.Payloads) != 1 {
					t.Fatalf("%d payloads, want 1", len(c.Payloads))
				}
			} else if len(c.Payloads) != len(tc.calls) {
				t.Fatalf("%d payloads, want %d: %s", len(c.Payloads), len(tc.calls), c.Payloads)
			}
			for i, p := range c.Payloads {
				m := native(t, p)
				if m["conversationId"] != tc.conv || !reflect.DeepEqual(m["workspacePaths"], []any{tc.workspace}) {
					t.Errorf("common fields: %s", p)
				}
				if !tc.want.IsTool() {
					continue
				}
				call := m["toolCall"].(map[string]any)
				if call["name"] != tc.calls[i].tool {
					t.Errorf("tool %v, want %s", call["name"], tc.calls[i].tool)
				}
				args := call["args"].(map[string]any)
				for k, v := range tc.calls[i].args {
					if !reflect.DeepEqual(args[k], v) {
						t.Errorf("args.%s = %#v, want %#v (payload %s)", k, args[k], v, p)
					}
				}
			}
		})
	}
}

func TestTranslateStop(t *testing.T) {
	c, err := Translate(schema.Claude, "Stop", sample(t, "claude/Stop.json"), noEnv)
	if err != nil {
		t.Fatal(err)
	}
	// A turn Claude Code already continued is the second execution, and
	// a background task still runs.
	m := native(t, c.Payloads[0])
	if m["executionNum"] != 2.0 || m["fullyIdle"] != false || m["terminationReason"] != "model_stop" {
		t.Errorf("stop payload %s", c.Payloads[0])
	}
	c, _ = Translate(schema.Cursor, "stop", []byte(`{"status":"error","loop_count":3,"workspace_roots":["/p"]}`), noEnv)
	if m := native(t, c.Payloads[0]); m["executionNum"] != 4.0 || m["terminationReason"] != "error" {
		t.Errorf("cursor stop payload %s", c.Payloads[0])
	}
}

// TestWorkspace: the agent's own variable first, then the workspace of the
// payload's cwd as every command finds it: the nearest folder above that
// holds .agents, else the git top level.
func TestWorkspace(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "pkg", "deep")
	for _, d := range []string{filepath.Join(root, ".git"), filepath.Join(root, ".agents"), sub} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, ".agents", "hooks.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	payload := []byte(`{"cwd": "` + sub + `", "tool_name": "Bash", "tool_input": {"command": "ls"}}`)
	c, err := Translate(schema.Codex, "PreToolUse", payload, noEnv)
	if err != nil || c.Workspace != root {
		t.Errorf("workspace %q, want %q (%v)", c.Workspace, root, err)
	}
	env := Env{Getenv: func(k string) string {
		if k == "CLAUDE_PROJECT_DIR" {
			return "/elsewhere/project"
		}
		return ""
	}}
	if c, _ := Translate(schema.Claude, "PreToolUse", payload, env); c.Workspace != "/elsewhere/project" {
		t.Errorf("workspace %q, want CLAUDE_PROJECT_DIR's", c.Workspace)
	}
	// Codex sets no such variable: another agent's is not read.
	if c, _ := Translate(schema.Codex, "PreToolUse", payload, env); c.Workspace != root {
		t.Errorf("codex read CLAUDE_PROJECT_DIR: %q", c.Workspace)
	}

	// A repository with no .agents: its top level, not the cwd below it.
	repo := t.TempDir()
	deep := filepath.Join(repo, "src", "pkg")
	for _, d := range []string{filepath.Join(repo, ".git", "objects"), filepath.Join(repo, ".git", "refs"), deep} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(repo, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	payload = []byte(`{"cwd": "` + deep + `", "tool_name": "Bash", "tool_input": {"command": "ls"}}`)
	if c, _ := Translate(schema.Codex, "PreToolUse", payload, noEnv); c.Workspace != repo {
		t.Errorf("workspace in a repository without .agents: %q, want its top level %q", c.Workspace, repo)
	}
	// A .agents folder marks the workspace before hooks.json is written in
	// it, as for hookctl's own commands.
	if err := os.MkdirAll(filepath.Join(repo, "src", ".agents"), 0o755); err != nil {
		t.Fatal(err)
	}
	if c, _ := Translate(schema.Codex, "PreToolUse", payload, noEnv); c.Workspace != filepath.Join(repo, "src") {
		t.Errorf("workspace below a .agents folder: %q, want %q", c.Workspace, filepath.Join(repo, "src"))
	}
}

func TestTranslateErrors(t *testing.T) {
	_, err := Translate(schema.Claude, "preToolUse", []byte(`{}`), noEnv)
	var ee *EventError
	if !errors.As(err, &ee) || ee.Near != "PreToolUse" || !strings.Contains(err.Error(), `"preToolUse" is not a Claude Code hook event`) {
		t.Errorf("lower-camel event: %v", err)
	}
	for payload, want := range map[string]string{
		"":                      "is empty",
		"[1,2]":                 `is not a JSON object (it starts with "[1,2]")`,
		`{"tool_name": "Bash",`: "is not valid JSON",
		`{"tool_input": {}}`:    "names no tool",
		`{"tool_name": "Bash", "tool_input": [1]}`: `has a "tool_input" that is not a JSON object`,
	} {
		_, err := Translate(schema.Claude, "PreToolUse", []byte(payload), noEnv)
		var pe *PayloadError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", payload, err, want)
		}
		if r := Failed(err); r.Exit != ExitError || len(r.Stdout) != 0 || !strings.HasPrefix(r.Stderr, "hookctl: the Claude Code PreToolUse payload on stdin ") {
			t.Errorf("%q: reply %+v", payload, r)
		}
	}
	// Unknown fields and fields of another type are ignored, not errors.
	c, err := Translate(schema.Claude, "PreToolUse", []byte(`{"tool_name": "Bash", "tool_input": {"command": "ls"}, "cwd": 7, "session_id": [], "new_field": {"x": 1}}`), noEnv)
	if err != nil || len(c.Payloads) != 1 {
		t.Errorf("defensive read: %v", err)
	}
}

func TestNoEquivalent(t *testing.T) {
	c, err := Translate(schema.Claude, "PreToolUse", []byte(`{"tool_name": "TodoWrite", "tool_input": {"todos": []}}`), noEnv)
	if err != nil {
		t.Fatal(err)
	}
	r := c.Reply(nil, nil)
	if len(c.Payloads) != 0 || r.Exit != ExitOK || len(r.Stdout) != 0 ||
		stderrOf(r) != "hookctl: Claude Code's tool TodoWrite has no equivalent here (there is no to-do tool): no hook runs for it, and Claude Code decides as it would without hooks\n" {
		t.Errorf("TodoWrite: %d payloads, reply %+v", len(c.Payloads), r)
	}
	c, err = Translate(schema.Claude, "TeammateIdle", []byte(`{}`), noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if r := c.Reply(nil, nil); r.Exit != ExitOK || len(r.Stdout) != 0 || !strings.Contains(stderrOf(r), "TeammateIdle has no equivalent here") {
		t.Errorf("TeammateIdle: %+v", r)
	}
	// An MCP tool is not in the table: it keeps its name, so a matcher
	// that selects every tool still sees it.
	c, _ = Translate(schema.Claude, "PreToolUse", []byte(`{"tool_name": "mcp__github__create_issue", "tool_input": {"title": "x"}}`), noEnv)
	if m := native(t, c.Payloads[0]); m["toolCall"].(map[string]any)["name"] != "mcp__github__create_issue" {
		t.Errorf("MCP tool: %s", c.Payloads[0])
	}
}

// answer is a merged PreToolUse answer as the runtime prints it.
func answer(s string) []json.RawMessage { return []json.RawMessage{json.RawMessage(s)} }

// TestPreToolUseReplies: what each agent reads for each decision.
func TestPreToolUseReplies(t *testing.T) {
	deny := `{"decision":"deny","reason":"recursive rm is blocked"}`
	allow := `{"decision":"allow","reason":"safe"}`
	ask := `{"decision":"ask"}`
	force := `{"decision":"force_ask","reason":"confirm the push"}`
	grant := `{"decision":"deny_unless_prior_grant"}`
	for _, tc := range []struct {
		agent          schema.Agent
		event, payload string
		answer         string
		stdout         string
		exit           int
		stderr         string
	}{
		// Claude Code: a deny is exit 2 with the reason alone on stderr.
		{schema.Claude, "PreToolUse", "claude/PreToolUse-Bash.json", deny, "", 2, "recursive rm is blocked\n"},
		{schema.Claude, "PreToolUse", "claude/PreToolUse-Bash.json", allow,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"safe"}}`, 0, ""},
		{schema.Claude, "PreToolUse", "claude/PreToolUse-Bash.json", ask, "", 0, ""},
		{schema.Claude, "PreToolUse", "claude/PreToolUse-Bash.json", force,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"confirm the push"}}`, 0, ""},
		{schema.Claude, "PreToolUse", "claude/PreToolUse-Bash.json", grant, "", 0, "deny_unless_prior_grant has no equivalent in Claude Code"},
		{schema.Claude, "PreToolUse", "claude/PreToolUse-Bash.json", `{"decision":"deny"}`, "", 2, "denied by a hook (hookctl run)\n"},
		{schema.Claude, "PermissionRequest", "claude/PermissionRequest-Bash.json", deny,
			`{"hookSpecificOutput":{"decision":{"behavior":"deny","message":"recursive rm is blocked"},"hookEventName":"PermissionRequest"}}`, 0, ""},
		{schema.Claude, "PermissionRequest", "claude/PermissionRequest-Bash.json", force, "", 0, ""},
		// Gemini CLI reads decision.
		{schema.Gemini, "BeforeTool", "gemini/BeforeTool-run_shell_command.json", deny, `{"decision":"deny","reason":"recursive rm is blocked"}`, 0, ""},
		{schema.Gemini, "BeforeTool", "gemini/BeforeTool-run_shell_command.json", allow, `{"decision":"allow"}`, 0, ""},
		{schema.Gemini, "BeforeTool", "gemini/BeforeTool-run_shell_command.json", ask, "", 0, ""},
		{schema.Gemini, "BeforeTool", "gemini/BeforeTool-run_shell_command.json", force, `{"decision":"ask","systemMessage":"confirm the push"}`, 0, ""},
		// Cursor reads permission, user_message and agent_message.
		{schema.Cursor, "beforeShellExecution", "cursor/beforeShellExecution.json", deny,
			`{"agent_message":"recursive rm is blocked","permission":"deny","user_message":"recursive rm is blocked"}`, 0, ""},
		{schema.Cursor, "beforeShellExecution", "cursor/beforeShellExecution.json", allow, `{"permission":"allow"}`, 0, ""},
		{schema.Cursor, "beforeShellExecution", "cursor/beforeShellExecution.json", ask, "", 0, ""},
		{schema.Cursor, "beforeShellExecution", "cursor/beforeShellExecution.json", force,
			`{"agent_message":"confirm the push","permission":"ask","user_message":"confirm the push"}`, 0, ""},
		{schema.Cursor, "preToolUse", "cursor/preToolUse-Shell.json", force,
			`{"permission":"ask","user_message":"confirm the push"}`, 0, "does not enforce it there today"},
		// Codex: its deny; it has no ask.
		{schema.Codex, "PreToolUse", "codex/PreToolUse-Bash.json", deny,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"recursive rm is blocked"}}`, 0, ""},
		{schema.Codex, "PreToolUse", "codex/PreToolUse-Bash.json", allow, "", 0, ""},
		{schema.Codex, "PreToolUse", "codex/PreToolUse-Bash.json", ask, "", 0, ""},
		{schema.Codex, "PreToolUse", "codex/PreToolUse-Bash.json", force, "", 0, "force_ask has no equivalent in Codex"},
	} {
		c, err := Translate(tc.agent, tc.event, sample(t, tc.payload), noEnv)
		if err != nil {
			t.Fatal(err)
		}
		r := c.Reply(answer(tc.answer), nil)
		if got := strings.TrimSuffix(string(r.Stdout), "\n"); got != tc.stdout || r.Exit != tc.exit || !strings.Contains(stderrOf(r), tc.stderr) || tc.stderr == "" && stderrOf(r) != "" {
			t.Errorf("%s %s %s:\n stdout %s\n exit %d\n stderr %q\nwant %s, %d, %q", tc.agent, tc.event, tc.answer, r.Stdout, r.Exit, stderrOf(r), tc.stdout, tc.exit, tc.stderr)
		}
	}
}

// TestOverwriteBack: an overwrite in this format's argument names reaches
// the agent in its own, as its whole tool input.
func TestOverwriteBack(t *testing.T) {
	c, _ := Translate(schema.Claude, "PreToolUse", sample(t, "claude/PreToolUse-Edit.json"), noEnv)
	r := c.Reply(answer(`{"decision":"allow","overwrite":{"ReplacementContent":"safer text"}}`), nil)
	want := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"file_path":"/home/user/my-project/src/index.ts","new_string":"safer text","old_string":"original text","replace_all":false}}}` + "\n"
	if string(r.Stdout) != want || stderrOf(r) != "" {
		t.Errorf("claude allow+overwrite:\n%s%s\nwant\n%s", r.Stdout, stderrOf(r), want)
	}
	// Without an allow (ask, or no decision at all), the rewritten call
	// goes without a permissionDecision: Claude Code's own permission
	// rules decide it, and nothing prompts that the user's settings would
	// not.
	for _, ans := range []string{
		`{"decision":"ask","overwrite":{"TargetFile":"/home/user/my-project/src/other.ts"}}`,
		`{"overwrite":{"TargetFile":"/home/user/my-project/src/other.ts"}}`,
	} {
		r = c.Reply(answer(ans), nil)
		want = `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"file_path":"/home/user/my-project/src/other.ts","new_string":"replacement text","old_string":"original text","replace_all":false}}}` + "\n"
		if string(r.Stdout) != want || stderrOf(r) != "" || r.Exit != 0 {
			t.Errorf("claude %s:\n%s%s\nwant\n%s", ans, r.Stdout, stderrOf(r), want)
		}
	}
	// force_ask asks, on the rewritten call.
	r = c.Reply(answer(`{"decision":"force_ask","reason":"check the path","overwrite":{"TargetFile":"/home/user/my-project/src/other.ts"}}`), nil)
	if !strings.Contains(string(r.Stdout), `"permissionDecision":"ask","permissionDecisionReason":"check the path","updatedInput":{"file_path":"/home/user/my-project/src/other.ts"`) {
		t.Errorf("claude force_ask+overwrite: %s %s", r.Stdout, stderrOf(r))
	}
	// An argument the agent's tool does not have is left out, with a note.
	c, _ = Translate(schema.Claude, "PreToolUse", sample(t, "claude/PreToolUse-Bash.json"), noEnv)
	// An overwrite the agent's tool cannot take whole is not sent, and the
	// allow given for it is withdrawn: no opinion.
	r = c.Reply(answer(`{"decision":"allow","overwrite":{"CommandLine":"npm ci","WaitMsBeforeAsync":10}}`), nil)
	if len(r.Stdout) != 0 || r.Exit != 0 ||
		!strings.Contains(stderrOf(r), "the overwrite of WaitMsBeforeAsync has no counterpart in Claude Code's Bash, so the overwrite is not sent") ||
		!strings.Contains(stderrOf(r), "the allow is withdrawn") {
		t.Errorf("claude Bash overwrite: %s %s", r.Stdout, stderrOf(r))
	}
	// Gemini CLI reads hookSpecificOutput.tool_input.
	c, _ = Translate(schema.Gemini, "BeforeTool", sample(t, "gemini/BeforeTool-run_shell_command.json"), noEnv)
	r = c.Reply(answer(`{"decision":"ask","overwrite":{"CommandLine":"rm -r build"}}`), nil)
	if !strings.Contains(string(r.Stdout), `{"hookSpecificOutput":{"tool_input":{"command":"rm -r build"`) {
		t.Errorf("gemini overwrite: %s %s", r.Stdout, stderrOf(r))
	}
	// Cursor's beforeShellExecution takes no rewrite: refused, with a note
	// (TestOverwriteNotToldWithdrawsAllow).
	// Codex reads updatedInput only with allow.
	c, _ = Translate(schema.Codex, "PreToolUse", sample(t, "codex/PreToolUse-Bash.json"), noEnv)
	r = c.Reply(answer(`{"decision":"allow","overwrite":{"CommandLine":"rm -ri /tmp/x"}}`), nil)
	if string(r.Stdout) != `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"rm -ri /tmp/x"}}}`+"\n" {
		t.Errorf("codex overwrite: %s %s", r.Stdout, stderrOf(r))
	}
	r = c.Reply(answer(`{"decision":"ask","overwrite":{"CommandLine":"rm -ri /tmp/x"}}`), nil)
	if len(r.Stdout) != 0 || !strings.Contains(stderrOf(r), "Codex reads updatedInput only with allow") {
		t.Errorf("codex ask overwrite: %s %s", r.Stdout, stderrOf(r))
	}
}

// TestOverwriteNotToldWithdrawsAllow: where an overwrite cannot be told
// back, the agent would run the call as it sent it, which the hooks did not
// allow: the allow is withdrawn (no opinion, never an approval), with a
// note, on every path that takes no rewrite. A deny stays a deny, and a
// force_ask still asks (the user sees the call the agent will run).
func TestOverwriteNotToldWithdrawsAllow(t *testing.T) {
	readFile := []byte(`{"hook_event_name":"beforeReadFile","workspace_roots":["/project"],"file_path":"/project/.env","content":"x"}`)
	allowRewrite := `{"decision":"allow","overwrite":{"CommandLine":"echo safe","AbsolutePath":"/project/README.md","TargetFile":"/project/b.txt"}}`
	for _, tc := range []struct {
		agent   schema.Agent
		event   string
		payload []byte
		why     string
	}{
		{schema.Cursor, "beforeShellExecution", sample(t, "cursor/beforeShellExecution.json"), "the overwrite is not sent: Cursor's beforeShellExecution takes no rewritten input"},
		{schema.Cursor, "beforeMCPExecution", sample(t, "cursor/beforeMCPExecution.json"), "the overwrite is not sent: Cursor's beforeMCPExecution takes no rewritten input"},
		{schema.Cursor, "beforeReadFile", readFile, "the overwrite is not sent: Cursor's beforeReadFile takes no rewritten input"},
		{schema.Codex, "PermissionRequest", sample(t, "codex/PermissionRequest-Bash.json"), "the overwrite is not sent: Codex's PermissionRequest takes no rewritten input"},
		{schema.Codex, "PreToolUse", sample(t, "codex/PreToolUse-apply_patch.json"), "cannot be told back"},
	} {
		c, err := Translate(tc.agent, tc.event, tc.payload, noEnv)
		if err != nil {
			t.Fatal(err)
		}
		answers := answer(allowRewrite)
		if len(c.Payloads) > 1 {
			answers = nil
			for range c.Payloads {
				answers = append(answers, json.RawMessage(allowRewrite))
			}
		}
		r := c.Reply(answers, nil)
		if len(r.Stdout) != 0 || r.Exit != ExitOK || !strings.Contains(stderrOf(r), tc.why) ||
			!strings.Contains(stderrOf(r), "the allow is withdrawn, since it was given for the rewritten arguments") {
			t.Errorf("%s %s allow+overwrite: stdout %q exit %d stderr %q", tc.agent, tc.event, r.Stdout, r.Exit, stderrOf(r))
		}
		// Without an overwrite, the allow stands.
		r = c.Reply(answer(`{"decision":"allow"}`), nil)
		if len(c.Payloads) == 1 && (strings.Contains(stderrOf(r), "withdrawn") || len(r.Stdout) == 0) {
			t.Errorf("%s %s: %q", tc.agent, tc.event, stderrOf(r))
		}
	}
	c, _ := Translate(schema.Cursor, "beforeShellExecution", sample(t, "cursor/beforeShellExecution.json"), noEnv)
	r := c.Reply(answer(`{"decision":"allow"}`), nil)
	if string(r.Stdout) != `{"permission":"allow"}`+"\n" || stderrOf(r) != "" {
		t.Errorf("cursor plain allow: %s %s", r.Stdout, stderrOf(r))
	}
	r = c.Reply(answer(`{"decision":"deny","reason":"no","overwrite":{"CommandLine":"echo safe"}}`), nil)
	if !strings.Contains(string(r.Stdout), `"permission":"deny"`) {
		t.Errorf("cursor deny+overwrite: %s %s", r.Stdout, stderrOf(r))
	}
	r = c.Reply(answer(`{"decision":"force_ask","reason":"check","overwrite":{"CommandLine":"echo safe"}}`), nil)
	if !strings.Contains(string(r.Stdout), `"permission":"ask"`) || !strings.Contains(stderrOf(r), "the overwrite is not sent") {
		t.Errorf("cursor force_ask+overwrite: %s %s", r.Stdout, stderrOf(r))
	}
	// A patch of several files whose allow came with an overwrite of one
	// of them: the overwrite is left out, so is the allow.
	c, _ = Translate(schema.Codex, "PreToolUse", sample(t, "codex/PreToolUse-apply_patch.json"), noEnv)
	if len(c.Payloads) > 1 {
		answers := []json.RawMessage{json.RawMessage(`{"decision":"allow","overwrite":{"TargetFile":"/x"}}`)}
		for range c.Payloads[1:] {
			answers = append(answers, json.RawMessage(`{"decision":"allow"}`))
		}
		r = c.Reply(answers, nil)
		if len(r.Stdout) != 0 || !strings.Contains(stderrOf(r), "withdrawn") {
			t.Errorf("patch allow+overwrite: %s %s", r.Stdout, stderrOf(r))
		}
	}
}

// TestPatchCombines: a patch of several files is denied when one of its
// files is.
func TestPatchCombines(t *testing.T) {
	c, err := Translate(schema.Codex, "PreToolUse", sample(t, "codex/PreToolUse-apply_patch.json"), noEnv)
	if err != nil {
		t.Fatal(err)
	}
	r := c.Reply([]json.RawMessage{json.RawMessage(`{"decision":"allow"}`), json.RawMessage(`{"decision":"ask"}`),
		json.RawMessage(`{"decision":"deny","reason":".env is protected"}`)}, nil)
	if !strings.Contains(string(r.Stdout), `"permissionDecision":"deny","permissionDecisionReason":".env is protected"`) {
		t.Errorf("patch: %s %s", r.Stdout, stderrOf(r))
	}
}

// TestPatchReachesFileGates: every file a patch adds, updates, deletes or
// moves (under both names) is a call of a file-writing tool, so that the
// gates import makes of an apply_patch matcher see each of them.
func TestPatchReachesFileGates(t *testing.T) {
	patch := "*** Begin Patch\n*** Add File: new.txt\n+hi\n*** Update File: src/a.go\n*** Move to: src/b.go\n@@\n-old\n+new\n" +
		"*** Update File: keep.go\n@@\n-x\n+y\n*** Delete File: secrets/.env\n*** End Patch\n"
	payload, _ := json.Marshal(map[string]any{"session_id": "s", "cwd": "/ws", "hook_event_name": "PreToolUse",
		"tool_name": "apply_patch", "tool_input": map[string]any{"command": patch}})
	c, err := Translate(schema.Codex, "PreToolUse", payload, noEnv)
	if err != nil {
		t.Fatal(err)
	}
	gate, err := schema.CompileMatcher("write_to_file|replace_file_content|multi_replace_file_content")
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	for _, p := range c.Payloads {
		m := native(t, p)
		call := m["toolCall"].(map[string]any)
		if !gate.Match(call["name"].(string)) {
			t.Errorf("%s is not selected by the gate an apply_patch matcher becomes", call["name"])
		}
		seen = append(seen, call["name"].(string)+" "+call["args"].(map[string]any)["TargetFile"].(string))
	}
	want := []string{"write_to_file /ws/new.txt", "replace_file_content /ws/src/a.go", "write_to_file /ws/src/b.go",
		"replace_file_content /ws/keep.go", "write_to_file /ws/secrets/.env"}
	if !reflect.DeepEqual(seen, want) {
		t.Errorf("calls %q, want %q", seen, want)
	}
}

// TestPatchReasonOnce: two files of a patch denied by one gate for the same
// reason give the reason once.
func TestPatchReasonOnce(t *testing.T) {
	c, err := Translate(schema.Codex, "PreToolUse", sample(t, "codex/PreToolUse-apply_patch.json"), noEnv)
	if err != nil {
		t.Fatal(err)
	}
	deny := json.RawMessage(`{"decision":"deny","reason":"the repository is frozen"}`)
	r := c.Reply([]json.RawMessage{deny, deny, json.RawMessage(`{"decision":"deny","reason":"the repository is frozen\n.env is protected"}`)}, nil)
	want := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"the repository is frozen\n.env is protected"}}` + "\n"
	if string(r.Stdout) != want {
		t.Errorf("stdout %s, want %s", r.Stdout, want)
	}
}

func TestContextReplies(t *testing.T) {
	inject := `{"injectSteps":[{"ephemeralMessage":"Run the linter before you finish."},{"toolCall":{"name":"list_dir","args":{}}}]}`
	for _, tc := range []struct {
		agent          schema.Agent
		event, payload string
		answer         string
		stdout, stderr string
		exit           int
	}{
		{schema.Claude, "UserPromptSubmit", "claude/UserPromptSubmit.json", inject,
			`{"hookSpecificOutput":{"additionalContext":"Run the linter before you finish.","hookEventName":"UserPromptSubmit"}}`, "injected tool call (list_dir) has no equivalent in Claude Code", 0},
		{schema.Claude, "SessionStart", "claude/SessionStart.json", `{}`, "", "", 0},
		{schema.Gemini, "BeforeAgent", "gemini/BeforeAgent.json", inject,
			`{"hookSpecificOutput":{"additionalContext":"Run the linter before you finish.","hookEventName":"BeforeAgent"}}`, "list_dir", 0},
		{schema.Cursor, "sessionStart", "cursor/sessionStart.json", `{"injectSteps":[{"ephemeralMessage":"hello"}]}`, `{"additional_context":"hello"}`, "", 0},
		{schema.Claude, "Stop", "claude/Stop.json", `{"decision":"continue","reason":"tests fail"}`, "", "tests fail\n", 2},
		{schema.Claude, "Stop", "claude/Stop.json", `{"decision":"allow"}`, "", "", 0},
		{schema.Codex, "Stop", "codex/Stop.json", `{"decision":"continue","reason":"tests fail"}`, `{"decision":"block","reason":"tests fail"}`, "", 0},
		{schema.Gemini, "AfterAgent", "gemini/AfterAgent.json", `{"decision":"continue","reason":"tests fail"}`, `{"decision":"deny","reason":"tests fail"}`, "", 0},
		{schema.Cursor, "stop", "cursor/stop.json", `{"decision":"continue","reason":"tests fail"}`, `{"followup_message":"tests fail"}`, "", 0},
	} {
		c, err := Translate(tc.agent, tc.event, sample(t, tc.payload), noEnv)
		if err != nil {
			t.Fatal(err)
		}
		r := c.Reply(answer(tc.answer), nil)
		if got := strings.TrimSuffix(string(r.Stdout), "\n"); got != tc.stdout || r.Exit != tc.exit || !strings.Contains(stderrOf(r), tc.stderr) {
			t.Errorf("%s %s: stdout %s exit %d stderr %q; want %s %d %q", tc.agent, tc.event, r.Stdout, r.Exit, stderrOf(r), tc.stdout, tc.exit, tc.stderr)
		}
	}
}

// TestEveryAgentNoEquivalentAndBroken: for each agent, a tool with no
// equivalent is no opinion with one line on stderr, and a broken payload is
// exit 1 (a failed hook, never a block) with a clear message.
func TestEveryAgentNoEquivalentAndBroken(t *testing.T) {
	for _, tc := range []struct {
		agent schema.Agent
		event string
		tool  string
	}{
		{schema.Claude, "PreToolUse", "TodoWrite"},
		{schema.Gemini, "BeforeTool", "save_memory"},
		{schema.Cursor, "preToolUse", "EditNotebook"},
		{schema.Codex, "PreToolUse", "update_plan"},
	} {
		c, err := Translate(tc.agent, tc.event, []byte(`{"cwd": "/p", "workspace_roots": ["/p"], "tool_name": "`+tc.tool+`", "tool_input": {}}`), noEnv)
		if err != nil {
			t.Fatal(err)
		}
		r := c.Reply(nil, nil)
		if len(c.Payloads) != 0 || r.Exit != ExitOK || len(r.Stdout) != 0 || strings.Count(stderrOf(r), "\n") != 1 ||
			!strings.Contains(stderrOf(r), tc.agent.Title()+"'s tool "+tc.tool+" has no equivalent here") {
			t.Errorf("%s %s: %d payloads, %+v", tc.agent, tc.tool, len(c.Payloads), r)
		}
		_, err = Translate(tc.agent, tc.event, []byte(`{"tool_name": `), noEnv)
		r = Failed(err)
		if r.Exit != ExitError || len(r.Stdout) != 0 || !strings.Contains(stderrOf(r), "hookctl: the "+tc.agent.Title()+" "+tc.event+" payload on stdin is not valid JSON") {
			t.Errorf("%s broken payload: %+v", tc.agent, r)
		}
	}
}

// stderrOf is what the agent would read on stderr with hookctl's notes
// there.
func stderrOf(r Reply) string {
	out := r.Stderr
	for _, n := range r.Notes {
		out += "hookctl: " + n + "\n"
	}
	return out
}
