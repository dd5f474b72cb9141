//go:build unix

package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/scope"
)

func TestHandlersRunAtOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	// Each handler waits until all three have started: they can only all
	// succeed when they run at the same time.
	barrier := `touch ` + e.ws + `/started.$HOOKCTL_HOOK; i=0
while [ $(ls ` + e.ws + ` | grep -c '^started\.') -lt 3 ]; do
  i=$((i+1)); [ $i -gt 200 ] && exit 1; sleep 0.02
done
echo '{"decision":"allow","reason":"'$HOOKCTL_HOOK'"}'`
	e.workspace(hooks(
		// Distinct commands, or they would be one handler run once.
		hookEntry{name: "a", event: pre, command: barrier + " # a"},
		hookEntry{name: "b", event: pre, command: barrier + " # b"},
		hookEntry{name: "c", event: pre, command: barrier + " # c"},
	))
	res := e.dispatch(pre, e.payload(pre, "run_command"), e.opts())
	if want := `{"decision":"allow","reason":"a\nb\nc"}`; string(res.Answer) != want {
		t.Errorf("answer %s, want %s (notes %q)", res.Answer, want, res.Notes)
	}
}

func TestSequentialRunsOneByOne(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	// Under --sequential the second handler must see the first one done.
	e.workspace(hooks(
		hookEntry{name: "a", event: pre, command: `sleep 0.2; touch ../a.done; echo '{"decision":"allow"}'`},
		hookEntry{name: "b", event: pre, command: `if [ -e ../a.done ]; then echo '{"decision":"allow","reason":"after a"}'; else exit 1; fi`},
	))
	opts := e.opts()
	opts.Sequential = true
	res := e.dispatch(pre, e.payload(pre, "run_command"), opts)
	if want := `{"decision":"allow","reason":"after a"}`; string(res.Answer) != want {
		t.Errorf("answer %s, want %s (notes %q)", res.Answer, want, res.Notes)
	}
}

func TestMergeFollowsConfigOrderNotFinishOrder(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.user(hooks(hookEntry{name: "slow", event: pre, command: `sleep 0.3; echo '{"decision":"deny","reason":"slow user hook"}'`}))
	e.workspace(hooks(
		hookEntry{name: "fast", event: pre, command: `echo '{"decision":"deny","reason":"fast workspace hook"}'`},
		hookEntry{name: "mid", event: pre, command: `sleep 0.1; echo '{"decision":"deny","reason":"mid"}'`},
	))
	res := e.dispatch(pre, e.payload(pre, "run_command"), e.opts())
	if want := `{"decision":"deny","reason":"slow user hook\nfast workspace hook\nmid"}`; string(res.Answer) != want {
		t.Errorf("answer %s, want %s", res.Answer, want)
	}
	var order []string
	for _, o := range res.Outcomes {
		order = append(order, o.Hook)
	}
	if got := strings.Join(order, ","); got != "slow,fast,mid" {
		t.Errorf("outcomes in order %s, want slow,fast,mid", got)
	}
}

func TestHandlersRunInTheFolderOfTheirFile(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pwd := `printf '{"decision":"allow","reason":"%s"}' "$(pwd -P)"`
	e.user(hooks(hookEntry{name: "u", event: pre, command: pwd}))
	e.workspace(hooks(hookEntry{name: "w", event: pre, command: pwd + `; true`}))
	named := filepath.Join(t.TempDir(), "elsewhere", "my-hooks.json")
	e.write(named, hooks(hookEntry{name: "n", event: pre, command: pwd + `; true; true`}))

	res := e.dispatch(pre, e.payload(pre, "run_command"), e.opts())
	real := func(p string) string { r, _ := filepath.EvalSymlinks(p); return r }
	want := real(filepath.Join(e.home, ".gemini", "config")) + "\n" + real(filepath.Join(e.ws, ".agents"))
	if got := reasonOf(t, res.Answer); got != want {
		t.Errorf("working folders\n got %q\nwant %q", got, want)
	}

	opts := e.opts()
	opts.Configs = []string{named}
	res = e.dispatch(pre, e.payload(pre, "run_command"), opts)
	if got, want := reasonOf(t, res.Answer), real(filepath.Dir(named)); got != want {
		t.Errorf("--config file's handler ran in %q, want %q", got, want)
	}
}

func reasonOf(t *testing.T, answer []byte) string {
	t.Helper()
	var a struct{ Reason string }
	if err := json.Unmarshal(answer, &a); err != nil {
		t.Fatalf("answer %s: %v", answer, err)
	}
	return a.Reason
}

