package doctor

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/schema/scope"
)

// TestGatherThenRun: with no agent on PATH, no home and a workspace of
// one hook whose script is missing, Gather waits DefaultTimeout when told
// no time and reads the environment with os.Getenv when given none; Run
// reports the checks in their order, each with its status and fix.
func TestGatherThenRun(t *testing.T) {
	ws := t.TempDir()
	state := t.TempDir()
	t.Setenv("PATH", "")
	t.Setenv("HOOKCTL_AGY", "")
	t.Setenv("HOOKCTL_LOG", filepath.Join(state, "runs.jsonl"))
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(state, "config"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(state, "state"))
	if err := os.MkdirAll(filepath.Join(ws, ".agents"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, ".agents", "hooks.json"), []byte(`{"gate": {"Stop": [{"command": "./hooks/gate.sh"}]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(ws)
	d := Gather(context.Background(), Options{Found: scope.Found{Root: ws, By: scope.ByName}})
	if d.opts.Timeout != DefaultTimeout || d.opts.Getenv == nil {
		t.Errorf("options %+v, want the default timeout and os.Getenv", d.opts)
	}
	var got []string
	for _, r := range Run(d) {
		got = append(got, r.Check+" "+r.Status)
		if r.Status != OK && r.Fix == "" {
			t.Errorf("%s %s has no fix: %s", r.Status, r.Check, r.Message)
		}
	}
	want := "agent warn|workspace-file ok|hookctl-trust warn|handlers fail|lint warn|runs ok|next ok"
	if strings.Join(got, "|") != want {
		t.Errorf("checks %s\nwant   %s", strings.Join(got, "|"), want)
	}
}
