package adapter

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/schema"
)

// TestRoundTrip: every sample payload of every agent, translated as
// run --from translates it, reaches a handler adapted for the same agent
// and event byte for byte, its white space included.
func TestRoundTrip(t *testing.T) {
	files, err := filepath.Glob("testdata/*/*.json")
	if err != nil || len(files) == 0 {
		t.Fatal("no samples", err)
	}
	for _, f := range files {
		agent := schema.Agent(filepath.Base(filepath.Dir(f)))
		event, _, _ := strings.Cut(strings.TrimSuffix(filepath.Base(f), ".json"), "-")
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, orig := range [][]byte{raw, append(append([]byte(" \n\t"), bytes.TrimSpace(raw)...), "\r\n\n"...)} {
			c, err := Translate(agent, event, orig, noEnv)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			for _, p := range c.Payloads {
				if !json.Valid(p) {
					t.Fatalf("%s: the payload is not JSON: %s", f, p)
				}
				env := Env{Getenv: func(k string) string {
					if k == "HOOKCTL_EVENT" {
						return string(c.Event)
					}
					return ""
				}}
				for _, ev := range []string{event, ""} {
					ad, err := Adapt(agent, ev, p, env)
					if err != nil {
						t.Fatalf("%s (--event %q): %v", f, ev, err)
					}
					if !ad.Verbatim || !bytes.Equal(ad.Payload, orig) {
						t.Errorf("%s (--event %q): the handler reads\n%q\nnot the agent's\n%q", f, ev, ad.Payload, orig)
					}
				}
			}
		}
	}
}

// TestOriginOfOtherPayloads: a payload of this format with no "from", or
// one hookctl did not write, has no origin.
func TestOriginOfOtherPayloads(t *testing.T) {
	for _, p := range []string{
		`{"toolCall":{"name":"run_command","args":{}}}`,
		`{"from":"claude"}`,
		`{"from":{"agent":"vim","event":"x","payload":{}}}`,
		`{"from":{"agent":"claude","event":"Stop","payload":[1]}}`,
		`{"from":`,
	} {
		if o, ok := ReadOrigin([]byte(p)); ok {
			t.Errorf("%s: origin %+v", p, o)
		}
	}
}

func envOf(vars map[string]string) Env {
	return Env{Getenv: func(k string) string { return vars[k] }}
}

