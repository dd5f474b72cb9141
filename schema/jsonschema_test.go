package schema

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	sjs "github.com/santhosh-tekuri/jsonschema/v6"
)

// TestEveryPropertyDescribed walks every schema and requires a description
// on every property, so that hover in an editor always says something.
func TestEveryPropertyDescribed(t *testing.T) {
	all := map[string][]byte{"hooks": HooksSchema(), "test": TestSchema(), "config": ConfigSchema([]string{"json-syntax"})}
	for _, e := range Events {
		all["input "+string(e)] = InputSchema(e)
		all["output "+string(e)] = OutputSchema(e)
	}
	for name, b := range all {
		var s map[string]any
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var walk func(path string, s map[string]any)
		walk = func(path string, s map[string]any) {
			props, _ := s["properties"].(map[string]any)
			for k, v := range props {
				p, _ := v.(map[string]any)
				if d, _ := p["description"].(string); strings.TrimSpace(d) == "" {
					t.Errorf("%s: %s.%s has no description", name, path, k)
				}
				walk(path+"."+k, p)
			}
			defs, _ := s["$defs"].(map[string]any)
			for k, v := range defs {
				d, _ := v.(map[string]any)
				if desc, _ := d["description"].(string); desc == "" {
					t.Errorf("%s: definition %s has no description", name, k)
				}
				walk(k, d)
			}
		}
		if d, _ := s["description"].(string); d == "" {
			t.Errorf("%s: no description", name)
		}
		walk("", s)
	}
}

