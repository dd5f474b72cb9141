package hooktest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/schema"
)

// brokenHooks is a workspace file whose handlers break the contract in
// every way the agent punishes, beside a few that keep it.
var brokenHooks = filepath.Join("testdata", "contract", "broken", ".agents", "hooks.json")

// testEnviron is a handler environment that holds nothing of the
// machine's own hooks settings.
func testEnviron() []string {
	return []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}
}

// contractOf checks the hooks named in the broken file and returns the
// report.
func contractOf(t *testing.T, budget time.Duration, hooks ...string) *ContractReport {
	t.Helper()
	r, err := Contract(context.Background(), ContractOptions{
		Configs: []string{brokenHooks}, Hooks: hooks, Budget: budget,
		Env: testEnviron(), Grace: 200 * time.Millisecond, Home: t.TempDir(),
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// failuresOf returns the one handler of the report and the failures of its
// calls, in order.
func failuresOf(t *testing.T, r *ContractReport) (*HandlerReport, []Failed) {
	t.Helper()
	if len(r.Handlers) != 1 {
		t.Fatalf("%d handlers, want 1", len(r.Handlers))
	}
	h := r.Handlers[0]
	var out []Failed
	for _, c := range h.Calls {
		out = append(out, c.Failures...)
	}
	return h, out
}

// TestContractChecks runs each broken handler alone and checks the exact
// reason it fails for, and that the handlers that keep the contract pass.
func TestContractChecks(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		hook  string
		check Check
		msg   string
		calls int
	}{
		{"empty-object", CheckNoDecision, `answered {} without a decision: the agent denies every call it matches (print nothing, or {"decision":"ask"}, to leave the call to the user's settings)`, 1},
		{"reason-only", CheckNoDecision, `answered "{\"reason\":\"looks fine\"}" without a decision: the agent denies every call it matches (print nothing, or {"decision":"ask"}, to leave the call to the user's settings)`, 1},
		{"unknown-key", CheckUnknownKey, `answered with the unknown key "approve": a PreToolUse answer holds "decision", "reason", "permissionOverrides" and "overwrite", and the agent aborts the invocation on any other`, 1},
		{"nested-key", CheckUnknownKey, `answered with the unknown key "injectSteps[0].priority": a SessionStart answer holds only "injectSteps", and the agent aborts the invocation on any other`, 1},
		{"bad-decision", CheckInvalidAnswer, `printed an answer that is not valid for PreToolUse: "decision" must be "allow", "deny", "ask", "force_ask" or "deny_unless_prior_grant", not "maybe"`, 1},
		{"chatty", CheckNotJSON, `printed text, not a JSON answer: "Remember to run the linter" (print logs on stderr, and nothing or one JSON object on stdout)`, 1},
		{"text-around", CheckTextAroundJSON, `printed text around its JSON answer, "checking the tests..." before it: the agent reads all of stdout as the answer and rejects it (print logs on stderr)`, 1},
		{"two-answers", CheckTextAroundJSON, `printed text around its JSON answer, "{\"decision\":\"allow\"}" after it: the agent reads all of stdout as the answer and rejects it (print logs on stderr)`, 1},
		{"array", CheckNotObject, `printed an array "[]", not a JSON object: an answer is one object, or nothing`, 1},
		{"blocks-after", CheckExitStatus, `exited with status 2, which blocks only PreToolUse and Stop: on PostToolUse the agent counts it as a failure; its stderr ends with "lint failed"`, 1},
		{"fails", CheckExitStatus, `exited with status 1: the agent counts it as a failure; its stderr ends with "KeyError: toolCall"`, 1},
		{"crash", CheckCrash, `crashed: killed by signal 11 (SIGSEGV)`, 1},
		{"hangs", CheckTimeout, `still running at its timeout of 1s: its process group was stopped, and the agent counts it as failed`, 2},
		{"flood", CheckStdoutCap, `printed more than 1 MiB on stdout: it was stopped`, 1},
		// What /bin/sh says on stderr differs between shells: the message
		// is held up to it.
		{"no-interpreter", CheckNotStarted, `could not start (exit status 127 from /bin/sh): ./hooks/no-interpreter.py names /no/such/python9 in its #! line, which is not installed; its stderr ends with `, 1},
		{"env-interpreter", CheckNotStarted, `could not start (exit status 127 from /bin/sh): ./hooks/env-interpreter.mjs names no-such-node9 in its #! line, which is not installed; its stderr ends with `, 1},
		{"not-executable", CheckNotStarted, `could not start (exit status 126 from /bin/sh): ./hooks/not-executable.sh is not executable: chmod +x ./hooks/not-executable.sh; its stderr ends with `, 1},
		{"missing-script", CheckNotStarted, `could not start (exit status 127 from /bin/sh): ./hooks/gone.sh does not exist; its stderr ends with `, 1},
	} {
		t.Run(c.hook, func(t *testing.T) {
			t.Parallel()
			h, fs := failuresOf(t, contractOf(t, time.Minute, c.hook))
			if h.Status() != StatusFail || len(h.Calls) != c.calls {
				t.Fatalf("status %s with %d calls, want fail with %d", h.Status(), len(h.Calls), c.calls)
			}
			msg := ""
			if len(fs) == 1 {
				msg = fs[0].Message
				if strings.HasSuffix(c.msg, "; its stderr ends with ") {
					msg, _, _ = strings.Cut(msg, "; its stderr ends with ")
					msg += "; its stderr ends with "
				}
			}
			if len(fs) != 1 || fs[0].Check != c.check || msg != c.msg {
				t.Fatalf("failures %+v\nwant one %s: %s", fs, c.check, c.msg)
			}
		})
	}
}

// TestContractTimeoutStopsTheHandler checks that a handler that hangs is
// stopped at its timeout and sent no further call.
func TestContractTimeoutStopsTheHandler(t *testing.T) {
	t.Parallel()
	h, _ := failuresOf(t, contractOf(t, time.Minute, "hangs"))
	first, second := h.Calls[0], h.Calls[1]
	if first.Tool != "view_file" || first.Ending != runtime.TimedOut || first.ExitCode != -1 {
		t.Errorf("first call: %s ended %v, exit %d", first.Tool, first.Ending, first.ExitCode)
	}
	if second.Tool != "list_dir" || second.Status() != StatusSkip || second.Skipped != "not sent: an earlier call timed out" {
		t.Errorf("second call: %s %s %q", second.Tool, second.Status(), second.Skipped)
	}
	if len(h.Ran()) != 1 {
		t.Errorf("%d calls ran, want 1", len(h.Ran()))
	}
}

// TestContractBudget fails a handler that sleeps longer than the budget.
// The sleep is three times the budget, so no machine is too fast for it.
func TestContractBudget(t *testing.T) {
	t.Parallel()
	h, fs := failuresOf(t, contractOf(t, 100*time.Millisecond, "slow"))
	if len(fs) != 1 || fs[0].Check != CheckBudget {
		t.Fatalf("failures %+v, want one budget", fs)
	}
	msg := fs[0].Message
	if !strings.HasPrefix(msg, "took ") || !strings.HasSuffix(msg, ", over the budget of 100ms per call") {
		t.Errorf("message %q", msg)
	}
	if h.Max() < 300*time.Millisecond || h.P50() != h.Max() {
		t.Errorf("max %s, p50 %s: the one call slept 300ms", h.Max(), h.P50())
	}
}

// TestContractBudgetReport checks p50 and max over calls of different
// durations, and that a budget overrun is reported once, by the slowest
// call: uneven sleeps 3s on list_dir alone, twice the budget, which its
// other calls (a grep) stay far below even on a busy machine.
func TestContractBudgetReport(t *testing.T) {
	t.Parallel()
	r := contractOf(t, 1500*time.Millisecond, "uneven")
	h, fs := failuresOf(t, r)
	if len(h.Calls) != 3 || len(fs) != 1 || fs[0].Check != CheckBudget {
		t.Fatalf("%d calls, failures %+v; want 3 calls and one budget failure", len(h.Calls), fs)
	}
	slow := h.Calls[1]
	if slow.Tool != "list_dir" || slow.Status() != StatusFail || h.Max() != slow.Duration || h.Max() < 3*time.Second {
		t.Errorf("slowest %s, max %s: want list_dir at 3s or more", slow.Tool, h.Max())
	}
	// The median of three is the middle one: not the slow call.
	if h.P50() >= slow.Duration || (h.P50() != h.Calls[0].Duration && h.P50() != h.Calls[2].Duration) {
		t.Errorf("p50 %s of %s, %s, %s", h.P50(), h.Calls[0].Duration, slow.Duration, h.Calls[2].Duration)
	}
	var b strings.Builder
	p := &ContractPrinter{W: &b}
	if err := p.Handler(r, h); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	want := fmt.Sprintf("slowest %s, p50 %s", formatDuration(h.Max()), formatDuration(h.P50()))
	if !strings.HasSuffix(lines[0], want) || !strings.HasPrefix(lines[1], "    took "+formatDuration(slow.Duration)+", over the budget of 1.5s per call [budget]") ||
		lines[2] != `      on list_dir {"DirectoryPath":"`+r.Workspace+`"}` {
		t.Errorf("report:\n%s\nwant its line to end %q, and the overrun on list_dir", b.String(), want)
	}
}

// TestContractTimeoutOthersContinue checks that a handler that hangs is
// stopped at its timeout while the others run on, one at a time here so
// that they come after it.
func TestContractTimeoutOthersContinue(t *testing.T) {
	t.Parallel()
	r, err := Contract(context.Background(), ContractOptions{
		Configs: []string{brokenHooks}, Hooks: []string{"hangs", "gate", "keep-going"}, Budget: time.Minute, Parallel: 1,
		Env: testEnviron(), Grace: 200 * time.Millisecond, Home: t.TempDir(),
	})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Status{}
	for _, h := range r.Handlers {
		got[h.Hook] = h.Status()
	}
	if len(got) != 3 || got["hangs"] != StatusFail || got["gate"] != StatusPass || got["keep-going"] != StatusPass {
		t.Errorf("statuses %v, want hangs failed and the others passed", got)
	}
}

// TestContractPickedHooks checks --hook NAME: only the hooks named run,
// in config order whatever the order of the names, each once.
func TestContractPickedHooks(t *testing.T) {
	r := contractOf(t, time.Minute, "keep-going", "gate", "keep-going")
	var names []string
	for _, h := range r.Handlers {
		names = append(names, h.Hook)
	}
	if strings.Join(names, " ") != "gate keep-going" || len(r.Notes) != 0 {
		t.Errorf("handlers %v, notes %q; want gate then keep-going", names, r.Notes)
	}
}

// TestContractPasses checks the handlers that keep the contract: a gate
// that blocks with exit 2, a PostToolUse handler with no answer for every
// known tool, a Stop handler that continues, a handler that reads
// HOOKCTL_TEST.
func TestContractPasses(t *testing.T) {
	r := contractOf(t, time.Minute, "gate", "quiet", "keep-going", "knows-it-is-a-test")
	// quiet, with no matcher, gets every known tool and a browser tool.
	want := map[string]int{"gate": 1, "quiet": len(schema.ToolNames()) + 1, "keep-going": 1, "knows-it-is-a-test": 1}
	if len(r.Handlers) != len(want) {
		t.Fatalf("%d handlers, want %d", len(r.Handlers), len(want))
	}
	for _, h := range r.Handlers {
		if h.Status() != StatusPass || len(h.Calls) != want[h.Hook] {
			for _, c := range h.Calls {
				t.Logf("%s %s: %+v (stderr %q)", h.Hook, c.Tool, c.Failures, c.Stderr)
			}
			t.Errorf("%s: %s with %d calls, want pass with %d", h.Hook, h.Status(), len(h.Calls), want[h.Hook])
		}
	}
	// The quiet handler was sent every known tool, in the table's order,
	// then the browser tool that stands for the family.
	quiet := r.Handlers[1]
	tools := append(schema.ToolNames(), runtime.BrowserSamples[0])
	for i, c := range quiet.Calls {
		if c.Tool != tools[i] || c.Event != schema.PostToolUse {
			t.Errorf("call %d: %s %s", i, c.Event, c.Tool)
		}
	}
	if passed, failed := r.Counts(); passed != 4 || failed != 0 {
		t.Errorf("counts %d passed, %d failed", passed, failed)
	}
}

// TestContractWholeFile checks the whole broken file at once, handlers in
// parallel: the reports come in config order, the disabled hook is
// skipped, and the counts add up.
func TestContractWholeFile(t *testing.T) {
	t.Parallel()
	var order []string
	r, err := Contract(context.Background(), ContractOptions{
		Configs: []string{brokenHooks}, Budget: time.Minute, Parallel: 8,
		Env: testEnviron(), Grace: 200 * time.Millisecond, Home: t.TempDir(),
		Progress: func(_ *ContractReport, h *HandlerReport) { order = append(order, h.Hook) },
	})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, h := range r.Handlers {
		names = append(names, h.Hook)
	}
	if strings.Join(order, " ") != strings.Join(names, " ") {
		t.Errorf("progress order %v, want config order %v", order, names)
	}
	if names[0] != "empty-object" || names[len(names)-1] != "off" {
		t.Errorf("handlers %v", names)
	}
	off := r.Handlers[len(r.Handlers)-1]
	if off.Status() != StatusSkip || off.Skipped != `disabled ("enabled": false)` {
		t.Errorf("off: %s %q", off.Status(), off.Skipped)
	}
	if passed, failed := r.Counts(); passed != 6 || failed != 18 || r.NotChecked() != 1 {
		t.Errorf("counts %d passed, %d failed, %d not checked, want 6, 18 and 1 (slow and uneven pass a budget of a minute)", passed, failed, r.NotChecked())
	}
	if wd, _ := os.Getwd(); r.Workspace != filepath.Join(wd, "testdata", "contract", "broken") {
		t.Errorf("workspace %s", r.Workspace)
	}
}

// TestContractNamedDisabledHook checks a disabled hook that is named: it
// runs, with a note.
func TestContractNamedDisabledHook(t *testing.T) {
	h, fs := failuresOf(t, contractOf(t, time.Minute, "off"))
	if h.Skipped != "" || !strings.Contains(h.Note, "disabled") || len(fs) != 1 || fs[0].Check != CheckNotJSON {
		t.Errorf("off: skipped %q, note %q, failures %+v", h.Skipped, h.Note, fs)
	}
}

func TestContractUnknownHook(t *testing.T) {
	_, err := Contract(context.Background(), ContractOptions{Configs: []string{brokenHooks}, Hooks: []string{"chaty"}})
	var uh *UnknownHookError
	if !errors.As(err, &uh) || err.Error() != `no hook is named "chaty": did you mean "chatty"?` {
		t.Fatalf("error %v", err)
	}
	_, err = Contract(context.Background(), ContractOptions{Configs: []string{brokenHooks}, Hooks: []string{"zzzzzzzz"}})
	if err == nil || !strings.HasPrefix(err.Error(), `no hook is named "zzzzzzzz" (the hooks are "empty-object", "unknown-key", `) ||
		!strings.HasSuffix(err.Error(), ` and 15 more)`) {
		t.Fatalf("error %v", err)
	}
}

// TestContractUnusableFiles checks the files the agent drops whole: the
// check runs and fails, saying so once with the cause's place; a file
// that cannot be read keeps the check from running.
func TestContractUnusableFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		name, src string
		pos       schema.Pos
		why       string
	}{
		{"syntax.json", "{\n  \"a\": {\"Stop\": [],}\n}", schema.Pos{Line: 2, Col: 19}, "the file is not valid JSON ("},
		{"array.json", "[]", schema.Pos{Line: 1, Col: 1}, ""},
	} {
		path := write(c.name, c.src)
		r, err := Contract(context.Background(), ContractOptions{Configs: []string{path}})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if _, failed := r.Counts(); failed != 1 || len(r.Dropped) != 1 || r.Dropped[0].Path != path ||
			r.Dropped[0].Pos.Line != c.pos.Line || r.Dropped[0].Pos.Col != c.pos.Col ||
			!strings.HasPrefix(r.Dropped[0].Why, c.why) || !strings.Contains(r.Dropped[0].Why, "the agent loads none of its hooks (hookctl lint explains)") {
			t.Errorf("%s: %d failed, %+v", c.name, failed, r.Dropped)
		}
		// --format json holds the failure too, as an entry of its own.
		var b bytes.Buffer
		if err := r.WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
		var got []ContractJSON
		if err := json.Unmarshal(b.Bytes(), &got); err != nil {
			t.Fatalf("%s: %v\n%s", c.name, err, b.Bytes())
		}
		if len(got) != 1 || got[0].Status != StatusFail || !got[0].Dropped || got[0].Hook != "" || got[0].File != path ||
			got[0].Line != c.pos.Line || got[0].Column != c.pos.Col || got[0].Broken != r.Dropped[0].Why || got[0].Calls == nil {
			t.Errorf("%s: json %s", c.name, b.Bytes())
		}
	}
	if _, err := Contract(context.Background(), ContractOptions{Configs: []string{filepath.Join(dir, "none.json")}}); err == nil ||
		err.Error() != "--config "+filepath.Join(dir, "none.json")+": no such file" {
		t.Errorf("missing file: %v", err)
	}
	if _, err := Contract(context.Background(), ContractOptions{}); err == nil {
		t.Error("no file: no error")
	}
}

