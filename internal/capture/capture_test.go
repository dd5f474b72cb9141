package capture

import (
	"bytes"
	"io"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/hookctl/hookctl/internal/testenv"
)

func TestBufferKeepsTheStartAndCounts(t *testing.T) {
	b := New(5)
	for _, w := range []string{"ab", "cde", "fgh", "", "ij"} {
		if n, err := b.Write([]byte(w)); n != len(w) || err != nil {
			t.Fatalf("Write(%q) = %d, %v: a write is always taken whole", w, n, err)
		}
	}
	kept, cut := b.Snapshot()
	if string(kept) != "abcde" || cut != 5 || !b.Full() || b.String() != "abcde" || b.Cut() != 5 {
		t.Errorf("kept %q, cut %d, full %v; want abcde, 5, true", kept, cut, b.Full())
	}
	var z Buffer
	z.Limit = 10
	z.Write([]byte("short"))
	if kept, cut := z.Snapshot(); string(kept) != "short" || cut != 0 || z.Full() {
		t.Errorf("under the limit: kept %q, cut %d, full %v", kept, cut, z.Full())
	}
}

// TestBufferSnapshotStays checks that what a snapshot returned is not
// changed by later writes.
func TestBufferSnapshotStays(t *testing.T) {
	b := New(8)
	b.Write([]byte("abc"))
	kept, _ := b.Snapshot()
	b.Write([]byte("defgh"))
	_ = append(kept, 'X')
	if string(kept) != "abc" || b.String() != "abcdefgh" {
		t.Errorf("snapshot %q, buffer %q", kept, b.String())
	}
}

// TestBufferConcurrent reads while another goroutine writes (go test -race).
func TestBufferConcurrent(t *testing.T) {
	b := New(1 << 10)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for range 1000 {
			b.Write([]byte("0123456789"))
		}
	}()
	for range 100 {
		kept, cut := b.Snapshot()
		if int64(len(kept))+cut > 10000 || len(kept) > 1<<10 {
			t.Fatalf("kept %d, cut %d", len(kept), cut)
		}
	}
	wg.Wait()
	if kept, cut := b.Snapshot(); len(kept) != 1<<10 || cut != 10000-1<<10 {
		t.Errorf("kept %d, cut %d", len(kept), cut)
	}
}

// TestBufferChild gives the buffer to a real process that prints far more
// than the limit: it runs to its end, never blocked, and the count is
// exact.
func TestBufferChild(t *testing.T) {
	sh := testenv.Need(t, "dash")
	b := New(100)
	cmd := exec.Command(sh, "-c", `i=0; while [ $i -lt 2000 ]; do printf '%s\n' 0123456789abcdef; i=$((i+1)); done; echo done >&2`)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = b, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	kept, cut := b.Snapshot()
	if want := strings.Repeat("0123456789abcdef\n", 6)[:100]; string(kept) != want || cut != 2000*17-100 || stderr.String() != "done\n" {
		t.Errorf("kept %q, cut %d, stderr %q", kept, cut, stderr.String())
	}
	var _ io.Writer = b
}
