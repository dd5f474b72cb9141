//go:build unix

package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/hookctl/hookctl/runtime/tracelog"
)

// These tests run hookctl trace as the agent would: a real process (the
// test binary acting as hookctl, on the PATH that TestMain sets up) in
// front of a real command, compared with the command run alone.

// ran is how a process ended and what it printed.
type ran struct {
	stdout, stderr []byte
	code           int            // exit status, -1 when killed by a signal
	sig            syscall.Signal // the signal that killed it
	state          *os.ProcessState
}

// traceEnv is an environment whose log is a file of the test's.
func traceEnv(t *testing.T) (env []string, logPath string) {
	t.Helper()
	logPath = filepath.Join(t.TempDir(), "state", "runs.jsonl")
	env = append(os.Environ(), "HOOKCTL_LOG="+logPath)
	return env, logPath
}

func runProcess(t *testing.T, argv []string, stdin []byte, env []string) ran {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	// Its own process group, as the agent runs a handler: never the
	// foreground group of a terminal the tests may run in.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatalf("%q: %v", argv, err)
	}
	return ended(cmd.ProcessState, out.Bytes(), errb.Bytes())
}

func ended(st *os.ProcessState, out, errb []byte) ran {
	r := ran{stdout: out, stderr: errb, code: st.ExitCode(), state: st}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		r.sig = ws.Signal()
	}
	return r
}

func traced(argv ...string) []string {
	return append([]string{"hookctl", "trace", "--"}, argv...)
}

// sameAs fails unless the traced run reached its caller exactly as the
// command alone did.
func sameAs(t *testing.T, what string, traced, alone ran) {
	t.Helper()
	if !bytes.Equal(traced.stdout, alone.stdout) {
		t.Errorf("%s: stdout differs:\n traced %q\n alone  %q", what, clip(traced.stdout), clip(alone.stdout))
	}
	if !bytes.Equal(traced.stderr, alone.stderr) {
		t.Errorf("%s: stderr differs:\n traced %q\n alone  %q", what, clip(traced.stderr), clip(alone.stderr))
	}
	if traced.code != alone.code || traced.sig != alone.sig {
		t.Errorf("%s: traced ended with status %d signal %v, alone with %d signal %v", what, traced.code, traced.sig, alone.code, alone.sig)
	}
}

func clip(b []byte) []byte {
	if len(b) > 300 {
		return append(b[:300:300], "..."...)
	}
	return b
}

// records reads every line of the log, failing on one that does not
// parse.
func records(t *testing.T, path string) []*tracelog.Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rs []*tracelog.Record
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		r, err := tracelog.ParseLine(sc.Bytes())
		if err != nil {
			t.Fatalf("a line of the log does not parse: %v: %q", err, sc.Text())
		}
		rs = append(rs, r)
	}
	return rs
}

func lastRecord(t *testing.T, path string) *tracelog.Record {
	t.Helper()
	rs := records(t, path)
	if len(rs) == 0 {
		t.Fatal("nothing was logged")
	}
	return rs[len(rs)-1]
}

func TestTraceIsTransparent(t *testing.T) {
	t.Parallel()
	env, logPath := traceEnv(t)
	for _, c := range []struct {
		name  string
		argv  []string
		stdin []byte
	}{
		{"answer and exit 0", []string{"sh", "-c", `cat >/dev/null; echo '{"decision":"allow"}'`}, []byte(`{"toolCall":{"name":"run_command"}}`)},
		{"binary and invalid UTF-8", []string{"sh", "-c", `printf '\377\376\000bin\033[31mred\r\n'; printf 'err\377\000\033]0;title\007' >&2; exit 3`}, nil},
		{"exit 2 with a reason", []string{"sh", "-c", `echo 'rm -rf is not allowed' >&2; exit 2`}, nil},
		{"exit 255", []string{"sh", "-c", "exit 255"}, nil},
		{"no output, no newline", []string{"printf", "%s", "x"}, nil},
		{"stdin passed through", []string{"cat"}, bytes.Repeat([]byte("payload\x00\xff"), 100000)},
		{"stdin never read", []string{"true"}, bytes.Repeat([]byte("x"), 300000)},
		{"stdout then stderr then stdout", []string{"sh", "-c", "echo a; sleep 0.05; echo b >&2; sleep 0.05; echo c"}, nil},
		{"arguments kept as they are", []string{"printf", "[%s]\n", "a b", "", "*", "$HOME", "'q'"}, nil},
	} {
		alone := runProcess(t, c.argv, c.stdin, env)
		tr := runProcess(t, traced(c.argv...), c.stdin, env)
		sameAs(t, c.name, tr, alone)
	}
	if n := len(records(t, logPath)); n != 9 {
		t.Errorf("%d records, want 9", n)
	}
}

