//go:build unix

package runtime

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/scope"
)

func TestBrokenConfigIsOneFailedHandler(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.user(hooks(hookEntry{name: "u", event: pre, command: `echo '{"decision":"allow","reason":"user ok"}'`}))
	path := e.workspace("{\n  \"gate\": {\n    \"PreToolUse\": [],\n  }\n}\n")

	res := e.dispatch(pre, e.payload(pre, "run_command"), e.opts())
	if len(res.Outcomes) != 2 || res.Outcomes[1].Kind != Failed || res.Outcomes[1].Hook != "" {
		t.Fatalf("outcomes %v, want the user hook and one failure for the file", res.Outcomes)
	}
	cause := res.Outcomes[1].Cause
	if !strings.HasPrefix(cause, "the file is not valid JSON: ") {
		t.Errorf("cause %q", cause)
	}
	note := path + ":3:21: " + cause // the trailing comma
	if !contains(res.Notes, note) {
		t.Errorf("notes %q, want %q", res.Notes, note)
	}
	if got := reasonOf(t, res.Answer); got != note {
		t.Errorf("deny reason %q, want the file and the cause", got)
	}
	if !strings.HasPrefix(string(res.Answer), `{"decision":"deny"`) {
		t.Errorf("answer %s, want a deny (--on-error deny)", res.Answer)
	}

	// A Stop dispatch reports it and carries on.
	res = e.dispatch(schema.Stop, e.payload(schema.Stop, ""), e.opts())
	if string(res.Answer) != `{"decision":"allow"}` || !contains(res.Notes, note) {
		t.Errorf("Stop: answer %s notes %q", res.Answer, res.Notes)
	}

	// --on-error ignore adds nothing for it.
	opts := e.opts()
	opts.OnError = OnErrorIgnore
	res = e.dispatch(pre, e.payload(pre, "run_command"), opts)
	if string(res.Answer) != `{"decision":"allow","reason":"user ok"}` {
		t.Errorf("ignore: answer %s", res.Answer)
	}
}

func TestUnusableConfigs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		setup func(e *env) string
		cause string
	}{
		{"top level not an object", func(e *env) string { return e.workspace(`[]`) }, "the top level of hooks.json must be an object"},
		{"empty file", func(e *env) string { return e.workspace(``) }, "the file is not valid JSON: the file is empty"},
		{"a folder", func(e *env) string {
			p := scope.WorkspaceFile(e.ws)
			if err := os.MkdirAll(p, 0o755); err != nil {
				e.t.Fatal(err)
			}
			return p
		}, "it is a folder, not a hooks.json file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			tt.setup(e)
			res := e.dispatch(pre, e.payload(pre, "run_command"), e.opts())
			if len(res.Outcomes) != 1 || res.Outcomes[0].Kind != Failed || !strings.Contains(res.Outcomes[0].Cause, tt.cause) {
				t.Fatalf("outcomes %v, want one failure containing %q", res.Outcomes, tt.cause)
			}
			if !strings.HasPrefix(string(res.Answer), `{"decision":"deny","reason":"`+scope.WorkspaceFile(e.ws)+":") {
				t.Errorf("answer %s, want a deny naming the file", res.Answer)
			}
		})
	}
}

func TestInvalidPartsRunTheRest(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	path := e.workspace(`{
  "gate": {
    "PreToolUse": [
      {"matcher": "run_command", "hooks": [{"command": "echo '{\"decision\":\"allow\",\"reason\":\"valid part\"}'"}]},
      {"matcher": "view_file", "hooks": [{"cmd": "./x.sh"}]}
    ],
    "Stop": [{"timeout": 5}]
  },
  "bad-matcher": {
    "PreToolUse": [{"matcher": "(?!rm)", "hooks": [{"command": "true"}]}]
  },
  "off": {
    "enabled": false,
    "PreToolUse": [{"hooks": [{"command": ""}]}]
  },
  "misspelt": {
    "enabled": "false",
    "PostToolUse": [{"hooks": [{"command": "true"}]}]
  }
}`)
	// PreToolUse for run_command: the valid handler runs; the bad matcher
	// fails; the view_file group's broken handler, the disabled hook and
	// the other events' parts do not concern this call.
	res := e.dispatch(pre, e.payload(pre, "run_command"), e.opts())
	if len(res.Outcomes) != 2 {
		t.Fatalf("outcomes %v, want the valid handler and the bad matcher", res.Outcomes)
	}
	if o := res.Outcomes[0]; o.Hook != "gate" || o.Kind != Answered {
		t.Errorf("first outcome %s %v, want gate's answer", o.Hook, o.Kind)
	}
	o := res.Outcomes[1]
	if o.Hook != "bad-matcher" || o.Kind != Failed || !strings.Contains(o.Cause, "lookahead") || !strings.HasSuffix(o.Cause, "this group cannot run") {
		t.Errorf("second outcome %s %v %q", o.Hook, o.Kind, o.Cause)
	}
	if want := "hook bad-matcher: " + path + ":10:32: " + o.Cause; !contains(res.Notes, want) {
		t.Errorf("notes %q, want %q", res.Notes, want)
	}
	if !strings.HasPrefix(string(res.Answer), `{"decision":"deny","reason":"hook bad-matcher failed: `+path+`:10:32: the matcher`) {
		t.Errorf("answer %s", res.Answer)
	}

	// PreToolUse for view_file: the broken handler of its group fails.
	res = e.dispatch(pre, e.payload(pre, "view_file"), e.opts())
	var hooksOf []string
	for _, o := range res.Outcomes {
		hooksOf = append(hooksOf, o.Hook+":"+o.Kind.String())
	}
	if got := strings.Join(hooksOf, " "); got != "gate:failed bad-matcher:failed" {
		t.Errorf("view_file outcomes %s", got)
	}

	// Stop: the handler without a command fails; the rest is not Stop's.
	res = e.dispatch(schema.Stop, e.payload(schema.Stop, ""), e.opts())
	if len(res.Outcomes) != 1 || !strings.Contains(res.Outcomes[0].Cause, `the handler has no "command"`) {
		t.Errorf("Stop outcomes %v", res.Outcomes)
	}
	if string(res.Answer) != `{"decision":"allow"}` {
		t.Errorf("Stop answer %s: a failure adds nothing", res.Answer)
	}

	// PostToolUse: the hook whose "enabled" is not a boolean fails.
	res = e.dispatch(schema.PostToolUse, e.payload(schema.PostToolUse, "run_command"), e.opts())
	if len(res.Outcomes) != 1 || res.Outcomes[0].Hook != "misspelt" || !strings.Contains(res.Outcomes[0].Cause, `"enabled" must be true or false`) {
		t.Errorf("PostToolUse outcomes %v", res.Outcomes)
	}
}

