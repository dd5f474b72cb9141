package oracle

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/runtime/trust"
	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/scope"
	"github.com/hookctl/hookctl/schema/shellcmd"
)

// Run is one command of a workspace's hooks.json to run for real under
// strace.
type Run struct {
	// Root is the workspace, an absolute real path.
	Root    string
	Command string
	Event   schema.Event
	// Payload is what the handler reads on stdin.
	Payload []byte
	// Env is the handlers' environment before hookctl adds its HOOKCTL_
	// variables.
	Env     []string
	Timeout time.Duration
	// Log is where strace writes, outside the workspace.
	Log string
}

// Result is what a run did.
type Result struct {
	Trace   *Trace
	Outcome *runtime.Outcome
	Ending  runtime.Ending
}

// Do runs the command as hookctl run runs a handler (runtime.RunHandler:
// /bin/sh -c COMMAND in .agents, the payload on stdin, the HOOKCTL_
// variables set, the whole process group stopped at the timeout), with
// /bin/sh started by strace, and reads what the process tree executed,
// mapped and read.
func (r Run) Do(ctx context.Context) (*Result, error) {
	strace, err := exec.LookPath("strace")
	if err != nil {
		return nil, err
	}
	agents := filepath.Join(r.Root, ".agents")
	src := &runtime.Source{Path: filepath.Join(r.Root, filepath.FromSlash(trust.HooksFile)), Dir: agents,
		Scope: scope.Workspace, Exists: true, Trusted: true}
	words := append([]string{strace}, StraceArgs(r.Log)...)
	words = append(words, "--", "/bin/sh", "-c", r.Command)
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = shellcmd.Quote(w)
	}
	secs := int(r.Timeout / time.Second)
	if secs < 1 {
		secs = 1
	}
	h := &schema.Handler{Command: "exec " + strings.Join(quoted, " "), Timeout: secs}
	ctx, cancel := context.WithTimeout(ctx, r.Timeout+5*time.Second)
	defer cancel()
	out, ending := runtime.RunHandler(ctx, r.Event, src, "oracle", h, r.Payload,
		runtime.Options{Workspace: r.Root, Dir: agents, Env: r.Env, Grace: time.Second})
	if ending == runtime.NotStarted {
		return nil, fmt.Errorf("the command did not start: %s", out.Cause)
	}
	f, err := os.Open(r.Log)
	if err != nil {
		return nil, fmt.Errorf("strace wrote no log: %v (the handler: %s)", err, out.Cause)
	}
	defer f.Close()
	calls, err := ParseLog(f)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %v", r.Log, err)
	}
	return &Result{Trace: Analyze(calls, r.Root, agents), Outcome: out, Ending: ending}, nil
}
