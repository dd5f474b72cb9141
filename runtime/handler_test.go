package runtime

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/scope"
)

// handlerOf loads the workspace's hooks.json and returns it with the first
// handler of the hook's event.
func handlerOf(t *testing.T, e *env, hook string, ev schema.Event) (*Source, *schema.Handler) {
	t.Helper()
	srcs, err := Discover([]string{scope.WorkspaceFile(e.ws)}, "", e.ws)
	if err != nil {
		t.Fatal(err)
	}
	src := srcs[0]
	for _, h := range src.Config.File.Hooks {
		if h.Name != hook {
			continue
		}
		if ev.IsTool() {
			return src, &h.Groups(ev)[0].Hooks[0]
		}
		return src, &h.Handlers(ev)[0]
	}
	t.Fatalf("no hook %s", hook)
	return nil, nil
}

// TestRunHandlerAlone runs single handlers as a dispatch would run them:
// in the file's folder, with the HOOKCTL_ variables and the caller's
// environment, and says how each ended.
func TestRunHandlerAlone(t *testing.T) {
	e := newEnv(t)
	e.workspace(`{
  "where": {"Stop": [{"command": "printf '{\"decision\":\"continue\",\"reason\":\"%s %s %s %s\"}' \"$HOOKCTL_HOOK\" \"$HOOKCTL_EVENT\" \"$PWD\" \"$HOOKCTL_TEST\""}]},
  "slow": {"PostToolUse": [{"hooks": [{"command": "sleep 10", "timeout": 1}]}]},
  "crash": {"PreInvocation": [{"command": "kill -SEGV $$"}]},
  "three": {"PostInvocation": [{"command": "echo oops >&2; exit 3"}]},
  "writable": {"SessionStart": [{"command": "./open.sh"}]}
}`)
	script := filepath.Join(e.ws, ".agents", "open.sh")
	e.write(script, "#!/bin/sh\necho '{}'\n")
	if err := os.Chmod(script, 0o777); err != nil {
		t.Fatal(err)
	}
	opts := Options{Workspace: e.ws, Env: []string{"PATH=" + os.Getenv("PATH"), "HOOKCTL_TEST=1"}, Grace: 100 * time.Millisecond}
	ctx := context.Background()

	src, h := handlerOf(t, e, "where", schema.Stop)
	o, end := RunHandler(ctx, schema.Stop, src, "where", h, e.payload(schema.Stop, ""), opts)
	var ans struct{ Decision, Reason string }
	if err := json.Unmarshal(o.Answer, &ans); err != nil || end != Exited || o.Kind != Answered {
		t.Fatalf("where: %v %v %s: %v", end, o.Kind, o.Answer, err)
	}
	if want := "where Stop " + filepath.Join(e.ws, ".agents") + " 1"; ans.Reason != want {
		t.Errorf("reason = %q, want %q", ans.Reason, want)
	}

	src, h = handlerOf(t, e, "slow", schema.PostToolUse)
	o, end = RunHandler(ctx, schema.PostToolUse, src, "slow", h, e.payload(schema.PostToolUse, "run_command"), opts)
	if end != TimedOut || o.Kind != Failed || o.Cause != "timed out after 1s; its process group was stopped" {
		t.Errorf("slow: %v %v %q", end, o.Kind, o.Cause)
	}

	src, h = handlerOf(t, e, "crash", schema.PreInvocation)
	o, end = RunHandler(ctx, schema.PreInvocation, src, "crash", h, e.payload(schema.PreInvocation, ""), opts)
	if end != Signaled || o.Kind != Failed || o.Cause != "killed by signal 11 (SIGSEGV)" {
		t.Errorf("crash: %v %v %q", end, o.Kind, o.Cause)
	}

	src, h = handlerOf(t, e, "three", schema.PostInvocation)
	o, end = RunHandler(ctx, schema.PostInvocation, src, "three", h, e.payload(schema.PostInvocation, ""), opts)
	if end != Exited || o.ExitCode != 3 || o.Cause != "exit status 3: oops" {
		t.Errorf("three: %v %d %q", end, o.ExitCode, o.Cause)
	}

	src, h = handlerOf(t, e, "writable", schema.SessionStart)
	o, end = RunHandler(ctx, schema.SessionStart, src, "writable", h, e.payload(schema.SessionStart, ""), opts)
	if end != NotStarted || o.Kind != Failed {
		t.Errorf("writable: %v %v %q", end, o.Kind, o.Cause)
	}
}
