package scaffold_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/lint"
	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/scaffold"
	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/templates"
)

// TestMain puts the real python3 first on PATH: version managers' shims
// (pyenv) start a shell script before every interpreter, which would make
// the many handler runs of these tests slow for no gain.
func TestMain(m *testing.M) {
	if out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output(); err == nil {
		if dir, err := os.MkdirTemp("", "hookctl-python"); err == nil {
			if os.Symlink(strings.TrimSpace(string(out)), filepath.Join(dir, "python3")) == nil {
				os.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
			}
			code := m.Run()
			os.RemoveAll(dir)
			os.Exit(code)
		}
	}
	os.Exit(m.Run())
}

// subset reports whether every key of want is in got with the same value,
// objects compared key by key.
func subset(want, got any) bool {
	if w, ok := want.(map[string]any); ok {
		g, ok := got.(map[string]any)
		if !ok {
			return false
		}
		for k, v := range w {
			if !subset(v, g[k]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(roundTrip(want), roundTrip(got))
}

func roundTrip(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

// runCases sends every case of a hooks.test.json through the runtime, as
// the agent would, and checks the merged answers.
func runCases(t *testing.T, workspace, testsFile string) int {
	t.Helper()
	b, err := os.ReadFile(testsFile)
	if err != nil {
		t.Fatal(err)
	}
	var tf schema.TestFile
	if err := json.Unmarshal(b, &tf); err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(filepath.Dir(testsFile), "hooks.json")
	for _, c := range tf.Tests {
		partial, _ := json.Marshal(c.Payload)
		payload, err := runtime.CompletePayload(c.Event, partial, workspace, t.TempDir())
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		res, err := runtime.Dispatch(context.Background(), c.Event, payload, runtime.Options{Configs: []string{config}, Workspace: workspace})
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		for _, n := range res.Notes {
			t.Errorf("%s: %s", c.Name, n)
		}
		var got map[string]any
		if err := json.Unmarshal(res.Answer, &got); err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		if !subset(c.Expect, got) {
			t.Errorf("%s: the answer is %s, want it to contain %v", c.Name, res.Answer, c.Expect)
		}
	}
	return len(tf.Tests)
}

// TestEveryTemplateThroughTheRuntime creates a hook from every template in
// every language as init does, then sends each of the template's cases
// through the runtime's dispatch, with the payload completed as the agent
// sends it.
func TestEveryTemplateThroughTheRuntime(t *testing.T) {
	for _, tmpl := range templates.All() {
		for _, lang := range templates.LanguageIDs() {
			t.Run(tmpl.ID+"."+lang, func(t *testing.T) {
				t.Parallel()
				if lang == "sh" && tmpl.NeedsJQ {
					if _, err := exec.LookPath("jq"); err != nil {
						t.Skip("jq is not installed")
					}
				}
				dir := t.TempDir()
				x, err := scaffold.LoadExisting(scaffold.ConfigPath(scaffold.Workspace, dir, ""))
				if err != nil {
					t.Fatal(err)
				}
				a := scaffold.Answers{Scope: scaffold.Workspace, Template: tmpl.ID, Lang: lang}
				a.Fill(x)
				p, err := scaffold.NewPlan(scaffold.Options{Answers: a, Dir: dir}, x)
				if err != nil {
					t.Fatal(err)
				}
				if err := p.Apply(); err != nil {
					t.Fatal(err)
				}
				// The case init wrote, then the template's others.
				if n := runCases(t, dir, p.Tests); n != 1 {
					t.Errorf("init wrote %d cases, want 1", n)
				}
				if p.Case.Name != p.Name+": "+tmpl.Cases[0].Name {
					t.Errorf("init wrote the case %q, want the template's first", p.Case.Name)
				}
				tf := schema.TestFile{}
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
					t.Errorf("lint: %s", f)
				}
			})
		}
	}
}

// TestExamples checks the example workspace: its scripts are what init
// writes from the templates, it lints clean, and its test cases pass
// through the runtime.
func TestExamples(t *testing.T) {
	root, _ := filepath.Abs("../examples")
	config := filepath.Join(root, ".agents", "hooks.json")
	c, err := schema.Load(config)
	if err != nil {
		t.Fatal(err)
	}
	uses := map[string]string{
		"block-dangerous-commands": "block-dangerous", "protect-secrets": "protect-paths",
		"audit-log": "audit-log", "lint-reminder": "reminder", "tests-must-pass": "tests-must-pass",
	}
	if len(c.File.Hooks) != len(uses) {
		t.Errorf("%d hooks, want %d", len(c.File.Hooks), len(uses))
	}
	for _, h := range c.File.Hooks {
		tmpl, ok := templates.Lookup(uses[h.Name])
		if !ok {
			t.Errorf("no template for the example %s", h.Name)
			continue
		}
		var cmd string
		if tmpl.Event.IsTool() {
			cmd = h.Groups(tmpl.Event)[0].Hooks[0].Command
		} else {
			cmd = h.Handlers(tmpl.Event)[0].Command
		}
		lang := strings.TrimPrefix(filepath.Ext(cmd), ".")
		want, err := tmpl.Script(lang, h.Name)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(root, ".agents", cmd))
		if err != nil || string(got) != string(want) {
			t.Errorf("%s differs from what hookctl init --template %s --lang %s writes (%v)", cmd, tmpl.ID, lang, err)
		}
	}
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
				p, err := scaffold.NewPlan(scaffold.Options{Answers: a, Dir: dir}, x)
				if err != nil {
					b.Fatal(err)
				}
				if err := p.Apply(); err != nil {
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
