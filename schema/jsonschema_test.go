package schema

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/invopop/jsonschema"
	sjs "github.com/santhosh-tekuri/jsonschema/v6"
)

var update = flag.Bool("update", false, "rewrite hooks.schema.json from the types (go generate does the same)")

func marshal(t *testing.T, s *jsonschema.Schema) []byte {
	t.Helper()
	b, err := Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestCommittedSchemasAreCurrent(t *testing.T) {
	for file, s := range map[string]*jsonschema.Schema{
		"hooks.schema.json":      HooksSchema(),
		"hooks.test.schema.json": TestSchema(),
	} {
		got := marshal(t, s)
		if *update {
			if err := os.WriteFile(file, got, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("schema/%s is out of date with the Go types: run go generate ./...", file)
		}
	}
}

func TestSchemaDeterministic(t *testing.T) {
	first := marshal(t, HooksSchema())
	for range 20 {
		if !bytes.Equal(first, marshal(t, HooksSchema())) {
			t.Fatal("two runs gave different bytes")
		}
	}
	for _, e := range Events {
		a, b := marshal(t, InputSchema(e)), marshal(t, InputSchema(e))
		c, d := marshal(t, OutputSchema(e)), marshal(t, OutputSchema(e))
		if !bytes.Equal(a, b) || !bytes.Equal(c, d) {
			t.Fatalf("%s: two runs gave different bytes", e)
		}
	}
}

// TestEveryPropertyDescribed walks every schema and requires a description
// on every property, so that hover in an editor always says something.
func TestEveryPropertyDescribed(t *testing.T) {
	all := map[string]*jsonschema.Schema{"hooks": HooksSchema(), "test": TestSchema(), "config": ConfigSchema([]string{"json-syntax"})}
	for _, e := range Events {
		all["input "+string(e)] = InputSchema(e)
		all["output "+string(e)] = OutputSchema(e)
	}
	for name, s := range all {
		var walk func(path string, s *jsonschema.Schema)
		walk = func(path string, s *jsonschema.Schema) {
			if s == nil {
				return
			}
			if s.Properties != nil {
				for p := s.Properties.Oldest(); p != nil; p = p.Next() {
					if strings.TrimSpace(p.Value.Description) == "" {
						t.Errorf("%s: %s.%s has no description", name, path, p.Key)
					}
					walk(path+"."+p.Key, p.Value)
				}
			}
			for k, d := range s.Definitions {
				if d.Description == "" {
					t.Errorf("%s: definition %s has no description", name, k)
				}
				walk(k, d)
			}
		}
		if s.Description == "" {
			t.Errorf("%s: no description", name)
		}
		walk("", s)
	}
}

func compile(t *testing.T, s *jsonschema.Schema) *sjs.Schema {
	t.Helper()
	var doc any
	if err := json.Unmarshal(marshal(t, s), &doc); err != nil {
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
