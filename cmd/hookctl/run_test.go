//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/creack/pty"
)

// TestRunFromATerminal runs hookctl run with a real terminal on stdin, as a
// person trying a hook does: the payload is built, not read.
func TestRunFromATerminal(t *testing.T) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	defer tty.Close()

	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	t.Setenv("HOME", home)
	cfg := filepath.Join(dir, "hooks.json")
	if err := os.WriteFile(cfg, []byte(`{"keep-going": {"Stop": [{"command": "cat > got.json; echo '{\"decision\":\"continue\",\"reason\":\"not yet\"}'"}]}}`), 0o644); err != nil {
		t.Fatal(err)
	}

	var out, errb bytes.Buffer
	code := run([]string{"hookctl", "run", "Stop", "--config", cfg, "--workspace", dir}, streams{tty, &out, &errb})
	if code != 0 || out.String() != `{"decision":"continue","reason":"not yet"}`+"\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
	raw, err := os.ReadFile(filepath.Join(dir, "got.json"))
	if err != nil {
		t.Fatal(err)
	}
	var p struct {
		ExecutionNum          *int
		TerminationReason     string
		FullyIdle             *bool
		ConversationID        string
		WorkspacePaths        []string
		TranscriptPath        string
		ArtifactDirectoryPath string
		ModelName             string
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatalf("the handler got %s: %v", raw, err)
	}
	brain := filepath.Join(home, ".gemini", "antigravity", "brain", p.ConversationID)
	if p.ExecutionNum == nil || *p.ExecutionNum != 1 || p.TerminationReason != "model_stop" || p.FullyIdle == nil || !*p.FullyIdle ||
		len(p.ConversationID) != 36 || len(p.WorkspacePaths) != 1 || p.WorkspacePaths[0] != dir ||
		p.ArtifactDirectoryPath != brain || !strings.HasPrefix(p.TranscriptPath, brain+"/") || p.ModelName == "" {
		t.Errorf("the built payload is incomplete: %s", raw)
	}

	// A tool event needs to know the tool.
	out.Reset()
	errb.Reset()
	code = run([]string{"hookctl", "run", "PreToolUse", "--config", cfg}, streams{tty, &out, &errb})
	if code != 2 || out.Len() != 0 || !strings.Contains(errb.String(), "pass --tool NAME") {
		t.Errorf("PreToolUse from a terminal: exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
}