func TestTraceSignalDeath(t *testing.T) {
	env, logPath := traceEnv(t)
	for _, sig := range []string{"KILL", "TERM", "SEGV", "PIPE", "USR1", "ABRT", "QUIT"} {
		argv := []string{"sh", "-c", "echo before; kill -" + sig + " $$; echo after"}
		alone := runProcess(t, argv, nil, env)
		if alone.sig == 0 {
			t.Fatalf("SIG%s: the command alone was not killed: %d", sig, alone.code)
		}
		tr := runProcess(t, traced(argv...), nil, env)
		sameAs(t, "SIG"+sig, tr, alone)
		if r := lastRecord(t, logPath); r.Signal != "SIG"+sig || r.Exit != nil {
			t.Errorf("SIG%s recorded as signal %q exit %v", sig, r.Signal, r.Exit)
		}
	}
}

func TestTraceClosedStdout(t *testing.T) {
	// The agent stops reading: the command finds out as it would alone,
	// by SIGPIPE (or EPIPE, when it ignores the signal).
	env, logPath := traceEnv(t)
	for _, argv := range [][]string{
		{"yes"},
		{"sh", "-c", "trap '' PIPE; while echo y; do :; done; echo 'write failed' >&2; exit 5"},
	} {
		var got [2]ran
		for i, a := range [][]string{argv, traced(argv...)} {
			cmd := exec.Command(a[0], a[1:]...)
			cmd.Env = env
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			var errb bytes.Buffer
			cmd.Stderr = &errb
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			buf := make([]byte, 10)
			if _, err := io.ReadFull(out, buf); err != nil {
				t.Fatal(err)
			}
			out.Close()
			cmd.Wait()
			got[i] = ended(cmd.ProcessState, nil, errb.Bytes())
		}
		sameAs(t, "stdout closed under "+argv[0], got[1], got[0])
	}
	if r := lastRecord(t, logPath); r.Exit == nil || *r.Exit != 5 {
		t.Errorf("recorded %v %q", r.Exit, r.Signal)
	}
}

// startReady starts argv and waits for its first line on stdout, which
// says it is ready. wait waits for it to end and returns how, with
// everything it printed.
func startReady(t *testing.T, argv []string, env []string) (cmd *exec.Cmd, wait func() ran) {
	t.Helper()
	cmd = exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	outR, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(outR)
	first, err := br.ReadString('\n')
	if err != nil {
		t.Fatalf("%q never said it was ready: %v (stderr %q)", argv, err, errb.String())
	}
	return cmd, func() ran {
		// A signal that never arrives leaves the command running: end
		// its group after a minute, so the test fails instead of hanging.
		stuck := time.AfterFunc(time.Minute, func() {
			t.Errorf("%q still ran a minute after the signal: killed", argv)
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		})
		defer stuck.Stop()
		rest, _ := io.ReadAll(br)
		cmd.Wait()
		return ended(cmd.ProcessState, append([]byte(first), rest...), errb.Bytes())
	}
}

func TestTraceForwardsSignals(t *testing.T) {
	t.Parallel()
	env, _ := traceEnv(t)
	sigs := []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGALRM}
	unignore(t, sigs...)
	for _, sig := range sigs {
		name := tracelog.SignalName(sig)[3:]
		// A command that catches the signal, says so and exits 7; and one
		// that dies of it.
		catching := []string{"sh", "-c", "trap 'echo caught " + name + "; exit 7' " + name + "; echo ready; while :; do sleep 0.02; done"}
		dying := []string{"sh", "-c", "trap - " + name + "; echo ready; while :; do sleep 0.02; done"}
		for _, argv := range [][]string{catching, dying} {
			var got [2]ran
			for i, a := range [][]string{argv, traced(argv...)} {
				cmd, wait := startReady(t, a, env)
				// To the process alone, not its group: the agent's timeout
				// may signal the handler's pid only.
				if err := cmd.Process.Signal(sig); err != nil {
					t.Fatal(err)
				}
				got[i] = wait()
			}
			sameAs(t, name+" to "+argv[2], got[1], got[0])
			if argv[2] == catching[2] && (got[1].code != 7 || string(got[1].stdout) != "ready\ncaught "+name+"\n") {
				t.Errorf("%s: the traced command did not catch it: status %d, stdout %q", name, got[1].code, got[1].stdout)
			}
			if argv[2] == dying[2] && got[1].sig != sig {
				t.Errorf("%s: the traced command did not die of it: %d/%v", name, got[1].code, got[1].sig)
			}
		}
	}
}

