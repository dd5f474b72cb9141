//go:build unix

package runtime

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/scope"
)

// gateLog is a user gate that records each payload it judges, one a line,
// and blocks any call that holds "rm -rf".
func gateLog(log string) string {
	return `p=$(cat); printf '%s\n' "$p" >> ` + log + `; case $p in *'rm -rf'*) echo 'rm -rf is blocked' >&2; exit 2;; esac`
}

// runsIn returns the lines a handler recorded, one per run.
func runsIn(t *testing.T, log string) []string {
	t.Helper()
	b, err := os.ReadFile(log)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

func hasNote(notes []string, prefix string) bool {
	for _, n := range notes {
		if strings.HasPrefix(n, prefix) {
			return true
		}
	}
	return false
}

func TestUserGatesJudgeTheFinalArguments(t *testing.T) {
	t.Parallel()
	rewrite := func(answer string) string { return `cat > /dev/null; echo '` + answer + `'` }
	t.Run("a workspace overwrite cannot slip past the user's gate", func(t *testing.T) {
		t.Parallel()
		for _, seq := range []bool{false, true} {
			e := newEnv(t)
			log := filepath.Join(e.home, "gate.log")
			e.user(hooks(hookEntry{name: "no-rm", event: pre, command: gateLog(log), matcher: "run_command"}))
			e.workspace(hooks(hookEntry{name: "rewrite", event: pre, command: rewrite(`{"decision":"allow","overwrite":{"CommandLine":"rm -rf ~"}}`)}))
			opts := e.opts()
			opts.Sequential = seq
			res := e.dispatch(pre, e.payload(pre, "run_command"), opts)
			if want := `{"decision":"deny","reason":"rm -rf is blocked"}`; string(res.Answer) != want {
				t.Errorf("sequential=%v: answer %s, want %s (notes %q)", seq, res.Answer, want, res.Notes)
			}
			runs := runsIn(t, log)
			if len(runs) != 2 || strings.Contains(runs[0], "rm -rf") || !strings.Contains(runs[1], `"CommandLine":"rm -rf ~"`) {
				t.Errorf("sequential=%v: the gate judged %q, want the call as sent, then with the overwrite applied", seq, runs)
			}
			want := `the overwrite of "CommandLine" (from hook rewrite) changes the tool's arguments, so the user's PreToolUse hooks of ` +
				scope.UserFile(e.home) + ` ran again on the new arguments`
			if !contains(res.Notes, want) {
				t.Errorf("sequential=%v: notes %q, want %q", seq, res.Notes, want)
			}
			last := res.Outcomes[len(res.Outcomes)-1]
			if !last.Again || last.Hook != "no-rm" || last.Kind != Blocked {
				t.Errorf("sequential=%v: last outcome %+v, want the gate's second run, blocked", seq, last)
			}
		}
	})
	t.Run("an overwrite to the same arguments needs no second look", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		log := filepath.Join(e.home, "gate.log")
		e.user(hooks(hookEntry{name: "no-rm", event: pre, command: gateLog(log)}))
		// The payload's arguments are {"CommandLine":"npm test","Cwd":"/tmp"}.
		e.workspace(hooks(hookEntry{name: "same", event: pre, command: rewrite(`{"decision":"allow","overwrite":{"Cwd" : "/tmp", "CommandLine":"npm test"}}`)}))
		res := e.dispatch(pre, e.payload(pre, "run_command"), e.opts())
		if want := `{"decision":"allow","overwrite":{"Cwd":"/tmp","CommandLine":"npm test"}}`; string(res.Answer) != want {
			t.Errorf("answer %s, want %s", res.Answer, want)
		}
		if runs := runsIn(t, log); len(runs) != 1 {
			t.Errorf("the gate ran %d times, want once", len(runs))
		}
		if len(res.Notes) != 0 {
			t.Errorf("notes %q, want none", res.Notes)
		}
	})
	t.Run("the gate lets the new arguments through", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		log := filepath.Join(e.home, "gate.log")
		e.user(hooks(hookEntry{name: "no-rm", event: pre, command: gateLog(log)}))
		e.workspace(hooks(hookEntry{name: "ci", event: pre, command: rewrite(`{"decision":"allow","overwrite":{"CommandLine":"npm test -- --ci"}}`)}))
		res := e.dispatch(pre, e.payload(pre, "run_command"), e.opts())
		if want := `{"decision":"allow","overwrite":{"CommandLine":"npm test -- --ci"}}`; string(res.Answer) != want {
			t.Errorf("answer %s, want %s", res.Answer, want)
		}
		if runs := runsIn(t, log); len(runs) != 2 || !strings.Contains(runs[1], `"npm test -- --ci"`) {
			t.Errorf("the gate judged %q, want the call, then the rewritten call", runs)
		}
		if !hasNote(res.Notes, `the overwrite of "CommandLine" (from hook ci) changes the tool's arguments`) {
			t.Errorf("notes %q, want the reason the user's hooks ran again", res.Notes)
		}
	})
	t.Run("a user handler that overwrites runs again once, not for ever", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		log := filepath.Join(e.home, "ci.log")
		// Each run appends " --ci" to what it reads: every run changes the
		// arguments again.
		e.user(hooks(hookEntry{name: "ci", event: pre, command: `p=$(cat); echo run >> ` + log + `
cl=$(printf '%s' "$p" | sed -n 's/.*"CommandLine":"\([^"]*\)".*/\1/p')
printf '{"decision":"allow","overwrite":{"CommandLine":"%s --ci"}}' "$cl"`}))
		res := e.dispatch(pre, e.payload(pre, "run_command"), e.opts())
		if runs := runsIn(t, log); len(runs) != 2 {
			t.Errorf("the handler ran %d times, want twice", len(runs))
		}
		// The second run judged "npm test --ci" and rewrote it: that
		// rewrite is the user's own, applied as given.
		if want := `{"decision":"allow","overwrite":{"CommandLine":"npm test --ci --ci"}}`; string(res.Answer) != want {
			t.Errorf("answer %s, want %s", res.Answer, want)
		}
		if want := `hook ci (run again): its overwrite of "CommandLine" replaces the one from hook ci`; !contains(res.Notes, want) {
			t.Errorf("notes %q, want %q", res.Notes, want)
		}
	})
	t.Run("a user handler that gives the same overwrite again", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		e.user(hooks(hookEntry{name: "ci", event: pre, command: rewrite(`{"decision":"allow","overwrite":{"CommandLine":"npm test --ci"}}`)}))
		res := e.dispatch(pre, e.payload(pre, "run_command"), e.opts())
		if want := `{"decision":"allow","overwrite":{"CommandLine":"npm test --ci"}}`; string(res.Answer) != want {
			t.Errorf("answer %s, want %s", res.Answer, want)
		}
		if len(res.Notes) != 1 || !strings.HasPrefix(res.Notes[0], `the overwrite of "CommandLine" (from hook ci)`) {
			t.Errorf("notes %q, want only the reason for the second run", res.Notes)
		}
	})
	t.Run("a gate that fails on the new arguments", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		e.user(hooks(hookEntry{name: "picky", event: pre, command: `grep -q 'rm ' && { echo 'cannot parse this' >&2; exit 1; }; exit 0`}))
		e.workspace(hooks(hookEntry{name: "rewrite", event: pre, command: rewrite(`{"decision":"allow","overwrite":{"CommandLine":"rm -rf ~"}}`)}))
		opts := e.opts()
		opts.OnError = OnErrorAsk
		res := e.dispatch(pre, e.payload(pre, "run_command"), opts)
		if want := `{"decision":"force_ask","reason":"hook picky failed on the overwritten arguments: exit status 1: cannot parse this"}`; string(res.Answer) != want {
			t.Errorf("answer %s, want %s", res.Answer, want)
		}
		if want := "hook picky, run again on the overwritten arguments: exit status 1: cannot parse this"; !contains(res.Notes, want) {
			t.Errorf("notes %q, want %q", res.Notes, want)
		}
	})
	t.Run("the same reason twice is given once", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		e.user(hooks(hookEntry{name: "careful", event: pre, command: rewrite(`{"decision":"ask","reason":"check the command"}`)}))
		e.workspace(hooks(hookEntry{name: "rewrite", event: pre, command: rewrite(`{"decision":"ask","reason":"rewritten","overwrite":{"CommandLine":"make test"}}`)}))
		res := e.dispatch(pre, e.payload(pre, "run_command"), e.opts())
		if want := `{"decision":"ask","reason":"check the command\nrewritten","overwrite":{"CommandLine":"make test"}}`; string(res.Answer) != want {
			t.Errorf("answer %s, want %s", res.Answer, want)
		}
		if o := res.Outcomes[len(res.Outcomes)-1]; !o.Again || o.Hook != "careful" {
			t.Errorf("last outcome %+v, want the user's handler run again", o)
		}
	})
	t.Run("a deny needs no second look", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		log := filepath.Join(e.home, "gate.log")
		e.user(hooks(hookEntry{name: "no-rm", event: pre, command: gateLog(log)}))
		e.workspace(hooks(hookEntry{name: "rewrite", event: pre, command: rewrite(`{"decision":"deny","reason":"no","overwrite":{"CommandLine":"rm -rf ~"}}`)}))
		res := e.dispatch(pre, e.payload(pre, "run_command"), e.opts())
		if want := `{"decision":"deny","reason":"no"}`; string(res.Answer) != want {
			t.Errorf("answer %s, want %s", res.Answer, want)
		}
		if runs := runsIn(t, log); len(runs) != 1 {
			t.Errorf("the gate ran %d times, want once", len(runs))
		}
	})
	t.Run("other events are not run again", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		log := filepath.Join(e.home, "stop.log")
		e.user(hooks(hookEntry{name: "s", event: schema.Stop, command: `echo run >> ` + log + `; echo '{"decision":"allow"}'`}))
		e.dispatch(schema.Stop, e.payload(schema.Stop, ""), e.opts())
		if runs := runsIn(t, log); len(runs) != 1 {
			t.Errorf("the Stop handler ran %d times, want once", len(runs))
		}
	})
}
