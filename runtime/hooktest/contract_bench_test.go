package hooktest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkContractExamples checks the example workspace's contract, as
// hookctl test --contract does in examples/: 29 calls to four handlers
// (a Python gate, two shell scripts, one of them with jq), in parallel,
// process starts included. See docs/performance.md.
func BenchmarkContractExamples(b *testing.B) {
	ws := b.TempDir()
	if err := os.CopyFS(ws, os.DirFS(filepath.Join("..", "..", "examples"))); err != nil {
		b.Fatal(err)
	}
	// A generous budget: a loaded machine would fail the default, and the
	// time is what is measured here.
	opts := ContractOptions{Configs: []string{filepath.Join(ws, ".agents", "hooks.json")}, Home: ws, Budget: time.Minute}
	for b.Loop() {
		r, err := Contract(context.Background(), opts)
		if err != nil {
			b.Fatal(err)
		}
		if _, failed := r.Counts(); failed > 0 {
			b.Fatalf("%d handlers failed", failed)
		}
	}
}