// TestTraceSignalOnceTheCommandEnded sends trace a signal after COMMAND
// has exited, while trace still drains the output that a process COMMAND
// left in the background holds open: there is no one to pass it on to,
// and trace must not die of it, nor print anything (Go's runtime prints
// its goroutines on a SIGQUIT it does not catch), but exit with COMMAND's
// status, its record written. COMMAND ignores the signals, so that the
// outcome is the same if the signal reaches it before it exits.
func TestTraceSignalOnceTheCommandEnded(t *testing.T) {
	t.Parallel()
	env, logPath := traceEnv(t)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGQUIT, syscall.SIGINT, syscall.SIGPIPE} {
		argv := traced("sh", "-c", "trap '' TERM QUIT INT PIPE; (sleep 1) & echo ready; exit 3")
		cmd, wait := startReady(t, argv, env)
		time.Sleep(20 * time.Millisecond)
		if err := cmd.Process.Signal(sig); err != nil && !errors.Is(err, os.ErrProcessDone) {
			t.Fatal(err)
		}
		got := wait()
		if got.code != 3 || got.sig != 0 || len(got.stderr) != 0 || string(got.stdout) != "ready\n" {
			t.Errorf("%v: trace ended with status %d signal %v, stdout %q, stderr %q; want status 3 and the command's output alone",
				sig, got.code, got.sig, got.stdout, clip(got.stderr))
		}
		if r := lastRecord(t, logPath); r.Exit == nil || *r.Exit != 3 || r.Signal != "" {
			t.Errorf("%v: recorded exit %v signal %q, want exit 3", sig, r.Exit, r.Signal)
		}
	}
}

func TestTraceCannotStart(t *testing.T) {
	env, logPath := traceEnv(t)
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.sh")
	os.WriteFile(plain, []byte("echo hi\n"), 0o644)
	noShebang := filepath.Join(dir, "noshebang")
	os.WriteFile(noShebang, []byte("echo \"no #! line: $1\"\nexit 4\n"), 0o755)
	badInterp := filepath.Join(dir, "bad")
	os.WriteFile(badInterp, []byte("#!/nonexistent/python9\nprint(1)\n"), 0o755)
	for _, c := range []struct {
		argv []string
		code int
		msg  string
	}{
		{[]string{"no-such-command-xyz"}, 127, "no-such-command-xyz: command not found"},
		{[]string{filepath.Join(dir, "missing")}, 127, "no such file"},
		{[]string{plain}, 126, "permission denied"},
		{[]string{dir}, 126, "is a folder"},
		{[]string{badInterp}, 127, "interpreter was not found"},
	} {
		// The status a shell gives the same command.
		sh := runProcess(t, []string{"/bin/sh", "-c", `"$0" "$@"`, c.argv[0]}, nil, env)
		tr := runProcess(t, traced(c.argv...), []byte(`{"toolCall":{"name":"run_command"},"stepIdx":2}`), env)
		if tr.code != c.code || sh.code != c.code {
			t.Errorf("%s: traced exit %d, shell %d, want %d", c.argv[0], tr.code, sh.code, c.code)
		}
		lines := strings.Split(strings.TrimSuffix(string(tr.stderr), "\n"), "\n")
		if len(tr.stdout) != 0 || len(lines) != 1 || !strings.HasPrefix(lines[0], "hookctl: trace: ") || !strings.Contains(lines[0], c.msg) {
			t.Errorf("%s: stdout %q, stderr %q; want one line saying %q", c.argv[0], tr.stdout, tr.stderr, c.msg)
		}
		r := lastRecord(t, logPath)
		if r.Exit == nil || *r.Exit != c.code || !strings.Contains(r.Error, c.msg) {
			t.Errorf("%s: recorded exit %v error %q", c.argv[0], r.Exit, r.Error)
		}
		// The payload the agent sent still tells the tool and the event.
		if r.Tool != "run_command" || r.Event != "PreToolUse or PostToolUse" {
			t.Errorf("%s: recorded tool %q event %q", c.argv[0], r.Tool, r.Event)
		}
	}
	// A script without a #! line runs with /bin/sh, as a shell runs it.
	tr := runProcess(t, traced(noShebang, "arg"), nil, env)
	sh := runProcess(t, []string{"/bin/sh", "-c", `"$0" "$@"`, noShebang, "arg"}, nil, env)
	sameAs(t, "no #! line", tr, sh)
	if string(tr.stdout) != "no #! line: arg\n" {
		t.Errorf("no #! line: %q", tr.stdout)
	}
}

