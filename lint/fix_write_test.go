package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/internal/fifo"
)

// TestFixedWriteFIFO: a hooks.json swapped for a FIFO after it was read
// is a file that changed: Write refuses it at once, without waiting
// for a writer, and leaves it in place.
func TestFixedWriteFIFO(t *testing.T) {
	ws := t.TempDir()
	path := filepath.Join(ws, ".agents", "hooks.json")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := fifo.Make(path, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	ff := FixedFile{
		Target: Target{Path: path, Name: ".agents/hooks.json", Scope: Workspace, Root: ws},
		Before: []byte(`{"gate": {"Stop": [{"command": "true", "timeout": "5"}]}}`),
		After:  []byte(`{"gate": {"Stop": [{"command": "true", "timeout": 5}]}}`),
	}
	done := make(chan error, 1)
	go func() { done <- ff.Write() }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), ".agents/hooks.json changed while it was being fixed") {
			t.Fatalf("Write over a FIFO: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("Write waits on a FIFO for a writer")
	}
	if info, err := os.Lstat(path); err != nil || info.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v %v", info, err)
	}
}
