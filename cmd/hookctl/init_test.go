//go:build unix

package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	expect "github.com/Netflix/go-expect"
	"github.com/creack/pty"
	"github.com/hinshun/vt10x"

	"github.com/hookctl/hookctl/scaffold"
	"github.com/hookctl/hookctl/schema"
)

// runInTerminal runs hookctl with a pseudo-terminal on stdin, stdout and
// stderr, behind a terminal emulator that answers survey's cursor queries,
// while person types; it returns the exit status and the screen.
func runInTerminal(t *testing.T, args []string, person func(c *expect.Console)) (int, string) {
	t.Helper()
	ptm, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	term := vt10x.New(vt10x.WithWriter(tty), vt10x.WithSize(100, 40))
	c, err := expect.NewConsole(expect.WithStdin(ptm), expect.WithStdout(term), expect.WithCloser(ptm, tty),
		expect.WithDefaultTimeout(20*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	done := make(chan struct{})
	go func() {
		defer close(done)
		person(c)
	}()
	result := make(chan int, 1)
	go func() {
		code := run(append([]string{"hookctl"}, args...), streams{c.Tty(), c.Tty(), c.Tty()})
		c.Tty().Close()
		result <- code
	}()
	<-done
	if t.Failed() {
		// A prompt the person waited for never came: the command is
		// waiting for an answer that will not come either. Closing the
		// terminal ends it, so the test fails now rather than at the
		// test binary's timeout.
		_ = c.Close()
	}
	select {
	case code := <-result:
		return code, term.String()
	case <-time.After(time.Minute):
		t.Fatalf("the command did not end a minute after the person stopped; screen:\n%s", term.String())
		return 0, ""
	}
}

func expectString(t *testing.T, c *expect.Console, s string) {
	if _, err := c.ExpectString(s); err != nil {
		t.Errorf("waiting for %q: %v", s, err)
	}
}

// wizardQuestions are the questions init's wizard asks, in their order,
// when no flag answers them.
var wizardQuestions = []string{
	"Where should the hook live?",
	"Which event should it handle?",
	"What should it do?",
	"Name of the hook:",
	"Which tools should it run for?",
	"Which language should the script be in?",
	"Timeout in seconds:",
	scaffold.TraceQuestion,
}

// typed is what a person does at one question of init's wizard.
type typed struct {
	see  string // also waited for on the screen, before typing
	keys string // typed before Enter; none takes the default
	skip bool   // the question is not asked
}

// answerWizard answers init's wizard as a person would, from the question
// first on: it waits for each of wizardQuestions and answers it as answers
// says, with Enter alone (the default) where it says nothing. It returns
// once the next steps are shown.
func answerWizard(t *testing.T, c *expect.Console, first string, answers map[string]typed) {
	t.Helper()
	i := slices.Index(wizardQuestions, first)
	if i < 0 {
		t.Fatalf("the wizard asks no %q", first)
	}
	for _, q := range wizardQuestions[i:] {
		a := answers[q]
		if a.skip {
			continue
		}
		expectString(t, c, q)
		if a.see != "" {
			expectString(t, c, a.see)
		}
		c.Send(a.keys)
		c.SendLine("")
	}
	expectString(t, c, "Next steps:")
	expectString(t, c, "edit it")
}

// TestInitWizardInATerminal drives the real prompts as a person would: a
// name typed, Enter everywhere else.
func TestInitWizardInATerminal(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("HOME", t.TempDir())
	code, screen := runInTerminal(t, []string{"init", "--dir", dir}, func(c *expect.Console) {
		answerWizard(t, c, wizardQuestions[0], map[string]typed{"Name of the hook:": {keys: "my-gate"}})
	})
	if code != 0 {
		t.Fatalf("exit status %d; screen:\n%s", code, screen)
	}
	for _, want := range []string{"my-gate", "Lint: no problems", "hookctl run PreToolUse"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the screen lacks %q:\n%s", want, screen)
		}
	}
	c, err := schema.Load(filepath.Join(dir, ".agents", "hooks.json"))
	if err != nil || len(c.File.Hooks) != 1 || c.File.Hooks[0].Name != "my-gate" {
		t.Fatalf("hooks.json: %v %+v", err, c)
	}
	if h := c.File.Hooks[0].PreToolUse[0]; h.MatcherText() != "run_command" || h.Hooks[0].Command != "./hooks/my-gate.sh" || h.Hooks[0].Timeout != 10 {
		t.Errorf("the hook is %+v", h)
	}
	if fi, err := os.Stat(filepath.Join(dir, ".agents", "hooks", "my-gate.sh")); err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("the script: %v", err)
	}
}

// TestInitWizardTrace answers yes to the trace question in a real
// terminal: the command goes through hookctl trace, and the next steps say
// how to see its runs.
func TestInitWizardTrace(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("HOME", t.TempDir())
	code, screen := runInTerminal(t, []string{"init", "--dir", dir, "--template", "notify", "--scope", "workspace", "--lang", "sh", "--name", "ping"}, func(c *expect.Console) {
		answerWizard(t, c, "Timeout in seconds:", map[string]typed{scaffold.TraceQuestion: {keys: "y"}})
	})
	if code != 0 {
		t.Fatalf("exit status %d; screen:\n%s", code, screen)
	}
	if !strings.Contains(screen, "watch it hookctl log --hook ping") {
		t.Errorf("no step to watch it:\n%s", screen)
	}
	c, err := schema.Load(filepath.Join(dir, ".agents", "hooks.json"))
	if err != nil || len(c.File.Hooks) != 1 {
		t.Fatalf("hooks.json: %v %+v", err, c)
	}
	if got, want := c.File.Hooks[0].Stop[0].Command, "hookctl trace --hook ping --event Stop -- ./hooks/ping.sh"; got != want {
		t.Errorf("command %q, want %q", got, want)
	}
}