func TestStdinIsThePayloadExactlyAsReceived(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.workspace(hooks(
		hookEntry{name: "a", event: schema.Stop, command: `cat > ../got.a`},
		hookEntry{name: "b", event: schema.Stop, command: `cat > ../got.b`},
	))
	payload := []byte("  {\"executionNum\": 1,\n\t\"x\": \"caf\u00e9 \\u00e9 \\\"q\\\"\",  \"workspacePaths\": [" + jsonString(e.ws) + "]}\r\n\n")
	e.dispatch(schema.Stop, payload, e.opts())
	for _, f := range []string{"got.a", "got.b"} {
		got, err := os.ReadFile(filepath.Join(e.ws, f))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, payload) {
			t.Errorf("%s received\n%q\nwant\n%q", f, got, payload)
		}
	}
}

func TestEnvironment(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.workspace(hooks(hookEntry{name: "env-hook", event: schema.PreInvocation,
		command: `printf '%s\n' "$HOOKCTL_EVENT" "$HOOKCTL_HOOK" "$HOOKCTL_CONFIG" "$HOOKCTL_WORKSPACE" "$INHERITED" > ../env.txt`}))
	opts := e.opts()
	opts.Env = []string{"INHERITED=from the caller", "HOOKCTL_EVENT=stale", "PATH=" + os.Getenv("PATH")}
	e.dispatch(schema.PreInvocation, e.payload(schema.PreInvocation, ""), opts)
	got, err := os.ReadFile(filepath.Join(e.ws, "env.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{"PreInvocation", "env-hook", scope.WorkspaceFile(e.ws), e.ws, "from the caller"}, "\n") + "\n"
	if string(got) != want {
		t.Errorf("environment\n got %q\nwant %q", got, want)
	}
}

func TestLargePayloadToAHandlerThatNeverReads(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.workspace(hooks(
		hookEntry{name: "deaf", event: pre, command: `echo '{"decision":"allow","reason":"did not read"}'`},
		hookEntry{name: "half", event: pre, command: `head -c 10 >/dev/null; echo '{"decision":"allow","reason":"read 10 bytes"}'`},
		hookEntry{name: "all", event: pre, command: `wc -c | tr -d ' ' > ../size; echo '{"decision":"allow","reason":"read all"}'`},
	))
	big := strings.Repeat("x", 8<<20)
	partial, _ := ToolPayload("write_to_file", `{"TargetFile":"/tmp/big","CodeContent":"`+big+`"}`)
	payload, _ := CompletePayload(pre, partial, e.ws, e.home)
	start := time.Now()
	res := e.dispatch(pre, payload, e.opts())
	within(t, time.Since(start), 20*time.Second, "dispatching an 8 MB payload")
	if want := `{"decision":"allow","reason":"did not read\nread 10 bytes\nread all"}`; string(res.Answer) != want {
		t.Errorf("answer %s, want %s (notes %q)", res.Answer, want, res.Notes)
	}
	size, _ := os.ReadFile(filepath.Join(e.ws, "size"))
	if strings.TrimSpace(string(size)) != jsonInt(len(payload)) {
		t.Errorf("the reading handler got %s bytes, want %d", size, len(payload))
	}
}

func jsonInt(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestIdenticalHandlersRunOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	count := `echo x >> ` + e.ws + `/count; echo '{"decision":"allow"}'`
	e.workspace(hooks(
		hookEntry{name: "a", event: pre, command: count, timeout: 30, matcher: "run_command"},
		hookEntry{name: "b", event: pre, command: count, matcher: "run_.*"},
		hookEntry{name: "c", event: pre, command: count, timeout: 9},
	))
	res := e.dispatch(pre, e.payload(pre, "run_command"), e.opts())
	got, _ := os.ReadFile(filepath.Join(e.ws, "count"))
	// a and b are the same (30 s is the default); c's timeout differs.
	if n := strings.Count(string(got), "x"); n != 2 {
		t.Errorf("the command ran %d times, want 2", n)
	}
	if len(res.Outcomes) != 2 || res.Outcomes[0].Hook != "a" || res.Outcomes[1].Hook != "c" {
		t.Errorf("outcomes %v, want a and c", res.Outcomes)
	}
	var same *Step
	for _, s := range res.Plan.Steps {
		if s.Hook == "b" {
			same = s
		}
	}
	if same == nil || same.State != Same || same.Original.Hook != "a" {
		t.Errorf("b's step is %+v, want the same as a's", same)
	}
}

func TestSameCommandInAnotherFolderRunsAgain(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	count := `echo x >> ` + e.ws + `/count`
	e.user(hooks(hookEntry{name: "a", event: schema.Stop, command: count}))
	e.workspace(hooks(hookEntry{name: "a", event: schema.Stop, command: count}))
	e.dispatch(schema.Stop, e.payload(schema.Stop, ""), e.opts())
	got, _ := os.ReadFile(filepath.Join(e.ws, "count"))
	if n := strings.Count(string(got), "x"); n != 2 {
		t.Errorf("the command ran %d times, want 2 (once per working folder)", n)
	}
}

func TestNamesArePerFile(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	// A workspace hook named like a user hook, even disabled, neither
	// replaces nor disables the user's.
	e.user(hooks(hookEntry{name: "gate", event: pre, command: `echo '{"decision":"deny","reason":"user gate"}'`}))
	e.workspace(`{"gate": {"enabled": false, "PreToolUse": [{"hooks": [{"command": "echo '{\"decision\":\"allow\"}'"}]}]}}`)
	res := e.dispatch(pre, e.payload(pre, "run_command"), e.opts())
	if want := `{"decision":"deny","reason":"user gate"}`; string(res.Answer) != want {
		t.Errorf("answer %s, want %s", res.Answer, want)
	}
}

func TestDisabledHooksAndMatchersSelect(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	mark := func(name string) string { return `touch ` + e.ws + `/ran.` + name }
	e.workspace(`{
  "off": {"enabled": false, "PreToolUse": [{"hooks": [{"command": "` + mark("off") + `"}]}]},
  "on": {"enabled": true, "PreToolUse": [{"hooks": [{"command": "` + mark("on") + `"}]}]},
  "prefix": {"PreToolUse": [{"matcher": "run", "hooks": [{"command": "` + mark("prefix") + `"}]}]},
  "exact": {"PreToolUse": [{"matcher": "run_command", "hooks": [{"command": "` + mark("exact") + `"}]}]},
  "alt": {"PreToolUse": [{"matcher": "view_file|run_command", "hooks": [{"command": "` + mark("alt") + `"}]}]},
  "star": {"PreToolUse": [{"matcher": "*", "hooks": [{"command": "` + mark("star") + `"}]}]},
  "empty": {"PreToolUse": [{"matcher": "", "hooks": [{"command": "` + mark("empty") + `"}]}]},
  "browser": {"PreToolUse": [{"matcher": "browser_.*", "hooks": [{"command": "` + mark("browser") + `"}]}]},
  "post": {"PostToolUse": [{"hooks": [{"command": "` + mark("post") + `"}]}]}
}`)
	e.dispatch(pre, e.payload(pre, "run_command"), e.opts())
	for name, want := range map[string]bool{"off": false, "on": true, "prefix": false, "exact": true, "alt": true,
		"star": true, "empty": true, "browser": false, "post": false} {
		_, err := os.Stat(filepath.Join(e.ws, "ran."+name))
		if ran := err == nil; ran != want {
			t.Errorf("hook %s ran: %v, want %v", name, ran, want)
		}
	}
}

func TestWorkspaceResolution(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	other := filepath.Join(t.TempDir(), "other")
	e.workspace(hooks(hookEntry{name: "a", event: schema.Stop, command: `echo '{"decision":"continue","reason":"payload workspace"}'`}))
	e.write(scope.WorkspaceFile(other), hooks(hookEntry{name: "a", event: schema.Stop, command: `echo '{"decision":"continue","reason":"flag workspace"}'`}))
	cwdWS := filepath.Join(t.TempDir(), "cwd")
	e.write(scope.WorkspaceFile(cwdWS), hooks(hookEntry{name: "a", event: schema.Stop, command: `echo '{"decision":"continue","reason":"current folder"}'`}))

	payload := e.payload(schema.Stop, "") // names e.ws in workspacePaths
	tests := []struct {
		name      string
		workspace string
		payload   []byte
		want      string
	}{
		{"the flag wins over the payload", other, payload, "flag workspace"},
		{"else the payload's first workspacePaths entry", "", payload, "payload workspace"},
		{"else the current folder", "", []byte(`{"executionNum":1}`), "current folder"},
		{"else the workspace found upward from it", "", []byte(`{"executionNum":1}`), "current folder"},
	}
	sub := filepath.Join(cwdWS, "scripts", "deep")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for i, tt := range tests {
		dir := cwdWS
		if i == len(tests)-1 {
			dir = sub
		}
		res := e.dispatch(schema.Stop, tt.payload, Options{Home: e.home, Workspace: tt.workspace, Dir: dir})
		if got := reasonOf(t, res.Answer); got != tt.want {
			t.Errorf("%s: answer %s, want the reason %q", tt.name, res.Answer, tt.want)
		}
	}
}

func TestNamedConfigsReplaceDiscovery(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.user(hooks(hookEntry{name: "u", event: schema.Stop, command: `echo '{"decision":"continue","reason":"user"}'`}))
	e.workspace(hooks(hookEntry{name: "w", event: schema.Stop, command: `echo '{"decision":"continue","reason":"workspace"}'`}))
	dir := t.TempDir()
	one := e.write(filepath.Join(dir, "one.json"), hooks(hookEntry{name: "x", event: schema.Stop, command: `echo '{"decision":"continue","reason":"one"}'`}))
	two := e.write(filepath.Join(dir, "two.json"), hooks(hookEntry{name: "x", event: schema.Stop, command: `echo '{"decision":"continue","reason":"two"}'`}))
	opts := e.opts()
	opts.Configs = []string{two, one}
	res := e.dispatch(schema.Stop, e.payload(schema.Stop, ""), opts)
	if want := `{"decision":"continue","reason":"two\none"}`; string(res.Answer) != want {
		t.Errorf("answer %s, want %s", res.Answer, want)
	}

	opts.Configs = []string{filepath.Join(dir, "missing.json")}
	_, err := Dispatch(context.Background(), schema.Stop, e.payload(schema.Stop, ""), opts)
	if err == nil || !strings.Contains(err.Error(), "missing.json: no such file") {
		t.Errorf("a missing --config gave %v, want an error naming it", err)
	}
}

func TestUntrustedWorkspace(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.user(hooks(hookEntry{name: "u", event: pre, command: `echo '{"decision":"ask","reason":"user"}'`}))
	e.workspace(hooks(
		hookEntry{name: "w", event: pre, command: `touch ../ran; echo '{"decision":"allow"}'`},
		hookEntry{name: "stop-only", event: schema.Stop, command: `true`},
	))
	var asked []scope.Scope
	opts := e.opts()
	opts.Trusted = func(src *Source) (bool, string) {
		asked = append(asked, src.Scope)
		return false, "its hooks.json changed since it was trusted"
	}
	res := e.dispatch(pre, e.payload(pre, "run_command"), opts)
	if want := `{"decision":"ask","reason":"user"}`; string(res.Answer) != want {
		t.Errorf("answer %s, want %s", res.Answer, want)
	}
	if _, err := os.Stat(filepath.Join(e.ws, "ran")); err == nil {
		t.Error("an untrusted workspace hook ran")
	}
	if len(asked) != 1 || asked[0] != scope.Workspace {
		t.Errorf("Trusted was asked about %v, want the workspace file alone", asked)
	}
	if len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "hookctl trust "+e.ws) || !strings.Contains(res.Notes[0], "changed since") {
		t.Errorf("notes %q, want one line naming hookctl trust and the reason", res.Notes)
	}
	var states []string
	for _, s := range res.Plan.Steps {
		states = append(states, s.Hook+"="+s.State.String())
	}
	if got := strings.Join(states, " "); got != "u=run w=skip stop-only=skip" {
		t.Errorf("steps %s, want u=run w=skip stop-only=skip (w untrusted, stop-only without PreToolUse handlers)", got)
	}

	// Named files are the caller's choice: always trusted.
	opts.Configs = []string{scope.WorkspaceFile(e.ws)}
	asked = nil
	res = e.dispatch(pre, e.payload(pre, "run_command"), opts)
	if string(res.Answer) != `{"decision":"allow"}` || len(asked) != 0 {
		t.Errorf("a named workspace file: answer %s, Trusted asked %v", res.Answer, asked)
	}
}

func TestNoUntrustedNoteWhenNothingWouldRun(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.workspace(hooks(hookEntry{name: "stop-only", event: schema.Stop, command: `true`}))
	opts := e.opts()
	opts.Trusted = func(*Source) (bool, string) { return false, "" }
	res := e.dispatch(pre, e.payload(pre, "run_command"), opts)
	if len(res.Notes) != 0 {
		t.Errorf("notes %q, want none", res.Notes)
	}
}

// SessionStart dispatches like PreInvocation: every handler's injectSteps in
// config order, the user's first; a handler that answers with a key of
// another event is named, and nothing else a payload holds is required.
func TestSessionStartDispatch(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ss := schema.SessionStart
	e.user(hooks(hookEntry{name: "mine", event: ss, command: `echo '{"injectSteps":[{"ephemeralMessage":"from the user"}]}'`}))
	e.workspace(hooks(
		hookEntry{name: "context", event: ss, command: `printf '{"injectSteps":[{"ephemeralMessage":"model %s"}]}' "$(sed -n 's/.*"modelName":"\([^"]*\)".*/\1/p')"`},
		hookEntry{name: "quiet", event: ss, command: `true`},
		hookEntry{name: "other-event", event: schema.PreInvocation, command: `echo '{"injectSteps":[{"ephemeralMessage":"not now"}]}'`},
	))
	payload := e.payload(ss, "")
	for _, k := range []string{"conversationId", "workspacePaths", "transcriptPath", "artifactDirectoryPath", "modelName"} {
		if !bytes.Contains(payload, []byte(`"`+k+`"`)) {
			t.Errorf("the SessionStart payload lacks %s: %s", k, payload)
		}
	}
	if bytes.Contains(payload, []byte("invocationNum")) || bytes.Contains(payload, []byte("stepIdx")) {
		t.Errorf("the SessionStart payload holds another event's fields: %s", payload)
	}
	res := e.dispatch(ss, payload, e.opts())
	want := `{"injectSteps":[{"ephemeralMessage":"from the user"},{"ephemeralMessage":"model ` + DefaultModel + `"}]}`
	if string(res.Answer) != want {
		t.Errorf("answer %s, want %s (notes %q)", res.Answer, want, res.Notes)
	}
	if len(res.Notes) != 0 {
		t.Errorf("notes %q", res.Notes)
	}
}

// TestNeverTrustedWorkspaceIsNotRead: a workspace nobody ever trusted has
// its hooks.json, when larger than UnreadSize, left unread (a cloned
// repository's huge file costs a dispatch a stat), its hooks skipped with
// the same note, and the full trust check is not asked. A small one is
// read as before (TestUntrustedWorkspace).
func TestNeverTrustedWorkspaceIsNotRead(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.user(hooks(hookEntry{name: "u", event: pre, command: `echo '{"decision":"ask","reason":"user"}'`}))
	e.workspace(hooks(hookEntry{name: "w", event: pre, command: `touch ../ran; echo '{"decision":"allow"}'`}))
	// Past UnreadSize, with spaces JSON allows.
	big, err := os.OpenFile(scope.WorkspaceFile(e.ws), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := big.WriteString(strings.Repeat(" ", UnreadSize)); err != nil {
		t.Fatal(err)
	}
	big.Close()
	var asked []string
	opts := e.opts()
	opts.NeverTrusted = func(path string) bool {
		asked = append(asked, path)
		return true
	}
	opts.Trusted = func(*Source) (bool, string) {
		t.Error("the full trust check was asked about a workspace never trusted")
		return false, ""
	}
	res := e.dispatch(pre, e.payload(pre, "run_command"), opts)
	if want := `{"decision":"ask","reason":"user"}`; string(res.Answer) != want {
		t.Errorf("answer %s, want %s", res.Answer, want)
	}
	if _, err := os.Stat(filepath.Join(e.ws, "ran")); err == nil {
		t.Error("a hook of a workspace never trusted ran")
	}
	if len(asked) != 1 || asked[0] != scope.WorkspaceFile(e.ws) {
		t.Errorf("NeverTrusted was asked about %q, want the workspace file alone", asked)
	}
	ws := res.Plan.Sources[len(res.Plan.Sources)-1]
	if ws.Config != nil || ws.Trusted {
		t.Errorf("the workspace file was read (%v) or trusted (%v)", ws.Config != nil, ws.Trusted)
	}
	if len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "never trusted") || !strings.Contains(res.Notes[0], "hookctl trust "+e.ws) {
		t.Errorf("notes %q, want one line saying never trusted and naming hookctl trust", res.Notes)
	}

	// Once the workspace is known to the store, the file is read and the
	// full check decides.
	opts.NeverTrusted = func(string) bool { return false }
	checked := false
	opts.Trusted = func(src *Source) (bool, string) {
		checked = src.Config != nil
		return true, ""
	}
	if res := e.dispatch(pre, e.payload(pre, "run_command"), opts); !checked || string(res.Answer) != `{"decision":"ask","reason":"user"}` {
		t.Errorf("a workspace with a trust record: checked with its file read %v, answer %s", checked, res.Answer)
	}
}