// TestAdaptBuilds: a payload of this format becomes each agent's, in the
// agent's names.
func TestAdaptBuilds(t *testing.T) {
	shell := `{"toolCall":{"name":"run_command","args":{"CommandLine":"rm -rf build","Cwd":"/ws/sub","WaitMsBeforeAsync":500}},"stepIdx":3,"conversationId":"c-1","workspacePaths":["/ws"],"transcriptPath":"/t.jsonl","artifactDirectoryPath":"","modelName":"gemini-3"}`
	write := `{"toolCall":{"name":"write_to_file","args":{"TargetFile":"/ws/a/b.txt","CodeContent":"one\ntwo","Overwrite":false}},"stepIdx":0,"conversationId":"c-1","workspacePaths":["/ws"],"transcriptPath":"","artifactDirectoryPath":"","modelName":""}`
	stop := `{"executionNum":2,"terminationReason":"model_stop","fullyIdle":true,"conversationId":"c-1","workspacePaths":["/ws"],"transcriptPath":"","artifactDirectoryPath":"","modelName":""}`
	for _, tc := range []struct {
		agent   schema.Agent
		event   string
		payload string
		want    map[string]any
	}{
		{schema.Claude, "PreToolUse", shell, map[string]any{"session_id": "c-1", "cwd": "/ws", "hook_event_name": "PreToolUse", "tool_name": "Bash",
			"tool_input": map[string]any{"command": "rm -rf build"}}},
		{schema.Gemini, "BeforeTool", shell, map[string]any{"session_id": "c-1", "hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
			"tool_input": map[string]any{"command": "rm -rf build", "dir_path": "/ws/sub"}}},
		{schema.Cursor, "preToolUse", shell, map[string]any{"conversation_id": "c-1", "workspace_roots": []any{"/ws"}, "tool_name": "Shell",
			"tool_input": map[string]any{"command": "rm -rf build", "working_directory": "/ws/sub"}}},
		{schema.Cursor, "beforeShellExecution", shell, map[string]any{"command": "rm -rf build", "cwd": "/ws/sub", "hook_event_name": "beforeShellExecution"}},
		{schema.Codex, "PreToolUse", shell, map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "rm -rf build"}, "model": "gemini-3"}},
		{schema.Claude, "PreToolUse", write, map[string]any{"tool_name": "Write", "tool_input": map[string]any{"file_path": "/ws/a/b.txt", "content": "one\ntwo"}}},
		{schema.Codex, "PreToolUse", write, map[string]any{"tool_name": "apply_patch",
			"tool_input": map[string]any{"command": "*** Begin Patch\n*** Add File: a/b.txt\n+one\n+two\n*** End Patch\n"}}},
		{schema.Claude, "Stop", stop, map[string]any{"stop_hook_active": true, "hook_event_name": "Stop"}},
		{schema.Cursor, "stop", stop, map[string]any{"loop_count": json.Number("1"), "status": "completed"}},
		{schema.Gemini, "AfterAgent", stop, map[string]any{"stop_hook_active": true, "prompt_response": ""}},
	} {
		ad, err := Adapt(tc.agent, tc.event, []byte(tc.payload), envOf(nil))
		if err != nil {
			t.Fatalf("%s %s: %v", tc.agent, tc.event, err)
		}
		var got map[string]any
		d := json.NewDecoder(bytes.NewReader(ad.Payload))
		d.UseNumber()
		if err := d.Decode(&got); err != nil {
			t.Fatalf("%s %s: %s: %v", tc.agent, tc.event, ad.Payload, err)
		}
		for k, v := range tc.want {
			if !sameJSONValue(got[k], v) {
				t.Errorf("%s %s: %s = %s, want %s (payload %s)", tc.agent, tc.event, k, encode(got[k]), encode(v), ad.Payload)
			}
		}
	}
}

