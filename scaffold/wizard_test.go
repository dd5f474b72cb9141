package scaffold

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/lint"
	"github.com/hookctl/hookctl/schema"
)

// answer is one queued reply: the question it expects (a part of its
// prompt) and the reply.
type answer struct {
	prompt string
	// text answers Input ("" takes the default); index answers Select;
	// indexes answers MultiSelect; yes answers Confirm.
	text    string
	index   int
	indexes []int
	yes     bool
	err     error
}

// queuePrompter answers from a queue and fails the test when a question
// comes that is not next in the queue, or when an answer is left over.
type queuePrompter struct {
	t       *testing.T
	queue   []answer
	invalid []string // answers a validator refused
}

func newQueue(t *testing.T, answers ...answer) *queuePrompter {
	q := &queuePrompter{t: t, queue: answers}
	t.Cleanup(func() {
		if len(q.queue) > 0 {
			t.Errorf("%d answers were never asked for, the first for %q", len(q.queue), q.queue[0].prompt)
		}
	})
	return q
}

func (q *queuePrompter) next(prompt string) answer {
	q.t.Helper()
	if len(q.queue) == 0 {
		q.t.Fatalf("unexpected question %q", prompt)
	}
	a := q.queue[0]
	q.queue = q.queue[1:]
	if !strings.Contains(prompt, a.prompt) {
		q.t.Fatalf("asked %q, want a question about %q", prompt, a.prompt)
	}
	return a
}

func (q *queuePrompter) Input(prompt, help, def string, validate func(string) error) (string, error) {
	for {
		a := q.next(prompt)
		if a.err != nil {
			return "", a.err
		}
		s := a.text
		if s == "" {
			s = def
		}
		if validate != nil {
			if err := validate(s); err != nil {
				// A terminal asks again.
				q.invalid = append(q.invalid, fmt.Sprintf("%s: %v", s, err))
				continue
			}
		}
		return s, nil
	}
}

func (q *queuePrompter) Select(prompt string, options, descriptions []string, def int) (int, error) {
	a := q.next(prompt)
	if descriptions != nil && len(descriptions) != len(options) {
		q.t.Errorf("%q: %d descriptions for %d options", prompt, len(descriptions), len(options))
	}
	if a.index < 0 {
		return def, a.err
	}
	return a.index, a.err
}

func (q *queuePrompter) MultiSelect(prompt string, options, descriptions []string, defaults []int) ([]int, error) {
	a := q.next(prompt)
	return a.indexes, a.err
}

func (q *queuePrompter) Confirm(prompt string, def bool) (bool, error) {
	a := q.next(prompt)
	return a.yes, a.err
}

// enter is the answer of a person who presses Enter.
func enter(prompt string) answer { return answer{prompt: prompt, index: -1} }

func loaderFor(dir, home string) Loader {
	return func(scope string) (*Existing, error) { return LoadExisting(ConfigPath(scope, dir, home)) }
}

