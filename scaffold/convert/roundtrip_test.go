package convert

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/scaffold"
	"github.com/hookctl/hookctl/schema"
)

// copyTree copies a sample project, modes included, so a test can write
// into it.
func copyTree(t *testing.T, from string) string {
	t.Helper()
	to := t.TempDir()
	err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, info.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
	return to
}

// TestRoundTripGate converts the Claude Code sample into the project's
// .agents/hooks.json and dispatches through the runtime: the gate that
// Claude Code ran on Bash, a script that answers with exit 2 and a reason
// on stderr, denies the same command as run_command, and lets others pass.
func TestRoundTripGate(t *testing.T) {
	root, target, res := convertClaudeSample(t)
	m, err := res.Merge(target)
	if err != nil {
		t.Fatal(err)
	}
	if err := writeMerged(t, m); err != nil {
		t.Fatal(err)
	}

	// What Claude Code does: the handler runs in the project root with
	// $CLAUDE_PROJECT_DIR set and its payload on stdin.
	cmd := exec.Command("/bin/sh", "-c", `"$CLAUDE_PROJECT_DIR"/.claude/hooks/block-rm.sh`)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CLAUDE_PROJECT_DIR="+root)
	cmd.Stdin = strings.NewReader(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf build"}}`)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
		t.Fatalf("the original gate: %v, want exit status 2", err)
	}
	reason := strings.TrimSpace(stderr.String())

	dispatch := func(tool, args string) map[string]any {
		t.Helper()
		partial, err := runtime.ToolPayload(tool, args)
		if err != nil {
			t.Fatal(err)
		}
		payload, err := runtime.CompletePayload(schema.PreToolUse, partial, root, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		r, err := runtime.Dispatch(ctx, schema.PreToolUse, payload, runtime.Options{Configs: []string{target}, Workspace: root, Home: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		var answer map[string]any
		if err := json.Unmarshal(r.Answer, &answer); err != nil {
			t.Fatalf("answer %s: %v", r.Answer, err)
		}
		for _, n := range r.Notes {
			t.Logf("note: %s", n)
		}
		return answer
	}
	got := dispatch("run_command", `{"CommandLine": "rm -rf build", "Cwd": "`+root+`"}`)
	if got["decision"] != "deny" || !strings.Contains(got["reason"].(string), reason) {
		t.Errorf("rm -rf as run_command: %v, want deny with the reason %q", got, reason)
	}
	if got := dispatch("run_command", `{"CommandLine": "ls", "Cwd": "`+root+`"}`); got["decision"] != "ask" {
		t.Errorf("ls as run_command: %v, want no decision (ask)", got)
	}
}

// TestMerge adds the converted hooks to an existing hooks.json: every byte
// of it stays, and a hook whose name is taken gets a free one.
func TestMerge(t *testing.T) {
	dir := t.TempDir()
	settings := filepath.Join(dir, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settings, []byte(`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(dir, ".agents", "hooks.json")
	existing := "{\n\t\"stop\": {\"Stop\": [{\"command\": \"./mine.sh\"}]}\n}"
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(target, []byte(existing), 0o600); err != nil {
		t.Fatal(err)
	}
	src, err := Read(workDir(t), settings, "")
	if err != nil {
		t.Fatal(err)
	}
	res := Convert(src, Options{Target: target, Root: dir})
	m, err := res.Merge(target)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Renamed) != 1 || m.Renamed[0].From != "stop" || m.Renamed[0].To != "stop-2" || m.Renamed[0].Pos.Line != 2 {
		t.Errorf("Renamed = %+v, want stop → stop-2 at line 2", m.Renamed)
	}
	if err := writeMerged(t, m); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(target)
	if !strings.HasPrefix(string(got), "{\n\t\"stop\": {\"Stop\": [{\"command\": \"./mine.sh\"}]},") {
		t.Errorf("the existing hook changed:\n%s", got)
	}
	if !strings.Contains(string(got), `"stop-2"`) {
		t.Errorf("the imported hook is missing:\n%s", got)
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the file's own 0600", fi.Mode().Perm())
	}
	cfg := schema.Parse(target, got)
	if cfg.Syntax != nil || len(cfg.File.Hooks) != 2 {
		t.Errorf("the merged file does not load with 2 hooks: %v", cfg.Syntax)
	}

	// Importing again adds nothing: stop-2 is the converted hook.
	again, err := res.Merge(target)
	if err != nil {
		t.Fatal(err)
	}
	if again.Added != 0 || len(again.Unchanged) != 1 || !bytes.Equal(again.Src, got) {
		t.Errorf("a second import: added %d, unchanged %+v", again.Added, again.Unchanged)
	}

	// A target that is not valid JSON is refused and left alone.
	if err := os.WriteFile(target, []byte("{\"a\": }"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := res.Merge(target); err == nil || !strings.Contains(err.Error(), "hooks.json:1:7") {
		t.Errorf("a broken target: err = %v, want one at 1:7", err)
	}
}

// TestMergeSameFile: a hooks.json that is another agent's configuration is
// replaced by its conversion, which the agent can read.
func TestMergeSameFile(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, ".agents", "hooks.json")
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(target, []byte(`{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	src, err := Read(workDir(t), target, "")
	if err != nil {
		t.Fatal(err)
	}
	res := Convert(src, Options{Target: target, Root: dir})
	m, err := res.Merge(target)
	if err != nil {
		t.Fatal(err)
	}
	if !m.Replaced || !bytes.Equal(m.Src, res.JSON()) {
		t.Errorf("Replaced %v, content %s", m.Replaced, m.Src)
	}
}

// writeMerged writes a merge as hookctl import --write does, in the
// workspace that holds the target.
func writeMerged(t *testing.T, m *Merged) error {
	t.Helper()
	b, err := scaffold.NewBounds(scaffold.Workspace, filepath.Dir(filepath.Dir(m.Path)), "")
	if err != nil {
		return err
	}
	tx, err := b.Begin(context.Background(), filepath.Dir(m.Path))
	if err != nil {
		return err
	}
	defer tx.Close()
	if err := m.Write(tx); err != nil {
		return err
	}
	tx.Commit()
	return nil
}