// TestContractNotesInvalidParts checks that a part that cannot run fails
// at its place, and the rest is checked.
func TestContractNotesInvalidParts(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "hooks.json")
	src := `{"a": {"Stop": [{"cmd": "echo hi"}, {"command": "cat >/dev/null"}]}, "b": {"enabled": false, "Stop": [{"cmd": "x"}]}}`
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Contract(context.Background(), ContractOptions{Configs: []string{path}, Env: testEnviron(), Budget: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	// The part of the disabled hook b fails nothing: b is not checked.
	if len(r.Handlers) != 2 || r.Handlers[0].Status() != StatusFail || r.Handlers[0].Where() != path+":1:17" ||
		!strings.HasSuffix(r.Handlers[0].Broken, "this handler cannot run") || r.Handlers[1].Status() != StatusPass {
		t.Fatalf("handlers %+v", r.Handlers)
	}
	if passed, failed := r.Counts(); passed != 1 || failed != 1 || r.NotChecked() != 0 || len(r.Notes) != 0 || len(r.Dropped) != 0 {
		t.Errorf("%d passed, %d failed, %d not checked, notes %q, dropped %+v", passed, failed, r.NotChecked(), r.Notes, r.Dropped)
	}
}

// TestContractFailsADroppedFile: one value of the wrong JSON type makes
// the agent drop the whole file, so the check fails: the part at its
// place, the file once, each counted once (never as a handler and again
// as its hook).
func TestContractFailsADroppedFile(t *testing.T) {
	path := writeHooks(t, `{
  "gate": {"PreToolUse": [{"matcher": "run_command", "hooks": [{"command": "cat >/dev/null; echo '{\"decision\":\"allow\"}'"}]}]},
  "b": {"Stop": [{"command": "true", "timeout": "5"}]}
}`)
	r, err := Contract(context.Background(), ContractOptions{Configs: []string{path}, Env: testEnviron(), Budget: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	passed, failed := r.Counts()
	if passed != 1 || failed != 1 || r.NotChecked() != 0 {
		t.Errorf("%d passed, %d failed, %d not checked; notes %q", passed, failed, r.NotChecked(), r.Notes)
	}
	if len(r.Handlers) != 2 || r.Handlers[1].Where() != path+":3:49" || r.Handlers[1].Event != schema.Stop ||
		!strings.Contains(r.Handlers[1].Broken, `"timeout" must be a whole number`) {
		t.Errorf("handlers %+v", r.Handlers)
	}
	if len(r.Dropped) != 1 || r.Dropped[0].Pos.Line != 3 || r.Dropped[0].Pos.Col != 49 || r.Dropped[0].Counted ||
		!strings.HasPrefix(r.Dropped[0].Why, "the agent loads none of this file's 2 hooks (first cause: ") {
		t.Errorf("dropped %+v", r.Dropped)
	}
	var b strings.Builder
	if err := (&ContractPrinter{W: &b, Dir: filepath.Dir(filepath.Dir(path))}).Summary(r); err != nil {
		t.Fatal(err)
	}
	if want := "FAIL .agents/hooks.json:3:49: " + r.Dropped[0].Why + "\n1 passed, 1 failed\n"; b.String() != want {
		t.Errorf("summary %q, want %q", b.String(), want)
	}
	// A matcher that selects no known tool (an MCP server's) stays not
	// checked: nothing is wrong with it.
	path = writeHooks(t, `{"mcp": {"PreToolUse": [{"matcher": "mcp_github_.*", "hooks": [{"command": "true"}]}]}}`)
	r, err = Contract(context.Background(), ContractOptions{Configs: []string{path}, Env: testEnviron(), Budget: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if passed, failed := r.Counts(); passed != 0 || failed != 0 || r.NotChecked() != 1 {
		t.Errorf("mcp: %d passed, %d failed, %d not checked", passed, failed, r.NotChecked())
	}
}

func TestPercentile(t *testing.T) {
	calls := func(ms ...int) []*CallReport {
		var out []*CallReport
		for _, m := range ms {
			out = append(out, &CallReport{Duration: time.Duration(m) * time.Millisecond})
		}
		return out
	}
	for _, c := range []struct {
		ms       []int
		p50, max time.Duration
	}{
		{nil, 0, 0},
		{[]int{7}, 7 * time.Millisecond, 7 * time.Millisecond},
		{[]int{9, 1, 5, 3}, 3 * time.Millisecond, 9 * time.Millisecond},
		{[]int{4, 1, 9, 5, 3}, 4 * time.Millisecond, 9 * time.Millisecond},
	} {
		cs := calls(c.ms...)
		if p, m := percentile(cs, 50), percentile(cs, 100); p != c.p50 || m != c.max {
			t.Errorf("%v: p50 %s, max %s; want %s and %s", c.ms, p, m, c.p50, c.max)
		}
	}
}

// writeHooks writes a hooks.json in a new workspace and returns its path.
func writeHooks(t *testing.T, src string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), ".agents")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "hooks.json")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestContractBrowserTools checks that a gate on the browser family is
// sent browser calls with a URL: the table's browser_subagent, then the
// browser tool that stands for the family, or the ones the matcher names.
func TestContractBrowserTools(t *testing.T) {
	path := writeHooks(t, `{
  "browser-gate": {"PreToolUse": [{"matcher": "browser_.*", "hooks": [{"command": "echo '{\"decision\":\"ask\"}'"}]}]},
  "click-gate": {"PreToolUse": [{"matcher": "browser_click|browser_type", "hooks": [{"command": "echo '{\"decision\":\"ask\"}'"}]}]}
}`)
	r, err := Contract(context.Background(), ContractOptions{Configs: []string{path}, Env: testEnviron(), Budget: time.Minute, Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"browser-gate": `browser_subagent {"Task":"Open http://localhost:3000 and check that the page shows the sign-in form","TaskName":"Check the sign-in page","RecordingName":"sign_in_check"}` +
			` browser_navigate {"Url":"https://example.com/"}`,
		"click-gate": `browser_click {"Url":"https://example.com/"} browser_type {"Url":"https://example.com/"}`,
	}
	for _, h := range r.Handlers {
		var got []string
		for _, c := range h.Calls {
			got = append(got, c.Tool+" "+string(c.Args))
		}
		if strings.Join(got, " ") != want[h.Hook] || h.Status() != StatusPass {
			t.Errorf("%s: %s, calls %s\nwant %s", h.Hook, h.Status(), strings.Join(got, " "), want[h.Hook])
		}
	}
}

// TestContractNotChecked checks that a handler sent no call and a hook
// with no handler that can run are reported as not checked, never passed,
// and counted in the closing line.
func TestContractNotChecked(t *testing.T) {
	path := writeHooks(t, `{
  "mcp-gate": {"PreToolUse": [{"matcher": "mcp_github_.*", "hooks": [{"command": "echo '{}'"}]}]},
  "nothing": {"Stop": []},
  "fine": {"Stop": [{"command": "true"}]}
}`)
	r, err := Contract(context.Background(), ContractOptions{Configs: []string{path}, Env: testEnviron(), Budget: time.Minute, Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Handlers) != 2 {
		t.Fatalf("%d handlers, want 2", len(r.Handlers))
	}
	mcp := r.Handlers[0]
	if mcp.Status() != StatusSkip || mcp.Skipped != `not checked: its matcher "mcp_github_.*" selects none of the known tools, so no call was sent` {
		t.Errorf("mcp-gate: %s %q", mcp.Status(), mcp.Skipped)
	}
	if len(r.Notes) != 1 || r.Notes[0] != path+`:3:3: the hook "nothing" has no handler that can run; it was not checked` {
		t.Errorf("notes %q", r.Notes)
	}
	if passed, failed := r.Counts(); passed != 1 || failed != 0 || r.NotChecked() != 2 {
		t.Errorf("%d passed, %d failed, %d not checked; want 1, 0 and 2", passed, failed, r.NotChecked())
	}
	var b strings.Builder
	if err := (&ContractPrinter{W: &b}).Summary(r); err != nil || b.String() != "1 passed, 0 failed, 2 not checked\n" {
		t.Errorf("summary %q (%v)", b.String(), err)
	}
}

// TestContractCalls counts the calls made to every handler.
func TestContractCalls(t *testing.T) {
	r := &ContractReport{Handlers: []*HandlerReport{
		{Calls: []*CallReport{{}, {}}},
		{},
		{Calls: []*CallReport{{}}},
	}}
	if got := r.Calls(); got != 3 {
		t.Errorf("Calls() = %d, want 3", got)
	}
}
