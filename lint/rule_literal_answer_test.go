package lint

import "testing"

// TestLiteralAnswerFix: a misspelt key of a literal answer is fixed in
// place, inside the quotes of the command's JSON string.
func TestLiteralAnswerFix(t *testing.T) {
	src := []byte(`{"gate": {"PreToolUse": [{"hooks": [{"command": "echo '{\"decison\":\"allow\",\"reasn\":\"ok\"}'"}]}]}}`)
	got := applyFixes(t, src, lintInWorkspace(t, newWorkspace(t), src))
	want := `{"gate": {"PreToolUse": [{"hooks": [{"command": "echo '{\"decision\":\"allow\",\"reason\":\"ok\"}'"}]}]}}`
	if got != want {
		t.Errorf("fixed:\n%s\nwant:\n%s", got, want)
	}
	if fs := lintInWorkspace(t, newWorkspace(t), []byte(got)); len(fs) > 0 {
		t.Errorf("after the fix: %s", formatFindings(fs))
	}
}

// TestLiteralAnswerDiffers: an echo whose backslashes dash reads and bash
// does not is named, since the answer is JSON under one shell only.
func TestLiteralAnswerDiffers(t *testing.T) {
	src := []byte(`{"gate": {"Stop": [{"command": "echo '{\"decision\":\"continue\",\"reason\":\"line one\\nline two\"}'"}]}}`)
	fs := lintInWorkspace(t, newWorkspace(t), src)
	if len(fs) != 1 || fs[0].Rule != "literal-answer" || fs[0].Severity != Warning || fs[0].Span.Start.Col != 38 {
		t.Fatalf("got %s", formatFindings(fs))
	}
}
