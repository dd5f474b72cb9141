package lint

import "testing"

// BenchmarkLintShellcheck5000 times lint with the real ShellCheck on the
// 5,000-hook file of BenchmarkLint5000 (1,000 different inline commands
// and one script), what ShellCheck said forgotten before each run.
func BenchmarkLintShellcheck5000(b *testing.B) {
	bin := FindShellCheck()
	if bin == "" {
		b.Skip("shellcheck is not on PATH")
	}
	t, _ := benchFile(b, 5000)
	b.ResetTimer()
	for b.Loop() {
		forgetShellcheck()
		if _, err := Lint(Request{Files: []Target{t}, ShellCheck: bin}); err != nil {
			b.Fatal(err)
		}
	}
}

// forgetShellcheck forgets what ShellCheck said, so that a benchmark's
// every run runs it.
func forgetShellcheck() {
	scCache.Lock()
	clear(scCache.m)
	scCache.Unlock()
}