func TestTraceSameEnvironmentAndFolder(t *testing.T) {
	env, _ := traceEnv(t)
	env = append(env, "HOOKCTL_TEST_VAR=a b\nc", "EMPTY=")
	dir := t.TempDir()
	argv := []string{"sh", "-c", "pwd; env | LC_ALL=C sort; ls -l /proc/self/fd/ 2>/dev/null | wc -l"}
	run := func(a []string) ran {
		cmd := exec.Command(a[0], a[1:]...)
		cmd.Env, cmd.Dir = env, dir
		var out bytes.Buffer
		cmd.Stdout = &out
		if err := cmd.Run(); err != nil {
			t.Fatal(err)
		}
		return ran{stdout: out.Bytes()}
	}
	alone, tr := run(argv), run(traced(argv...))
	if !bytes.Equal(alone.stdout, tr.stdout) {
		t.Errorf("the environment, folder or open files differ:\ntraced %s\nalone  %s", tr.stdout, alone.stdout)
	}
}

func TestTraceStreamsWithFlatMemory(t *testing.T) {
	t.Parallel()
	env, logPath := traceEnv(t)
	const size = 64 << 20
	argv := []string{"sh", "-c", fmt.Sprintf("head -c %d /dev/zero | tr '\\000' 'x'; head -c 100000 /dev/zero | tr '\\000' e >&2", size)}
	cmd := exec.Command("hookctl", traced(argv...)[1:]...)
	cmd.Env = env
	h := sha256.New()
	cmd.Stdout = h
	var stderr countWriter
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprintf("%x", h.Sum(nil)), fmt.Sprintf("%x", sha256.Sum256(bytes.Repeat([]byte("x"), size))); got != want {
		t.Error("stdout differs from what the command printed")
	}
	if stderr.n != 100000 {
		t.Errorf("%d bytes of stderr, want 100000", stderr.n)
	}
	r := lastRecord(t, logPath)
	if r.StdoutBytes != size || r.StderrBytes != 100000 || len(r.Stderr) != tracelog.StderrCap || r.Answer != nil {
		t.Errorf("recorded stdout %d bytes, stderr %d bytes (%d kept), answer %q", r.StdoutBytes, r.StderrBytes, len(r.Stderr), r.Answer)
	}
	if !slices.Contains(r.Truncated, "stdout") || !slices.Contains(r.Truncated, "stderr") || !strings.HasSuffix(r.Output, tracelog.Cut) {
		t.Errorf("truncated %v, output %q", r.Truncated, clip([]byte(r.Output)))
	}

	// Against the peak of the same trace printing almost nothing (the
	// race detector, for one, raises both): far less than what went
	// through. Max RSS is in KiB on Linux.
	small := exec.Command("hookctl", traced("sh", "-c", "echo x")[1:]...)
	small.Env = env
	if err := small.Run(); err != nil {
		t.Fatal(err)
	}
	base, ok1 := small.ProcessState.SysUsage().(*syscall.Rusage)
	big, ok2 := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if ok1 && ok2 && big.Maxrss-base.Maxrss > 16<<10 {
		t.Errorf("trace's peak memory grew from %d to %d KiB while 64 MiB went through", base.Maxrss, big.Maxrss)
	}
}

type countWriter struct{ n int }

func (c *countWriter) Write(b []byte) (int, error) { c.n += len(b); return len(b), nil }

func TestTraceStdinKeptOpenNeverRead(t *testing.T) {
	// The agent writes the payload and keeps stdin open; the command
	// never reads it and exits at once. trace must not wait for an EOF
	// that never comes, and records what was there.
	env, logPath := traceEnv(t)
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close()
	payload := `{"toolCall":{"name":"run_command","args":{"CommandLine":"ls"}},"stepIdx":0}`
	pw.WriteString(payload)
	cmd := exec.Command("hookctl", "trace", "--payload", "--", "sh", "-c", "echo '{}'")
	cmd.Env, cmd.Stdin = env, pr
	done := make(chan error, 1)
	go func() { _, err := cmd.Output(); done <- err }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatal("trace waited for stdin to close")
	}
	pr.Close()
	r := lastRecord(t, logPath)
	if string(r.Payload) != payload || r.Tool != "run_command" {
		t.Errorf("payload %s tool %q", r.Payload, r.Tool)
	}
}

