package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/hookctl/hookctl/schema"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// hookctlBinary builds hookctl once per test run, for tests that run it as
// separate processes.
func hookctlBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "hookctl-bin")
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

// TestConcurrentEdits runs 20 hookctl init and 4 hookctl import --write at
// once on one workspace, as real processes: every one of them says it
// added its hook, and every hook, script and test case is there in the
// end.
func TestConcurrentEdits(t *testing.T) {
	if testing.Short() {
		t.Skip("builds hookctl and runs 24 processes")
	}
	bin := hookctlBinary(t)
	ws, home := t.TempDir(), t.TempDir()
	const inits, imports = 20, 4
	for i := range imports {
		settings := fmt.Sprintf(`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo imported-%d"}]}]}}`, i)
		if err := os.WriteFile(filepath.Join(ws, fmt.Sprintf("claude-%d.json", i)), []byte(settings), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	type result struct {
		args           []string
		err            error
		stdout, stderr string
	}
	results := make([]result, inits+imports)
	var wg sync.WaitGroup
	for i := range results {
		args := []string{"init", "--yes", "--template", "notify", "--name", fmt.Sprintf("n%d", i)}
		if i >= inits {
			args = []string{"import", "--from", "claude", "--write", fmt.Sprintf("claude-%d.json", i-inits)}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(bin, args...)
			cmd.Dir = ws
			cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"))
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			results[i] = result{args, err, stdout.String(), stderr.String()}
		}()
	}
	wg.Wait()
	for _, r := range results {
		if r.err != nil {
			t.Errorf("hookctl %s: %v\n%s%s", strings.Join(r.args, " "), r.err, r.stdout, r.stderr)
		}
	}
	c, err := schema.Load(filepath.Join(ws, ".agents", "hooks.json"))
	if err != nil || !c.Usable() {
		t.Fatalf("hooks.json: %v %+v", err, c)
	}
	names := map[string]bool{}
	for _, h := range c.File.Hooks {
		names[h.Name] = true
	}
	for i := range inits {
		name := fmt.Sprintf("n%d", i)
		if !names[name] {
			t.Errorf("the hook %s is lost", name)
		}
		if _, err := os.Stat(filepath.Join(ws, ".agents", "hooks", name+".sh")); err != nil {
			t.Errorf("the script of %s: %v", name, err)
		}
	}
	if len(c.File.Hooks) != inits+imports {
		t.Errorf("hooks.json has %d hooks, want %d: %v", len(c.File.Hooks), inits+imports, names)
	}
	imported := 0
	for _, h := range c.File.Hooks {
		for _, hd := range h.Stop {
			if strings.HasPrefix(hd.Command, "echo imported-") {
				imported++
			}
		}
	}
	if imported != imports {
		t.Errorf("%d imported hooks, want %d", imported, imports)
	}
	tests, err := os.ReadFile(filepath.Join(ws, ".agents", "hooks.test.json"))
	if err != nil {
		t.Fatal(err)
	}
	var tf schema.TestFile
	if err := json.Unmarshal(tests, &tf); err != nil {
		t.Fatal(err)
	}
	if len(tf.Tests) != inits {
		t.Errorf("hooks.test.json has %d cases, want %d", len(tf.Tests), inits)
	}
}
