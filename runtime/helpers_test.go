package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/scope"
)

const pre = schema.PreToolUse

// env is a workspace and a home of a test's own.
type env struct {
	t    *testing.T
	ws   string
	home string
}

func newEnv(t *testing.T) *env {
	t.Helper()
	root := t.TempDir()
	e := &env{t: t, ws: filepath.Join(root, "ws"), home: filepath.Join(root, "home")}
	for _, d := range []string{filepath.Join(e.ws, ".agents"), filepath.Join(e.home, ".gemini", "config")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

// workspace writes the workspace's hooks.json.
func (e *env) workspace(src string) string {
	e.t.Helper()
	return e.write(scope.WorkspaceFile(e.ws), src)
}

// user writes the user's hooks.json.
func (e *env) user(src string) string {
	e.t.Helper()
	return e.write(scope.UserFile(e.home), src)
}

func (e *env) write(path, src string) string {
	e.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		e.t.Fatal(err)
	}
	return path
}

// opts are options that discover this env's files.
func (e *env) opts() Options {
	return Options{Home: e.home, Workspace: e.ws}
}

// payload is a payload of the event for this env's workspace.
func (e *env) payload(ev schema.Event, tool string) []byte {
	e.t.Helper()
	var partial []byte
	if ev.IsTool() {
		var err error
		partial, err = ToolPayload(tool, `{"CommandLine":"npm test","Cwd":"/tmp"}`)
		if err != nil {
			e.t.Fatal(err)
		}
	}
	b, err := CompletePayload(ev, partial, e.ws, e.home)
	if err != nil {
		e.t.Fatal(err)
	}
	return b
}

// dispatch runs ev for the payload and fails the test on an invocation
// error.
func (e *env) dispatch(ev schema.Event, payload []byte, opts Options) *Result {
	e.t.Helper()
	res, err := Dispatch(context.Background(), ev, payload, opts)
	if err != nil {
		e.t.Fatalf("Dispatch: %v", err)
	}
	return res
}

// hooks builds a hooks.json of one hook per (name, event, command) triple,
// with tool events in a group matching every tool.
func hooks(entries ...hookEntry) string {
	var b strings.Builder
	b.WriteString("{\n")
	for i, h := range entries {
		if i > 0 {
			b.WriteString(",\n")
		}
		handler := fmt.Sprintf(`{"command": %s`, jsonString(h.command))
		if h.timeout > 0 {
			handler += fmt.Sprintf(`, "timeout": %d`, h.timeout)
		}
		handler += "}"
		if h.event.IsTool() {
			matcher := ""
			if h.matcher != "" {
				matcher = fmt.Sprintf(`"matcher": %s, `, jsonString(h.matcher))
			}
			fmt.Fprintf(&b, "  %s: {%q: [{%s\"hooks\": [%s]}]}", jsonString(h.name), h.event, matcher, handler)
		} else {
			fmt.Fprintf(&b, "  %s: {%q: [%s]}", jsonString(h.name), h.event, handler)
		}
	}
	b.WriteString("\n}\n")
	return b.String()
}

type hookEntry struct {
	name    string
	event   schema.Event
	command string
	timeout int
	matcher string
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// outcomeOf returns the outcome of the named hook.
func outcomeOf(t *testing.T, res *Result, hook string) *Outcome {
	t.Helper()
	for _, o := range res.Outcomes {
		if o.Hook == hook {
			return o
		}
	}
	t.Fatalf("no outcome for hook %q; outcomes: %v", hook, res.Outcomes)
	return nil
}

// within fails the test when d exceeds a generous bound: the check is that
// the dispatch did not hang, never how fast it was.
func within(t *testing.T, d, bound time.Duration, what string) {
	t.Helper()
	if d > bound {
		t.Fatalf("%s took %s, more than the %s that proves it did not hang", what, d, bound)
	}
}
