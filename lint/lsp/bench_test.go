package lsp

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/lint/internal/gen"
)

// BenchmarkChangeToDiagnostics1000 times what a user waits for: from a
// keystroke sent to the server (an incremental didChange of a 1,000-hook
// workspace file, generated with every kind of mistake by lint's
// benchmark generator) to the diagnostics of that version received by the
// client, with the server's default debounce included. docs/performance.md
// holds the figures.
//
//	go test ./lint/lsp -run XXX -bench ChangeToDiagnostics -benchtime 50x
func BenchmarkChangeToDiagnostics1000(b *testing.B) { benchmarkChange(b, 1000) }

func benchmarkChange(b *testing.B, n int) {
	root := b.TempDir()
	if err := gen.Workspace(root, n, false); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(root, ".agents", "hooks.json")
	uri := pathURI(path)
	text := string(gen.Hooks(n))
	t := &testing.T{}
	c := startServer(t, Options{})
	c.t = t
	c.initialize(`{}`)
	c.notify("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: uri, LanguageID: "json", Version: 1, Text: text}})
	if len(c.diagnostics(uri, 1)) < n/5 {
		b.Fatal("the generated file has fewer findings than it should")
	}
	// Each change types or deletes one character of a hook's name.
	at := strings.Index(text, `"gate-0"`) + len(`"gate-`)
	p := pos(text, at, encodingUTF16)
	version := int32(1)
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		version++
		change := contentChange{Range: &Range{Start: p, End: p}, Text: "x"}
		if i%2 == 1 {
			change = contentChange{Range: &Range{Start: p, End: Position{p.Line, p.Character + 1}}, Text: ""}
		}
		c.notify("textDocument/didChange", didChangeParams{TextDocument: versionedTextDocumentIdentifier{URI: uri, Version: version}, ContentChanges: []contentChange{change}})
		c.diagnostics(uri, version)
	}
	b.StopTimer()
	if t.Failed() {
		b.Fatal("the client failed")
	}
	c.call("shutdown", nil, nil)
	c.notify("exit", nil)
	c.end()
}
