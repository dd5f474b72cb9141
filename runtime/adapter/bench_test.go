package adapter

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/schema"
)

// BenchmarkTranslate times what run --from does before the dispatch: read
// the agent's payload and build this format's.
func BenchmarkTranslate(b *testing.B) {
	for _, name := range []string{"claude/PreToolUse-Bash.json", "cursor/preToolUse-Shell.json", "codex/PreToolUse-apply_patch.json"} {
		payload, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			b.Fatal(err)
		}
		agent, event := schema.Claude, "PreToolUse"
		switch filepath.Dir(name) {
		case "cursor":
			agent, event = schema.Cursor, "preToolUse"
		case "codex":
			agent = schema.Codex
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Translate(agent, event, payload, noEnv); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkReply times what run --from does after the dispatch: the merged
// answer into the agent's.
func BenchmarkReply(b *testing.B) {
	payload, err := os.ReadFile("testdata/claude/PreToolUse-Edit.json")
	if err != nil {
		b.Fatal(err)
	}
	c, err := Translate(schema.Claude, "PreToolUse", payload, noEnv)
	if err != nil {
		b.Fatal(err)
	}
	for name, ans := range map[string]string{
		"allow":           `{"decision":"allow","reason":"ok"}`,
		"allow+overwrite": `{"decision":"allow","overwrite":{"ReplacementContent":"x"}}`,
	} {
		answers := []json.RawMessage{json.RawMessage(ans)}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c.Reply(answers, nil)
			}
		})
	}
}

// BenchmarkDispatch compares a dispatch of this format's payload with the
// same call coming from Claude Code: translated, dispatched, answered back.
// The difference is what run --from adds.
func BenchmarkDispatch(b *testing.B) {
	path := filepath.Join(b.TempDir(), "hooks.json")
	cfg := `{"gate": {"PreToolUse": [{"matcher": "run_command", "hooks": [{"command": "echo '{\"decision\":\"allow\"}'"}]}]}}`
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		b.Fatal(err)
	}
	opts := runtime.Options{Configs: []string{path}}
	foreign, err := os.ReadFile("testdata/claude/PreToolUse-Bash.json")
	if err != nil {
		b.Fatal(err)
	}
	c, err := Translate(schema.Claude, "PreToolUse", foreign, noEnv)
	if err != nil {
		b.Fatal(err)
	}
	nativePayload := c.Payloads[0]
	b.Run("run", func(b *testing.B) {
		for b.Loop() {
			res, err := runtime.Dispatch(context.Background(), schema.PreToolUse, nativePayload, opts)
			if err != nil || string(res.Answer) != `{"decision":"allow"}` {
				b.Fatalf("%v %s", err, res.Answer)
			}
		}
	})
	b.Run("run-from-claude", func(b *testing.B) {
		for b.Loop() {
			c, err := Translate(schema.Claude, "PreToolUse", foreign, noEnv)
			if err != nil {
				b.Fatal(err)
			}
			res, err := runtime.Dispatch(context.Background(), c.Event, c.Payloads[0], opts)
			if err != nil {
				b.Fatal(err)
			}
			if r := c.Reply([]json.RawMessage{res.Answer}, res.Notes); r.Exit != ExitOK {
				b.Fatalf("%+v", r)
			}
		}
	})
}

// BenchmarkAdapt times what hookctl adapt does around the handler: make
// the agent's payload from this format's, and read its answer back.
func BenchmarkAdapt(b *testing.B) {
	payload := []byte(`{"toolCall":{"name":"run_command","args":{"CommandLine":"npm test","Cwd":"/ws"}},"stepIdx":0,"conversationId":"c","workspacePaths":["/ws"],"transcriptPath":"","artifactDirectoryPath":"","modelName":""}`)
	deny := Ending{Stdout: []byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`)}
	c, err := Translate(schema.Claude, "PreToolUse", sample(b, "claude/PreToolUse-Bash.json"), noEnv)
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		payload []byte
	}{{"built", payload}, {"verbatim", c.Payloads[0]}} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				ad, err := Adapt(schema.Claude, "PreToolUse", tc.payload, noEnv)
				if err != nil {
					b.Fatal(err)
				}
				if ans := ad.Answer(deny); len(ans.Stdout) == 0 {
					b.Fatal("no answer")
				}
			}
		})
	}
}
