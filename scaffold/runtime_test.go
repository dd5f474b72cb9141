package scaffold_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/hookctl/hookctl/internal/testenv"
	"github.com/hookctl/hookctl/lint"
	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/runtime/hooktest"
	"github.com/hookctl/hookctl/scaffold"
	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/templates"
)

// TestMain puts the real python3 first on PATH (see testenv.Main), and
// keeps the journals of the edits out of the user's state folder.
func TestMain(m *testing.M) {
	os.Setenv("XDG_STATE_HOME", filepath.Join(os.TempDir(), "hookctl-scaffold-test-state"))
	testenv.Main(m)
}

// applyPlan writes a plan as hookctl init does.
func applyPlan(opts scaffold.Options, p *scaffold.Plan) error {
	tx, err := scaffold.Begin(context.Background(), opts)
	if err != nil {
		return err
	}
	defer tx.Close()
	if err := p.Apply(tx); err != nil {
		return err
	}
	tx.Commit()
	return nil
}

// runCases runs every case of a hooks.test.json with hookctl test's own
// machinery (the runtime's dispatch, the payload completed as the agent sends
// it, the answer compared with what the case expects) and requires each to
// pass without a note.
func runCases(t *testing.T, workspace, testsFile string) int {
	t.Helper()
	suite, err := hooktest.Load(testsFile)
	if err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(filepath.Dir(testsFile), "hooks.json")
	opts := runtime.Options{Configs: []string{config}, Workspace: workspace, Home: t.TempDir()}
	for _, c := range suite.Cases {
		r := hooktest.Run(context.Background(), c, opts)
		if r.Err != nil {
			t.Fatalf("%s: %v", c.Name, r.Err)
		}
		for _, n := range r.Notes() {
			t.Errorf("%s: %s", c.Name, n)
		}
		if !r.Passed() {
			t.Errorf("%s: the answer is %s: mismatches %+v, failures %+v", c.Name, r.Answer, r.Mismatches, r.Failures)
		}
	}
	return len(suite.Cases)
}

// TestEveryTemplateThroughTheRuntime creates a hook from every template in
// every language as init does, then sends each of the template's cases
// through the runtime's dispatch, with the payload completed as the agent
// sends it. -short runs each template in one language, taking the
// languages in turn.
func TestEveryTemplateThroughTheRuntime(t *testing.T) {
	for i, tmpl := range templates.All() {
		for j, lang := range templates.LanguageIDs() {
			if testing.Short() && j != i%len(templates.LanguageIDs()) {
				continue
			}
			t.Run(tmpl.ID+"."+lang, func(t *testing.T) {
				t.Parallel()
				if lang == "sh" && tmpl.NeedsJQ {
					testenv.Need(t, "jq")
				}
				dir := t.TempDir()
				x, err := scaffold.LoadExisting(scaffold.ConfigPath(scaffold.Workspace, dir, ""))
				if err != nil {
					t.Fatal(err)
				}
				a := scaffold.Answers{Scope: scaffold.Workspace, Template: tmpl.ID, Lang: lang}
				a.Fill(x)
				opts := scaffold.Options{Answers: a, Dir: dir}
				p, err := scaffold.NewPlan(opts, x)
				if err != nil {
					t.Fatal(err)
				}
				if err := applyPlan(opts, p); err != nil {
					t.Fatal(err)
				}
				// The case init wrote, then the template's others.
				if n := runCases(t, dir, p.Tests); n != 1 {
					t.Errorf("init wrote %d cases, want 1", n)
				}
				if p.Case.Name != p.Name+": "+tmpl.Cases[0].Name {
					t.Errorf("init wrote the case %q, want the template's first", p.Case.Name)
				}
				tf := schema.TestFile{Tests: []schema.TestCase{}}
				for _, c := range tmpl.Cases[1:] {
					tf.Tests = append(tf.Tests, schema.TestCase{Name: c.Name, Event: tmpl.Event, Payload: c.EventPayload(), Expect: c.Expect})
				}
				b, _ := json.Marshal(tf)
				all := filepath.Join(dir, ".agents", "all.test.json")
				if err := os.WriteFile(all, b, 0o644); err != nil {
					t.Fatal(err)
				}
				if n := runCases(t, dir, all); n != len(tmpl.Cases)-1 {
					t.Errorf("ran %d cases", n)
				}
				res, err := lint.Lint(lint.Request{Files: []lint.Target{{Path: p.Config, Scope: lint.Workspace, Root: dir}}})
				if err != nil {
					t.Fatal(err)
				}
				for _, f := range res.Findings {
					if f.Severity == lint.Info && f.Rule == "agent-version" && tmpl.Event == schema.SessionStart {
						continue // a fact about the agent's version, not a mistake
					}
					t.Errorf("lint: %s", f)
				}
			})
		}
	}
}

// TestExamples checks the example workspace: it lints clean, and its test
// cases pass through the runtime. internal/examples checks that its
// scripts are what init writes from the templates.
func TestExamples(t *testing.T) {
	root, _ := filepath.Abs("../examples")
	config := filepath.Join(root, ".agents", "hooks.json")
	res, err := lint.Lint(lint.Request{Files: []lint.Target{{Path: config, Scope: lint.Workspace, Root: root}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Findings {
		t.Errorf("lint: %s", f)
	}
	t.Setenv("HOOK_AUDIT_LOG", filepath.Join(t.TempDir(), "audit.jsonl"))
	if n := runCases(t, root, filepath.Join(root, ".agents", "hooks.test.json")); n != 5 {
		t.Errorf("%d cases, want 5", n)
	}
}

// BenchmarkTemplates measures what each template adds to a tool call or a
// model call: one dispatch of its first case through the runtime, process
// start included.
func BenchmarkTemplates(b *testing.B) {
	for _, tmpl := range templates.All() {
		for _, lang := range templates.LanguageIDs() {
			b.Run(tmpl.ID+"."+lang, func(b *testing.B) {
				dir := b.TempDir()
				x, err := scaffold.LoadExisting(scaffold.ConfigPath(scaffold.Workspace, dir, ""))
				if err != nil {
					b.Fatal(err)
				}
				a := scaffold.Answers{Scope: scaffold.Workspace, Template: tmpl.ID, Lang: lang}
				a.Fill(x)
				opts := scaffold.Options{Answers: a, Dir: dir}
				p, err := scaffold.NewPlan(opts, x)
				if err != nil {
					b.Fatal(err)
				}
				if err := applyPlan(opts, p); err != nil {
					b.Fatal(err)
				}
				c := tmpl.Cases[0]
				partial, _ := json.Marshal(c.EventPayload())
				payload, err := runtime.CompletePayload(tmpl.Event, partial, dir, dir)
				if err != nil {
					b.Fatal(err)
				}
				b.Setenv("HOOK_AUDIT_LOG", filepath.Join(dir, "audit.jsonl"))
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					res, err := runtime.Dispatch(context.Background(), tmpl.Event, payload, runtime.Options{Configs: []string{p.Config}, Workspace: dir})
					if err != nil || len(res.Notes) > 0 {
						b.Fatal(err, res.Notes)
					}
				}
			})
		}
	}
}
