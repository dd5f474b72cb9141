//go:build unix

package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	expect "github.com/Netflix/go-expect"
	"github.com/creack/pty"
	"github.com/hinshun/vt10x"

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
		done <- logRun(ctx, newFactory(streams{strings.NewReader(""), &out, &errb}),
			&logOptions{log: path, n: 1, follow: true, hook: "gate", poll: 5 * time.Millisecond})
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

// TestLogFollowInATerminal follows a log in a real terminal, as a person
// does: a record written by a hostile hook shows escaped, the screen is not
// cleared, and Ctrl-C ends it with status 0.
func TestLogFollowInATerminal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.jsonl")
	l := &tracelog.Log{Path: path}
	if err := l.Append(&tracelog.Record{ID: "good0000aaaaaaaa", Time: time.Now(), Kind: tracelog.KindTrace, Hook: "gate",
		Event: "PreToolUse", Exit: tracelog.Int(0)}); err != nil {
		t.Fatal(err)
	}
	ptm, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	term := vt10x.New(vt10x.WithWriter(tty), vt10x.WithSize(120, 20))
	c, err := expect.NewConsole(expect.WithStdin(ptm), expect.WithStdout(term), expect.WithCloser(ptm, tty),
		expect.WithDefaultTimeout(20*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	cmd := exec.Command("hookctl", "log", "--follow", "--log", path)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = c.Tty(), c.Tty(), c.Tty()
	// A session of its own whose controlling terminal is the pty, so that
	// Ctrl-C reaches it as it reaches a person's command.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	expectString(t, c, "good0000")
	if err := l.AppendLine([]byte(`{"id":"evil0000aaaaaaaa","time":"2026-01-01T00:00:00Z","kind":"trace",` +
		`"hook":"\u001b[2J\u001b]0;pwned\u0007x","tool":"\u009b31mred"}` + "\n")); err != nil {
		t.Fatal(err)
	}
	expectString(t, c, "evil0000")
	c.Send("\x03")
	err = cmd.Wait()
	c.Tty().Close()
	screen := term.String()
	if err != nil {
		t.Errorf("Ctrl-C: %v; screen:\n%s", err, screen)
	}
	for _, want := range []string{"TIME", "good0000", `\x1b[2J\x1b]0;p`, `\u009b31mred`} {
		if !strings.Contains(screen, want) {
			t.Errorf("the screen lacks %q:\n%s", want, screen)
		}
	}
}