// TestAdaptAfterOverwrite: when a hook rewrote the call since run --from
// made it, the handler reads the rewritten call, in the agent's payload
// otherwise kept as it came.
func TestAdaptAfterOverwrite(t *testing.T) {
	c, err := Translate(schema.Claude, "PreToolUse", sample(t, "claude/PreToolUse-Bash.json"), noEnv)
	if err != nil {
		t.Fatal(err)
	}
	p := bytes.Replace(c.Payloads[0], []byte(`"CommandLine":"npm test"`), []byte(`"CommandLine":"npm test -- --ci"`), 1)
	ad, err := Adapt(schema.Claude, "PreToolUse", p, noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if ad.Verbatim {
		t.Fatal("the rewritten call reached the handler as the agent's original")
	}
	m := native(t, ad.Payload)
	in := m["tool_input"].(map[string]any)
	if in["command"] != "npm test -- --ci" || in["description"] != "Run test suite" || m["tool_use_id"] != "toolu_01ABC123" || m["prompt_id"] == nil {
		t.Errorf("payload %s", ad.Payload)
	}
}

// TestAdaptLendsThePrompt: a handler for one agent served by run --from
// of another reads the prompt the other agent sent.
func TestAdaptLendsThePrompt(t *testing.T) {
	c, err := Translate(schema.Gemini, "BeforeAgent", sample(t, "gemini/BeforeAgent.json"), noEnv)
	if err != nil {
		t.Fatal(err)
	}
	ad, err := Adapt(schema.Claude, "UserPromptSubmit", c.Payloads[0], noEnv)
	if err != nil {
		t.Fatal(err)
	}
	want := input(map[string]json.RawMessage{})
	_ = want
	in, _ := readInput(sample(t, "gemini/BeforeAgent.json"))
	if got := native(t, ad.Payload)["prompt"]; got != in.str("prompt") || got == "" {
		t.Errorf("prompt %q, want %q", got, in.str("prompt"))
	}
}

// TestAdaptEvent: the event comes from --event, HOOKCTL_EVENT or the
// payload; one that does not fit is refused.
func TestAdaptEvent(t *testing.T) {
	pre := []byte(`{"toolCall":{"name":"view_file","args":{"AbsolutePath":"/ws/x"}},"workspacePaths":["/ws"]}`)
	stop := []byte(`{"executionNum":1,"terminationReason":"model_stop","fullyIdle":true}`)
	for _, tc := range []struct {
		agent   schema.Agent
		event   string
		env     map[string]string
		payload []byte
		foreign string
		err     string
	}{
		{schema.Claude, "", map[string]string{"HOOKCTL_EVENT": "PreToolUse"}, pre, "PreToolUse", ""},
		{schema.Cursor, "", map[string]string{"HOOKCTL_EVENT": "PreToolUse"}, pre, "preToolUse", ""},
		{schema.Gemini, "", nil, stop, "AfterAgent", ""},
		{schema.Claude, "", nil, pre, "", "name it with --event"},
		{schema.Claude, "Stop", map[string]string{"HOOKCTL_EVENT": "PreToolUse"}, pre, "", "which is Stop here, but it runs for PreToolUse"},
		{schema.Claude, "preToolUse", nil, pre, "", "did you mean PreToolUse?"},
		{schema.Claude, "Notification", nil, pre, "", "has no equivalent here"},
		{schema.Claude, "", map[string]string{"HOOKCTL_EVENT": "PostInvocation"}, []byte(`{"invocationNum":1}`), "", "Claude Code has no event for PostInvocation"},
	} {
		ad, err := Adapt(tc.agent, tc.event, tc.payload, envOf(tc.env))
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s %q: error %v, want %q", tc.agent, tc.event, err, tc.err)
		case tc.err == "" && err != nil:
			t.Errorf("%s %q: %v", tc.agent, tc.event, err)
		case tc.err == "" && ad.Foreign != tc.foreign:
			t.Errorf("%s %q: event %s, want %s", tc.agent, tc.event, ad.Foreign, tc.foreign)
		}
	}
	// Cursor's beforeShellExecution is about run_command alone.
	ad, err := Adapt(schema.Cursor, "beforeShellExecution", pre, envOf(nil))
	if err != nil || ad.Skip == "" {
		t.Errorf("beforeShellExecution on view_file: %v %+v", err, ad)
	}
}

