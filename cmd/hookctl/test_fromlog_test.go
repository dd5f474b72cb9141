package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookctl/hookctl/runtime/hooktest"
	"github.com/hookctl/hookctl/runtime/tracelog"
)

// fromLogWorkspace makes a workspace and a log of n recorded runs, each
// one that makes a case of its own, and returns the workspace, the
// environment to run hookctl in, and the records' IDs.
func fromLogWorkspace(t *testing.T, n int) (string, []string, []string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".agents"), 0o755); err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(dir, "runs.jsonl")
	l := &tracelog.Log{Path: logPath}
	var ids []string
	for i := range n {
		id := fmt.Sprintf("case%012d", i)
		ids = append(ids, id)
		err := l.Append(&tracelog.Record{ID: id, Time: time.Date(2026, 3, 1, 9, 0, i, 0, time.UTC), Kind: tracelog.KindTrace,
			Hook: "gate", Event: "PreToolUse", Tool: "run_command", Exit: tracelog.Int(0),
			Answer:  []byte(`{"decision":"allow"}`),
			Payload: fmt.Appendf(nil, `{"toolCall":{"name":"run_command","args":{"CommandLine":"ls %d"}}}`, i)})
		if err != nil {
			t.Fatal(err)
		}
	}
	return dir, append(os.Environ(), "HOOKCTL_LOG="+logPath, "TZ=UTC"), ids
}

// TestAddFromLogInParallelKeepsEveryCase: twelve hookctl test
// --add-from-log at once on one test file; each reads, adds and writes
// under the folder's lock, so none loses another's case.
func TestAddFromLogInParallelKeepsEveryCase(t *testing.T) {
	dir, env, ids := fromLogWorkspace(t, 12)
	var wg sync.WaitGroup
	errs := make([]string, len(ids))
	for i, id := range ids {
		wg.Go(func() {
			cmd := exec.Command("hookctl", "test", "--add-from-log", id)
			cmd.Dir, cmd.Env = dir, env
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Run(); err != nil {
				errs[i] = fmt.Sprintf("%s: %v: %s", id, err, out.String())
			}
		})
	}
	wg.Wait()
	for _, e := range errs {
		if e != "" {
			t.Error(e)
		}
	}
	f, err := hooktest.Load(filepath.Join(dir, ".agents", "hooks.test.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Cases) != len(ids) {
		t.Fatalf("%d cases, want %d", len(f.Cases), len(ids))
	}
	for _, id := range ids {
		found := false
		for _, c := range f.Cases {
			found = found || strings.Contains(c.Name, tracelog.ShortID(id))
		}
		if !found {
			t.Errorf("the case of %s was lost", id)
		}
	}
}

// TestAddFromLogRefusesAFileChangedMeanwhile: a test file saved by another
// program between the read and the write is left as that program wrote
// it.
func TestAddFromLogRefusesAFileChangedMeanwhile(t *testing.T) {
	dir, _, ids := fromLogWorkspace(t, 1)
	t.Setenv("HOOKCTL_LOG", filepath.Join(dir, "runs.jsonl"))
	file := filepath.Join(dir, ".agents", "hooks.test.json")
	if err := os.WriteFile(file, []byte("{\"tests\": []}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	saved := []byte("{\"tests\": [{\"name\": \"saved\", \"tool\": \"view_file\", \"expect\": {\"decision\": \"ask\"}}]}\n")
	beforeWrite = func(path string) {
		if err := os.WriteFile(path, saved, 0o644); err != nil {
			t.Error(err)
		}
	}
	defer func() { beforeWrite = nil }()
	var out, errb bytes.Buffer
	err := testAddFromLog(streams{nil, &out, &errb}, ids[0], []string{file})
	if err == nil || !strings.Contains(err.Error(), "changed on disk while hookctl was editing it") {
		t.Errorf("error %v", err)
	}
	if b, _ := os.ReadFile(file); !bytes.Equal(b, saved) {
		t.Errorf("the file holds %s, want what the other program saved", b)
	}
}
