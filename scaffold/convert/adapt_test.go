package convert

import (
	"strings"
	"testing"

	"github.com/hookctl/hookctl/schema"
)

// TestAdaptWraps: a handler written for the other agent runs through
// hookctl adapt, its command as it was when it is one program, else through
// sh -c; one that already speaks this format keeps its command.
func TestAdaptWraps(t *testing.T) {
	res := convertStringAdapt(t, `{"hooks": {
  "PreToolUse": [{"matcher": "Bash", "hooks": [
    {"type": "command", "command": "python3 -c 'import json,sys; print(json.load(sys.stdin)[\"tool_input\"])'"},
    {"type": "command", "command": "jq -r .tool_input.command | grep -q rm && exit 2 || true"},
    {"type": "command", "command": "FOO=1 ./gate --payload tool_input"},
    {"type": "command", "command": "./plain-gate"},
    {"type": "command", "command": "jq -r .toolCall.args.CommandLine | grep -q rm && exit 2 || true"}
  ]}],
  "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "date"}]}]
}}`, schema.Claude)
	pre := res.Hooks[0].Def.PreToolUse[0].Hooks
	want := []string{
		`hookctl adapt --from claude --event PreToolUse -- python3 -c 'import json,sys; print(json.load(sys.stdin)["tool_input"])'`,
		`hookctl adapt --from claude --event PreToolUse -- sh -c 'jq -r .tool_input.command | grep -q rm && exit 2 || true'`,
		`hookctl adapt --from claude --event PreToolUse -- sh -c 'FOO=1 ../gate --payload tool_input'`,
		`hookctl adapt --from claude --event PreToolUse -- ../plain-gate`,
		`jq -r .toolCall.args.CommandLine | grep -q rm && exit 2 || true`,
	}
	for i, w := range want {
		if i >= len(pre) || pre[i].Command != w {
			t.Errorf("handler %d: %q, want %q", i, pre[i].Command, w)
		}
	}
	if got := res.Hooks[1].Def.PreInvocation[0].Command; got != "hookctl adapt --from claude --event UserPromptSubmit -- date" {
		t.Errorf("plain text context: %q", got)
	}
}

// TestLiteralAnswers: a handler that prints a fixed answer in the other
// agent's way prints this format's instead, and what has no equivalent is
// reported.
func TestLiteralAnswers(t *testing.T) {
	for _, tc := range []struct {
		agent   schema.Agent
		src     string
		command string
		report  string
	}{
		{schema.Gemini, `{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "echo '{\"hookSpecificOutput\": {\"additionalContext\": \"This repository uses pnpm.\"}}'"}]}]}}`,
			`echo '{"injectSteps":[{"ephemeralMessage":"This repository uses pnpm."}]}'`, "prints this format's instead"},
		{schema.Claude, `{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "echo Remember to run the linter."}]}]}}`,
			`echo '{"injectSteps":[{"ephemeralMessage":"Remember to run the linter."}]}'`, "prints this format's instead"},
		{schema.Claude, `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo '{\"hookSpecificOutput\": {\"permissionDecision\": \"deny\", \"permissionDecisionReason\": \"no shell here\"}}'"}]}]}}`,
			`echo '{"decision":"deny","reason":"no shell here"}'`, "prints this format's instead"},
		{schema.Cursor, `{"version": 1, "hooks": {"beforeShellExecution": [{"command": "echo '{\"permission\": \"ask\", \"user_message\": \"sure?\"}'"}]}}`,
			`echo '{"decision":"force_ask","reason":"sure?"}'`, "prints this format's instead"},
		{schema.Gemini, `{"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "echo '{\"systemMessage\": \"seen\"}'"}]}]}}`,
			`true`, `Gemini CLI's systemMessage "seen" has no equivalent here`},
		// printf and a here-document print fixed answers as echo does.
		{schema.Claude, `{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "printf '%s\\n' 'Use pnpm.'"}]}]}}`,
			`echo '{"injectSteps":[{"ephemeralMessage":"Use pnpm."}]}'`, "prints this format's instead"},
		{schema.Claude, `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "cat <<'EOF'\n{\"decision\": \"block\", \"reason\": \"no\"}\nEOF"}]}]}}`,
			`echo '{"decision":"deny","reason":"no"}'`, "prints this format's instead"},
		// echo's escapes differ between dash and bash: no fixed answer.
		{schema.Claude, `{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "echo 'a\\nb'"}]}]}}`,
			`hookctl adapt --from claude --event SessionStart -- sh -c 'echo '\''a\nb'\'''`, "runs through hookctl adapt"},
		// Another statement beside the answer: the command runs as it is.
		{schema.Claude, `{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "echo starting >&2; echo ready"}]}]}}`,
			`hookctl adapt --from claude --event SessionStart -- sh -c 'echo starting >&2; echo ready'`, "runs through hookctl adapt"},
		// An echo of a variable is no fixed answer: it runs through adapt.
		{schema.Claude, `{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "echo \"$HOME\""}]}]}}`,
			`hookctl adapt --from claude --event SessionStart -- sh -c 'echo "$HOME"'`, "runs through hookctl adapt"},
	} {
		res := convertStringAdapt(t, tc.src, tc.agent)
		var got string
		for _, h := range res.Hooks {
			for _, e := range schema.Events {
				for _, hd := range h.Def.Handlers(e) {
					got = hd.Command
				}
				for _, g := range h.Def.Groups(e) {
					for _, hd := range g.Hooks {
						got = hd.Command
					}
				}
			}
		}
		if got != tc.command || !strings.Contains(reportText(res), tc.report) {
			t.Errorf("%s: %q\nwant %q\nreport:\n%s", tc.src, got, tc.command, reportText(res))
		}
	}
}
