//go:build unix

package runtime

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/schema"
)

func TestSequentialStopsAtTheFirstDeny(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		second  string
		onError OnError
		stops   bool
	}{
		{"an answered deny", `echo '{"decision":"deny","reason":"no"}'`, OnErrorDeny, true},
		{"exit 2", `echo no >&2; exit 2`, OnErrorDeny, true},
		{"a failure under --on-error deny", `exit 1`, OnErrorDeny, true},
		{"a failure under --on-error ask", `exit 1`, OnErrorAsk, false},
		{"a force_ask", `echo '{"decision":"force_ask"}'`, OnErrorDeny, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			e.workspace(hooks(
				hookEntry{name: "a", event: pre, command: `echo '{"decision":"allow"}'`},
				hookEntry{name: "b", event: pre, command: tt.second},
				hookEntry{name: "c", event: pre, command: `touch ../c.ran`},
			))
			for _, seq := range []bool{true, false} {
				_ = os.Remove(filepath.Join(e.ws, "c.ran"))
				opts := e.opts()
				opts.Sequential, opts.OnError = seq, tt.onError
				res := e.dispatch(pre, e.payload(pre, "run_command"), opts)
				_, err := os.Stat(filepath.Join(e.ws, "c.ran"))
				ran := err == nil
				if want := !(seq && tt.stops); ran != want {
					t.Errorf("sequential=%v: c ran %v, want %v", seq, ran, want)
				}
				c := outcomeOf(t, res, "c")
				if seq && tt.stops && c.Kind != Skipped {
					t.Errorf("c's outcome %v, want not run", c.Kind)
				}
			}
		})
	}
}

func TestSequentialStopOnlyForPreToolUse(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.workspace(hooks(
		hookEntry{name: "a", event: schema.Stop, command: `echo again >&2; exit 2`},
		hookEntry{name: "b", event: schema.Stop, command: `echo '{"decision":"continue","reason":"b too"}'`},
	))
	opts := e.opts()
	opts.Sequential = true
	res := e.dispatch(schema.Stop, e.payload(schema.Stop, ""), opts)
	if want := `{"decision":"continue","reason":"again\nb too"}`; string(res.Answer) != want {
		t.Errorf("answer %s, want %s", res.Answer, want)
	}
}

func TestSequentialPassesEarlierOverwrites(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.workspace(hooks(
		hookEntry{name: "a", event: pre, command: `cat > ../a.in; echo '{"decision":"allow","overwrite":{"CommandLine":"npm test -- --ci","Extra":[1, 2]}}'`},
		hookEntry{name: "b", event: pre, command: `cat > ../b.in; echo '{"decision":"ask","overwrite":{"Cwd":"/b"}}'`},
		hookEntry{name: "c", event: pre, command: `cat > ../c.in`},
	))
	payload := []byte(`{"toolCall": {"name": "run_command", "args": {"Cwd": "/tmp", "CommandLine": "npm test"}}, "stepIdx": 3}`)
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(e.ws, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}

	opts := e.opts()
	opts.Sequential = true
	res := e.dispatch(pre, payload, opts)
	if read("a.in") != string(payload) {
		t.Errorf("the first handler got %s, want the payload as received", read("a.in"))
	}
	if want := `{"toolCall": {"name": "run_command", "args": {"Cwd":"/tmp","CommandLine":"npm test -- --ci","Extra":[1,2]}}, "stepIdx": 3}`; read("b.in") != want {
		t.Errorf("the second handler got\n%s\nwant\n%s", read("b.in"), want)
	}
	if want := `{"toolCall": {"name": "run_command", "args": {"Cwd":"/b","CommandLine":"npm test -- --ci","Extra":[1,2]}}, "stepIdx": 3}`; read("c.in") != want {
		t.Errorf("the third handler got\n%s\nwant\n%s", read("c.in"), want)
	}
	// The answer carries the overwrite of the winning decision's handlers.
	if want := `{"decision":"ask","overwrite":{"Cwd":"/b"}}`; string(res.Answer) != want {
		t.Errorf("answer %s, want %s", res.Answer, want)
	}

	// In parallel, everyone gets the payload as received.
	opts.Sequential = false
	e.dispatch(pre, payload, opts)
	for _, f := range []string{"a.in", "b.in", "c.in"} {
		if read(f) != string(payload) {
			t.Errorf("in parallel %s got %s", f, read(f))
		}
	}
}

