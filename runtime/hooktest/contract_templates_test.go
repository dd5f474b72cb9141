package hooktest

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fatih/color"

	"github.com/hookctl/hookctl/internal/testenv"
	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/templates"
)

// TestMain puts the real python3 first on PATH (see testenv.Main), prints
// reports without colour, as the tests compare them as text, and runs eight
// tests at once: the slow ones wait on handlers' sleeps and timeouts.
func TestMain(m *testing.M) {
	color.NoColor = true
	testenv.Waiting(8)
	testenv.Main(m)
}

// passContract checks the hooks.json and requires every handler to pass
// and to have been sent at least one call. The budget is generous: what
// is held here is the contract, not the machine's speed (see
// BenchmarkContractExamples and docs/performance.md).
func passContract(t *testing.T, config string, env []string) *ContractReport {
	t.Helper()
	r, err := Contract(context.Background(), ContractOptions{Configs: []string{config}, Budget: time.Minute, Env: env, Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range r.Handlers {
		if h.Status() == StatusSkip {
			if h.Skipped != `disabled ("enabled": false)` {
				t.Errorf("%s (%s): %s", h.Hook, h.Where(), h.Skipped)
			}
			continue
		}
		if len(h.Calls) == 0 {
			t.Errorf("%s (%s): no call was sent", h.Hook, h.Where())
		}
		for _, c := range h.Calls {
			for _, f := range c.Failures {
				t.Errorf("%s (%s): %s: %s [%s]; stderr %q", h.Hook, h.Where(), c.Summary(200), f.Message, f.Check, c.Stderr)
			}
		}
	}
	for _, n := range r.Notes {
		t.Errorf("note: %s", n)
	}
	return r
}

// TestContractTemplates writes every template in every language into one
// workspace, each a hook with the template's event, matcher and timeout,
// as hookctl init writes them, and requires each handler to keep the
// contract on every call. -short checks the shell version of each: the
// other languages' are checked again, through the real hookctl, by the
// template matrix of cmd/hookctl.
func TestContractTemplates(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	hooksDir := filepath.Join(ws, ".agents", "hooks")
	if err := os.MkdirAll(hooksDir, 0o755); err != nil {
		t.Fatal(err)
	}
	jq := testenv.Want(t, "jq", "the shell templates that need it")
	node := testenv.Want(t, "node", "the Node.js templates")
	file := map[string]any{}
	var names []string
	for _, tmpl := range templates.All() {
		for _, l := range templates.Languages {
			if (l.ID == "sh" && tmpl.NeedsJQ && jq == "") || (l.ID == "node" && node == "") || (testing.Short() && l.ID != "sh") {
				continue
			}
			name := tmpl.ID + "-" + l.ID
			script, err := tmpl.Script(l.ID, name)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(hooksDir, name+l.Ext), script, 0o755); err != nil {
				t.Fatal(err)
			}
			handler := map[string]any{"type": "command", "command": "./hooks/" + name + l.Ext, "timeout": tmpl.Timeout}
			var entry any = []any{handler}
			if tmpl.Event.IsTool() {
				entry = []any{map[string]any{"matcher": tmpl.Matcher, "hooks": []any{handler}}}
			}
			file[name] = map[string]any{string(tmpl.Event): entry}
			names = append(names, name)
		}
	}
	b, err := json.MarshalIndent(file, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(ws, ".agents", "hooks.json")
	if err := os.WriteFile(config, b, 0o644); err != nil {
		t.Fatal(err)
	}
	auditLog := filepath.Join(ws, "audit.jsonl")
	env := append(testEnviron(), "HOOK_AUDIT_LOG="+auditLog)
	r := passContract(t, config, env)
	// Under HOOKCTL_TEST=1 the templates leave out their side effects.
	if _, err := os.Stat(auditLog); err == nil {
		t.Errorf("the audit-log templates wrote %s under test", auditLog)
	}
	if len(r.Handlers) != len(names) {
		t.Errorf("%d handlers checked, want %d", len(r.Handlers), len(names))
	}
	// The gates were sent each tool they match.
	for _, h := range r.Handlers {
		if h.Hook == "protect-paths-sh" && len(h.Calls) != 7 {
			t.Errorf("protect-paths-sh was sent %d calls, want one for each of its 7 file tools", len(h.Calls))
		}
		if h.Hook == "audit-log-py" && len(h.Calls) != len(schema.ToolNames())+1 {
			t.Errorf("audit-log-py was sent %d calls, want one for each known tool and one browser tool", len(h.Calls))
		}
	}
}

// TestContractExamples requires the example workspace to keep the
// contract. It runs a copy, so that nothing it might write lands in the
// repository.
func TestContractExamples(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	if err := os.CopyFS(ws, os.DirFS(filepath.Join("..", "..", "examples"))); err != nil {
		t.Fatal(err)
	}
	r := passContract(t, filepath.Join(ws, ".agents", "hooks.json"), testEnviron())
	got := map[string]Status{}
	for _, h := range r.Handlers {
		got[h.Hook] = h.Status()
	}
	want := map[string]Status{
		"block-dangerous-commands": StatusPass, "protect-secrets": StatusPass, "audit-log": StatusPass,
		"lint-reminder": StatusPass, "tests-must-pass": StatusSkip,
	}
	if len(got) != len(want) {
		t.Errorf("handlers %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %s, want %s", k, got[k], v)
		}
	}
	if _, err := os.Stat(filepath.Join(ws, ".agents", "audit.jsonl")); err == nil {
		t.Error("the audit log was written under test")
	}
	// The disabled tests-must-pass, named, passes too: under test it runs
	// no test suite.
	named, err := Contract(context.Background(), ContractOptions{Configs: []string{filepath.Join(ws, ".agents", "hooks.json")},
		Hooks: []string{"tests-must-pass"}, Budget: time.Minute, Env: testEnviron(), Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if passed, failed := named.Counts(); passed != 1 || failed != 0 {
		t.Errorf("tests-must-pass, named: %d passed, %d failed", passed, failed)
	}

	// The README quotes this report, durations aside.
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, quoted, ok := strings.Cut(string(readme), "```console\n$ hookctl test --contract\n")
	quoted, _, _ = strings.Cut(quoted, "```")
	if !ok {
		t.Fatal("README.md quotes no run of hookctl test --contract")
	}
	var b strings.Builder
	p := &ContractPrinter{W: &b, Dir: ws}
	for _, h := range r.Handlers {
		if err := p.Handler(r, h); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Summary(r); err != nil {
		t.Fatal(err)
	}
	if got, want := normalize(b.String()), normalize(quoted); got != want {
		t.Errorf("README.md quotes hookctl test --contract in examples/ as\n%s\nbut it prints\n%s", want, got)
	}
}
