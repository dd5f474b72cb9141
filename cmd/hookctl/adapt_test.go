//go:build unix

package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookctl/hookctl/runtime/tracelog"
)

// These tests run hookctl adapt as hookctl run runs a handler: a real
// process (the test binary acting as hookctl) in front of a real handler.

const adaptPayload = `{"toolCall":{"name":"run_command","args":{"CommandLine":"rm -rf /"}},"stepIdx":0,"conversationId":"c","workspacePaths":["/"]}`

func adapted(argv ...string) []string {
	return append([]string{"hookctl", "adapt", "--from", "claude", "--event", "PreToolUse", "--"}, argv...)
}

// startAdapted starts hookctl adapt in front of a handler that says it is
// ready by creating a file, since adapt reads the handler's stdout whole.
func startAdapted(t *testing.T, script string, env []string) (*exec.Cmd, func() ran) {
	t.Helper()
	ready := filepath.Join(t.TempDir(), "ready")
	cmd := exec.Command("hookctl", "adapt", "--from", "claude", "--event", "PreToolUse", "--", "sh", "-c", script+`; : > "$0"; while :; do sleep 0.02; done`, ready)
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Stdin = strings.NewReader(adaptPayload)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		if _, err := os.Stat(ready); err == nil {
			break
		}
		if i > 3000 {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			t.Fatalf("the handler never said it was ready (stderr %q)", errb.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	return cmd, func() ran {
		stuck := time.AfterFunc(time.Minute, func() {
			t.Errorf("adapt still ran a minute after the signal: killed")
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		})
		defer stuck.Stop()
		cmd.Wait()
		return ended(cmd.ProcessState, []byte(out.String()), []byte(errb.String()))
	}
}

// TestAdaptForwardsSignals: a signal sent to adapt reaches the handler,
// whose answer to it is read as usual; a handler that dies of it takes
// adapt with it, as without adapt.
func TestAdaptForwardsSignals(t *testing.T) {
	env, _ := traceEnv(t)
	sigs := []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP}
	unignore(t, sigs...)
	for _, sig := range sigs {
		name := tracelog.SignalName(sig)[3:]
		cmd, wait := startAdapted(t, "trap 'echo interrupted >&2; exit 2' "+name, env)
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		got := wait()
		if got.code != 0 || string(got.stdout) != `{"decision":"deny","reason":"interrupted"}`+"\n" {
			t.Errorf("%s caught: status %d, stdout %q, stderr %q", name, got.code, got.stdout, got.stderr)
		}
		cmd, wait = startAdapted(t, "trap - "+name, env)
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		if got := wait(); got.sig != sig || len(got.stdout) != 0 {
			t.Errorf("%s: adapt ended with status %d signal %v, stdout %q; want death by the signal", name, got.code, got.sig, got.stdout)
		}
	}
}

// TestAdaptStdinExactly: the handler reads exactly the payload adapt made,
// to its end, whatever its size; a handler that reads none is not waited
// for.
func TestAdaptStdinExactly(t *testing.T) {
	env, _ := traceEnv(t)
	big := `{"toolCall":{"name":"write_to_file","args":{"TargetFile":"/w/x","CodeContent":"` + strings.Repeat("a", 3<<20) + `"}},"workspacePaths":["/w"]}`
	kept := filepath.Join(t.TempDir(), "payload.json")
	got := runProcess(t, adapted("sh", "-c", `cat > "$0"`, kept), []byte(big), env)
	var read struct {
		ToolInput struct {
			Content string `json:"content"`
		} `json:"tool_input"`
	}
	b, _ := os.ReadFile(kept)
	if err := json.Unmarshal(b, &read); got.code != 0 || err != nil || len(read.ToolInput.Content) != 3<<20 {
		t.Errorf("a 3 MiB payload: status %d, the handler read %d bytes (%v), content of %d", got.code, len(b), err, len(read.ToolInput.Content))
	}
	got = runProcess(t, adapted("true"), []byte(big), env)
	if got.code != 0 || len(got.stdout) != 0 || len(got.stderr) != 0 {
		t.Errorf("a handler that reads nothing: status %d, stdout %q, stderr %q", got.code, got.stdout, got.stderr)
	}
}