// TestAnswers reads real answers of each agent by its rules: the decision
// each agent reaches becomes this format's, and what has no equivalent is
// a note that changes nothing.
func TestAnswers(t *testing.T) {
	shell := []byte(`{"toolCall":{"name":"run_command","args":{"CommandLine":"rm -rf /","Cwd":"/ws"}},"workspacePaths":["/ws"]}`)
	stop := []byte(`{"executionNum":1,"terminationReason":"model_stop","fullyIdle":true,"workspacePaths":["/ws"]}`)
	prompt := []byte(`{"invocationNum":0,"initialNumSteps":1,"workspacePaths":["/ws"]}`)
	start := []byte(`{"conversationId":"c","workspacePaths":["/ws"]}`)
	for _, tc := range []struct {
		agent          schema.Agent
		event          string
		payload        []byte
		stdout, stderr string
		exit           int
		want           string // this format's answer
		fail           bool
		note           string
	}{
		// Claude Code.
		{schema.Claude, "PreToolUse", shell, "", "Use rg instead\n", 2, `{"decision":"deny","reason":"Use rg instead"}`, false, ""},
		{schema.Claude, "PreToolUse", shell, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`, "", 0, `{"decision":"deny","reason":"no"}`, false, ""},
		{schema.Claude, "PreToolUse", shell, `{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"sure?"}}`, "", 0, `{"decision":"force_ask","reason":"sure?"}`, false, ""},
		{schema.Claude, "PreToolUse", shell, `{"hookSpecificOutput":{"permissionDecision":"allow"}}`, "", 0, `{"decision":"allow"}`, false, ""},
		{schema.Claude, "PreToolUse", shell, `{"hookSpecificOutput":{"permissionDecision":"defer"}}`, "", 0, ``, false, "defer"},
		{schema.Claude, "PreToolUse", shell, `{"decision":"block","reason":"old form"}`, "", 0, `{"decision":"deny","reason":"old form"}`, false, ""},
		{schema.Claude, "PreToolUse", shell, `{"decision":"approve"}`, "", 0, `{"decision":"allow"}`, false, ""},
		{schema.Claude, "PreToolUse", shell, `{"hookSpecificOutput":{"permissionDecision":"allow","updatedInput":{"command":"rm -rf ./build"}}}`, "", 0,
			`{"decision":"allow","overwrite":{"CommandLine":"rm -rf ./build"}}`, false, ""},
		{schema.Claude, "PreToolUse", shell, `{"hookSpecificOutput":{"updatedInput":{"command":"echo safe"}}}`, "", 0,
			`{"decision":"ask","overwrite":{"CommandLine":"echo safe"}}`, false, ""},
		{schema.Claude, "PreToolUse", shell, `{"continue":false,"stopReason":"halt","hookSpecificOutput":{"permissionDecision":"allow"}}`, "", 0, `{"decision":"allow"}`, false, "stops the agent altogether"},
		{schema.Claude, "PreToolUse", shell, "", "boom\n", 1, "", true, ""},
		{schema.Claude, "PreToolUse", shell, "not json", "", 0, "", false, ""},
		{schema.Claude, "Stop", stop, `{"decision":"block","reason":"tests fail"}`, "", 0, `{"decision":"continue","reason":"tests fail"}`, false, ""},
		{schema.Claude, "Stop", stop, "", "keep going\n", 2, `{"decision":"continue","reason":"keep going"}`, false, ""},
		{schema.Claude, "UserPromptSubmit", prompt, "Current time: noon\n", "", 0, `{"injectSteps":[{"ephemeralMessage":"Current time: noon"}]}`, false, ""},
		{schema.Claude, "UserPromptSubmit", prompt, `{"decision":"block","reason":"secret in prompt"}`, "", 0, ``, false, "PreInvocation here cannot block"},
		{schema.Claude, "SessionStart", start, `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"Use pnpm."}}`, "", 0,
			`{"injectSteps":[{"ephemeralMessage":"Use pnpm."}]}`, false, ""},
		{schema.Claude, "PostToolUse", shell, `{"decision":"block","reason":"lint failed"}`, "", 0, ``, false, "already ran"},
		// Gemini CLI.
		{schema.Gemini, "BeforeTool", shell, `{"decision":"block","reason":"File writing blocked by security policy"}`, "", 0, `{"decision":"deny","reason":"File writing blocked by security policy"}`, false, ""},
		{schema.Gemini, "BeforeTool", shell, "", `{"decision":"deny","reason":"blocked on stderr"}`, 2, `{"decision":"deny","reason":"blocked on stderr"}`, false, ""},
		{schema.Gemini, "BeforeTool", shell, "", "plain reason\n", 2, `{"decision":"deny","reason":"plain reason"}`, false, ""},
		{schema.Gemini, "BeforeTool", shell, `{"decision":"allow","systemMessage":"logged"}`, "", 0, `{"decision":"allow"}`, false, "shows a message to the user"},
		{schema.Gemini, "BeforeTool", shell, `{"decision":"ask","reason":"confirm"}`, "", 0, `{"decision":"force_ask","reason":"confirm"}`, false, ""},
		{schema.Gemini, "BeforeTool", shell, "", "", 1, "", true, ""},
		{schema.Gemini, "BeforeTool", shell, "Pollution\n{\"decision\":\"deny\"}", "", 0, "", false, "system message"},
		{schema.Gemini, "AfterAgent", stop, `{"decision":"block","reason":"add a summary","systemMessage":"retrying"}`, "", 0, `{"decision":"continue","reason":"add a summary"}`, false, "shows a message"},
		{schema.Gemini, "AfterAgent", stop, `{"continue":false,"stopReason":"done"}`, "", 0, ``, false, ""},
		{schema.Gemini, "BeforeTool", shell, `{"continue":false,"stopReason":"stop all"}`, "", 0, ``, false, "stops the whole agent loop"},
		{schema.Gemini, "BeforeAgent", prompt, `{"hookSpecificOutput":{"hookEventName":"BeforeAgent","additionalContext":"Recent commits: x"}}`, "", 0,
			`{"injectSteps":[{"ephemeralMessage":"Recent commits: x"}]}`, false, ""},
		// Cursor.
		{schema.Cursor, "beforeShellExecution", shell, `{"permission":"deny","user_message":"no","agent_message":"not allowed"}`, "", 0, `{"decision":"deny","reason":"not allowed"}`, false, ""},
		{schema.Cursor, "beforeShellExecution", shell, `{"permission":"ask","user_message":"sure?"}`, "", 0, `{"decision":"force_ask","reason":"sure?"}`, false, ""},
		{schema.Cursor, "beforeShellExecution", shell, "", "", 2, `{"decision":"deny","reason":"denied by a Cursor hook"}`, false, ""},
		{schema.Cursor, "stop", stop, `{"followup_message":"run the tests"}`, "", 0, `{"decision":"continue","reason":"run the tests"}`, false, ""},
		{schema.Cursor, "sessionStart", start, `{"additional_context":"hello"}`, "", 0, `{"injectSteps":[{"ephemeralMessage":"hello"}]}`, false, ""},
		// Codex.
		{schema.Codex, "PreToolUse", shell, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"do not run that"}}`, "", 0,
			`{"decision":"deny","reason":"do not run that"}`, false, ""},
		{schema.Codex, "PreToolUse", shell, `{"hookSpecificOutput":{"permissionDecision":"allow"}}`, "", 0, ``, false, "only with updatedInput"},
		{schema.Codex, "PreToolUse", shell, `{"hookSpecificOutput":{"permissionDecision":"allow","updatedInput":{"command":"echo rewritten"}}}`, "", 0,
			`{"decision":"allow","overwrite":{"CommandLine":"echo rewritten"}}`, false, ""},
		{schema.Codex, "PreToolUse", shell, `{"hookSpecificOutput":{"permissionDecision":"ask"}}`, "", 0, ``, false, "does not support it"},
		{schema.Codex, "PreToolUse", shell, `{"decision":"block","reason":"do not run that"}`, "", 0, `{"decision":"deny","reason":"do not run that"}`, false, ""},
		{schema.Codex, "PreToolUse", shell, "{\"decision\":\n", "", 0, "", true, ""},
		{schema.Codex, "PreToolUse", shell, "", "", 2, "", true, ""},
		{schema.Codex, "PreToolUse", shell, "hook ran successfully\n", "", 0, "", false, ""},
		{schema.Codex, "UserPromptSubmit", prompt, "plain context\n", "", 0, `{"injectSteps":[{"ephemeralMessage":"plain context"}]}`, false, ""},
		{schema.Codex, "Stop", stop, `{"decision":"block","reason":"again"}`, "", 0, `{"decision":"continue","reason":"again"}`, false, ""},
	} {
		ad, err := Adapt(tc.agent, tc.event, tc.payload, envOf(nil))
		if err != nil {
			t.Fatalf("%s %s: %v", tc.agent, tc.event, err)
		}
		ans := ad.Answer(Ending{Stdout: []byte(tc.stdout), Stderr: []byte(tc.stderr), Exit: tc.exit})
		name := string(tc.agent) + " " + tc.event + " " + tc.stdout + tc.stderr
		if got := strings.TrimSuffix(string(ans.Stdout), "\n"); got != tc.want {
			t.Errorf("%s: answer %s, want %s (notes %q)", name, got, tc.want, ans.Notes)
		}
		if (ans.Exit != 0) != tc.fail || (ans.Failure != "") != tc.fail {
			t.Errorf("%s: exit %d failure %q, want failed %v", name, ans.Exit, ans.Failure, tc.fail)
		}
		if notes := strings.Join(ans.Notes, "\n"); tc.note != "" && !strings.Contains(notes, tc.note) || tc.note == "" && notes != "" {
			t.Errorf("%s: notes %q, want %q", name, notes, tc.note)
		}
	}
}
