package lint

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hookctl/hookctl/lint/internal/gen"
	"github.com/hookctl/hookctl/schema"
)

// benchFile writes a workspace whose .agents/hooks.json defines n hooks
// (see package gen) and returns the target to lint and the file's size.
func benchFile(tb testing.TB, n int) (Target, int64) {
	tb.Helper()
	return genFile(tb, func(ws string) error { return gen.Workspace(ws, n, false) })
}

// genFile writes a workspace with write and returns the target to lint
// and the size of its hooks.json.
func genFile(tb testing.TB, write func(ws string) error) (Target, int64) {
	tb.Helper()
	ws := tb.TempDir()
	if err := write(ws); err != nil {
		tb.Fatal(err)
	}
	path := filepath.Join(ws, ".agents", "hooks.json")
	info, err := os.Stat(path)
	if err != nil {
		tb.Fatal(err)
	}
	return Target{Path: path, Name: ".agents/hooks.json", Scope: Workspace, Root: ws}, info.Size()
}

func benchmarkLint(b *testing.B, n int) {
	t, size := benchFile(b, n)
	lintBench(b, t, size, n/5, false)
}

// lintBench lints t over and over; each run must find at least want
// findings, or exactly want when exact is set.
func lintBench(b *testing.B, t Target, size int64, want int, exact bool) {
	b.SetBytes(size)
	b.ResetTimer()
	for b.Loop() {
		res, err := Lint(Request{Files: []Target{t}})
		if err != nil {
			b.Fatal(err)
		}
		if got := len(res.Findings); got < want || exact && got != want {
			b.Fatalf("%d findings, want %d", got, want)
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

// inlineFile writes a workspace whose .agents/hooks.json defines n hooks
// of inline shell (see gen.InlineHooks).
func inlineFile(tb testing.TB, n int) (Target, int64) {
	tb.Helper()
	return genFile(tb, func(ws string) error { return gen.InlineWorkspace(ws, n) })
}

// BenchmarkLintInline5000 and BenchmarkLintInline10000 time lint on hooks
// of inline shell, where the command rules (shell-syntax, literal-answer,
// argument-path) parse and read every command; ShellCheck is left out.
func BenchmarkLintInline5000(b *testing.B)  { benchmarkInline(b, 5000) }
func BenchmarkLintInline10000(b *testing.B) { benchmarkInline(b, 10000) }

func benchmarkInline(b *testing.B, n int) {
	t, size := inlineFile(b, n)
	lintBench(b, t, size, 3*n/5, true)
}

// BenchmarkLintShellcheck1000 times lint with the real ShellCheck on 1,000
// hooks of inline shell, every command different, checked in batches (see
// runShellcheck). What ShellCheck said is forgotten before each run.
func BenchmarkLintShellcheck1000(b *testing.B) {
	bin := FindShellCheck()
	if bin == "" {
		b.Skip("shellcheck is not on PATH")
	}
	t, _ := inlineFile(b, 1000)
	b.ResetTimer()
	for b.Loop() {
		forgetShellcheck()
		if _, err := Lint(Request{Files: []Target{t}, ShellCheck: bin}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestGeneratedInlineFindings checks what the inline benchmarks' files
// hold: every command rule at work, nothing else.
func TestGeneratedInlineFindings(t *testing.T) {
	tgt, _ := inlineFile(t, 50)
	res, err := Lint(Request{Files: []Target{tgt}})
	if err != nil {
		t.Fatal(err)
	}
	got := rulesOf(res.Findings)
	for _, r := range []string{"literal-answer", "argument-path", "shell-syntax"} {
		if got[r] != 10 {
			t.Errorf("%s: %d findings, want 10 (all: %v)", r, got[r], got)
		}
	}
	if len(res.Findings) != 30 {
		t.Errorf("%d findings, want 30: %s", len(res.Findings), formatFindings(res.Findings))
	}
}

// BenchmarkParse5000 and BenchmarkParse10000 time the loader alone
// (schema.Parse: JSON, decoding and the decoder's problems), the part of
// lint's time that run shares.
func BenchmarkParse5000(b *testing.B)  { benchmarkParse(b, 5000) }
func BenchmarkParse10000(b *testing.B) { benchmarkParse(b, 10000) }

func benchmarkParse(b *testing.B, n int) {
	src := gen.Hooks(n)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		schema.Parse(".agents/hooks.json", src)
	}
}
