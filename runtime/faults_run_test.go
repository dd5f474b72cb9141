//go:build unix

package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hookctl/hookctl/internal/testenv"
)

// The fault-injection suite runs the real hookctl binary, built once, the
// way an agent runs it: a payload on stdin, an answer on stdout. Every case
// must end with a valid answer (exit 0) or a clean exit 2 with nothing on
// stdout, and leave no process behind: every handler and grandchild writes
// its pid into the case's pids folder, and each must be gone once run has
// returned. docs/reliability.md lists the cases and what they proved.

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// hookctlBin builds ./cmd/hookctl once for the whole test binary.
func hookctlBin(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the hookctl binary")
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "hookctl-faults-")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "hookctl")
		out, err := exec.Command("go", "build", "-o", binPath, "github.com/hookctl/hookctl/cmd/hookctl").CombinedOutput()
		if err != nil {
			buildErr = errors.New(string(out))
		}
	})
	if buildErr != nil {
		t.Fatalf("building hookctl: %v", buildErr)
	}
	return binPath
}

// faultCase is one run of hookctl against a hostile handler or input.
type faultCase struct {
	t    *testing.T
	dir  string
	home string
	// strict: every pid must be gone the moment run has returned, with no
	// time allowed for a signal on its way.
	strict bool
	// env, when set, changes run's environment.
	env func([]string) []string
}

