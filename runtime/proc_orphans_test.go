//go:build unix

package runtime

import (
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookctl/hookctl/internal/testenv"
	"github.com/hookctl/hookctl/schema"
)

// The orphan tests run the hookctl binary, which claims its orphans
// (ClaimOrphans): a process a handler left that carries nothing of the
// handler (its environment cleared with env -i, a session of its own, its
// parent gone) still comes back to run, a child subreaper, and dies once
// no handler runs. Each process writes its pid into the case's pids folder;
// every one must be gone after run returns (polled for a few seconds: the
// processes sleep for ten minutes, so one left behind cannot pass).

// needTools skips a test that needs Linux (the subreaper), and needs the
// programs (see testenv.Need).
func needTools(t *testing.T, tools ...string) {
	t.Helper()
	if goruntime.GOOS != "linux" {
		t.Skip("orphans come back to run through PR_SET_CHILD_SUBREAPER, on Linux only")
	}
	for _, tool := range tools {
		testenv.Need(t, tool)
	}
}

// waitPid is the shell loop that waits until a process has written its pid
// into "$PIDS/NAME".
func waitPid(name string) string {
	return `while [ ! -s "$PIDS/` + name + `" ]; do sleep 0.01; done; `
}

// escape is a command that leaves everything of the handler behind: the
// environment (so "$PIDS" is expanded by the handler's shell, before env
// -i), the process group and the session. body runs in /bin/sh, $$ being
// its pid.
func escape(body string) string {
	return `env -i setsid /bin/sh -c "` + body + `"`
}

// leftBehind runs a PreToolUse handler, command after savePid, through
// hookctl run, and checks its answer (allow without waiting for what it
// left, or with deny its timeout's deny) and that pids processes wrote
// their pid beside the handler's (run then checks that all are gone).
func leftBehind(t *testing.T, timeout int, command string, pids int, deny bool) {
	t.Helper()
	t.Parallel()
	c := newFaultCase(t)
	r := c.run(prePayload, "run", "PreToolUse", "--config", c.config("PreToolUse", savePid+command, timeout))
	if deny {
		wantFailure(t, r, "timed out after 1s")
	} else if r.decision() != "allow" || r.elapsed > 20*time.Second {
		t.Fatalf("answer %s after %v, want allow without waiting for what the handler left", r.stdout, r.elapsed)
	}
	if n := len(c.pids()); n != pids+1 {
		t.Fatalf("%d pids written, want %d", n, pids+1)
	}
}

