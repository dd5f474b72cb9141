//go:build unix

package runtime

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookctl/hookctl/internal/testenv"
	"github.com/hookctl/hookctl/schema"
)

// The process tests use 1 s timeouts and the real 2 s grace: a dispatch
// must end by timeout + grace whatever the handler does. Bounds on time
// only prove that nothing hung.

func TestTimeoutStopsTheWholeGroup(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pids := filepath.Join(e.ws, "pids")
	// The shell, a child and a grandchild, all sleeping past the timeout.
	e.workspace(hooks(hookEntry{name: "slow", event: pre, timeout: 1,
		command: `echo $$ > ` + pids + `; (sleep 60 & echo $! >> ` + pids + `; wait) & sleep 60`}))
	start := time.Now()
	res := e.dispatch(pre, e.payload(pre, "run_command"), e.opts())
	within(t, time.Since(start), 1*time.Second+Grace+3*time.Second, "a handler past its timeout")
	o := outcomeOf(t, res, "slow")
	if o.Kind != Failed || !strings.HasPrefix(o.Cause, "timed out after 1s") {
		t.Errorf("outcome %v %q, want a timeout failure", o.Kind, o.Cause)
	}
	if want := `{"decision":"deny","reason":"hook slow failed: ` + o.Cause + `"}`; string(res.Answer) != want {
		t.Errorf("answer %s, want %s", res.Answer, want)
	}
	assertGone(t, pidsIn(t, pids))
}

func TestSIGTERMThenSIGKILL(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pids := filepath.Join(e.ws, "pids")
	log := filepath.Join(e.ws, "log")
	// The shell notes the SIGTERM and carries on; its child ignores it.
	e.workspace(hooks(hookEntry{name: "stubborn", event: schema.Stop, timeout: 1,
		command: `trap 'echo TERM >> ` + log + `' TERM; echo $$ > ` + pids + `
(trap '' TERM; while :; do sleep 0.05; done) & echo $! >> ` + pids + `
while :; do sleep 0.05; done`}))
	start := time.Now()
	res := e.dispatch(schema.Stop, e.payload(schema.Stop, ""), e.opts())
	took := time.Since(start)
	within(t, took, 1*time.Second+Grace+3*time.Second, "a handler that ignores SIGTERM")
	if took < 1*time.Second+Grace-100*time.Millisecond {
		t.Errorf("the group was killed after %s, before its %s grace was over", took, Grace)
	}
	got, _ := os.ReadFile(log)
	if !strings.Contains(string(got), "TERM") {
		t.Errorf("the handler never got SIGTERM (log %q)", got)
	}
	if o := outcomeOf(t, res, "stubborn"); o.Kind != Failed || !strings.Contains(o.Cause, "timed out") {
		t.Errorf("outcome %v %q, want a timeout", o.Kind, o.Cause)
	}
	assertGone(t, pidsIn(t, pids))
}

func TestGroupMembersGetTheirGraceAfterTheShellExits(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pids := filepath.Join(e.ws, "pids")
	// The shell dies at SIGTERM; its child cleans up for half a second.
	e.workspace(hooks(hookEntry{name: "cleanup", event: schema.Stop, timeout: 1,
		command: `(trap 'sleep 0.5; echo cleaned > ../cleaned; exit 0' TERM; sh -c 'echo $PPID' >> ` + pids + `; while :; do sleep 0.05; done) & sleep 60`}))
	e.dispatch(schema.Stop, e.payload(schema.Stop, ""), e.opts())
	if _, err := os.Stat(filepath.Join(e.ws, "cleaned")); err != nil {
		t.Error("the child was killed before it could finish its SIGTERM handler")
	}
	assertGone(t, pidsIn(t, pids))
}

