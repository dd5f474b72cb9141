package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookctl/hookctl/runtime/tracelog"
)

// lockedBuffer is a bytes.Buffer that a test reads while a command
// writes to it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestLogFollowsAWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.jsonl")
	l := &tracelog.Log{Path: path}
	add := func(id, hook string) {
		t.Helper()
		if err := l.Append(&tracelog.Record{ID: id, Time: time.Now(), Kind: tracelog.KindTrace, Hook: hook, Event: "Stop",
			Exit: tracelog.Int(0)}); err != nil {
			t.Fatal(err)
		}
	}
	add("old00000aaaaaaaa", "gate")
	add("old11111aaaaaaaa", "gate")

	var out, errb lockedBuffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- logRun(ctx, streams{strings.NewReader(""), &out, &errb},
			logOptions{log: path, n: 1, follow: true, hook: "gate", poll: 5 * time.Millisecond})
	}()
	waitFor := func(want int) []string {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
			if len(lines) >= want {
				return lines
			}
			if time.Now().After(deadline) {
				t.Fatalf("after 10 s, %d lines, want %d:\n%s\nstderr: %s", len(lines), want, out.String(), errb.String())
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	// The header and the last record, then the writer's, through a
	// rotation, filtered by hook.
	waitFor(2)
	for i := range 30 {
		hook := "gate"
		if i%3 == 2 {
			hook = "other"
		}
		add(fmt.Sprintf("new%05daaaaaaaa", i), hook)
		if i == 15 {
			if err := os.Rename(path, path+".1"); err != nil {
				t.Fatal(err)
			}
		}
		time.Sleep(2 * time.Millisecond)
	}
	lines := waitFor(2 + 20)
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ln := range lines[1:] {
		f := strings.Fields(ln)
		got = append(got, f[len(f)-1])
	}
	want := []string{"old11111"}
	for i := range 30 {
		if i%3 != 2 {
			want = append(want, fmt.Sprintf("new%05d", i))
		}
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("followed:\n%s\nwant the IDs %q", out.String(), want)
	}
	if !strings.HasPrefix(lines[0], "TIME ") || errb.String() != "" {
		t.Errorf("header %q, stderr %q", lines[0], errb.String())
	}
}
