package convert

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFind finds the one configuration of another agent in a workspace,
// and says what to do when there is none or more than one.
func TestFind(t *testing.T) {
	dir := t.TempDir()
	put := func(rel, content string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Find("ws", dir); err == nil || err.Error() != "no hook configuration of another agent in ws (looked for .claude/settings.json, .claude/settings.local.json, .gemini/settings.json, .cursor/hooks.json, .codex/hooks.json, .agents/hooks.json): name the FILE to import" {
		t.Errorf("empty workspace: %v", err)
	}
	put(".claude/settings.json", `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./gate.sh"}]}]}}`)
	put(".gemini/settings.json", `{"theme": "dark"}`) // no hooks: not a candidate
	if got, err := Find("ws", dir); err != nil || got != filepath.Join("ws", ".claude/settings.json") {
		t.Errorf("one configuration: %q, %v", got, err)
	}
	put(".cursor/hooks.json", `{"version": 1, "hooks": {"beforeShellExecution": [{"command": "./gate.sh"}]}}`)
	if _, err := Find("ws", dir); err == nil || err.Error() != "ws/.claude/settings.json and ws/.cursor/hooks.json hold hooks: name the FILE to import, one at a time" {
		t.Errorf("two configurations: %v", err)
	}
}

// TestFindNamesAFileThatIsNotJSON: another agent's file that is not JSON
// is named with where and what is wrong, not passed over as one without
// hooks (which stays no candidate); a configuration found elsewhere wins.
func TestFindNamesAFileThatIsNotJSON(t *testing.T) {
	dir := t.TempDir()
	put := func(rel, content string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put(".claude/settings.json", `{"permissions": {}}`)
	put(".claude/settings.local.json", "{\"hooks\": {\"PreToolUse\": [}\n")
	want := "ws/.claude/settings.local.json:1:27: not valid JSON: a value is missing before '}': fix it and run hookctl import again, or name the FILE to import"
	if _, err := Find("ws", dir); err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	put(".codex/hooks.json", `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./gate.sh"}]}]}}`)
	if got, err := Find("ws", dir); err != nil || got != filepath.Join("ws", ".codex/hooks.json") {
		t.Errorf("with a configuration beside it: %q, %v", got, err)
	}
}