func TestGrandchildHoldingStdoutDoesNotDelay(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pids := filepath.Join(e.ws, "pids")
	// The background sleep inherits stdout and stderr and keeps them open.
	e.workspace(hooks(hookEntry{name: "bg", event: pre, timeout: 30,
		command: `sleep 60 & echo $! > ` + pids + `; echo '{"decision":"allow","reason":"answered"}'`}))
	start := time.Now()
	res := e.dispatch(pre, e.payload(pre, "run_command"), e.opts())
	within(t, time.Since(start), 5*time.Second, "a handler whose grandchild holds stdout")
	if want := `{"decision":"allow","reason":"answered"}`; string(res.Answer) != want {
		t.Errorf("answer %s, want %s (notes %q)", res.Answer, want, res.Notes)
	}
	assertGone(t, pidsIn(t, pids))
}

func TestGrandchildHoldingStdoutPastTheTimeout(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pids := filepath.Join(e.ws, "pids")
	e.workspace(hooks(hookEntry{name: "bg", event: pre, timeout: 1,
		command: `(trap '' TERM; exec sleep 60) & echo $! > ` + pids + `; exec sleep 60`}))
	start := time.Now()
	res := e.dispatch(pre, e.payload(pre, "run_command"), e.opts())
	within(t, time.Since(start), 1*time.Second+Grace+3*time.Second, "a timed-out handler whose grandchild holds stdout")
	if o := outcomeOf(t, res, "bg"); o.Kind != Failed || !strings.Contains(o.Cause, "timed out") {
		t.Errorf("outcome %v %q, want a timeout", o.Kind, o.Cause)
	}
	assertGone(t, pidsIn(t, pids))
}

func TestOrphanHoldingNothingOpenDies(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pids := filepath.Join(e.ws, "pids")
	// A double fork with every stream redirected: nothing keeps run
	// waiting, so only the final SIGKILL of the group catches it.
	e.workspace(hooks(hookEntry{name: "orphan", event: schema.PostToolUse,
		command: `(sh -c 'echo $$ > ` + pids + `; exec sleep 60' </dev/null >/dev/null 2>&1 &); while [ ! -s ` + pids + ` ]; do sleep 0.01; done`}))
	res := e.dispatch(schema.PostToolUse, e.payload(schema.PostToolUse, "view_file"), e.opts())
	if string(res.Answer) != "{}" || len(res.Notes) != 0 {
		t.Errorf("answer %s notes %q", res.Answer, res.Notes)
	}
	assertGone(t, pidsIn(t, pids))
}

func TestStdoutFloodIsCappedAndStopped(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pids := filepath.Join(e.ws, "pids")
	e.workspace(hooks(hookEntry{name: "flood", event: pre, timeout: 60,
		command: `echo $$ > ` + pids + `; head -c 100000000 /dev/zero | tr '\0' 'x'; sleep 60`}))
	start := time.Now()
	res := e.dispatch(pre, e.payload(pre, "run_command"), e.opts())
	within(t, time.Since(start), 20*time.Second, "a handler printing 100 MB")
	o := outcomeOf(t, res, "flood")
	if o.Kind != Failed || o.Cause != "printed more than 1 MiB on stdout; it was stopped" {
		t.Errorf("outcome %v %q, want the cap failure", o.Kind, o.Cause)
	}
	if len(o.Stdout) > StdoutCap+1 {
		t.Errorf("kept %d bytes of stdout, more than the cap", len(o.Stdout))
	}
	assertGone(t, pidsIn(t, pids))
}

func TestStdoutAtTheCapIsAnAnswer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	answer := `{"decision":"allow"}`
	pad := StdoutCap - len(answer)
	e.workspace(hooks(hookEntry{name: "big", event: pre,
		command: `printf '%s' '` + answer + `'; head -c ` + jsonInt(pad) + ` /dev/zero | tr '\0' ' '`}))
	res := e.dispatch(pre, e.payload(pre, "run_command"), e.opts())
	if string(res.Answer) != answer {
		t.Errorf("answer %s notes %q, want %s", res.Answer, res.Notes, answer)
	}
	if o := outcomeOf(t, res, "big"); len(o.Stdout) != StdoutCap {
		t.Errorf("kept %d bytes, want %d", len(o.Stdout), StdoutCap)
	}
}

