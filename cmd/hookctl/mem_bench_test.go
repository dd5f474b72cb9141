//go:build linux

package main

import (
	"path/filepath"
	"testing"

	"github.com/hookctl/hookctl/internal/memtest"
)

// BenchmarkLintMemory reports the peak memory of hookctl lint on each
// hostile file of package memtest, printing its findings in each format
// (the largest peak), against the goal of four times the file's size plus
// 30 MB. The peak is the largest of lint's and its children's: the
// ShellChecks it runs count, and the inputs written against ShellCheck
// with them.
func BenchmarkLintMemory(b *testing.B) {
	tools := memtest.Build(b)
	for _, in := range memtest.Inputs() {
		b.Run(in.Name, func(b *testing.B) {
			root := b.TempDir()
			memtest.Workspace(b, root, in.Src())
			memtest.WriteFiles(b, root, in.Files)
			memtest.Report(b, root, in.Files, func() int64 {
				var peak int64
				for _, format := range []string{"text", "json", "sarif", "github"} {
					peak = max(peak, tools.Peak(b, root, nil, "lint", "--format", format, ".agents/hooks.json"))
				}
				return peak
			})
		})
	}
}

// BenchmarkRunMemory reports the peak memory of hookctl run answering a
// PreToolUse in a workspace whose hooks.json is each hostile file of
// package memtest, against the same goal. The workspace is trusted when
// trust takes the file; else a small file was trusted and the hostile one
// replaced it since, as a pull would. None of the hooks matches the tool,
// so the figure is reading, checking and planning them, and answering.
func BenchmarkRunMemory(b *testing.B) {
	tools := memtest.Build(b)
	for _, in := range memtest.Inputs() {
		b.Run(in.Name, func(b *testing.B) {
			root := b.TempDir()
			src := in.Src()
			memtest.Workspace(b, root, src)
			memtest.WriteFiles(b, root, in.Files)
			if tools.Run(b, root, "trust", "--yes") != 0 {
				memtest.Workspace(b, root, []byte(`{"h":{"Stop":[{"command":"./h.sh"}]}}`))
				if code := tools.Run(b, root, "trust", "--yes"); code != 0 {
					b.Fatalf("trust of a small file: exit %d", code)
				}
				memtest.Workspace(b, root, src)
			}
			payload := []byte(`{"toolCall":{"name":"view_file","args":{"AbsolutePath":"` + filepath.Join(root, "README.md") + `"}},"workspacePaths":["` + root + `"]}`)
			memtest.Report(b, root, in.Files, func() int64 { return tools.Peak(b, root, payload, "run", "PreToolUse") })
		})
	}
}