func TestOrphansThatCarryNothingOfTheHandler(t *testing.T) {
	t.Parallel()
	allow := `echo '{"decision":"allow"}'`
	t.Run("env -i setsid after a double fork", func(t *testing.T) {
		needTools(t, "env", "setsid")
		leftBehind(t, 30, leaveOrphan("escaped"), 1, false)
	})
	// Killing the orphan hands its own child back to run: the search goes
	// on until none is left.
	t.Run("an orphan with a child of its own", func(t *testing.T) {
		needTools(t, "env", "setsid")
		leftBehind(t, 30, `(`+escape(`sleep 600 & echo \$! > $PIDS/child; echo \$\$ > $PIDS/escaped; wait`)+` &); `+waitPid("child")+waitPid("escaped")+allow, 2, false)
	})
	t.Run("env -i timeout left running by a handler past its timeout", func(t *testing.T) {
		needTools(t, "env", "timeout")
		leftBehind(t, 1, `(env -i timeout 60 /bin/sh -c "echo \$PPID > $PIDS/timeout; echo \$\$ > $PIDS/sleep; exec sleep 600" &); `+waitPid("sleep")+`sleep 600`, 2, true)
	})
	t.Run("nohup", func(t *testing.T) {
		needTools(t, "nohup")
		leftBehind(t, 30, `(nohup /bin/sh -c 'echo $$ > "$PIDS/nohup"; exec sleep 600' </dev/null >/dev/null 2>&1 &); `+waitPid("nohup")+allow, 1, false)
	})
	t.Run("nohup env -i setsid", func(t *testing.T) {
		needTools(t, "nohup", "env", "setsid")
		leftBehind(t, 30, `nohup `+escape(`echo \$\$ > $PIDS/nohup; exec sleep 600`)+` </dev/null >/dev/null 2>&1 & `+waitPid("nohup")+allow, 1, false)
	})
	// The daemon's double fork: a child that makes a session of its own,
	// whose child (no session leader, so it can never take a terminal)
	// clears its environment, leaves for /, closes every stream and lives
	// on once both parents are gone.
	t.Run("a daemon", func(t *testing.T) {
		needTools(t, "env", "setsid")
		leftBehind(t, 30, `(setsid /bin/sh -c '(cd / && exec env -i /bin/sh -c "echo \$\$ > $PIDS/daemon; exec sleep 600" </dev/null >/dev/null 2>&1 &)' &); `+waitPid("daemon")+allow, 1, false)
	})
	// Its first thread exits while another runs: it reads as a zombie,
	// cannot be reaped yet, and is killed.
	t.Run("a process whose first thread exited", func(t *testing.T) {
		needTools(t, "env", "setsid", "python3")
		// Python's own program, not a shim that needs the environment
		// env -i clears.
		out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
		if err != nil {
			t.Skipf("python3: %v", err)
		}
		python := strings.TrimSpace(string(out))
		leftBehind(t, 30, `(env -i setsid `+python+` -c '`+exitFirstThread+`' "$PIDS/escaped" &); `+waitPid("escaped")+allow, 1, false)
	})
	// The escaped process keeps stdout open: run answers without waiting
	// for the pipe, and the process still dies.
	t.Run("a grandchild that holds stdout", func(t *testing.T) {
		needTools(t, "env", "setsid")
		leftBehind(t, 30, escape(`echo \$\$ > $PIDS/holder; exec sleep 600`)+` & `+waitPid("holder")+allow, 1, false)
	})
}

// TestOrphansOfHandlersRunTogether: while another handler runs, an orphan
// that carries nothing of its handler cannot be told apart from the other
// handler's processes, so it dies when the last handler ends; with
// --sequential a handler runs alone, so its orphans die with it, before the
// next handler starts.
func TestOrphansOfHandlersRunTogether(t *testing.T) {
	t.Parallel()
	needTools(t, "env", "setsid")
	// The second handler outlives the first.
	t.Run("in parallel", func(t *testing.T) {
		twoLeftBehind(t, waitPid("first")+`sleep 0.5; `+leaveOrphan("second"))
	})
	// The second handler denies if the first one's orphan still runs after
	// 20 s (it would run until the second handler ends).
	t.Run("--sequential", func(t *testing.T) {
		twoLeftBehind(t, `i=0; while kill -0 "$(cat "$PIDS/first")" 2>/dev/null; do i=$((i+1)); if [ $i -gt 2000 ]; then echo "the first handler's orphan still runs" >&2; exit 2; fi; sleep 0.01; done; `+leaveOrphan("second"), "--sequential")
	})
}

// leaveOrphan is a handler that leaves an orphan that carries nothing of it,
// which writes its pid into "$PIDS/NAME", and answers allow.
func leaveOrphan(name string) string {
	// The pid is written aside and renamed into place, so that a handler
	// called many times at once (the contract check) never leaves the
	// file empty: one call's > truncating it as another ends.
	return `(` + escape(`echo \$\$ > $PIDS/.`+name+`.\$\$; mv $PIDS/.`+name+`.\$\$ $PIDS/`+name+`; exec sleep 600`) + ` &); ` + waitPid(name) + `echo '{"decision":"allow"}'`
}

