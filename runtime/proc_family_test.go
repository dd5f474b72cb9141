//go:build unix

package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookctl/hookctl/internal/testenv"
	"github.com/hookctl/hookctl/schema"
)

// assertGoneNow fails unless every process is gone (or a zombie) the moment
// the dispatch has returned: the dispatch itself waits for what it kills.
func assertGoneNow(t *testing.T, pids []int) {
	t.Helper()
	for _, pid := range pids {
		if alive(pid) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("process %d was still running when the dispatch returned", pid)
		}
	}
}

// pidFiles reads the pids a handler wrote, one file each, into dir.
func pidFiles(t *testing.T, dir string, names ...string) []int {
	t.Helper()
	var pids []int
	for _, n := range names {
		// The shell creates the file (the redirection) before echo
		// writes the line: a whole pid ends with its newline.
		b, err := os.ReadFile(filepath.Join(dir, n))
		for deadline := time.Now().Add(10 * time.Second); err == nil && !strings.HasSuffix(string(b), "\n") && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
			b, err = os.ReadFile(filepath.Join(dir, n))
		}
		if err != nil {
			t.Fatalf("the handler wrote no %s pid: %v", n, err)
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil {
			t.Fatalf("bad pid %q in %s", b, n)
		}
		pids = append(pids, pid)
	}
	return pids
}

func TestEveryDescendantDiesWithItsHandler(t *testing.T) {
	t.Parallel()
	if goruntime.GOOS != "linux" {
		t.Skip("a process that leaves the handler's process group is found through /proc, on Linux only")
	}
	for _, tool := range []string{"timeout", "setsid"} {
		testenv.Need(t, tool)
	}
	// waitFor is the shell loop that waits until the handler's descendant
	// has written its pid.
	waitFor := func(f string) string { return `while [ ! -s ` + f + ` ]; do sleep 0.01; done; ` }
	// run dispatches a handler whose command writes pid files into P and
	// checks how it ended and that every pid is gone.
	run := func(t *testing.T, timeout int, command string, kind Kind, pids ...string) {
		t.Helper()
		t.Parallel()
		e := newEnv(t)
		dir := filepath.Join(e.ws, "pids")
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		e.workspace(hooks(hookEntry{name: "h", event: pre, timeout: timeout, command: strings.ReplaceAll(command, "P/", dir+"/")}))
		res := e.dispatch(pre, e.payload(pre, "run_command"), e.opts())
		o := outcomeOf(t, res, "h")
		if o.Kind != kind {
			t.Errorf("outcome %v (%s), want %v", o.Kind, o.Cause, kind)
		}
		if kind == Failed && !strings.HasPrefix(o.Cause, "timed out after 1s") {
			t.Errorf("cause %q, want a timeout", o.Cause)
		}
		assertGoneNow(t, pidFiles(t, dir, pids...))
	}
	// coreutils timeout puts itself in a process group of its own, out of
	// reach of the handler's group.
	t.Run("timeout 60 sleep 60 past the handler's timeout", func(t *testing.T) {
		run(t, 1, `echo $$ > P/sh; timeout 60 sh -c 'echo $PPID > P/timeout; echo $$ > P/sleep; exec sleep 60'`,
			Failed, "sh", "timeout", "sleep")
	})
	t.Run("timeout 60 sleep 60 left behind by a handler that answered", func(t *testing.T) {
		run(t, 30, `timeout 60 sh -c 'echo $PPID > P/timeout; echo $$ > P/sleep; exec sleep 60' & `+waitFor("P/sleep")+`echo '{"decision":"allow"}'`,
			Answered, "timeout", "sleep")
	})
	// setsid leaves the group and the session.
	t.Run("setsid sleep left behind by a handler that answered", func(t *testing.T) {
		run(t, 30, `setsid sh -c 'echo $$ > P/escaped; exec sleep 60' & `+waitFor("P/escaped")+`echo '{"decision":"allow"}'`,
			Answered, "escaped")
	})
	// Its parent exits at once: it is an orphan before the handler ends.
	t.Run("setsid after a double fork", func(t *testing.T) {
		run(t, 30, `(setsid sh -c 'echo $$ > P/escaped; exec sleep 60' &); `+waitFor("P/escaped")+`echo '{"decision":"allow"}'`,
			Answered, "escaped")
	})
	t.Run("setsid sleep past the handler's timeout", func(t *testing.T) {
		run(t, 1, `setsid sh -c 'echo $$ > P/escaped; exec sleep 60' & `+waitFor("P/escaped")+`sleep 60`,
			Failed, "escaped")
	})
	// Its first thread exits while another runs: it shows as a zombie
	// that cannot be reaped yet, and must be killed all the same.
	t.Run("a process whose first thread exited", func(t *testing.T) {
		testenv.Need(t, "python3")
		run(t, 30, `setsid python3 -c '`+exitFirstThread+`' P/escaped & `+waitFor("P/escaped")+`echo '{"decision":"allow"}'`,
			Answered, "escaped")
	})
	// The process that escaped ignores SIGTERM: SIGKILL follows.
	t.Run("an escaped process that ignores SIGTERM", func(t *testing.T) {
		run(t, 1, `setsid sh -c 'trap "" TERM; echo $$ > P/escaped; while :; do sleep 0.05; done' & `+waitFor("P/escaped")+`sleep 60`,
			Failed, "escaped")
	})
}