func TestStderrIsKeptUpToItsCap(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.workspace(hooks(hookEntry{name: "noisy", event: schema.Stop,
		command: `head -c 1000000 /dev/zero | tr '\0' 'e' >&2; echo '{"decision":"allow"}'`}))
	res := e.dispatch(schema.Stop, e.payload(schema.Stop, ""), e.opts())
	o := outcomeOf(t, res, "noisy")
	if o.Kind != Answered || len(o.Stderr) != StderrCap || !o.StderrTruncated {
		t.Errorf("outcome %v with %d bytes of stderr (truncated %v), want an answer and %d bytes",
			o.Kind, len(o.Stderr), o.StderrTruncated, StderrCap)
	}
}

func TestCancelStopsEveryHandler(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pids := filepath.Join(e.ws, "pids")
	e.workspace(hooks(
		hookEntry{name: "a", event: pre, command: `echo $$ >> ` + pids + `; sleep 60`},
		hookEntry{name: "b", event: pre, command: `echo $$ >> ` + pids + `; trap '' TERM; sleep 60`},
	))
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for {
			if b, _ := os.ReadFile(pids); strings.Count(string(b), "\n") == 2 {
				cancel()
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	start := time.Now()
	res, err := Dispatch(ctx, pre, e.payload(pre, "run_command"), e.opts())
	if err != nil {
		t.Fatal(err)
	}
	within(t, time.Since(start), Grace+5*time.Second, "a cancelled dispatch")
	for _, o := range res.Outcomes {
		if o.Kind != Failed || !strings.Contains(o.Cause, "interrupted") {
			t.Errorf("hook %s: %v %q, want interrupted", o.Hook, o.Kind, o.Cause)
		}
	}
	assertGone(t, pidsIn(t, pids))
}

func TestExitStatuses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		event   schema.Event
		command string
		kind    Kind
		cause   string // for failures, or the block's reason
		answer  string
	}{
		{"exit 0 and nothing printed", pre, `true`, NoAnswer, "", `{"decision":"ask"}`},
		{"exit 0 and white space", pre, `printf ' \n\t\n'`, NoAnswer, "", `{"decision":"ask"}`},
		{"exit 0 and an answer", pre, `echo '{"decision":"allow","reason":"ok"}'`, Answered, "", `{"decision":"allow","reason":"ok"}`},
		{"exit 2 denies with stderr as the reason", pre, `echo '{"decision":"allow"}'; echo 'rm -rf is blocked' >&2; exit 2`, Blocked, "rm -rf is blocked", `{"decision":"deny","reason":"rm -rf is blocked"}`},
		{"exit 2 continues a Stop", schema.Stop, `echo 'tests fail' >&2; exit 2`, Blocked, "tests fail", `{"decision":"continue","reason":"tests fail"}`},
		{"exit 2 fails other events", schema.PostInvocation, `echo nope >&2; exit 2`, Failed, "exit status 2, which blocks only PreToolUse and Stop: nope", `{}`},
		{"exit 1 fails with the last line of stderr", pre, `echo 'Traceback' >&2; echo 'KeyError: x' >&2; exit 1`, Failed, "exit status 1: KeyError: x", ""},
		{"exit 127: command not found", pre, `./no-such-script.sh`, Failed, "exit status 127: ", ""},
		{"killed by a signal", pre, `kill -SEGV $$`, Failed, "killed by signal 11 (SIGSEGV)", ""},
		{"not JSON", pre, `echo allow`, Failed, `printed something that is not a JSON answer`, ""},
		{"not an object", pre, `echo '["allow"]'`, Failed, "printed an array, not a JSON object", ""},
		{"two objects", pre, `echo '{"decision":"allow"}{"decision":"deny"}'`, Failed, "printed something that is not a JSON answer", ""},
		{"decision missing", pre, `echo '{"reason":"x"}'`, Failed, `"decision" is required`, ""},
		{"decision unknown", pre, `echo '{"decision":"alow"}'`, Failed, `not "alow" (did you mean "allow"?)`, ""},
		{"decision not a string", pre, `echo '{"decision":true}'`, Failed, `"decision" must be a string, not true`, ""},
		{"reason not a string", pre, `echo '{"decision":"allow","reason":1}'`, Failed, `"reason" must be a string, not the number 1`, ""},
		{"overrides not strings", pre, `echo '{"decision":"allow","permissionOverrides":[1]}'`, Failed, `"permissionOverrides" must be an array of strings`, ""},
		{"overwrite not an object", pre, `echo '{"decision":"allow","overwrite":"x"}'`, Failed, `"overwrite" must be an object`, ""},
		{"Stop decision required", schema.Stop, `echo '{}'`, Failed, `"decision" is required`, `{"decision":"allow"}`},
		{"bad termination behaviour", schema.PostInvocation, `echo '{"terminationBehavior":"stop"}'`, Failed, `"terminationBehavior" must be`, `{}`},
		{"bad inject step", schema.PreInvocation, `echo '{"injectSteps":[{"userMessage":"a","ephemeralMessage":"b"}]}'`, Failed, `holds both "userMessage" and "ephemeralMessage"`, `{}`},
		{"inject step of the wrong type", schema.PreInvocation, `echo '{"injectSteps":[{"userMessage":1}]}'`, Failed, `injectSteps[0].userMessage must be a string`, `{}`},
		{"PostToolUse answers {}", schema.PostToolUse, `echo '{}'`, Answered, "", `{}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			e.workspace(hooks(hookEntry{name: "h", event: tt.event, command: tt.command}))
			res := e.dispatch(tt.event, e.payload(tt.event, "run_command"), e.opts())
			o := outcomeOf(t, res, "h")
			if o.Kind != tt.kind {
				t.Errorf("kind %v (cause %q), want %v", o.Kind, o.Cause, tt.kind)
			}
			switch tt.kind {
			case Failed:
				if !strings.Contains(o.Cause, tt.cause) {
					t.Errorf("cause %q, want it to contain %q", o.Cause, tt.cause)
				}
				if want := "hook h: " + o.Cause; !contains(res.Notes, want) {
					t.Errorf("notes %q, want %q", res.Notes, want)
				}
			case Blocked:
				if o.Reason != tt.cause {
					t.Errorf("reason %q, want %q", o.Reason, tt.cause)
				}
			}
			if tt.answer != "" && string(res.Answer) != tt.answer {
				t.Errorf("answer %s, want %s", res.Answer, tt.answer)
			}
			if tt.kind == Failed && tt.event == pre {
				if want := `{"decision":"deny","reason":` + string(quote("hook h failed: "+o.Cause)) + `}`; string(res.Answer) != want {
					t.Errorf("answer %s, want %s", res.Answer, want)
				}
			}
		})
	}
}

func TestCannotStart(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.workspace(hooks(hookEntry{name: "h", event: pre, command: `true`}))
	plan, err := NewPlan(pre, e.payload(pre, "run_command"), e.opts())
	if err != nil {
		t.Fatal(err)
	}
	// The folder the handler runs in disappears between plan and run.
	if err := os.RemoveAll(filepath.Join(e.ws, ".agents")); err != nil {
		t.Fatal(err)
	}
	res := plan.Run(context.Background())
	o := outcomeOf(t, res, "h")
	if o.Kind != Failed || !strings.HasPrefix(o.Cause, "cannot start /bin/sh in "+filepath.Join(e.ws, ".agents")) {
		t.Errorf("outcome %v %q, want a start failure", o.Kind, o.Cause)
	}
	if !strings.HasPrefix(string(res.Answer), `{"decision":"deny"`) {
		t.Errorf("answer %s, want a deny", res.Answer)
	}
}

func TestUnknownKeysAreIgnoredWithANote(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.workspace(hooks(hookEntry{name: "h", event: pre, command: `echo '{"decision":"allow","continue":true,"reason":"r"}'`}))
	res := e.dispatch(pre, e.payload(pre, "run_command"), e.opts())
	if string(res.Answer) != `{"decision":"allow","reason":"r"}` {
		t.Errorf("answer %s", res.Answer)
	}
	want := `hook h: ignoring "continue" in its answer: a PreToolUse answer holds "decision", "reason", "permissionOverrides" and "overwrite"`
	if len(res.Notes) != 1 || res.Notes[0] != want {
		t.Errorf("notes %q, want %q", res.Notes, want)
	}
}

func TestDrainNeverDropsWhatThePipeHolds(t *testing.T) {
	t.Parallel()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close() // held open, as by a process that left the group
	if _, err := w.Write([]byte(`{"decision":"allow"}`)); err != nil {
		t.Fatal(err)
	}
	done := make(chan []byte, 1)
	go func() {
		// A reader scheduled late, as on a loaded machine.
		time.Sleep(5 * drainPoll)
		done <- readStdout(r, StdoutCap, make(chan struct{}))
	}()
	if got := drain(r, done); string(got) != `{"decision":"allow"}` {
		t.Errorf("drained %q", got)
	}
}

func TestProcessThatLeftTheGroupDoesNotDelay(t *testing.T) {
	t.Parallel()
	testenv.Need(t, "setsid")
	e := newEnv(t)
	pids := filepath.Join(e.ws, "pids")
	// setsid moves the sleep out of the handler's group, keeping stdout
	// open: it must not hold the dispatch up.
	e.workspace(hooks(hookEntry{name: "escape", event: pre,
		command: `setsid sh -c 'echo $$ > ` + pids + `; exec sleep 30' & while [ ! -s ` + pids + ` ]; do sleep 0.01; done; echo '{"decision":"allow"}'`}))
	start := time.Now()
	res := e.dispatch(pre, e.payload(pre, "run_command"), e.opts())
	for _, pid := range pidsIn(t, pids) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	within(t, time.Since(start), 5*time.Second, "a handler whose escaped child holds stdout")
	if string(res.Answer) != `{"decision":"allow"}` {
		t.Errorf("answer %s notes %q", res.Answer, res.Notes)
	}
}

func TestEachHandlerHasAProcessGroupOfItsOwn(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	// Field 5 of /proc/PID/stat is the process group; the shell leads its
	// own, apart from the dispatch's and from the other handler's.
	pgrp := `set -- $(sed 's/^.*) //' /proc/$$/stat); echo "$$ $3" > ../pg.$HOOKCTL_HOOK`
	e.workspace(hooks(
		hookEntry{name: "a", event: schema.Stop, command: pgrp},
		hookEntry{name: "b", event: schema.Stop, command: pgrp + " # b"},
	))
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	e.dispatch(schema.Stop, e.payload(schema.Stop, ""), e.opts())
	seen := map[string]bool{}
	for _, h := range []string{"a", "b"} {
		b, err := os.ReadFile(filepath.Join(e.ws, "pg."+h))
		if err != nil {
			t.Fatal(err)
		}
		f := strings.Fields(string(b))
		if len(f) != 2 || f[0] != f[1] {
			t.Errorf("hook %s: pid and process group %q, want the shell to lead its group", h, f)
		}
		if f[1] == jsonInt(syscall.Getpgrp()) || seen[f[1]] {
			t.Errorf("hook %s shares the process group %s", h, f[1])
		}
		seen[f[1]] = true
	}
}