func newFaultCase(t *testing.T) *faultCase {
	t.Helper()
	dir := t.TempDir()
	c := &faultCase{t: t, dir: dir, home: filepath.Join(dir, "home")}
	for _, d := range []string{"pids", "home"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// config writes a hooks.json holding one hook with one handler for the
// event, and returns its path.
func (c *faultCase) config(event, command string, timeout int) string {
	c.t.Helper()
	h := map[string]any{"command": command, "timeout": timeout}
	var def map[string]any
	if event == "PreToolUse" || event == "PostToolUse" {
		def = map[string]any{event: []any{map[string]any{"hooks": []any{h}}}}
	} else {
		def = map[string]any{event: []any{h}}
	}
	b, err := json.Marshal(map[string]any{"fault": def})
	if err != nil {
		c.t.Fatal(err)
	}
	p := filepath.Join(c.dir, "hooks.json")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		c.t.Fatal(err)
	}
	return p
}

// runResult is how one hookctl run ended.
type runResult struct {
	code     int
	stdout   []byte
	stderr   string
	elapsed  time.Duration
	response map[string]any
}

// run runs hookctl with the payload on stdin and checks the contract that
// holds for every case: exit 0 with one valid JSON answer, or exit 2 with
// nothing on stdout; no process of the case left.
func (c *faultCase) run(payload []byte, args ...string) runResult {
	c.t.Helper()
	cmd := exec.Command(hookctlBin(c.t), args...)
	cmd.Dir = c.dir
	cmd.Env = append(os.Environ(), "HOME="+c.home, "XDG_CONFIG_HOME="+filepath.Join(c.home, ".config"), "PIDS="+filepath.Join(c.dir, "pids"))
	if c.env != nil {
		cmd.Env = c.env(cmd.Env)
	}
	cmd.Stdin = bytes.NewReader(payload)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		c.t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		c.t.Fatalf("hookctl did not return within 60s; stderr:\n%s", errb.String())
	}
	r := runResult{code: cmd.ProcessState.ExitCode(), stdout: out.Bytes(), stderr: errb.String(), elapsed: time.Since(start)}
	switch r.code {
	case 0:
		if bytes.Count(r.stdout, []byte("\n")) != 1 || json.Unmarshal(r.stdout, &r.response) != nil {
			c.t.Fatalf("exit 0 without one JSON object on stdout: %q\nstderr:\n%s", r.stdout, r.stderr)
		}
	case 2:
		if len(r.stdout) > 0 {
			c.t.Fatalf("exit 2 with %q on stdout", r.stdout)
		}
		if !strings.HasPrefix(r.stderr, "hookctl: ") || strings.Contains(r.stderr, "goroutine ") {
			c.t.Fatalf("exit 2 without a clean message: %q", r.stderr)
		}
	default:
		c.t.Fatalf("exit %d; stdout %q; stderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if strings.Contains(r.stderr, "panic") || strings.Contains(r.stderr, "goroutine ") {
		c.t.Fatalf("stderr shows a panic:\n%s", r.stderr)
	}
	if c.strict {
		for _, pid := range c.pids() {
			if alive(pid) {
				c.t.Errorf("process %d was still running when hookctl run returned", pid)
			}
		}
	}
	c.noneLeft()
	c.t.Logf("hookctl %s: exit %d after %v", strings.Join(args, " "), r.code, r.elapsed.Round(time.Millisecond))
	return r
}

// noneLeft checks that every pid the case's processes wrote is gone. A
// process killed an instant ago may still be on its way out, or a zombie
// waiting for a parent that is not reaping: both count as gone.
func (c *faultCase) noneLeft() {
	c.t.Helper()
	for _, pid := range c.pids() {
		deadline := time.Now().Add(5 * time.Second)
		for alive(pid) {
			if time.Now().After(deadline) {
				_ = syscall.Kill(pid, syscall.SIGKILL)
				c.t.Fatalf("process %d outlived hookctl run", pid)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// pids returns the pids the case's processes wrote, one file each.
func (c *faultCase) pids() []int {
	c.t.Helper()
	ents, err := os.ReadDir(filepath.Join(c.dir, "pids"))
	if err != nil {
		c.t.Fatal(err)
	}
	var out []int
	for _, e := range ents {
		b, _ := os.ReadFile(filepath.Join(c.dir, "pids", e.Name()))
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 1 {
			out = append(out, pid)
		}
	}
	return out
}

var prePayload = []byte(`{"toolCall":{"name":"run_command","args":{"CommandLine":"npm test"}},"stepIdx":1}`)

func (r runResult) decision() string {
	d, _ := r.response["decision"].(string)
	return d
}

func (r runResult) reason() string {
	d, _ := r.response["reason"].(string)
	return d
}

// wantFailure checks that a PreToolUse run turned a handler's failure into
// the default deny, and said why.
func wantFailure(t *testing.T, r runResult, cause string) {
	t.Helper()
	if r.code != 0 || r.decision() != "deny" || !strings.Contains(r.reason(), cause) {
		t.Fatalf("exit %d, answer %s; want a deny whose reason says %q\nstderr:\n%s", r.code, r.stdout, cause, r.stderr)
	}
	if !strings.Contains(r.stderr, "hookctl: hook fault: ") {
		t.Fatalf("the failure is not reported on stderr:\n%s", r.stderr)
	}
}

const savePid = `echo $$ > "$PIDS/handler"; `

func TestFaultsHandlers(t *testing.T) {
	t.Parallel()
	t.Run("hangs", func(t *testing.T) {
		t.Parallel()
		c := newFaultCase(t)
		r := c.run(prePayload, "run", "PreToolUse", "--config", c.config("PreToolUse", savePid+"sleep 600", 1))
		wantFailure(t, r, "timed out after 1s; its process group was stopped")
	})
	t.Run("forks grandchildren", func(t *testing.T) {
		t.Parallel()
		c := newFaultCase(t)
		cmd := savePid + `sleep 600 & echo $! > "$PIDS/child1"; (sleep 600; echo) & echo $! > "$PIDS/child2"; sh -c 'echo $$ > "$PIDS/child3"; sleep 600' & wait`
		r := c.run(prePayload, "run", "PreToolUse", "--config", c.config("PreToolUse", cmd, 1))
		wantFailure(t, r, "timed out")
		if n := len(c.pids()); n != 4 {
			t.Fatalf("%d pids written, want 4", n)
		}
	})
	t.Run("grandchild outlives a handler that answered", func(t *testing.T) {
		t.Parallel()
		c := newFaultCase(t)
		cmd := savePid + `sleep 600 & echo $! > "$PIDS/child"; echo '{"decision":"allow"}'`
		r := c.run(prePayload, "run", "PreToolUse", "--config", c.config("PreToolUse", cmd, 30))
		if r.decision() != "allow" || r.elapsed > 20*time.Second {
			t.Fatalf("answer %s after %v, want allow at once", r.stdout, r.elapsed)
		}
	})
	t.Run("ignores SIGTERM", func(t *testing.T) {
		t.Parallel()
		c := newFaultCase(t)
		cmd := savePid + `trap '' TERM; sh -c 'trap "" TERM; echo $$ > "$PIDS/child"; while :; do sleep 1; done' & while :; do sleep 1; done`
		r := c.run(prePayload, "run", "PreToolUse", "--config", c.config("PreToolUse", cmd, 1))
		wantFailure(t, r, "timed out after 1s")
		if r.elapsed < Grace {
			t.Fatalf("returned after %v: SIGKILL should follow SIGTERM only after %v", r.elapsed, Grace)
		}
	})
	t.Run("stops itself", func(t *testing.T) {
		t.Parallel()
		c := newFaultCase(t)
		// SIGSTOP cannot be caught or ignored: the stopped handler and its
		// stopped child take no signal but SIGKILL until continued.
		cmd := savePid + `sh -c 'echo $$ > "$PIDS/child"; kill -STOP $$; sleep 600' & while [ ! -s "$PIDS/child" ]; do sleep 0.01; done; kill -STOP $$`
		r := c.run(prePayload, "run", "PreToolUse", "--config", c.config("PreToolUse", cmd, 1))
		wantFailure(t, r, "timed out after 1s")
		if n := len(c.pids()); n != 2 {
			t.Fatalf("%d pids written, want 2", n)
		}
	})
	t.Run("floods stdout", func(t *testing.T) {
		t.Parallel()
		c := newFaultCase(t)
		r := c.run(prePayload, "run", "PreToolUse", "--config", c.config("PreToolUse", savePid+"yes", 30))
		wantFailure(t, r, "printed more than 1 MiB on stdout; it was stopped")
	})
	t.Run("floods stderr", func(t *testing.T) {
		t.Parallel()
		c := newFaultCase(t)
		cmd := savePid + `head -c 20000000 /dev/zero | tr '\0' x >&2; echo '{"decision":"allow"}'`
		r := c.run(prePayload, "run", "PreToolUse", "--config", c.config("PreToolUse", cmd, 30))
		if r.decision() != "allow" {
			t.Fatalf("answer %s, want allow: a flood of stderr is kept up to its cap and discarded past it", r.stdout)
		}
	})
	t.Run("closes stdout early", func(t *testing.T) {
		t.Parallel()
		c := newFaultCase(t)
		cmd := savePid + `exec 1>&-; sleep 0.2; echo late 2>/dev/null; exit 0`
		r := c.run(prePayload, "run", "PreToolUse", "--config", c.config("PreToolUse", cmd, 30))
		if r.decision() != "ask" {
			t.Fatalf("answer %s, want ask (no answer)", r.stdout)
		}
	})
	t.Run("closes stdout early then fails", func(t *testing.T) {
		t.Parallel()
		c := newFaultCase(t)
		cmd := savePid + `exec 1>&-; echo '{"decision":"allow"}'`
		r := c.run(prePayload, "run", "PreToolUse", "--config", c.config("PreToolUse", cmd, 30))
		wantFailure(t, r, "exit status 1")
	})
	t.Run("exits by a signal", func(t *testing.T) {
		t.Parallel()
		c := newFaultCase(t)
		r := c.run(prePayload, "run", "PreToolUse", "--config", c.config("PreToolUse", savePid+`kill -SEGV $$`, 30))
		wantFailure(t, r, "killed by signal 11 (SIGSEGV)")
	})
	t.Run("kills itself mid-run", func(t *testing.T) {
		t.Parallel()
		c := newFaultCase(t)
		cmd := savePid + `sleep 600 & echo $! > "$PIDS/child"; printf '{"decision":'; kill -KILL $$`
		r := c.run(prePayload, "run", "PreToolUse", "--config", c.config("PreToolUse", cmd, 30))
		wantFailure(t, r, "killed by signal 9 (SIGKILL)")
	})
	t.Run("kills its whole group", func(t *testing.T) {
		t.Parallel()
		c := newFaultCase(t)
		cmd := savePid + `sleep 600 & echo $! > "$PIDS/child"; kill -KILL 0`
		r := c.run(prePayload, "run", "PreToolUse", "--config", c.config("PreToolUse", cmd, 30))
		wantFailure(t, r, "killed by signal 9 (SIGKILL)")
	})
	t.Run("reads no stdin", func(t *testing.T) {
		t.Parallel()
		c := newFaultCase(t)
		big := hugePayload(8 << 20)
		r := c.run(big, "run", "PreToolUse", "--config", c.config("PreToolUse", savePid+`exec 0<&-; echo '{"decision":"allow"}'`, 30))
		if r.decision() != "allow" {
			t.Fatalf("answer %s, want allow", r.stdout)
		}
	})
	t.Run("escapes its process group", func(t *testing.T) {
		t.Parallel()
		if goruntime.GOOS != "linux" {
			t.Skip("needs Linux to find what left the group")
		}
		testenv.Need(t, "setsid")
		c := newFaultCase(t)
		c.strict = true
		// setsid leaves the group and the session, keeping stdout open: run
		// must neither wait for it nor leave it running.
		cmd := savePid + `setsid sh -c 'echo $$ > "$PIDS/escaped"; exec sleep 30' & while [ ! -s "$PIDS/escaped" ]; do sleep 0.01; done; echo '{"decision":"allow"}'`
		r := c.run(prePayload, "run", "PreToolUse", "--config", c.config("PreToolUse", cmd, 30))
		if r.decision() != "allow" || r.elapsed > 20*time.Second {
			t.Fatalf("answer %s after %v, want allow without waiting for the escaped process", r.stdout, r.elapsed)
		}
	})
	t.Run("timeout makes a group of its own", func(t *testing.T) {
		t.Parallel()
		if goruntime.GOOS != "linux" {
			t.Skip("needs Linux to find what left the group")
		}
		testenv.Need(t, "timeout")
		c := newFaultCase(t)
		c.strict = true
		cmd := savePid + `timeout 60 sh -c 'echo $PPID > "$PIDS/timeout"; echo $$ > "$PIDS/sleep"; exec sleep 60'`
		r := c.run(prePayload, "run", "PreToolUse", "--config", c.config("PreToolUse", cmd, 1))
		wantFailure(t, r, "timed out after 1s")
		if n := len(c.pids()); n != 3 {
			t.Fatalf("%d pids written, want 3", n)
		}
	})
	t.Run("interrupted", func(t *testing.T) {
		t.Parallel()
		c := newFaultCase(t)
		// The handler leaves an orphan that carries nothing of it too
		// (env -i, setsid, its parent gone), which run kills before it exits.
		handler, pids := savePid+`sleep 600 & echo $! > "$PIDS/child"; `, 2
		if goruntime.GOOS == "linux" && testenv.Want(t, "setsid", "the orphan that leaves the session") != "" {
			handler += `(` + escape(`echo \$\$ > $PIDS/escaped; exec sleep 600`) + ` &); ` + waitPid("escaped")
			pids++
		}
		cmd := exec.Command(hookctlBin(t), "run", "Stop", "--config", c.config("Stop", handler+`wait`, 60))
		cmd.Dir = c.dir
		cmd.Env = append(os.Environ(), "HOME="+c.home, "PIDS="+filepath.Join(c.dir, "pids"))
		cmd.Stdin = strings.NewReader(`{"executionNum":1}`)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(10 * time.Second); len(c.pids()) < pids; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("the handler did not start")
			}
		}
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
		if code := cmd.ProcessState.ExitCode(); code != 2 || out.Len() > 0 {
			t.Fatalf("exit %d, stdout %q; want exit 2 and nothing on stdout", code, out.Bytes())
		}
		c.noneLeft()
	})
}

// hugePayload is a PreToolUse payload of about n bytes: a write_to_file
// call with a large file's content.
func hugePayload(n int) []byte {
	var b bytes.Buffer
	b.Grow(n + 200)
	b.WriteString(`{"toolCall":{"name":"write_to_file","args":{"TargetFile":"/w/big.txt","CodeContent":"`)
	line := strings.Repeat("0123456789abcdef", 4) + `\n`
	for b.Len() < n-len(line)-100 {
		b.WriteString(line)
	}
	b.WriteString(`"}},"stepIdx":2}`)
	return b.Bytes()
}