// exitFirstThread is a Python program that writes its pid into the file
// argv[1] names, then ends its first thread while a second one sleeps.
const exitFirstThread = `import ctypes, os, sys, threading, time
threading.Thread(target=time.sleep, args=(600,)).start()
open(sys.argv[1], "w").write(str(os.getpid()) + "\n")
ctypes.CDLL(None).pthread_exit(None)`

// TestOtherChildrenOfTheCallerAreLeftAlone: a program that dispatches is a
// child subreaper while it does, but a process it started itself is not a
// handler's, even when it too has left its process group.
func TestOtherChildrenOfTheCallerAreLeftAlone(t *testing.T) {
	t.Parallel()
	own := exec.Command("sleep", "60")
	own.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := own.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = own.Process.Kill(); _ = own.Wait() }()
	e := newEnv(t)
	pid := filepath.Join(e.ws, "escaped")
	e.workspace(hooks(hookEntry{name: "h", event: schema.Stop,
		command: `(setsid sh -c 'echo $$ > ` + pid + `; exec sleep 60' &); while [ ! -s ` + pid + ` ]; do sleep 0.01; done`}))
	e.dispatch(schema.Stop, e.payload(schema.Stop, ""), e.opts())
	if goruntime.GOOS == "linux" {
		assertGoneNow(t, pidFiles(t, e.ws, "escaped"))
	} else {
		_ = syscall.Kill(pidFiles(t, e.ws, "escaped")[0], syscall.SIGKILL)
	}
	if !alive(own.Process.Pid) {
		t.Fatal("the dispatch killed a process its caller had started")
	}
	// The caller still collects its own child's exit status.
	_ = own.Process.Signal(syscall.SIGTERM)
	err := own.Wait()
	if ws, ok := own.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
		t.Errorf("the caller's Wait returned %v, %v; want its child killed by SIGTERM", err, own.ProcessState)
	}
}

// The non-reaping parent test runs three processes: this test; a helper,
// standing for a PID 1 that never reaps, which is a child subreaper that
// never waits for an orphan; and under it a dispatcher, which runs one
// dispatch with a grace of ten minutes. A handler past its timeout dies at
// SIGTERM, and so do its children; if their zombies were left to the
// helper, they would look alive to the dispatcher for the whole grace.
const (
	helperEnv      = "HOOKCTL_TEST_PROCESS"
	helperReaper   = "non-reaping-parent"
	helperDispatch = "dispatcher"
	// helperNoSubreaper, set, keeps the dispatcher from becoming a child
	// subreaper.
	helperNoSubreaper = "HOOKCTL_TEST_NO_SUBREAPER"
)

func TestZombiesOfANonReapingParentDoNotHoldUpTheGrace(t *testing.T) {
	t.Parallel()
	if goruntime.GOOS != "linux" {
		t.Skip("needs PR_SET_CHILD_SUBREAPER, on Linux only")
	}
	// subreaper: whether the dispatcher becomes a child subreaper. Where it
	// cannot (a kernel or a seccomp filter that refuses the prctl), the
	// zombies stay the non-reaping parent's for good, and only /proc tells
	// them from processes still running.
	t.Run("the dispatcher a child subreaper", func(t *testing.T) {
		t.Parallel()
		nonReapingGrace(t, true)
	})
	t.Run("the dispatcher no child subreaper", func(t *testing.T) {
		t.Parallel()
		nonReapingGrace(t, false)
	})
}

