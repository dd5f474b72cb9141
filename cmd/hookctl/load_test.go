package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestLoadRunsWhileTrustFlips starts many hookctl run at once, as real
// processes, on a workspace whose gate denies rm -rf /, while the trust
// command's own code (trustRun, in this process: a process of its own
// would wait seconds for a core among a thousand runs) revokes the
// workspace's trust and grants it again every 20 ms.
// Every run must answer right for the trust it found: the gate's deny, or,
// skipped, {"decision":"ask"} and the line that says why; no run whose
// process started after a revocation ended runs the gate before the next
// grant began; every trust command succeeds, and the store reads after.
// HOOKCTL_LOAD sets the runs of a round (default 40), HOOKCTL_LOAD_ROUNDS
// the rounds (default 1) and HOOKCTL_LOAD_SPREAD the time between two
// runs' starts (default 25ms, so that a short round sees the trust flip;
// 0 starts them all at once): docs/reliability/load.sh starts 1,000 at
// once.
func TestLoadRunsWhileTrustFlips(t *testing.T) {
	t.Parallel()
	runs, rounds, spread := 40, 1, 25*time.Millisecond
	if n, err := strconv.Atoi(os.Getenv("HOOKCTL_LOAD")); err == nil && n > 0 {
		runs = n
	}
	if n, err := strconv.Atoi(os.Getenv("HOOKCTL_LOAD_ROUNDS")); err == nil && n > 0 {
		rounds = n
	}
	if d, err := time.ParseDuration(os.Getenv("HOOKCTL_LOAD_SPREAD")); err == nil && d >= 0 {
		spread = d
	}
	bin := hookctlOnPath(t)
	ws, home := t.TempDir(), t.TempDir()
	ws, _ = filepath.EvalSymlinks(ws)
	ran := filepath.Join(t.TempDir(), "ran")
	env := append(machineOf(home, bin), "GATE_RAN="+ran)
	hookctl := func(stdin string, args ...string) (string, string, error) {
		cmd := exec.Command(filepath.Join(bin, "hookctl"), args...)
		cmd.Dir, cmd.Env = ws, env
		cmd.Stdin = strings.NewReader(stdin)
		var out, errOut strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		return out.String(), errOut.String(), err
	}
	// The gate writes which run it served, and when, before it answers.
	writeFile(t, filepath.Join(ws, ".agents", "hooks.json"), `{"gate": {"PreToolUse": [{"matcher": "run_command", "hooks": [{"command": "./hooks/gate.sh", "timeout": 60}]}]}}`+"\n")
	writeFile(t, filepath.Join(ws, ".agents", "hooks", "gate.sh"), `#!/bin/sh
payload=$(cat)
id=${payload##*run-}
id=${id%%[!0-9]*}
echo "$id $(date +%s%N)" >> "$GATE_RAN"
echo '{"decision":"deny","reason":"rm -rf is blocked"}'
`)
	if err := os.Chmod(filepath.Join(ws, ".agents", "hooks", "gate.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, errOut, err := hookctl("", "trust", "--yes"); err != nil {
		t.Fatalf("trust: %v\n%s", err, errOut)
	}
	store := filepath.Join(home, ".config", "hookctl", "trust.json")

	for round := range rounds {
		os.Remove(ran)
		// The flipper revokes and grants until the runs are done; it
		// notes when each revocation had ended and each grant began.
		flip := func(revoke bool) error {
			var out, errOut strings.Builder
			err := trustRun(streams{strings.NewReader(""), &out, &errOut}, trustOptions{dir: ws, store: store, yes: !revoke, revoke: revoke, now: time.Now})
			if err != nil {
				return fmt.Errorf("%v: %s", err, errOut.String())
			}
			return nil
		}
		type window struct{ from, to int64 }
		var revoked []window
		var flipErrs []string
		stop := make(chan struct{})
		flipped := make(chan struct{})
		go func() {
			defer close(flipped)
			for {
				select {
				case <-stop:
					return
				case <-time.After(20 * time.Millisecond):
				}
				if err := flip(true); err != nil {
					flipErrs = append(flipErrs, "revoke: "+err.Error())
				}
				from := time.Now().UnixNano()
				time.Sleep(20 * time.Millisecond)
				to := time.Now().UnixNano()
				revoked = append(revoked, window{from, to})
				if err := flip(false); err != nil {
					flipErrs = append(flipErrs, "trust --yes: "+err.Error())
				}
			}
		}()
		started := make([]int64, runs)
		answers := make([]string, runs)
		notes := make([]string, runs)
		fails := make([]error, runs)
		var wg sync.WaitGroup
		begin := time.Now()
		for i := range runs {
			time.Sleep(spread)
			wg.Go(func() {
				payload := fmt.Sprintf(`{"toolCall":{"name":"run_command","args":{"CommandLine":"rm -rf / # run-%d"}},"workspacePaths":[%q]}`, i, ws)
				started[i] = time.Now().UnixNano()
				answers[i], notes[i], fails[i] = hookctl(payload, "run", "PreToolUse")
			})
		}
		wg.Wait()
		took := time.Since(begin)
		close(stop)
		<-flipped

		denied, skipped := 0, 0
		for i := range runs {
			switch a := strings.TrimSpace(answers[i]); {
			case fails[i] != nil:
				t.Errorf("run %d: %v\n%s", i, fails[i], notes[i])
			case a == `{"decision":"deny","reason":"rm -rf is blocked"}`:
				denied++
			case a == `{"decision":"ask"}` && strings.Contains(notes[i], "untrusted workspace"):
				skipped++
			default:
				t.Errorf("run %d answered %s\n%s", i, a, notes[i])
			}
		}
		// No gate ran for a run that started inside a revocation, before
		// the grant that ended it began.
		gateRuns, early := 0, 0
		if f, err := os.Open(ran); err == nil {
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				id, at, ok := strings.Cut(sc.Text(), " ")
				i, err1 := strconv.Atoi(id)
				ns, err2 := strconv.ParseInt(at, 10, 64)
				if !ok || err1 != nil || err2 != nil || i < 0 || i >= runs {
					t.Errorf("the gate wrote %q", sc.Text())
					continue
				}
				gateRuns++
				for _, w := range revoked {
					if started[i] > w.from && ns < w.to {
						early++
						t.Errorf("run %d started %v into a revocation and its gate ran before the grant", i, time.Duration(started[i]-w.from))
					}
				}
			}
			f.Close()
		}
		if gateRuns != denied {
			t.Errorf("the gate ran %d times for %d denies", gateRuns, denied)
		}
		for _, e := range flipErrs {
			t.Errorf("while flipping: %s", e)
		}
		out, errOut, err := hookctl("", "trust", "--list")
		if err != nil || !strings.Contains(out, ws) {
			t.Errorf("trust --list after the round: %v\n%s%s", err, out, errOut)
		}
		var stored map[string]any
		if b, err := os.ReadFile(store); err != nil || json.Unmarshal(b, &stored) != nil {
			t.Errorf("the trust store after the round: %v\n%s", err, b)
		}
		t.Logf("round %d: %d runs (one every %v) in %v while trust flipped %d times: %d denied by the gate, %d skipped as untrusted, %d wrong, %d gates run inside a revocation",
			round+1, runs, spread, took.Round(time.Millisecond), 2*len(revoked), denied, skipped, runs-denied-skipped, early)
	}
}
