//go:build unix

package runtime

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/schema"
)

// manyHooks writes a hooks.json of n PreToolUse hooks of which only the last
// matches run_command, as a large shared configuration would: the others
// name the other documented tools in turn, or, with distinct, each a
// matcher of its own (the worst case for the loader, which compiles each
// distinct matcher).
func manyHooks(b *testing.B, n int, distinct bool) string {
	b.Helper()
	var others []string
	for _, t := range schema.ToolNames() {
		if t != "run_command" {
			others = append(others, t)
		}
	}
	others = append(others, "browser_.*")
	var sb strings.Builder
	sb.WriteString("{\n")
	for i := range n {
		matcher := others[i%len(others)]
		switch {
		case i == n-1:
			matcher = "run_command"
		case distinct:
			matcher = fmt.Sprintf("tool_%d|browser_.*", i)
		}
		fmt.Fprintf(&sb, "  \"hook-%d\": {\"PreToolUse\": [{\"matcher\": %q, \"hooks\": [{\"command\": \"./hooks/h%d.sh\", \"timeout\": 5}]}]},\n", i, matcher, i)
	}
	sb.WriteString(`  "last": {"Stop": [{"command": "true"}]}` + "\n}\n")
	path := filepath.Join(b.TempDir(), "hooks.json")
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return path
}

func BenchmarkPlan(b *testing.B) {
	payload := []byte(`{"toolCall":{"name":"run_command","args":{"CommandLine":"npm test"}},"stepIdx":0,"workspacePaths":["/nonexistent"]}`)
	for _, bc := range []struct {
		n        int
		distinct bool
	}{{10, false}, {2000, false}, {2000, true}} {
		name := fmt.Sprintf("hooks=%d", bc.n)
		if bc.distinct {
			name += "/distinct-matchers"
		}
		b.Run(name, func(b *testing.B) {
			path := manyHooks(b, bc.n, bc.distinct)
			opts := Options{Configs: []string{path}}
			b.ReportAllocs()
			for b.Loop() {
				p, err := NewPlan(schema.PreToolUse, payload, opts)
				if err != nil {
					b.Fatal(err)
				}
				if len(p.Runs()) != 1 {
					b.Fatalf("%d handlers would run, want 1", len(p.Runs()))
				}
			}
		})
	}
}

func BenchmarkMerge(b *testing.B) {
	answers := []string{
		`{"decision":"allow","reason":"ok","permissionOverrides":["command(npm test)"],"overwrite":{"CommandLine":"npm test -- --ci"}}`,
		`{"decision":"ask","reason":"confirm"}`,
		`{"decision":"force_ask","reason":"sensitive path","permissionOverrides":["read_file(/etc)"]}`,
		`{"decision":"allow"}`,
	}
	var outs []*Outcome
	for i := range 8 {
		a, _, err := parseAnswer(schema.PreToolUse, []byte(answers[i%len(answers)]))
		if err != nil {
			b.Fatal(err)
		}
		outs = append(outs, &Outcome{Hook: fmt.Sprint(i), Kind: Answered, ans: a})
	}
	outs = append(outs, &Outcome{Hook: "f", Kind: Failed, Cause: "exit status 1"})
	b.ReportAllocs()
	for b.Loop() {
		Merge(schema.PreToolUse, outs, MergeOptions{OnError: OnErrorAsk})
	}
}

func BenchmarkParseAnswer(b *testing.B) {
	out := []byte(`{"decision":"allow","reason":"fine","permissionOverrides":["command(npm test)"],"overwrite":{"CommandLine":"npm test -- --ci"}}` + "\n")
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := ParseAnswer(schema.PreToolUse, out); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParsePayload(b *testing.B) {
	partial, _ := ToolPayload("write_to_file", `{"TargetFile":"/w/a.go","CodeContent":"`+strings.Repeat("x", 1<<20)+`"}`)
	payload, _ := CompletePayload(schema.PreToolUse, partial, "/w", "/h")
	b.SetBytes(int64(len(payload)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParsePayload(schema.PreToolUse, payload); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDispatch measures a whole dispatch to one handler, process
// included.
func BenchmarkDispatch(b *testing.B) {
	path := filepath.Join(b.TempDir(), "hooks.json")
	cfg := `{"gate": {"PreToolUse": [{"matcher": "run_command", "hooks": [{"command": "echo '{\"decision\":\"allow\"}'"}]}]}}`
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		b.Fatal(err)
	}
	payload := []byte(`{"toolCall":{"name":"run_command","args":{}}}`)
	opts := Options{Configs: []string{path}}
	for b.Loop() {
		res, err := Dispatch(context.Background(), schema.PreToolUse, payload, opts)
		if err != nil || string(res.Answer) != `{"decision":"allow"}` {
			b.Fatalf("%v %s", err, res.Answer)
		}
	}
}
