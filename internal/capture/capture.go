// Package capture keeps the start of what a program hookctl starts writes
// and counts the rest: a handler's stderr, what trace and adapt pass
// through, ShellCheck's answer, the agent's output for doctor. Such a
// program is not hookctl's to trust, so however much it prints, memory
// stays bounded, and the program never blocks on a full pipe: every write
// is taken, and what is past the limit is counted and dropped.
package capture

import "sync"

// Buffer keeps the first Limit bytes written to it and counts every byte.
// It is safe to write from one goroutine and read from another. It has
// no ReadFrom, so that io.Copy goes through Write.
type Buffer struct {
	// Limit is how many bytes the buffer keeps; set it before the first
	// Write.
	Limit int

	mu    sync.Mutex
	kept  []byte
	total int64
}

// New returns a buffer that keeps the first limit bytes.
func New(limit int) *Buffer { return &Buffer{Limit: limit} }

// Write keeps what fits of p and counts all of it. It never fails.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	if room := b.Limit - len(b.kept); room > 0 {
		b.kept = append(b.kept, p[:min(room, len(p))]...)
	}
	b.total += int64(len(p))
	b.mu.Unlock()
	return len(p), nil
}

// Snapshot returns what was kept and how many bytes were cut after it, as
// of now: the writer may still be writing. The kept bytes do not change
// afterwards.
func (b *Buffer) Snapshot() (kept []byte, cut int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.kept[:len(b.kept):len(b.kept)], b.total - int64(len(b.kept))
}

// Bytes returns what was kept.
func (b *Buffer) Bytes() []byte {
	kept, _ := b.Snapshot()
	return kept
}

// String returns what was kept, as a string.
func (b *Buffer) String() string { return string(b.Bytes()) }

// Cut returns how many bytes were written past the limit and dropped.
func (b *Buffer) Cut() int64 {
	_, cut := b.Snapshot()
	return cut
}

// Full reports whether the buffer keeps no more.
func (b *Buffer) Full() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.kept) >= b.Limit
}
