//go:build linux

package runtime

import (
	"testing"

	"github.com/hookctl/hookctl/internal/memtest"
	"github.com/hookctl/hookctl/schema"
)

// BenchmarkRunMemory reports the peak memory of hookctl run's dispatch in
// an untrusted workspace whose hooks.json is each hostile file of package
// memtest (in a child process: its own peak resident size), against
// the goal of four times the file's size plus 30 MB. The workspace is
// untrusted, so no handler runs: the figure is reading, planning and
// answering.
func BenchmarkRunMemory(b *testing.B) {
	for _, in := range memtest.Inputs() {
		b.Run(in.Name, func(b *testing.B) {
			root := b.TempDir()
			memtest.Workspace(b, root, in.Src())
			memtest.Report(b, "TestRunMemoryChild", root)
		})
	}
}

// TestRunMemoryChild is BenchmarkRunMemory's child. It does nothing in a
// plain test run.
func TestRunMemoryChild(t *testing.T) {
	root := memtest.Child(t)
	if root == "" {
		t.Skip("run by BenchmarkRunMemory")
	}
	payload := []byte(`{"toolCall":{"name":"run_command","args":{"CommandLine":"npm test"}},"workspacePaths":["` + root + `"]}`)
	opts := Options{Workspace: root, Home: t.TempDir(), Trusted: func(*Source) (bool, string) { return false, "" }}
	p, err := NewPlan(schema.PreToolUse, payload, opts)
	if err != nil {
		t.Fatal(err)
	}
	if res := p.Run(t.Context()); len(res.Answer) == 0 {
		t.Fatal("no answer")
	}
}
