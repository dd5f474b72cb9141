//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	expect "github.com/Netflix/go-expect"

	"github.com/hookctl/hookctl/schema"
)

// TestInitWizardPicksSessionStart: in a terminal, the event list offers
// SessionStart (first, above the default PreToolUse); picking it offers
// its template, asks no tools, and writes a handler the agent runs at the
// start of a conversation.
func TestInitWizardPicksSessionStart(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("HOME", t.TempDir())
	code, screen := runInTerminal(t, []string{"init", "--dir", dir}, func(c *expect.Console) {
		answerWizard(t, c, wizardQuestions[0], map[string]typed{
			// up, from PreToolUse to SessionStart
			"Which event should it handle?":  {see: "SessionStart", keys: "\x1b[A"},
			"What should it do?":             {see: "project-context"},
			"Name of the hook:":              {keys: "context"},
			"Which tools should it run for?": {skip: true},
		})
	})
	if code != 0 {
		t.Fatalf("exit status %d; screen:\n%s", code, screen)
	}
	if strings.Contains(screen, "Which tools should it run for?") {
		t.Errorf("asked for tools on SessionStart:\n%s", screen)
	}
	if !strings.Contains(screen, "hookctl run SessionStart") {
		t.Errorf("the next steps do not try the new hook:\n%s", screen)
	}
	c, err := schema.Load(filepath.Join(dir, ".agents", "hooks.json"))
	if err != nil || len(c.File.Hooks) != 1 || c.File.Hooks[0].Name != "context" {
		t.Fatalf("hooks.json: %v %+v", err, c)
	}
	hs := c.File.Hooks[0].Handlers(schema.SessionStart)
	if len(hs) != 1 || hs[0].Command != "./hooks/context.sh" || hs[0].Timeout != 10 {
		t.Errorf("the SessionStart handlers are %+v", hs)
	}
	if fi, err := os.Stat(filepath.Join(dir, ".agents", "hooks", "context.sh")); err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("the script: %v", err)
	}
}