func TestWithOverwrite(t *testing.T) {
	ow := []keyValue{{"CommandLine", json.RawMessage(`"ls -la"`)}, {"New", json.RawMessage(`{"a":1}`)}}
	tests := []struct {
		name, in, want string
	}{
		{"replaces and appends, bytes outside args kept",
			`{ "stepIdx" : 1, "toolCall": {"name": "run_command", "args": {"CommandLine": "ls", "Cwd": "/w"}} }`,
			`{ "stepIdx" : 1, "toolCall": {"name": "run_command", "args": {"CommandLine":"ls -la","Cwd":"/w","New":{"a":1}}} }`},
		{"no args",
			`{"toolCall": {"name": "x"}}`,
			`{"toolCall": {"args":{"CommandLine":"ls -la","New":{"a":1}},"name": "x"}}`},
		{"args not an object",
			`{"toolCall": {"name": "x", "args": null}}`,
			`{"toolCall": {"name": "x", "args": {"CommandLine":"ls -la","New":{"a":1}}}}`},
		{"a repeated key counts once, at its first place with the last value",
			`{"toolCall": {"name": "x", "args": {"Cwd": "/a", "CommandLine": "x", "Cwd": "/b"}}}`,
			`{"toolCall": {"name": "x", "args": {"CommandLine":"ls -la","Cwd":"/b","New":{"a":1}}}}`},
	}
	for _, tt := range tests {
		got, err := withOverwrite([]byte(tt.in), ow)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if string(got) != tt.want {
			t.Errorf("%s\n got %s\nwant %s", tt.name, got, tt.want)
		}
		if !json.Valid(got) {
			t.Errorf("%s: not valid JSON: %s", tt.name, got)
		}
	}
}

func TestPayloadNeverReachesACommandLine(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	canary := filepath.Join(e.ws, "PWNED")
	evil := func(s string) string {
		return s + `$(touch ` + canary + `)` + "`touch " + canary + "`" + `; touch ` + canary + ` && touch ` + canary + ` | touch ` + canary + `' " \ $HOME *` + "\n touch " + canary
	}
	cfg := filepath.Join(t.TempDir(), "hooks.json")
	// The handlers pass every field on as data, the way careless scripts
	// do: nothing may run.
	e.write(cfg, `{"h": {"PreToolUse": [{"hooks": [{"command": "cat > stdin.json; printf '%s' \"$HOOKCTL_WORKSPACE\" > ws.txt; echo '{\"decision\":\"allow\"}'"}]}]}}`)
	payload, err := json.Marshal(map[string]any{
		"toolCall": map[string]any{
			"name": evil("run_command"),
			"args": map[string]any{"CommandLine": evil("ls"), evil("key"): evil("v"), "Cwd": evil("/")},
		},
		"stepIdx":               evil("0"),
		"conversationId":        evil("id"),
		"workspacePaths":        []string{evil(e.ws + "/")},
		"transcriptPath":        evil("/t"),
		"artifactDirectoryPath": evil("/a"),
		"modelName":             evil("m"),
		evil("extra"):           evil("x"),
	})
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Configs: []string{cfg}, Home: e.home, Dir: e.ws}
	for _, seq := range []bool{false, true} {
		opts.Sequential = seq
		res := e.dispatch(pre, payload, opts)
		if string(res.Answer) != `{"decision":"allow"}` {
			t.Errorf("answer %s notes %q", res.Answer, res.Notes)
		}
	}
	if _, err := os.Stat(canary); err == nil {
		t.Fatal("a command from the payload ran")
	}
	got, _ := os.ReadFile(filepath.Join(filepath.Dir(cfg), "stdin.json"))
	if string(got) != string(payload) {
		t.Errorf("the handler did not get the payload as sent")
	}
	ws, _ := os.ReadFile(filepath.Join(filepath.Dir(cfg), "ws.txt"))
	if want := filepath.Clean(evil(e.ws + "/")); string(ws) != want {
		t.Errorf("HOOKCTL_WORKSPACE %q, want the payload's workspace as plain data %q", ws, want)
	}
	// The explanation prints the tool name as data too.
	plan, err := NewPlan(pre, payload, opts)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	_ = plan.Explain(&b)
	if _, err := os.Stat(canary); err == nil {
		t.Fatal("explaining ran a command from the payload")
	}
}

