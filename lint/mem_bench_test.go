//go:build linux

package lint

import (
	"io"
	"path/filepath"
	"testing"

	"github.com/hookctl/hookctl/internal/memtest"
)

// BenchmarkLintMemory reports the peak memory of linting each hostile file
// of package memtest and printing its findings as text and as SARIF (in a
// child process, so that the figure is the child's own peak resident size),
// against the goal of four times the file's size plus 30 MB.
func BenchmarkLintMemory(b *testing.B) {
	for _, in := range memtest.Inputs() {
		b.Run(in.Name, func(b *testing.B) {
			root := b.TempDir()
			memtest.Workspace(b, root, in.Src())
			memtest.Report(b, "TestLintMemoryChild", root)
		})
	}
}

// TestLintMemoryChild is BenchmarkLintMemory's child: it lints the file and
// prints what it found, as hookctl lint does. It does nothing in a plain
// test run.
func TestLintMemoryChild(t *testing.T) {
	root := memtest.Child(t)
	if root == "" {
		t.Skip("run by BenchmarkLintMemory")
	}
	path := filepath.Join(root, ".agents", "hooks.json")
	res, err := Lint(Request{Files: []Target{{Path: path, Name: ".agents/hooks.json", Scope: Workspace, Root: root}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []Printer{&TextPrinter{}, SARIFPrinter{}} {
		if err := p.Print(io.Discard, res); err != nil {
			t.Fatal(err)
		}
	}
}