func nonReapingGrace(t *testing.T, subreaper bool) {
	e := newEnv(t)
	dir := filepath.Join(e.ws, "pids")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	e.workspace(hooks(hookEntry{name: "slow", event: pre, timeout: 1,
		command: `echo $$ > ` + dir + `/sh; sleep 60 & echo $! > ` + dir + `/a; sleep 60 & echo $! > ` + dir + `/b; wait`}))
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), helperEnv+"="+helperReaper, "HOOKCTL_TEST_WS="+e.ws, "HOOKCTL_TEST_HOME="+e.home)
	if !subreaper {
		cmd.Env = append(cmd.Env, helperNoSubreaper+"=1")
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("helper: %v\n%s%s", err, out.Bytes(), errb.Bytes())
		}
	case <-time.After(60 * time.Second):
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Process.Kill()
		<-done
		for _, pid := range pidFiles(t, dir, "sh", "a", "b") {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		t.Fatalf("the dispatch was still waiting after 60s: the zombies its parent never reaps held it up for the grace\n%s%s", out.Bytes(), errb.Bytes())
	}
	var got struct {
		Answer  string
		Elapsed string
		Zombies []int
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("helper output %q: %v\n%s", out.Bytes(), err, errb.Bytes())
	}
	if !strings.HasPrefix(got.Answer, `{"decision":"deny","reason":"hook slow failed: timed out after 1s`) {
		t.Errorf("answer %s, want the timeout's deny", got.Answer)
	}
	// Without the subreaper the zombies are the parent's, which reaps them
	// once it has reported them.
	if subreaper && len(got.Zombies) > 0 {
		t.Errorf("the dispatcher left zombies %v to the parent that never reaps", got.Zombies)
	}
	assertGoneNow(t, pidFiles(t, dir, "sh", "a", "b"))
	t.Logf("the dispatch returned after %s (timeout 1s, grace 10m)", got.Elapsed)
}

// TestHelperProcess is the helper and the dispatcher of the test above; it
// does nothing in a normal run.
func TestHelperProcess(t *testing.T) {
	switch os.Getenv(helperEnv) {
	case helperReaper:
		os.Exit(nonReapingParent())
	case helperDispatch:
		os.Exit(dispatcher())
	}
	t.Skip("a helper process of other tests")
}

// nonReapingParent becomes a child subreaper, runs the dispatcher, waits for
// it alone, and reports its answer and the zombies it left behind.
func nonReapingParent() int {
	if err := becomeSubreaper(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), helperEnv+"="+helperDispatch)
	cmd.Stderr = os.Stderr
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "dispatcher:", err)
		return 1
	}
	var res struct {
		Answer  string
		Elapsed string
		Zombies []int
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		fmt.Fprintf(os.Stderr, "dispatcher output %q: %v\n", out.Bytes(), err)
		return 1
	}
	res.Zombies = childrenIn("Z")
	// Now reap them, so that they do not outlive the test.
	for {
		if _, err := syscall.Wait4(-1, nil, syscall.WNOHANG, nil); err != nil {
			break
		}
	}
	b, _ := json.Marshal(res)
	fmt.Printf("%s\n", b)
	return 0
}

// childrenIn lists this process's children in the given state.
func childrenIn(state string) []int {
	var pids []int
	ents, _ := os.ReadDir("/proc")
	self := strconv.Itoa(os.Getpid())
	for _, ent := range ents {
		b, err := os.ReadFile("/proc/" + ent.Name() + "/stat")
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) > 1 && f[0] == state && f[1] == self {
			pid, _ := strconv.Atoi(ent.Name())
			pids = append(pids, pid)
		}
	}
	return pids
}

// dispatcher runs the workspace's PreToolUse hooks with a grace of ten
// minutes and prints the answer.
func dispatcher() int {
	if os.Getenv(helperNoSubreaper) != "" {
		noSubreaper()
	}
	e := &env{ws: os.Getenv("HOOKCTL_TEST_WS"), home: os.Getenv("HOOKCTL_TEST_HOME")}
	partial, _ := ToolPayload("run_command", `{"CommandLine":"npm test"}`)
	payload, err := CompletePayload(pre, partial, e.ws, e.home)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	opts := e.opts()
	opts.Grace = 10 * time.Minute
	start := time.Now()
	res, err := Dispatch(context.Background(), pre, payload, opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	b, _ := json.Marshal(map[string]any{"Answer": string(res.Answer), "Elapsed": time.Since(start).Round(time.Millisecond).String()})
	fmt.Printf("%s\n", b)
	return 0
}