func TestWizardEnterThroughoutMakesAWorkingHook(t *testing.T) {
	dir, home := t.TempDir(), t.TempDir()
	q := newQueue(t,
		enter("Where"), enter("event"), enter("What should it do"), enter("Name"),
		enter("tools"), enter("language"), enter("Timeout"), enter("hookctl trace"))
	a, x, err := Ask(q, Answers{}, loaderFor(dir, home), dir)
	if err != nil {
		t.Fatal(err)
	}
	want := Answers{Scope: Workspace, Name: "block-dangerous", Event: schema.PreToolUse, Matcher: "run_command",
		Template: "block-dangerous", Lang: "sh", Timeout: 10, MatcherSet: true, TraceSet: true}
	if a != want {
		t.Fatalf("answers %+v, want %+v", a, want)
	}
	opts := Options{Answers: a, Dir: dir, Home: home}
	p, err := NewPlan(opts, x)
	if err != nil {
		t.Fatal(err)
	}
	if err := apply(t, opts, p); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, ".agents", "hooks", "block-dangerous.sh")
	if fi, err := os.Stat(script); err != nil || fi.Mode().Perm() != 0o755 {
		t.Fatalf("script: %v %v", fi, err)
	}
	config := filepath.Join(dir, ".agents", "hooks.json")
	c, err := schema.Load(config)
	if err != nil || !c.Usable() || len(c.File.Hooks) != 1 || len(c.Problems) > 0 {
		t.Fatalf("hooks.json: %v %+v", err, c)
	}
	if got := c.File.Hooks[0].PreToolUse[0].Hooks[0].Command; got != "./hooks/block-dangerous.sh" {
		t.Errorf("command %q", got)
	}
	res, err := lint.Lint(lint.Request{Files: []lint.Target{{Path: config, Scope: lint.Workspace, Root: dir}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Findings {
		t.Errorf("lint: %s", f)
	}
	tests, err := os.ReadFile(filepath.Join(dir, ".agents", "hooks.test.json"))
	if err != nil || !strings.Contains(string(tests), `"name": "block-dangerous: denies sudo rm -rf /"`) {
		t.Errorf("hooks.test.json: %v\n%s", err, tests)
	}
}

func TestWizardChoices(t *testing.T) {
	dir, home := t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, ".gemini", "config"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".gemini", "config", "hooks.json"), []byte(`{"guard": {"Stop": [{"command": "true"}]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	q := newQueue(t,
		answer{prompt: "Where", index: 1},
		answer{prompt: "event", index: 1},             // PreToolUse,
		answer{prompt: "What should it do", index: 1}, // protect-paths
		answer{prompt: "Name", text: "Bad Name!"},
		answer{prompt: "Name", text: "guard"}, // taken in the user's file
		answer{prompt: "Name", text: "no-secrets"},
		answer{prompt: "tools", index: 3}, // a regular expression
		answer{prompt: "Regular expression", text: "(?=view)"},
		answer{prompt: "Regular expression", text: "view_file|browser_.*"},
		answer{prompt: "language", index: 1},
		answer{prompt: "Timeout", text: "soon"},
		answer{prompt: "Timeout", text: "0"},
		answer{prompt: "Timeout", text: "9223372036854775807"},
		answer{prompt: "Timeout", text: "20"},
		answer{prompt: "hookctl trace", yes: true},
	)
	a, _, err := Ask(q, Answers{}, loaderFor(dir, home), dir)
	if err != nil {
		t.Fatal(err)
	}
	want := Answers{Scope: User, Name: "no-secrets", Event: schema.PreToolUse, Matcher: "view_file|browser_.*",
		Template: "protect-paths", Lang: "py", Timeout: 20, MatcherSet: true, Trace: true, TraceSet: true}
	if a != want {
		t.Errorf("answers %+v, want %+v", a, want)
	}
	if len(q.invalid) != 6 {
		t.Errorf("refused %d answers, want 6: %q", len(q.invalid), q.invalid)
	}
	for i, part := range []string{"letters, digits", "already has a hook", "lookahead", "whole number", "whole number", "from 1 to 2147483647 (about 68 years)"} {
		if i < len(q.invalid) && !strings.Contains(q.invalid[i], part) {
			t.Errorf("refusal %d is %q, want it to say %q", i, q.invalid[i], part)
		}
	}
}

// TestWizardTrace: a yes to the trace question writes the command
// through hookctl trace with the hook's name and event, and lint, which
// sees through the wrapper, checks the script behind it.
func TestWizardTrace(t *testing.T) {
	dir, home := t.TempDir(), t.TempDir()
	q := newQueue(t, answer{prompt: "Name", text: "gate"}, enter("Timeout"), answer{prompt: TraceQuestion, yes: true})
	a, x, err := Ask(q, Answers{Scope: Workspace, Template: "block-dangerous", Lang: "sh", MatcherSet: true, Matcher: "run_command"},
		loaderFor(dir, home), dir)
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Answers: a, Dir: dir, Home: home}
	p, err := NewPlan(opts, x)
	if err != nil {
		t.Fatal(err)
	}
	if want := "hookctl trace --hook gate --event PreToolUse -- ./hooks/gate.sh"; p.Command != want {
		t.Errorf("command %q, want %q", p.Command, want)
	}
	if err := apply(t, opts, p); err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(dir, ".agents", "hooks.json")
	if err := os.Chmod(filepath.Join(dir, ".agents", "hooks", "gate.sh"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := lint.Lint(lint.Request{Files: []lint.Target{{Path: config, Scope: lint.Workspace, Root: dir}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != 1 || res.Findings[0].Rule != "script-not-executable" {
		t.Errorf("lint of a traced script that is not executable: %v", res.Findings)
	}

	// --trace given: not asked.
	q = newQueue(t, enter("Timeout"))
	if a, _, err := Ask(q, Answers{Scope: Workspace, Name: "g2", Template: "notify", Lang: "sh", TraceSet: true}, loaderFor(dir, home), dir); err != nil || a.Trace {
		t.Errorf("answers %+v, %v", a, err)
	}
}

func TestWizardPicksToolsFromTheList(t *testing.T) {
	dir := t.TempDir()
	q := newQueue(t,
		answer{prompt: "event", index: 2}, // PostToolUse
		enter("What should it do"),        // format-file
		enter("Name"),
		answer{prompt: "tools", index: 2}, // choose from the list
		answer{prompt: "Which tools", indexes: []int{1, 2, len(schema.Tools)}}, // the browser family last
		enter("language"), enter("Timeout"), enter("hookctl trace"))
	a, _, err := Ask(q, Answers{Scope: Workspace}, loaderFor(dir, ""), dir)
	if err != nil {
		t.Fatal(err)
	}
	if a.Matcher != "write_to_file|replace_file_content|browser_.*" || a.Template != "format-file" || a.Name != "format-file" {
		t.Errorf("answers %+v", a)
	}
}

func TestWizardSkipsWhatFlagsAnswered(t *testing.T) {
	dir := t.TempDir()
	q := newQueue(t, enter("Name"), enter("Timeout"), enter("hookctl trace"))
	a, _, err := Ask(q, Answers{Scope: Workspace, Template: "tests-must-pass", Lang: "py"}, loaderFor(dir, ""), dir)
	if err != nil {
		t.Fatal(err)
	}
	if a.Event != schema.Stop || a.Name != "tests-must-pass" || a.Timeout != 600 || a.MatcherSet {
		t.Errorf("answers %+v", a)
	}
}

func TestWizardInterruptedWritesNothing(t *testing.T) {
	dir := t.TempDir()
	q := newQueue(t, enter("Where"), enter("event"), enter("What should it do"), answer{prompt: "Name", err: ErrInterrupted})
	if _, _, err := Ask(q, Answers{}, loaderFor(dir, ""), dir); !errors.Is(err, ErrInterrupted) {
		t.Fatalf("error %v, want ErrInterrupted", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("the workspace holds %d entries", len(entries))
	}
}

func TestWizardRefusesABrokenFileBeforeAsking(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, ".agents", "hooks.json")
	if err := os.MkdirAll(filepath.Dir(config), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(config, []byte("{\n  \"a\": {}\n  \"b\": {}\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	q := newQueue(t, enter("Where"))
	_, _, err := Ask(q, Answers{}, loaderFor(dir, ""), dir)
	if err == nil || !strings.Contains(err.Error(), config+":3:3:") {
		t.Errorf("error %v, want it to name %s:3:3", err, config)
	}
}

func TestWizardAsksBeforeOverwritingAScript(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, ".agents", "hooks", "notify.sh")
	if err := os.MkdirAll(filepath.Dir(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(script, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	q := newQueue(t, enter("Name"), enter("language"), answer{prompt: "notify.sh already exists. Overwrite it?", yes: false})
	_, _, err := Ask(q, Answers{Scope: Workspace, Template: "notify"}, loaderFor(dir, ""), dir)
	if err == nil || !strings.Contains(err.Error(), "was kept") {
		t.Errorf("declining gives %v", err)
	}
	q = newQueue(t, enter("Name"), enter("language"), answer{prompt: "Overwrite it?", yes: true}, enter("Timeout"), enter("hookctl trace"))
	a, x, err := Ask(q, Answers{Scope: Workspace, Template: "notify"}, loaderFor(dir, ""), dir)
	if err != nil || !a.Overwrite {
		t.Fatalf("%v %+v", err, a)
	}
	p, err := NewPlan(Options{Answers: a, Dir: dir}, x)
	if err != nil || !p.Overwrite {
		t.Fatalf("%v", err)
	}
}
