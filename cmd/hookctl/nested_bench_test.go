//go:build linux

package main

import (
	"testing"

	"github.com/hookctl/hookctl/internal/memtest"
)

// BenchmarkLintNested times the hookctl program (with its memory budget,
// as users run it) linting, without ShellCheck, ten commands of 50,000
// nested subshells, 100 KB each: the parser's nesting is bounded, so each
// is named unread at once, where reading them took some 30 s.
func BenchmarkLintNested(b *testing.B) {
	tools := memtest.Build(b)
	root := b.TempDir()
	memtest.Workspace(b, root, memtest.Nested(10))
	for b.Loop() {
		if code := tools.Run(b, root, "lint", "--disable", "shellcheck", ".agents/hooks.json"); code != 0 {
			b.Fatalf("lint exited %d, want 0 (warnings only)", code)
		}
	}
}