func TestTraceLogFailureIsOneLine(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	argv := []string{"sh", "-c", `echo '{"decision":"deny"}'; echo reason >&2; exit 2`}
	for _, logPath := range []string{dir, fifo, filepath.Join(dir, "no", "\x1b[2Jx", "runs.jsonl")} {
		if strings.Contains(logPath, "no") {
			os.WriteFile(filepath.Join(dir, "no"), nil, 0o600) // a file where a folder should be
		}
		env := append(os.Environ(), "HOOKCTL_LOG="+logPath)
		alone := runProcess(t, argv, nil, env)
		tr := runProcess(t, traced(argv...), nil, env)
		extra, ok := bytes.CutPrefix(tr.stderr, alone.stderr)
		lines := strings.Split(strings.TrimSuffix(string(extra), "\n"), "\n")
		if !ok || len(lines) != 1 || !strings.HasPrefix(lines[0], "hookctl: trace: ") || bytes.Contains(extra, []byte("\x1b")) {
			t.Errorf("log %q: stderr %q, want the command's then one line", logPath, tr.stderr)
		}
		tr.stderr = alone.stderr
		sameAs(t, "log "+logPath, tr, alone)
	}
}

func TestTraceRecord(t *testing.T) {
	env, logPath := traceEnv(t)
	dir := t.TempDir()
	script := filepath.Join(dir, "gate.sh")
	os.WriteFile(script, []byte("#!/bin/sh\ncat >/dev/null\necho \"pid $$\" >&2\necho '{\"decision\":\"deny\",\"reason\":\"no\"}'\n"), 0o755)
	payload := `{"toolCall":{"name":"run_command","args":{"CommandLine":"curl","Headers":{"Authorization":"Bearer s3cr3t"}}},` +
		`"stepIdx":3,"apiKey":"k3y","conversationId":"c1","workspacePaths":["/w"]}`

	// Told by the payload; hook unknown.
	cmd := exec.Command("hookctl", "trace", "--payload", "--", script)
	cmd.Env, cmd.Dir, cmd.Stdin = env, dir, strings.NewReader(payload)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	r := lastRecord(t, logPath)
	if string(out) != "{\"decision\":\"deny\",\"reason\":\"no\"}\n" || string(r.Answer) != `{"decision":"deny","reason":"no"}` {
		t.Errorf("stdout %q, answer %s", out, r.Answer)
	}
	if r.Event != "PreToolUse" || r.EventFrom != tracelog.FromPayload || r.Hook != "" || r.HookFrom != tracelog.FromUnknown || r.Tool != "run_command" {
		t.Errorf("event %q (%s), hook %q (%s), tool %q", r.Event, r.EventFrom, r.Hook, r.HookFrom, r.Tool)
	}
	if r.Kind != tracelog.KindTrace || r.Dir != dir || !slices.Equal(r.Command, []string{script}) || *r.Exit != 0 || r.Decision() != "deny" {
		t.Errorf("kind %q dir %q command %q exit %d decision %q", r.Kind, r.Dir, r.Command, *r.Exit, r.Decision())
	}
	if want := fmt.Sprintf("pid %d\n", r.PID); r.Stderr != want || errb.String() != want {
		t.Errorf("stderr recorded %q, printed %q, want %q (the command's pid)", r.Stderr, errb.String(), want)
	}
	if strings.Contains(string(r.Payload), "s3cr3t") || strings.Contains(string(r.Payload), "k3y") ||
		!strings.Contains(string(r.Payload), `"Authorization":"[redacted]"`) || !strings.Contains(string(r.Payload), `"CommandLine":"curl"`) {
		t.Errorf("payload %s", r.Payload)
	}
	if r.PayloadBytes != int64(len(payload)) || time.Since(r.Time) > time.Minute || r.Duration <= 0 {
		t.Errorf("payloadBytes %d time %v duration %v", r.PayloadBytes, r.Time, r.Duration)
	}

	// From the environment hookctl run sets, no payload recorded without
	// --payload.
	cmd = exec.Command("hookctl", "trace", "--", script)
	cmd.Env, cmd.Stdin = append(env, "HOOKCTL_HOOK=gate", "HOOKCTL_EVENT=PostToolUse"), strings.NewReader(payload)
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	r = lastRecord(t, logPath)
	if r.Hook != "gate" || r.HookFrom != tracelog.FromEnvironment || r.Event != "PostToolUse" || r.EventFrom != tracelog.FromEnvironment ||
		r.Payload != nil || r.PayloadBytes != int64(len(payload)) || r.Tool != "run_command" {
		t.Errorf("hook %q (%s) event %q (%s) payload %s (%d bytes) tool %q", r.Hook, r.HookFrom, r.Event, r.EventFrom, r.Payload, r.PayloadBytes, r.Tool)
	}

	// Flags first, and a log of their own.
	other := filepath.Join(dir, "other.jsonl")
	cmd = exec.Command("hookctl", "trace", "--log", other, "--hook=mine", "--event", "Stop", script)
	cmd.Env, cmd.Stdin = append(env, "HOOKCTL_HOOK=gate", "HOOKCTL_EVENT=PostToolUse"), strings.NewReader(`{"executionNum":1}`)
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	r = lastRecord(t, other)
	if r.Hook != "mine" || r.HookFrom != tracelog.FromFlag || r.Event != "Stop" || r.EventFrom != tracelog.FromFlag {
		t.Errorf("hook %q (%s) event %q (%s)", r.Hook, r.HookFrom, r.Event, r.EventFrom)
	}
	if info, err := os.Stat(other); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("the log's mode: %v %v", info.Mode(), err)
	}

	// A payload that is not JSON: what is wrong with it is recorded, not
	// its bytes, in which no secret could be told.
	cmd = exec.Command("hookctl", "trace", "--payload", "--", script)
	cmd.Env, cmd.Stdin = env, strings.NewReader("password=hunter2\n")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	r = lastRecord(t, logPath)
	if r.Payload != nil || !strings.HasPrefix(r.PayloadError, "not JSON: 1:1: ") || strings.Contains(r.PayloadError, "hunter2") || r.PayloadBytes != 17 {
		t.Errorf("payload %s, payloadError %q, %d bytes", r.Payload, r.PayloadError, r.PayloadBytes)
	}
}

