//go:build unix

package lint

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/hookctl/hookctl/schema"
)

// TestStopBeforeRun: a run whose context is already done returns the
// context's error and no findings, for Lint and LintSourceRequest alike.
func TestStopBeforeRun(t *testing.T) {
	tg := shellcheckWorkspace(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Lint(Request{Files: []Target{tg}, Stop: ctx})
	if !errors.Is(err, context.Canceled) || res != nil {
		t.Errorf("Lint with a cancelled context = %v, %v; want no result and context.Canceled", res, err)
	}
	src, err := os.ReadFile(tg.Path)
	if err != nil {
		t.Fatal(err)
	}
	fs, seen, err := LintSourceRequest(SourceRequest{Target: tg, Src: src, Stop: ctx})
	if !errors.Is(err, context.Canceled) || fs != nil || seen != nil {
		t.Errorf("LintSourceRequest with a cancelled context = %d findings, %v; want none and context.Canceled", len(fs), err)
	}
	// Without a context the same text has findings: the empty answer
	// above is the stop's doing.
	if fs, _, err := LintSourceRequest(SourceRequest{Target: tg, Src: src}); err != nil || len(fs) == 0 {
		t.Errorf("LintSourceRequest = %d findings, %v; want findings", len(fs), err)
	}
}

// TestStopKillsShellcheck: cancelling a run kills the shellcheck under way
// and starts no other; the run returns context.Canceled rather than
// findings about a shellcheck that did not finish.
func TestStopKillsShellcheck(t *testing.T) {
	t.Parallel()
	tg := shellcheckWorkspace(t)
	dir := t.TempDir()
	pids := filepath.Join(dir, "pids")
	started := filepath.Join(dir, "started")
	if err := syscall.Mkfifo(started, 0o600); err != nil {
		t.Fatal(err)
	}
	// Each run notes its process ID, opens the FIFO (read and write, so
	// that it never blocks), which lets the test's open of it return,
	// and waits for ever.
	bin, _ := fakeShellcheck(t, "echo $$ >> '"+pids+"'\nexec 3<>'"+started+"'\nexec sleep 600")
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		f, err := os.Open(started) // blocks until a shellcheck runs
		if err == nil {
			f.Close()
		}
		cancel()
	}()
	res, err := Lint(Request{Files: []Target{tg}, ShellCheck: bin, Stop: ctx})
	if !errors.Is(err, context.Canceled) || res != nil {
		t.Fatalf("Lint cancelled during shellcheck = %v, %v; want no result and context.Canceled", res, err)
	}
	b, err := os.ReadFile(pids)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Fields(string(b)) {
		pid, err := strconv.Atoi(line)
		if err != nil {
			t.Fatal(err)
		}
		// Lint waited for the killed process: it is gone, not a zombie
		// left to run.
		if err := syscall.Kill(pid, 0); err == nil {
			t.Errorf("shellcheck %d still runs after the run was cancelled", pid)
		}
	}
}

// TestStopMidRun: once a run's context is done, the per-handler work that
// every script rule shares stops short (no more stat of the disk, no more
// parse of a command), so the rule under way ends quickly too; what it
// finds then is thrown away with the run.
func TestStopMidRun(t *testing.T) {
	tg := shellcheckWorkspace(t)
	src, err := os.ReadFile(tg.Path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	run := newRun(ctx)
	f := run.newFile(tg, schema.Parse(tg.Path, src))
	hs := f.allHandlers()
	if len(hs) < 2 || f.command(hs[0]) == nil {
		t.Fatal("the workspace's first handler has no command")
	}
	script := filepath.Join(filepath.Dir(tg.Path), "hooks", "check.sh")
	cancel()
	if f.command(hs[1]) != nil {
		t.Error("a command was parsed after the run stopped")
	}
	if f.command(hs[0]) == nil {
		t.Error("a command parsed before the stop was lost")
	}
	if _, err := run.fs.stat(script); !errors.Is(err, errStopped) {
		t.Errorf("stat after the stop = %v, want errStopped without looking at the disk", err)
	}
}
