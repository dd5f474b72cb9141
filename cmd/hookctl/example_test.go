package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	sjs "github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/schema"
)

// TestPayloadsAreValid checks that the payloads hookctl builds, hookctl
// schema example EVENT and hookctl run --print-payload, are valid against
// hookctl schema input EVENT.
func TestPayloadsAreValid(t *testing.T) {
	ws := t.TempDir()
	t.Chdir(ws)
	t.Setenv("HOME", ws)
	hookctl := func(args ...string) []byte {
		t.Helper()
		var out, errb bytes.Buffer
		if code := run(append([]string{"hookctl"}, args...), streams{strings.NewReader(""), &out, &errb}); code != 0 {
			t.Fatalf("hookctl %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
		}
		return out.Bytes()
	}
	for _, e := range schema.Events {
		c := sjs.NewCompiler()
		doc, err := sjs.UnmarshalJSON(bytes.NewReader(hookctl("schema", "input", string(e))))
		if err != nil {
			t.Fatal(err)
		}
		if err := c.AddResource("mem://input.json", doc); err != nil {
			t.Fatal(err)
		}
		sch, err := c.Compile("mem://input.json")
		if err != nil {
			t.Fatal(err)
		}
		payloads := map[string][]byte{"schema example": hookctl("schema", "example", string(e))}
		if e.IsTool() {
			payloads["run --print-payload"] = hookctl("run", string(e), "--tool", "view_file", "--args", `{"AbsolutePath": "/etc/hosts"}`, "--print-payload")
		} else {
			payloads["run --print-payload"] = hookctl("schema", "example", string(e))
		}
		for how, b := range payloads {
			v, err := sjs.UnmarshalJSON(bytes.NewReader(b))
			if err != nil {
				t.Fatalf("%s %s printed what is not JSON: %v\n%s", how, e, err, b)
			}
			if err := sch.Validate(v); err != nil {
				t.Errorf("%s %s is not valid against schema input %s: %v\n%s", how, e, e, err, b)
			}
		}

		// The example is realistic: the workspace is the current folder,
		// and a tool event's call is run_command with its documented
		// arguments.
		var p struct {
			ToolCall *struct {
				Name string
				Args map[string]any
			}
			WorkspacePaths []string
			ConversationID string
		}
		if err := json.Unmarshal(payloads["schema example"], &p); err != nil {
			t.Fatal(err)
		}
		if len(p.WorkspacePaths) != 1 || p.WorkspacePaths[0] != ws || len(p.ConversationID) != 36 {
			t.Errorf("schema example %s: %s", e, payloads["schema example"])
		}
		if e.IsTool() && (p.ToolCall == nil || p.ToolCall.Name != "run_command" || p.ToolCall.Args["CommandLine"] != runtime.ExampleCommand || p.ToolCall.Args["Cwd"] != ws) {
			t.Errorf("schema example %s has no realistic run_command call: %s", e, payloads["schema example"])
		}
		if !e.IsTool() && p.ToolCall != nil {
			t.Errorf("schema example %s names a tool: %s", e, payloads["schema example"])
		}
	}
}