// twoLeftBehind runs hookctl run with two PreToolUse handlers, leaveOrphan("first")
// and second, and wants allow, two pids written, and both gone.
func twoLeftBehind(t *testing.T, second string, args ...string) {
	t.Helper()
	t.Parallel()
	c := newFaultCase(t)
	cfg := filepath.Join(c.dir, "hooks.json")
	src := hooks(
		hookEntry{name: "first", event: schema.PreToolUse, command: leaveOrphan("first")},
		hookEntry{name: "second", event: schema.PreToolUse, command: second},
	)
	if err := os.WriteFile(cfg, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	r := c.run(prePayload, append([]string{"run", "PreToolUse", "--config", cfg}, args...)...)
	if r.decision() != "allow" {
		t.Fatalf("answer %s, want allow\nstderr:\n%s", r.stdout, r.stderr)
	}
	if n := len(c.pids()); n != 2 {
		t.Fatalf("%d pids written, want 2", n)
	}
}

// TestOrphansClaimedAreRunsOwn: what run kills descends from it. A process
// that looks like a handler's leftover in every other way (the handler's
// HOOKCTL_ variables, a session of its own, started while the handler
// runs) but is not run's descendant is left alone.
func TestOrphansClaimedAreRunsOwn(t *testing.T) {
	t.Parallel()
	needTools(t, "env", "setsid")
	c := newFaultCase(t)
	cfg := c.config("PreToolUse", leaveOrphan("escaped"), 30)
	stranger := exec.Command("sleep", "600")
	stranger.Env = append(os.Environ(), "HOOKCTL_EVENT=PreToolUse", "HOOKCTL_HOOK=fault", "HOOKCTL_CONFIG="+cfg, "HOOKCTL_WORKSPACE="+c.dir)
	stranger.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := stranger.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = stranger.Process.Kill(); _ = stranger.Wait() }()
	if r := c.run(prePayload, "run", "PreToolUse", "--config", cfg); r.decision() != "allow" {
		t.Fatalf("answer %s, want allow", r.stdout)
	}
	if !alive(stranger.Process.Pid) {
		t.Fatal("run killed a process that does not descend from it")
	}
}

// TestRunKilledWithSIGKILL: what remains out of reach. When run itself is
// killed with SIGKILL, nothing of it runs to stop the handlers: each
// handler's shell dies with it (the parent death signal), but what the
// shell started keeps running.
func TestRunKilledWithSIGKILL(t *testing.T) {
	t.Parallel()
	needTools(t)
	c := newFaultCase(t)
	cmd := exec.Command(hookctlBin(t), "run", "Stop", "--config", c.config("Stop", savePid+`sleep 600 & echo $! > "$PIDS/child"; wait`, 60))
	cmd.Dir = c.dir
	cmd.Env = append(os.Environ(), "HOME="+c.home, "PIDS="+filepath.Join(c.dir, "pids"))
	cmd.Stdin = strings.NewReader(`{"executionNum":1}`)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(c.dir, "pids")
	deadline := time.Now().Add(20 * time.Second)
	for _, err := os.Stat(filepath.Join(dir, "child")); err != nil; _, err = os.Stat(filepath.Join(dir, "child")) {
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatal("the handler did not start")
		}
		time.Sleep(10 * time.Millisecond)
	}
	pids := pidFiles(t, dir, "handler", "child")
	// Whatever is left is killed, and reaped when it came back to this
	// process, a child subreaper too.
	defer func() {
		for _, pid := range pids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			_, _ = syscall.Wait4(pid, nil, 0, nil)
		}
	}()
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	for deadline := time.Now().Add(10 * time.Second); alive(pids[0]); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the handler's shell outlived run, killed with SIGKILL")
		}
	}
	if !alive(pids[1]) {
		t.Error("the handler's child died with run: docs/runtime.md says it keeps running")
	}
}

// TestOrphansOfTheContractCheck: hookctl test starts no process of its own
// beside the handlers' shells either, so what a handler leaves behind dies
// when the check ends, as with run.
func TestOrphansOfTheContractCheck(t *testing.T) {
	t.Parallel()
	needTools(t, "env", "setsid")
	c := newFaultCase(t)
	cfg := c.config("PreToolUse", leaveOrphan("checked"), 30)
	cmd := exec.Command(hookctlBin(t), "test", "--contract", "--config", cfg)
	cmd.Dir = c.dir
	cmd.Env = append(os.Environ(), "HOME="+c.home, "PIDS="+filepath.Join(c.dir, "pids"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("hookctl test --contract: %v\n%s", err, out)
	}
	if n := len(c.pids()); n == 0 {
		t.Fatalf("the handler wrote no pid:\n%s", out)
	}
	c.noneLeft()
}
