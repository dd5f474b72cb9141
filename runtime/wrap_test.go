//go:build unix

package runtime

import (
	"bytes"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookctl/hookctl/internal/capture"
	"github.com/hookctl/hookctl/runtime/tracelog"
	"github.com/hookctl/hookctl/schema/shellcmd"
)

// TestRunWrappedPassesThroughAndKeeps runs a real command under the
// wrapper: its streams reach the caller whole, its status is returned,
// and what is kept of each stream stops at the limit while the count goes
// on.
func TestRunWrappedPassesThroughAndKeeps(t *testing.T) {
	var out, errOut bytes.Buffer
	lim := WrapLimits{Stdout: 4, Stderr: 64, Stdin: 64, Name: "trace", Env: []string{"WRAPPED_X=from-the-wrapper"}}
	w := RunWrapped([]string{"sh", "-c", `cat >/dev/null; printf abcdef; printf '%s' "$WRAPPED_X" >&2; exit 3`},
		strings.NewReader(`{"toolName":"run_command"}`), &out, &errOut, lim)
	if w.Exit != 3 || w.Signal != 0 || w.StartErr != "" {
		t.Fatalf("exit %d, signal %v, start error %q; want exit 3", w.Exit, w.Signal, w.StartErr)
	}
	if out.String() != "abcdef" || errOut.String() != "from-the-wrapper" {
		t.Errorf("passed through stdout %q, stderr %q", out.String(), errOut.String())
	}
	if kept, all, total := kept(&w.Stdout); string(kept) != "abcd" || all || total != 6 {
		t.Errorf("stdout kept %q (all %v) of %d bytes, want \"abcd\" of 6", kept, all, total)
	}
	if kept, all, _ := kept(&w.Stdin); string(kept) != `{"toolName":"run_command"}` || !all || !w.Teed {
		t.Errorf("stdin kept %q (all %v, teed %v), want the payload whole", kept, all, w.Teed)
	}
	if w.PID <= 0 || w.Duration <= 0 {
		t.Errorf("pid %d, duration %v", w.PID, w.Duration)
	}
}

// TestRunWrappedCannotStart gives the statuses and the line a shell gives
// a command it cannot start.
func TestRunWrappedCannotStart(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		argv   []string
		exit   int
		reason string
	}{
		{[]string{"hookctl-no-such-command"}, 127, "hookctl-no-such-command: command not found"},
		{[]string{dir}, 126, dir + ": is a folder"},
	} {
		var errOut bytes.Buffer
		w := RunWrapped(c.argv, strings.NewReader(""), &bytes.Buffer{}, &errOut, TraceLimits)
		if w.Exit != c.exit || w.StartErr != c.reason {
			t.Errorf("%q: exit %d, %q; want %d, %q", c.argv, w.Exit, w.StartErr, c.exit, c.reason)
		}
		if want := "hookctl: trace: " + c.reason + "\n"; errOut.String() != want {
			t.Errorf("%q: said %q, want %q", c.argv, errOut.String(), want)
		}
	}
}

// TestRunWrappedSignal returns the signal that killed the command, for
// the wrapper to die of it in turn.
func TestRunWrappedSignal(t *testing.T) {
	w := RunWrapped([]string{"sh", "-c", "kill -USR1 $$"}, strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{}, TraceLimits)
	if w.Signal != syscall.SIGUSR1 {
		t.Fatalf("signal %v (exit %d), want SIGUSR1", w.Signal, w.Exit)
	}
	if rec := w.TraceRecord(shellcmd.TraceArgs{Command: []string{"sh"}}, func(string) string { return "" }); rec.Signal != tracelog.SignalName(syscall.SIGUSR1) || rec.Exit != nil {
		t.Errorf("record says signal %q, exit %v", rec.Signal, rec.Exit)
	}
}

// TestTraceRecordNames takes the hook and event from the flags, else the
// environment, else the payload, and says which.
func TestTraceRecordNames(t *testing.T) {
	w := &Wrapped{Start: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Exit: 0, Teed: true}
	for _, c := range []struct {
		s     *capture.Buffer
		b     string
		limit int
	}{
		{&w.Stdout, `{ "decision" : "allow" }` + "\n", tracelog.AnswerCap},
		{&w.Stdin, `{"toolName":"run_command","toolArguments":{"CommandLine":"ls"}}`, tracelog.PayloadCap},
	} {
		c.s.Limit = c.limit
		c.s.Write([]byte(c.b))
	}
	env := map[string]string{"HOOKCTL_HOOK": "gate"}
	rec := w.TraceRecord(shellcmd.TraceArgs{Event: "PreToolUse", Payload: true}, func(k string) string { return env[k] })
	if rec.Hook != "gate" || rec.HookFrom != tracelog.FromEnvironment || rec.Event != "PreToolUse" || rec.EventFrom != tracelog.FromFlag {
		t.Errorf("hook %q from %q, event %q from %q", rec.Hook, rec.HookFrom, rec.Event, rec.EventFrom)
	}
	if string(rec.Answer) != `{"decision":"allow"}` || len(rec.Payload) == 0 || *rec.Exit != 0 {
		t.Errorf("answer %s, payload %s", rec.Answer, rec.Payload)
	}
}