// TestInitWizardInterrupted presses Ctrl-C at the name: nothing is written
// and the status is 130.
func TestInitWizardInterrupted(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("HOME", t.TempDir())
	code, screen := runInTerminal(t, []string{"init", "--dir", dir, "--template", "notify", "--scope", "workspace"}, func(c *expect.Console) {
		expectString(t, c, "Name of the hook:")
		c.Send("half-typ\x03")
		// The prompt is drawn a moment before the wizard puts the
		// terminal in raw mode; a Ctrl-C typed in that moment is taken
		// by the terminal, not the wizard, as a person's would be. Like
		// a person, press it again.
		for range 10 {
			if _, err := c.Expect(expect.String("nothing was written"), expect.WithTimeout(2*time.Second)); err == nil {
				return
			}
			c.Send("\x03")
		}
		t.Error("no \"nothing was written\" after Ctrl-C")
	})
	if code != exitInterrupted {
		t.Errorf("exit status %d, want %d; screen:\n%s", code, exitInterrupted, screen)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("the workspace holds %d entries after Ctrl-C", len(entries))
	}
}

// TestInitWizardKeepsAnEditSavedMeanwhile: the person saves hooks.json in
// an editor while the wizard asks its questions; init adds its hook to the
// file as saved, and the edit is kept.
func TestInitWizardKeepsAnEditSavedMeanwhile(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("HOME", t.TempDir())
	config := filepath.Join(dir, ".agents", "hooks.json")
	if err := os.MkdirAll(filepath.Dir(config), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(config, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	saved := "{\n  \"saved\": {\"Stop\": [{\"command\": \"true\"}]}\n}\n"
	code, screen := runInTerminal(t, []string{"init", "--dir", dir, "--template", "notify", "--scope", "workspace", "--lang", "sh"}, func(c *expect.Console) {
		expectString(t, c, "Name of the hook:")
		c.SendLine("mine")
		expectString(t, c, "Timeout in seconds:")
		if err := os.WriteFile(config, []byte(saved), 0o644); err != nil {
			t.Error(err)
		}
		c.SendLine("")
		expectString(t, c, scaffold.TraceQuestion)
		c.SendLine("")
		expectString(t, c, "Next steps:")
	})
	if code != 0 {
		t.Fatalf("exit status %d; screen:\n%s", code, screen)
	}
	c, err := schema.Load(config)
	if err != nil || !c.Usable() {
		t.Fatalf("hooks.json: %v %+v", err, c)
	}
	var names []string
	for _, h := range c.File.Hooks {
		names = append(names, h.Name)
	}
	if strings.Join(names, " ") != "saved mine" {
		t.Errorf("hooks.json has %v, want the saved hook and init's", names)
	}
	if b, _ := os.ReadFile(config); !strings.HasPrefix(string(b), strings.TrimSuffix(saved, "\n}\n")) {
		t.Errorf("the saved bytes were not kept:\n%s", b)
	}
}

// TestInitWizardChecksTheMatcherAsTyped types matchers at the regular
// expression question: another agent's tools and a glob are refused with
// lint's message and what to write instead, and asked again; a name that
// resembles no tool (an MCP server's) is kept once the person says so.
func TestInitWizardChecksTheMatcherAsTyped(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("HOME", t.TempDir())
	down := "\x1b[B"
	code, screen := runInTerminal(t, []string{"init", "--dir", dir, "--template", "block-dangerous", "--scope", "workspace",
		"--name", "gate", "--lang", "sh", "--timeout", "10", "--trace=false"}, func(c *expect.Console) {
		expectString(t, c, "Which tools should it run for?")
		c.Send(down + down + down + "\r")
		expectString(t, c, "Regular expression")
		c.SendLine("Edit|Write|browser_*")
		expectString(t, c, `"Edit" is a Claude Code tool, which this agent does not have: write "replace_file_content"`)
		expectString(t, c, `(the matcher would be "replace_file_content|write_to_file|browser_.*")`)
		c.SendLine("mcp_files_.*")
		expectString(t, c, "Keep this matcher?")
		c.SendLine("n")
		expectString(t, c, "Regular expression")
		c.SendLine("mcp_files_.*")
		expectString(t, c, "Keep this matcher?")
		c.SendLine("y")
		expectString(t, c, "Next steps:")
		expectString(t, c, "edit it")
	})
	if code != 0 {
		t.Fatalf("exit status %d; screen:\n%s", code, screen)
	}
	c, err := schema.Load(filepath.Join(dir, ".agents", "hooks.json"))
	if err != nil || len(c.File.Hooks) != 1 {
		t.Fatalf("hooks.json: %v %+v", err, c)
	}
	if m := c.File.Hooks[0].PreToolUse[0].MatcherText(); m != "mcp_files_.*" {
		t.Errorf("the matcher written is %q", m)
	}
	if !strings.Contains(screen, "hookctl run PreToolUse --workspace") || !strings.Contains(screen, "--tool mcp_files_") {
		t.Errorf("the screen lacks the try-it step for the tool the matcher selects:\n%s", screen)
	}
}