func TestTraceConcurrentHandlersShareOneLog(t *testing.T) {
	t.Parallel()
	env, logPath := traceEnv(t)
	const n = 50
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			cmd := exec.Command("hookctl", "trace", "--hook", fmt.Sprintf("h%02d", i), "--", "sh", "-c",
				fmt.Sprintf(`cat >/dev/null; head -c 3000 /dev/zero | tr '\000' e >&2; echo '{"n":%d}'`, i))
			cmd.Env = env
			cmd.Stdin = strings.NewReader(fmt.Sprintf(`{"executionNum":%d}`, i))
			out, err := cmd.Output()
			if err != nil || string(out) != fmt.Sprintf("{\"n\":%d}\n", i) {
				errs <- fmt.Errorf("handler %d: %v, %q", i, err, out)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	rs := records(t, logPath)
	seen := map[string]bool{}
	for _, r := range rs {
		if seen[r.Hook] || len(r.Stderr) != 3000 || r.Event != "Stop" {
			t.Errorf("record of %s: seen before %v, %d bytes of stderr, event %q", r.Hook, seen[r.Hook], len(r.Stderr), r.Event)
		}
		seen[r.Hook] = true
		var a struct{ N int }
		if json.Unmarshal(r.Answer, &a) != nil || fmt.Sprintf("h%02d", a.N) != r.Hook {
			t.Errorf("record of %s holds the answer %s", r.Hook, r.Answer)
		}
	}
	if len(rs) != n || len(seen) != n {
		t.Errorf("%d records of %d hooks, want %d", len(rs), len(seen), n)
	}
}

func TestTraceUsage(t *testing.T) {
	env, logPath := traceEnv(t)
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"trace"}, "no command to run"},
		{[]string{"trace", "--"}, "no command to run"},
		{[]string{"trace", "--log"}, "--log needs a value"},
		{[]string{"trace", "--verbose", "--", "true"}, "unknown flag --verbose"},
		{[]string{"trace", "--payload=maybe", "--", "true"}, "--payload takes no value"},
	} {
		r := runProcess(t, append([]string{"hookctl"}, c.args...), nil, env)
		if r.code != exitUsage || len(r.stdout) != 0 || !strings.Contains(string(r.stderr), c.msg) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 and %q", c.args, r.code, r.stdout, r.stderr, c.msg)
		}
	}
	if _, err := os.Stat(logPath); err == nil {
		t.Error("a usage error was logged")
	}
	r := runProcess(t, []string{"hookctl", "trace", "--help"}, nil, env)
	if r.code != 0 || !strings.Contains(string(r.stdout), "hookctl trace [--log FILE]") {
		t.Errorf("--help: %d %q", r.code, r.stdout)
	}
	// A global flag first goes through the command's own reading of its
	// arguments, unreordered.
	r = runProcess(t, []string{"hookctl", "--color", "never", "trace", "printf", "%s-%s", "-a", "--b"}, nil, env)
	if r.code != 0 || string(r.stdout) != "-a---b" {
		t.Errorf("after a global flag: %d %q %q", r.code, r.stdout, r.stderr)
	}
}

