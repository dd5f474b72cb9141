package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestInitKilled kills hookctl init, a real process, with SIGKILL at
// random points of its work, again and again, in a trusted workspace whose
// gate denies rm -rf /. After each kill: when nothing of the workspace
// changed where anyone looks (the kill came before the first rename), the
// gate still denies (a killed write left no executable behind for trust to
// count as new code); no temporary file of a killed write is executable.
// Once an init runs to its end, which first puts right what the last kill
// left: every script has its hook and its test case and every hook its
// script, nothing of the killed writes is left, and the gate denies.
// HOOKCTL_KILLS sets the number of kills (default 20; 6 with -short).
func TestInitKilled(t *testing.T) {
	t.Parallel()
	kills := 20
	if testing.Short() {
		kills = 6
	}
	if n, err := strconv.Atoi(os.Getenv("HOOKCTL_KILLS")); err == nil {
		kills = n
	}
	bin := hookctlOnPath(t)
	ws, home := t.TempDir(), t.TempDir()
	ws, _ = filepath.EvalSymlinks(ws)
	env := machineOf(home, bin)
	command := func(args ...string) *exec.Cmd {
		cmd := exec.Command(filepath.Join(bin, "hookctl"), args...)
		cmd.Dir, cmd.Env = ws, env
		return cmd
	}
	hookctl := func(args ...string) string {
		t.Helper()
		out, err := command(args...).CombinedOutput()
		if err != nil {
			t.Fatalf("hookctl %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	gate := func() string {
		t.Helper()
		return strings.TrimSpace(hookctl("run", "PreToolUse", "--tool", "run_command", "--args", `{"CommandLine":"sudo rm -rf /"}`))
	}
	const deny = `{"decision":"deny","reason":"gate: rm -r of / deletes far more than a task needs; delete the exact paths instead"}`

	hookctl("init", "--yes", "--template", "block-dangerous", "--name", "gate")
	if got := gate(); got != deny {
		t.Fatalf("the gate before any kill: %s", got)
	}
	// How long an init takes here: the kills fall anywhere within it.
	start := time.Now()
	hookctl("init", "--yes", "--template", "notify", "--name", "first")
	took := time.Since(start)

	agents := filepath.Join(ws, ".agents")
	// seen is what anyone looking at the workspace sees: its files, the
	// dot files of killed writes aside, and their bytes.
	seen := func() string {
		var b strings.Builder
		filepath.WalkDir(agents, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), ".") {
				return nil
			}
			c, _ := os.ReadFile(p)
			fmt.Fprintf(&b, "%s %x\n", p, c)
			return nil
		})
		return b.String()
	}
	// leftovers are the files of killed writes: .NAME.tmpXXXX and
	// .NAME.undoXXXX; executable are those that could run.
	leftovers := func() (all, executable []string) {
		filepath.WalkDir(agents, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasPrefix(d.Name(), ".") {
				return nil
			}
			all = append(all, p)
			if info, err := d.Info(); err == nil && info.Mode().Perm()&0o111 != 0 {
				executable = append(executable, p)
			}
			return nil
		})
		return all, executable
	}

	unchanged := 0
	for i := range kills {
		before, denied := seen(), gate() == deny
		cmd := command("init", "--yes", "--template", "notify", "--lang", "sh", "--name", "k"+strconv.Itoa(i))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rand.Int64N(int64(took) * 6 / 5)))
		cmd.Process.Kill()
		cmd.Wait()
		if _, exe := leftovers(); len(exe) > 0 {
			t.Errorf("kill %d left executable files of its writes: %v", i, exe)
		}
		if seen() == before {
			unchanged++
			if got := gate(); denied && got != deny {
				t.Errorf("kill %d changed nothing anyone sees, and the gate answers %s", i, got)
			}
		}
	}
	t.Logf("%d kills, %d of them before anything was put in place; an init takes %v", kills, unchanged, took)

	// The next init first puts right what the last kill left.
	hookctl("init", "--yes", "--template", "notify", "--name", "last")
	var hooks map[string]json.RawMessage
	if b, err := os.ReadFile(filepath.Join(agents, "hooks.json")); err != nil || json.Unmarshal(b, &hooks) != nil {
		t.Fatalf("hooks.json: %v\n%s", err, b)
	}
	var tests struct{ Tests []struct{ Name string } }
	if b, err := os.ReadFile(filepath.Join(agents, "hooks.test.json")); err != nil || json.Unmarshal(b, &tests) != nil {
		t.Fatalf("hooks.test.json: %v\n%s", err, b)
	}
	entries, err := os.ReadDir(filepath.Join(agents, "hooks"))
	if err != nil {
		t.Fatal(err)
	}
	var scripts, hookNames, cases []string
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), ".") {
			scripts = append(scripts, strings.TrimSuffix(e.Name(), filepath.Ext(e.Name())))
		}
	}
	for name := range hooks {
		hookNames = append(hookNames, name)
	}
	for _, c := range tests.Tests {
		name, _, _ := strings.Cut(c.Name, ":")
		cases = append(cases, name)
	}
	slices.Sort(scripts)
	slices.Sort(hookNames)
	slices.Sort(cases)
	if !slices.Equal(scripts, hookNames) || !slices.Equal(cases, hookNames) {
		t.Errorf("after %d kills: %d scripts, %d hooks, %d test cases\nscripts %v\nhooks   %v\ncases   %v",
			kills, len(scripts), len(hookNames), len(cases), scripts, hookNames, cases)
	}
	if all, _ := leftovers(); len(all) > 0 {
		t.Errorf("files of killed writes are left: %v", all)
	}
	if journals, _ := os.ReadDir(filepath.Join(home, "state", "hookctl", "edits")); len(journals) > 0 {
		t.Errorf("journals are left: %v", journals)
	}
	if got := gate(); got != deny {
		t.Errorf("after the kills the gate answers %s", got)
	}
}