func TestBrokenStopHandlerDoesNotDenyAToolCall(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.workspace(`{"s": {"Stop": [{"command": 42}]}, "p": {"PreToolUse": "not an array"}}`)
	res := e.dispatch(pre, e.payload(pre, "run_command"), e.opts())
	if len(res.Outcomes) != 1 || res.Outcomes[0].Hook != "p" {
		t.Errorf("outcomes %v, want only p's broken PreToolUse", res.Outcomes)
	}
	e.workspace(`{"s": {"Stop": [{"command": 42}]}}`)
	res = e.dispatch(pre, e.payload(pre, "run_command"), e.opts())
	if string(res.Answer) != `{"decision":"ask"}` || len(res.Notes) != 0 {
		t.Errorf("answer %s notes %q, want ask and no notes", res.Answer, res.Notes)
	}
}

func TestUnknownKeysInAConfigDoNotStopIt(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.workspace(`{"$schema": "./schema.json", "h": {"PreToolUse": [{"matcher": "*", "hooks": [{"command": "echo '{\"decision\":\"allow\"}'", "name": "x"}]}]}}`)
	res := e.dispatch(pre, e.payload(pre, "run_command"), e.opts())
	if string(res.Answer) != `{"decision":"allow"}` || len(res.Notes) != 0 {
		t.Errorf("answer %s notes %q", res.Answer, res.Notes)
	}
}

func TestRealWorldConfigsNeverPanic(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("../testdata/realworld/*.json")
	if len(files) == 0 {
		t.Skip("no real-world files")
	}
	payloads := map[schema.Event][]byte{}
	for _, ev := range schema.Events {
		partial, _ := ToolPayload("run_command", `{"CommandLine":"ls"}`)
		if !ev.IsTool() {
			partial = nil
		}
		payloads[ev], _ = CompletePayload(ev, partial, "/nonexistent", "/nonexistent")
	}
	for _, f := range files {
		for _, ev := range schema.Events {
			// Planning and explaining run nothing: every file, every event.
			plan, err := NewPlan(ev, payloads[ev], Options{Configs: []string{f}})
			if err != nil {
				t.Fatalf("%s %s: %v", f, ev, err)
			}
			var b strings.Builder
			if err := plan.Explain(&b); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestManyBrokenPartsBounded: a file of thousands of broken parts names the
// first MaxBrokenListed in the answer and on stderr, then counts the rest
// in one line, so that the answer stays a few kilobytes.
func TestManyBrokenPartsBounded(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.user(hooks(hookEntry{name: "u", event: pre, command: `echo '{"decision":"deny","reason":"user says no"}'`}))
	n := 5000
	path := e.write(filepath.Join(e.ws, "many.json"), `{"h": {"PreToolUse": [`+strings.Repeat("1,", n-1)+`1]}}`)
	opts := e.opts()
	opts.Configs = []string{scope.UserFile(e.home), path}
	res := e.dispatch(pre, e.payload(pre, "run_command"), opts)
	rest := fmt.Sprintf("%d more parts of %s cannot run, not listed here: hookctl lint %s names each one", n-MaxBrokenListed, path, path)
	lines := strings.Split(reasonOf(t, res.Answer), "\n")
	if len(lines) != MaxBrokenListed+2 || lines[0] != "user says no" || lines[len(lines)-1] != rest {
		t.Fatalf("reason of %d lines: first %q, last %q", len(lines), lines[0], lines[len(lines)-1])
	}
	want := path + ":1:23: each entry of PreToolUse must be a matcher group object"
	if !strings.Contains(lines[1], want) {
		t.Errorf("first broken part %q, want %q", lines[1], want)
	}
	if len(res.Notes) != MaxBrokenListed+1 || res.Notes[len(res.Notes)-1] != rest {
		t.Errorf("%d notes, last %q", len(res.Notes), res.Notes[len(res.Notes)-1])
	}
	if len(res.Answer) > 8<<10 {
		t.Errorf("answer of %d bytes", len(res.Answer))
	}
}