// TestTraceRecordsNothingUnderTest: with HOOKCTL_TEST=1, as hookctl test
// gives every handler, the command runs as always and nothing is logged.
func TestTraceRecordsNothingUnderTest(t *testing.T) {
	env, logPath := traceEnv(t)
	r := runProcess(t, []string{"hookctl", "trace", "--hook", "gate", "--", "sh", "-c", "cat; echo err >&2; exit 3"}, []byte("{}"), append(env, "HOOKCTL_TEST=1"))
	if r.code != 3 || string(r.stdout) != "{}" || string(r.stderr) != "err\n" {
		t.Errorf("exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(logPath); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a log was written under HOOKCTL_TEST=1: %v", err)
	}
}

// openPty opens a pseudo-terminal, its master closed when the test ends,
// and skips the test where there is none.
func openPty(t *testing.T) (ptm, tty *os.File) {
	t.Helper()
	ptm, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { ptm.Close() })
	return ptm, tty
}

// TestTraceSignalsInATerminal runs trace as a terminal's foreground job,
// as a person trying a handler does: the Ctrl-C typed reaches COMMAND once,
// a SIGINT sent to trace's pid by kill is passed on, and Ctrl-Z stops
// trace (the job the shell sees) until it is continued.
func TestTraceSignalsInATerminal(t *testing.T) {
	env, _ := traceEnv(t)
	ptm, tty := openPty(t)
	got := filepath.Join(t.TempDir(), "got")
	script := "trap 'echo INT >> " + got + "' INT; echo ready; while :; do sleep 0.05; done"
	cmd := exec.Command("hookctl", "trace", "--", "sh", "-c", script)
	cmd.Env = env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	// A session of its own, the terminal its controlling one: trace's
	// group is the terminal's foreground, as a shell's job.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close()
	var mu sync.Mutex
	var screen bytes.Buffer
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := ptm.Read(buf)
			mu.Lock()
			screen.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); !ok(); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				mu.Lock()
				defer mu.Unlock()
				cmd.Process.Kill()
				t.Fatalf("waiting for %s; the terminal shows %q", what, screen.String())
			}
		}
	}
	ints := func(n int) func() bool {
		return func() bool {
			b, _ := os.ReadFile(got)
			return bytes.Count(b, []byte("INT\n")) >= n
		}
	}
	waitFor("ready", func() bool { mu.Lock(); defer mu.Unlock(); return strings.Contains(screen.String(), "ready") })

	ptm.Write([]byte{3}) // Ctrl-C
	waitFor("the typed Ctrl-C", ints(1))
	if err := syscall.Kill(cmd.Process.Pid, syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	waitFor("the SIGINT sent to trace", ints(2))

	ptm.Write([]byte{26}) // Ctrl-Z
	// A trace that the Ctrl-Z does not stop is killed after as long as
	// waitFor waits, so that the wait below ends either way.
	guard := time.AfterFunc(20*time.Second, func() { cmd.Process.Kill() })
	var ws syscall.WaitStatus
	_, err := syscall.Wait4(cmd.Process.Pid, &ws, syscall.WUNTRACED, nil)
	if !guard.Stop() || err != nil || !ws.Stopped() {
		mu.Lock()
		defer mu.Unlock()
		t.Fatalf("after Ctrl-Z trace is %v (%v), want stopped; the terminal shows %q", ws, err, screen.String())
	}
	// Continued (as bg or fg would): COMMAND runs on and has the terminal.
	syscall.Kill(-cmd.Process.Pid, syscall.SIGCONT)
	time.Sleep(100 * time.Millisecond) // let it take the terminal again
	ptm.Write([]byte{3})
	waitFor("Ctrl-C after Ctrl-Z", ints(3))

	if err := syscall.Kill(cmd.Process.Pid, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	guard = time.AfterFunc(20*time.Second, func() { cmd.Process.Kill() })
	cmd.Wait()
	if !guard.Stop() {
		t.Fatal("trace still ran 20 s after SIGTERM, and was killed")
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || ws.Signal() != syscall.SIGTERM {
		t.Errorf("trace ended %v, want killed by SIGTERM as COMMAND was", cmd.ProcessState)
	}
	if b, _ := os.ReadFile(got); string(b) != "INT\nINT\nINT\n" {
		t.Errorf("COMMAND caught %q, want each SIGINT once", b)
	}
}

// TestTraceUnderAnAgentsTerminal runs trace as an agent with a terminal
// interface runs a handler: in the agent's own foreground group, which
// trace does not lead, the terminal in raw mode. trace takes no terminal
// and makes no job, and a SIGINT sent to it is passed on: a terminal in
// raw mode sends none.
func TestTraceUnderAnAgentsTerminal(t *testing.T) {
	env, _ := traceEnv(t)
	ptm, tty := openPty(t)
	// Raw as an agent's interface sets it: no signals from typed keys.
	stty := exec.Command("stty", "-isig", "-icanon", "-echo")
	stty.Stdin = tty
	if out, err := stty.CombinedOutput(); err != nil {
		t.Fatalf("stty: %v: %s", err, out)
	}
	got := filepath.Join(t.TempDir(), "got")
	// The agent: a shell leading the group, running the handler's command.
	script := `trap 'echo INT >> ` + got + `' INT; echo "ready $PPID $(ps -o pgid= -p $$)"; while :; do sleep 0.05; done`
	agent := exec.Command("sh", "-c", `hookctl trace -- sh -c "$0"; echo "trace ended"; sleep 5`, script)
	agent.Env = env
	agent.Stdin, agent.Stdout, agent.Stderr = tty, tty, tty
	agent.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := agent.Start(); err != nil {
		t.Fatal(err)
	}
	defer agent.Process.Kill()
	tty.Close()
	lines := make(chan string, 8)
	go func() {
		br := bufio.NewReader(ptm)
		for {
			l, err := br.ReadString('\n')
			if err != nil {
				close(lines)
				return
			}
			lines <- strings.TrimSpace(l)
		}
	}()
	var ready string
	select {
	case ready = <-lines:
	case <-time.After(20 * time.Second):
		t.Fatal("the handler never said it was ready")
	}
	var tracePID, pgid int
	if _, err := fmt.Sscanf(ready, "ready %d %d", &tracePID, &pgid); err != nil {
		t.Fatalf("%q: %v", ready, err)
	}
	if pgid != agent.Process.Pid {
		t.Errorf("COMMAND is in group %d, want the agent's %d: trace made a job under an agent", pgid, agent.Process.Pid)
	}
	if err := syscall.Kill(tracePID, syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if b, _ := os.ReadFile(got); string(b) == "INT\n" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the SIGINT sent to trace never reached COMMAND")
		}
	}
	syscall.Kill(tracePID, syscall.SIGTERM)
	// The agent's shell says "Terminated", then that trace ended.
	for ended := false; !ended; {
		select {
		case l, ok := <-lines:
			ended = l == "trace ended"
			if !ok {
				t.Fatal("the agent ended before trace did")
			}
		case <-time.After(20 * time.Second):
			t.Fatal("trace did not end on SIGTERM")
		}
	}
	if b, _ := os.ReadFile(got); string(b) != "INT\n" {
		t.Errorf("COMMAND caught %q, want one SIGINT", b)
	}
}

// ignoredAtStart are the signals the test binary was started with
// ignored, read before any test catches one (signal.Ignored no longer
// tells once a test has caught and let go of it).
var ignoredAtStart = func() map[syscall.Signal]bool {
	m := map[syscall.Signal]bool{}
	for _, s := range []syscall.Signal{syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGTERM, syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGALRM} {
		m[s] = signal.Ignored(s)
	}
	return m
}()

// unignore lets the children a test starts take each of sigs as a program
// started from a terminal does: a test run under nohup (SIGHUP ignored)
// or from a shell's background (SIGINT, SIGQUIT ignored) hands them the
// signal ignored, which no shell can then trap. Go resets a signal it
// catches to its default in a child, so catching it here is enough.
func unignore(t *testing.T, sigs ...syscall.Signal) {
	var ignored []os.Signal
	for _, s := range sigs {
		if ignoredAtStart[s] {
			ignored = append(ignored, s)
		}
	}
	if len(ignored) == 0 {
		return
	}
	c := make(chan os.Signal, 1)
	signal.Notify(c, ignored...)
	t.Cleanup(func() { signal.Stop(c) })
}
