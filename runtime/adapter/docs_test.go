package adapter

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/schema"
)

// TestDocsAnswerTable holds docs/agents.md's table of answers to what
// run --from prints for each decision and agent.
func TestDocsAnswerTable(t *testing.T) {
	doc, err := os.ReadFile("../../docs/agents.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(doc), "| decision | Claude Code (`PreToolUse`)")
	if !ok {
		t.Fatal("docs/agents.md has no answer table")
	}
	table, _, _ = strings.Cut(table, "\n\n")
	calls := []struct {
		agent          schema.Agent
		event, payload string
	}{
		{schema.Claude, "PreToolUse", "claude/PreToolUse-Bash.json"},
		{schema.Gemini, "BeforeTool", "gemini/BeforeTool-run_shell_command.json"},
		{schema.Cursor, "beforeShellExecution", "cursor/beforeShellExecution.json"},
		{schema.Codex, "PreToolUse", "codex/PreToolUse-Bash.json"},
	}
	answers := map[string]string{
		"deny":      `{"decision":"deny","reason":"recursive rm is blocked"}`,
		"allow":     `{"decision":"allow"}`,
		"force_ask": `{"decision":"force_ask","reason":"confirm the push"}`,
		"ask":       `{"decision":"ask"}`,
	}
	rows := 0
	for _, line := range strings.Split(table, "\n") {
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cells) != 5 || !strings.HasPrefix(cells[0], "`") {
			continue
		}
		decision := strings.Trim(cells[0], "`")
		ans, ok := answers[decision]
		if !ok {
			t.Errorf("unknown decision %q in the table", decision)
			continue
		}
		rows++
		for i, call := range calls {
			c, err := Translate(call.agent, call.event, sample(t, call.payload), noEnv)
			if err != nil {
				t.Fatal(err)
			}
			r := c.Reply([]json.RawMessage{json.RawMessage(ans)}, nil)
			var got string
			switch {
			case r.Exit == ExitBlock:
				got = "exit 2, `" + strings.TrimSuffix(r.Stderr, "\n") + "` on stderr"
			case len(r.Stdout) > 0:
				got = "`" + strings.TrimSuffix(string(r.Stdout), "\n") + "`"
			case len(r.Notes) > 0 && r.NotesOnStderr(call.agent):
				got = "nothing, a line on stderr"
			case len(r.Notes) > 0:
				got = "nothing, a line in the log"
			default:
				got = "nothing"
			}
			if got != cells[i+1] {
				t.Errorf("%s, %s: the table says %s; run --from prints %s", decision, call.agent.Title(), cells[i+1], got)
			}
		}
	}
	if rows != len(answers) {
		t.Errorf("the table has %d rows, want one per decision (%d)", rows, len(answers))
	}
}
