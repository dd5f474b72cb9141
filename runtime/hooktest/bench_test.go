package hooktest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/schema"
)

// largeSuite returns a test file of n cases of every kind.
func largeSuite(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"tests": [`)
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		switch i % 3 {
		case 0:
			fmt.Fprintf(&b, `{"name": "case %d", "tool": "run_command", "args": {"CommandLine": "rm -rf /tmp/%d", "Cwd": "/w"}, "expect": {"decision": "deny"}, "expectReason": "rm"}`, i, i)
		case 1:
			fmt.Fprintf(&b, `{"name": "case %d", "event": "PreInvocation", "payload": {"invocationNum": %d}, "expect": {"injectSteps": [{"userMessage": "hi"}]}}`, i, i)
		default:
			fmt.Fprintf(&b, `{"name": "case %d", "event": "Stop", "payload": {"executionNum": 3}, "expect": {"decision": "allow", "reason": null}, "expectFailures": ["x"]}`, i)
		}
	}
	b.WriteString("]}")
	return []byte(b.String())
}

// BenchmarkParse reads a test file of 1,000 cases.
func BenchmarkParse(b *testing.B) {
	src := largeSuite(1000)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, ps := Parse("t.json", src); len(ps) > 0 {
			b.Fatal(ps)
		}
	}
}

// BenchmarkCompare compares an expectation with a large answer: 1,000
// injected steps.
func BenchmarkCompare(b *testing.B) {
	var steps []string
	for i := range 1000 {
		steps = append(steps, fmt.Sprintf(`{"userMessage": "step %d"}`, i))
	}
	doc := `{"injectSteps": [` + strings.Join(steps, ",") + `]}`
	want, _, serr := schema.ParseJSON([]byte(doc))
	if serr != nil {
		b.Fatal(serr)
	}
	got, err := decode([]byte(doc))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if ms := Compare(want, got); len(ms) > 0 {
			b.Fatal(ms)
		}
	}
}

// BenchmarkRun runs a case through a real handler: the cost of a case
// beyond the handler's own.
func BenchmarkRun(b *testing.B) {
	dir := b.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".agents"), 0o755); err != nil {
		b.Fatal(err)
	}
	config := `{"gate": {"PreToolUse": [{"matcher": "run_command", "hooks": [{"command": "echo '{\"decision\":\"deny\"}'"}]}]}}`
	if err := os.WriteFile(filepath.Join(dir, ".agents", "hooks.json"), []byte(config), 0o644); err != nil {
		b.Fatal(err)
	}
	s, ps := Parse("t.json", []byte(`{"tests": [{"name": "deny", "tool": "run_command", "args": {"CommandLine": "rm -rf /"}, "expect": {"decision": "deny"}}]}`))
	if len(ps) > 0 {
		b.Fatal(ps)
	}
	opts := runtime.Options{Workspace: dir, Home: b.TempDir()}
	for b.Loop() {
		if r := Run(context.Background(), s.Cases[0], opts); !r.Passed() {
			b.Fatalf("the case failed: %s %v", r.Answer, r.Err)
		}
	}
}