func compile(t *testing.T, s []byte) *sjs.Schema {
	t.Helper()
	var doc any
	if err := json.Unmarshal(s, &doc); err != nil {
		t.Fatal(err)
	}
	c := sjs.NewCompiler()
	if err := c.AddResource("mem://schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("mem://schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

func validate(t *testing.T, sch *sjs.Schema, src string) error {
	t.Helper()
	v, err := sjs.UnmarshalJSON(strings.NewReader(src))
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return sch.Validate(v)
}

func TestHooksSchemaAcceptsValidShapes(t *testing.T) {
	sch := compile(t, HooksSchema())
	seed, err := os.ReadFile("testdata/seed-example.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{
		string(seed),
		`{}`,
		`{"$schema": "../schema/hooks.schema.json", "a": {}}`,
		`{"a": {"enabled": true}}`,
		`{"a": {"PreToolUse": [{"hooks": []}]}}`,
		`{"a": {"PreToolUse": [{"matcher": "", "hooks": [{"command": "x"}]}]}}`,
		`{"a": {"PreToolUse": [{"matcher": "*", "hooks": [{"command": "x"}]}]}}`,
		`{"a": {"PostToolUse": [{"matcher": "mcp__github__.*", "hooks": [{"type": "command", "command": "x", "timeout": 1}]}]}}`,
		`{"a": {"PreInvocation": [{"command": "x"}], "PostInvocation": [{"command": "y", "timeout": 600}], "Stop": []}}`,
	} {
		if err := validate(t, sch, src); err != nil {
			t.Errorf("%s rejected: %v", src, err)
		}
	}
}

func TestHooksSchemaRejectsWrongShapes(t *testing.T) {
	sch := compile(t, HooksSchema())
	for name, src := range map[string]string{
		"misspelt event":          `{"a": {"PretoolUse": []}}`,
		"Stop with matcher group": `{"a": {"Stop": [{"matcher": "", "hooks": [{"command": "x"}]}]}}`,
		"PreToolUse with handler": `{"a": {"PreToolUse": [{"command": "x"}]}}`,
		"enabled as string":       `{"a": {"enabled": "false"}}`,
		"timeout as string":       `{"a": {"Stop": [{"command": "x", "timeout": "10"}]}}`,
		"timeout zero":            `{"a": {"Stop": [{"command": "x", "timeout": 0}]}}`,
		"timeout fraction":        `{"a": {"Stop": [{"command": "x", "timeout": 2.5}]}}`,
		"handler type prompt":     `{"a": {"Stop": [{"type": "prompt", "command": "x"}]}}`,
		"empty command":           `{"a": {"Stop": [{"command": ""}]}}`,
		"blank command":           `{"a": {"Stop": [{"command": "   "}]}}`,
		"no command":              `{"a": {"Stop": [{"timeout": 5}]}}`,
		"unknown handler field":   `{"a": {"Stop": [{"command": "x", "cmd": "y"}]}}`,
		"unknown group field":     `{"a": {"PreToolUse": [{"matchers": "x", "hooks": []}]}}`,
		"group without hooks":     `{"a": {"PreToolUse": [{"matcher": "x"}]}}`,
		"hook not object":         `{"a": []}`,
		"top-level array":         `[]`,
		"matcher not string":      `{"a": {"PreToolUse": [{"matcher": 1, "hooks": []}]}}`,
		"event not array":         `{"a": {"Stop": {"command": "x"}}}`,
	} {
		if err := validate(t, sch, src); err == nil {
			t.Errorf("%s: %s accepted", name, src)
		}
	}
}

func TestEventSchemas(t *testing.T) {
	in := compile(t, InputSchema(PreToolUse))
	if err := validate(t, in, `{"toolCall": {"name": "run_command", "args": {"CommandLine": "npm test", "Cwd": "/w", "WaitMsBeforeAsync": 5000}}, "stepIdx": 19, "conversationId": "c", "workspacePaths": ["/w"], "transcriptPath": "t", "artifactDirectoryPath": "a", "modelName": "m"}`); err != nil {
		t.Errorf("documented PreToolUse input rejected: %v", err)
	}
	if err := validate(t, in, `{"toolCall": {"name": "run_command", "args": {"CommandLine": 5}}, "stepIdx": 1, "conversationId": "c", "workspacePaths": [], "transcriptPath": "t", "artifactDirectoryPath": "a", "modelName": "m"}`); err == nil {
		t.Error("run_command args with a numeric CommandLine accepted")
	}
	out := compile(t, OutputSchema(PreToolUse))
	for src, ok := range map[string]bool{
		`{"decision": "ask", "reason": "r", "permissionOverrides": ["command(npm test)"]}`: true,
		`{"decision": "deny_unless_prior_grant"}`:                                          true,
		`{"decision": "allow", "overwrite": {"CommandLine": "x"}}`:                         true,
		`{"decision": "block"}`: false,
		`{"reason": "x"}`:       false,
	} {
		if err := validate(t, out, src); (err == nil) != ok {
			t.Errorf("PreToolUse output %s: valid=%v, want %v (%v)", src, err == nil, ok, err)
		}
	}
	post := compile(t, OutputSchema(PostInvocation))
	for src, ok := range map[string]bool{
		`{"injectSteps": [], "terminationBehavior": ""}`:                     true,
		`{"injectSteps": [{"ephemeralMessage": "Remember to lint"}]}`:        true,
		`{"terminationBehavior": "stop"}`:                                    false,
		`{"injectSteps": [{"userMessage": "a", "ephemeralMessage": "b"}]}`:   false,
		`{"injectSteps": [{"toolCall": {"name": "view_file", "args": {}}}]}`: true,
	} {
		if err := validate(t, post, src); (err == nil) != ok {
			t.Errorf("PostInvocation output %s: valid=%v, want %v (%v)", src, err == nil, ok, err)
		}
	}
	stop := compile(t, OutputSchema(Stop))
	if err := validate(t, stop, `{"decision": "continue", "reason": "Not done yet"}`); err != nil {
		t.Error(err)
	}
}

func TestTestSchema(t *testing.T) {
	sch := compile(t, TestSchema())
	for src, ok := range map[string]bool{
		`{"tests": [{"name": "blocks rm", "event": "PreToolUse", "payload": {"toolCall": {"name": "run_command", "args": {"CommandLine": "rm -rf /"}}}, "expect": {"decision": "deny"}}]}`: true,
		`{"tests": [{"name": "short form", "tool": "run_command", "args": {"CommandLine": "ls"}, "expect": {"decision": "allow"}, "expectFailures": ["gate"]}]}`:                           true,
		`{"tests": []}`: true,
		`{"tests": [{"name": "x", "event": "PretoolUse"}]}`: false,
		`{"tests": [{"event": "Stop"}]}`:                    false,
		`{"tests": [{"name": "x", "expct": {}}]}`:           false,
		`{"cases": []}`: false,
	} {
		if err := validate(t, sch, src); (err == nil) != ok {
			t.Errorf("%s: valid=%v, want %v (%v)", src, err == nil, ok, err)
		}
	}
}