func TestParsePayload(t *testing.T) {
	tests := []struct {
		name    string
		event   schema.Event
		in      string
		err     string
		tool    string
		ws      string
		execNum int
	}{
		{"empty", schema.Stop, "  \n", "the payload is empty", "", "", 0},
		{"array", schema.Stop, `[1]`, "the payload must be a JSON object, not an array", "", "", 0},
		{"string", schema.Stop, `"x"`, "not a string", "", "", 0},
		{"null", schema.Stop, `null`, "not null", "", "", 0},
		{"text", schema.Stop, `hello`, `not text starting with "hello"`, "", "", 0},
		{"a word that starts like null", schema.Stop, `nope`, `not text starting with "nope", which is not JSON`, "", "", 0},
		{"a word that starts like a boolean", schema.Stop, `fine`, `not text starting with "fine", which is not JSON`, "", "", 0},
		{"invalid JSON", schema.Stop, "{\n  \"a\": 1,\n}", "the payload is not valid JSON: stdin:3:1: ", "", "", 0},
		{"two values", schema.Stop, `{} {}`, "the payload is not valid JSON", "", "", 0},
		{"tool event without toolCall", pre, `{}`, "a PreToolUse payload must name the tool in toolCall.name", "", "", 0},
		{"tool name not a string", schema.PostToolUse, `{"toolCall":{"name":1}}`, "must name the tool", "", "", 0},
		{"tool name empty", pre, `{"toolCall":{"name":""}}`, "must name the tool", "", "", 0},
		{"toolCall not an object", pre, `{"toolCall":"run_command"}`, "must name the tool", "", "", 0},
		{"a tool call", pre, `{"toolCall":{"name":"view_file"},"workspacePaths":["/w","/v"]}`, "", "view_file", "/w", 0},
		{"other events need no tool", schema.Stop, `{"executionNum": 3}`, "", "", "", 3},
		{"a wrong workspacePaths is left to handlers", schema.Stop, `{"workspacePaths": "/w", "executionNum": "x"}`, "", "", "", 0},
		{"executionNum as a float", schema.Stop, `{"executionNum": 9.0}`, "", "", "", 9},
		{"case matters", pre, `{"ToolCall":{"name":"x"}}`, "must name the tool", "", "", 0},
	}
	for _, tt := range tests {
		p, err := ParsePayload(tt.event, []byte(tt.in))
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: error %v, want %q", tt.name, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		ws := ""
		if len(p.WorkspacePaths) > 0 {
			ws = p.WorkspacePaths[0]
		}
		if p.Tool != tt.tool || ws != tt.ws || p.ExecutionNum != tt.execNum || string(p.Raw) != tt.in {
			t.Errorf("%s: got %+v", tt.name, p)
		}
	}
}

func TestCompletePayload(t *testing.T) {
	partial, err := ToolPayload("run_command", `{"CommandLine": "npm test"}`)
	if err != nil {
		t.Fatal(err)
	}
	got, err := CompletePayload(pre, partial, "/w", "/home/me")
	if err != nil {
		t.Fatal(err)
	}
	var p struct {
		ToolCall struct {
			Name string
			Args map[string]any
		}
		StepIdx               *int
		ConversationID        string
		WorkspacePaths        []string
		TranscriptPath        string
		ArtifactDirectoryPath string
		ModelName             string
	}
	if err := json.Unmarshal(got, &p); err != nil {
		t.Fatal(err)
	}
	brain := "/home/me/.gemini/antigravity/brain/" + p.ConversationID
	if len(p.ConversationID) != 36 || p.ToolCall.Name != "run_command" || p.ToolCall.Args["CommandLine"] != "npm test" ||
		p.StepIdx == nil || *p.StepIdx != 0 || len(p.WorkspacePaths) != 1 || p.WorkspacePaths[0] != "/w" ||
		p.TranscriptPath != brain+"/.system_generated/logs/transcript.jsonl" || p.ArtifactDirectoryPath != brain || p.ModelName != DefaultModel {
		t.Errorf("payload %s", got)
	}
	if !strings.HasPrefix(string(got), `{"toolCall":{"name":"run_command","args":{"CommandLine":"npm test"}},"stepIdx":0,"conversationId":`) {
		t.Errorf("fields out of documented order: %s", got)
	}
	again, _ := CompletePayload(pre, partial, "/w", "/home/me")
	if string(again) == string(got) {
		t.Error("two payloads share a conversationId")
	}

	stop, _ := CompletePayload(schema.Stop, []byte(`{"executionNum": 4, "conversationId": "c1"}`), "/w", "/h")
	want := `{"executionNum": 4, "conversationId": "c1","terminationReason":"model_stop","fullyIdle":true,"workspacePaths":["/w"],` +
		`"transcriptPath":"/h/.gemini/antigravity/brain/c1/.system_generated/logs/transcript.jsonl","artifactDirectoryPath":"/h/.gemini/antigravity/brain/c1","modelName":"gemini-3.6-flash-medium"}`
	if string(stop) != want {
		t.Errorf("Stop\n got %s\nwant %s", stop, want)
	}
	inv, _ := CompletePayload(schema.PostInvocation, nil, "/w", "/h")
	if !strings.HasPrefix(string(inv), `{"invocationNum":0,"initialNumSteps":0,"conversationId":"`) {
		t.Errorf("PostInvocation %s", inv)
	}

	for _, bad := range []string{`[]`, `{"a":`, `"x"`} {
		if _, err := CompletePayload(pre, []byte(bad), "/w", "/h"); err == nil {
			t.Errorf("CompletePayload(%s) gave no error", bad)
		}
	}
	for _, bad := range []string{`[]`, `{"a":`, `"x"`, `1`} {
		if _, err := ToolPayload("x", bad); err == nil {
			t.Errorf("ToolPayload(%s) gave no error", bad)
		}
	}
}
