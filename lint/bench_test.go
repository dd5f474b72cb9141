package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// benchFile writes a workspace whose .agents/hooks.json defines n hooks in
// the shapes real files use: tool events with matchers, handlers run
// directly and through interpreters, a few mistakes. It returns the
// target to lint and the file's size.
func benchFile(tb testing.TB, n int) (Target, int64) {
	tb.Helper()
	ws := tb.TempDir()
	dir := filepath.Join(ws, ".agents")
	for _, p := range []string{"hooks/gate.sh", "hooks/format.py", "hooks/notify.sh"} {
		path := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
			tb.Fatal(err)
		}
	}
	path := filepath.Join(dir, "hooks.json")
	if err := os.WriteFile(path, generateHooks(n), 0o644); err != nil {
		tb.Fatal(err)
	}
	info, _ := os.Stat(path)
	return Target{Path: path, Name: ".agents/hooks.json", Scope: Workspace, Root: ws}, info.Size()
}

// generateHooks writes a hooks.json of n hooks for benchmarks: every fifth
// hook carries a mistake that a rule reports.
func generateHooks(n int) []byte {
	var b strings.Builder
	b.WriteString("{\n")
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		switch i % 5 {
		case 0:
			fmt.Fprintf(&b, `  "gate-%d": {
    "PreToolUse": [
      {"matcher": "run_command|view_file", "hooks": [{"type": "command", "command": "./hooks/gate.sh %d", "timeout": 10}]}
    ]
  }`, i, i)
		case 1:
			fmt.Fprintf(&b, `  "format-%d": {
    "PostToolUse": [
      {"matcher": "write_to_file|replace_file_content|multi_replace_file_content", "hooks": [{"command": "python3 hooks/format.py --hook %d"}]}
    ]
  }`, i, i)
		case 2:
			fmt.Fprintf(&b, `  "notify-%d": {
    "enabled": true,
    "Stop": [{"command": "./hooks/notify.sh %d", "timeout": 30}],
    "PostInvocation": [{"command": "echo '{}' # %d"}]
  }`, i, i, i)
		case 3:
			fmt.Fprintf(&b, `  "browser-%d": {
    "PreToolUse": [
      {"matcher": "browser_.*", "hooks": [{"command": "./hooks/gate.sh browser %d"}]}
    ]
  }`, i, i)
		case 4:
			fmt.Fprintf(&b, `  "mistake-%d": {
    "PretoolUse": [],
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"command": "node .agents/hooks/check-%d.mjs", "timeout": 5000}]}
    ]
  }`, i, i)
		}
	}
	b.WriteString("\n}\n")
	return []byte(b.String())
}

func benchmarkLint(b *testing.B, n int) {
	t, size := benchFile(b, n)
	b.SetBytes(size)
	b.ResetTimer()
	for b.Loop() {
		res, err := Lint(Request{Files: []Target{t}})
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Findings) < n/5 {
			b.Fatalf("%d findings, want at least %d", len(res.Findings), n/5)
		}
	}
}

func BenchmarkLint5000(b *testing.B)  { benchmarkLint(b, 5000) }
func BenchmarkLint10000(b *testing.B) { benchmarkLint(b, 10000) }

// TestGeneratedFindings checks what the benchmarks' files hold, so that the
// benchmarks measure every rule at work.
func TestGeneratedFindings(t *testing.T) {
	t5, _ := benchFile(t, 50)
	res, err := Lint(Request{Files: []Target{t5}})
	if err != nil {
		t.Fatal(err)
	}
	got := rulesOf(res.Findings)
	// Ten mistake hooks, each: an unknown event, a foreign tool, a script
	// from the wrong folder and a timeout in milliseconds.
	for _, r := range []string{"unknown-event", "foreign-tool", "script-not-found", "timeout-value"} {
		if got[r] != 10 {
			t.Errorf("%s: %d findings, want 10 (all: %v)", r, got[r], got)
		}
	}
	if len(res.Findings) != 40 {
		t.Errorf("%d findings, want 40: %v", len(res.Findings), got)
	}
}
