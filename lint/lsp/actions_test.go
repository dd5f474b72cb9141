package lsp

import (
	"strings"
	"testing"

	"github.com/hookctl/hookctl/lint"
	"github.com/hookctl/hookctl/schema"
)

// span returns the schema span of the first occurrence of sub in text
// (lines and columns are not used by the server, only offsets).
func spanOf(t *testing.T, text, sub string) schema.Span {
	t.Helper()
	i := strings.Index(text, sub)
	if i < 0 {
		t.Fatalf("%q not in the text", sub)
	}
	return schema.Span{Start: schema.Pos{Offset: i, Line: 1, Col: 1}, End: schema.Pos{Offset: i + len(sub), Line: 1, Col: 1}}
}

// TestCodeActions checks the quick fixes built from findings, in both
// encodings, on a line with an emoji and é before the fixed text: each
// fix, applied as an editor applies it, changes only its spans.
func TestCodeActions(t *testing.T) {
	text := "{\"h😀é\": {\"PretoolUse\": [{\"command\": \"x\", \"timeout\": \"10\"}]}}\n"
	event := spanOf(t, text, `"PretoolUse"`)
	timeout := spanOf(t, text, `"10"`)
	findings := []lint.Finding{
		{Rule: "unknown-event", Span: event, Severity: lint.Error, Message: "not an event",
			Fix: &lint.Fix{Description: "write PreToolUse", Edits: []lint.Edit{{Span: event, Text: `"PreToolUse"`}}}},
		{Rule: "timeout-value", Span: timeout, Severity: lint.Error, Message: "a string",
			// Two edits: the quotes go, the digits stay.
			Fix: &lint.Fix{Description: "write 10 without quotes", Edits: []lint.Edit{
				{Span: schema.Span{Start: timeout.Start, End: schema.Pos{Offset: timeout.Start.Offset + 1, Line: 1}}, Text: ""},
				{Span: schema.Span{Start: schema.Pos{Offset: timeout.End.Offset - 1, Line: 1}, End: timeout.End}, Text: ""},
			}}},
		{Rule: "empty-hook", Span: event, Severity: lint.Warning, Message: "no fix"},
	}
	for _, enc := range []string{encodingUTF16, encodingUTF8} {
		doc := NewDocument("file:///w/.agents/hooks.json", 7, []byte(text), enc)
		all := Range{Start: Position{0, 0}, End: doc.Position(len(text))}
		actions := CodeActions(doc, findings, all, true)
		if len(actions) != 2 {
			t.Fatalf("%s: %d actions, want 2 (the finding without a fix has none)", enc, len(actions))
		}
		want := []string{
			strings.Replace(text, "PretoolUse", "PreToolUse", 1),
			strings.Replace(text, `"10"`, `10`, 1),
		}
		for i, a := range actions {
			if a.Kind != kindQuickFix || a.Title != findings[i].Fix.Description || len(a.Diagnostics) != 1 || a.Diagnostics[0].Code != findings[i].Rule {
				t.Errorf("%s: action %d: %+v", enc, i, a)
			}
			dc := a.Edit.DocumentChanges
			if len(dc) != 1 || dc[0].TextDocument.Version != 7 || dc[0].TextDocument.URI != doc.URI || a.Edit.Changes != nil {
				t.Fatalf("%s: action %d's edit %+v", enc, i, a.Edit)
			}
			if got := applyEdits(t, text, dc[0].Edits, enc); got != want[i] {
				t.Errorf("%s: action %d gives %q, want %q", enc, i, got, want[i])
			}
		}

		// Only the findings the range meets; plain changes when the
		// client cannot take versioned ones.
		actions = CodeActions(doc, findings, doc.Range(timeout.Start.Offset+1, timeout.Start.Offset+1), false)
		if len(actions) != 1 || actions[0].Diagnostics[0].Code != "timeout-value" {
			t.Fatalf("%s: actions at the timeout: %+v", enc, actions)
		}
		if edits := actions[0].Edit.Changes[doc.URI]; len(edits) != 2 || actions[0].Edit.DocumentChanges != nil {
			t.Errorf("%s: plain changes %+v", enc, actions[0].Edit)
		}
	}

	// A fix whose edit falls inside a character or past the end is not
	// offered.
	doc := NewDocument("file:///w/hooks.json", 1, []byte(text), encodingUTF16)
	emoji := strings.Index(text, "😀")
	bad := []lint.Finding{
		{Rule: "a", Span: event, Fix: &lint.Fix{Edits: []lint.Edit{{Span: schema.Span{Start: schema.Pos{Offset: emoji + 1, Line: 1}, End: schema.Pos{Offset: emoji + 2, Line: 1}}}}}},
		{Rule: "b", Span: event, Fix: &lint.Fix{Edits: []lint.Edit{{Span: schema.Span{Start: schema.Pos{Offset: len(text) + 1, Line: 1}}}}}},
		{Rule: "c", Span: event, Fix: &lint.Fix{Edits: []lint.Edit{{Span: schema.Span{Start: schema.Pos{Offset: 5, Line: 1}, End: schema.Pos{Offset: 4, Line: 1}}}}}},
	}
	if got := CodeActions(doc, bad, Range{End: doc.Position(len(text))}, true); len(got) != 0 {
		t.Errorf("fixes with impossible edits offered: %+v", got)
	}
}

// TestTestFileDiagnostics checks hooks.test.json: the checker the server
// is given, at the token it names; without one, JSON syntax.
func TestTestFileDiagnostics(t *testing.T) {
	text := "{\"tests\": [{\"name\": \"é\", \"evnt\": \"Stop\"}]}\n"
	at := strings.Index(text, `"evnt"`)
	s := &server{opts: Options{CheckTestFile: func(path string, src []byte) []Problem {
		if path != "/w/.agents/hooks.test.json" || string(src) != text {
			t.Errorf("checker called with %q and %q", path, src)
		}
		return []Problem{{Pos: schema.Pos{Offset: at, Line: 1, Col: 26}, Message: `unknown key "evnt": did you mean "event"?`}}
	}}}
	doc := NewDocument("file:///w/.agents/hooks.test.json", 1, []byte(text), encodingUTF16)
	diags := s.checkTestFile(doc)
	if len(diags) != 1 || diags[0].Message != `unknown key "evnt": did you mean "event"?` || diags[0].Severity != severityError {
		t.Fatalf("diagnostics %+v", diags)
	}
	if got := slice(t, text, diags[0].Range, encodingUTF16); got != `"evnt"` {
		t.Errorf("the diagnostic covers %q, want the key", got)
	}

	s = &server{}
	doc = NewDocument("file:///w/hooks.test.json", 1, []byte("{\"tests\": [,]}"), encodingUTF16)
	diags = s.checkTestFile(doc)
	if len(diags) != 1 || diags[0].Range.Start != (Position{0, 11}) {
		t.Errorf("JSON syntax diagnostics %+v", diags)
	}
}

// TestFixAll checks the action that applies every fix: fixes that do not
// overlap are applied together, in one edit of the document; one that
// overlaps a fix before it is left for the next pass.
func TestFixAll(t *testing.T) {
	text := "{\"h😀\": {\"Stop\": [{\"command\": \"x\", \"timeout\": \"10\", \"cmd\": 1}]}}\n"
	timeout := spanOf(t, text, `"10"`)
	cmd := spanOf(t, text, `"cmd"`)
	findings := []lint.Finding{
		{Rule: "timeout-value", Span: timeout, Fix: &lint.Fix{Edits: []lint.Edit{{Span: timeout, Text: "10"}}}},
		{Rule: "other", Span: timeout, Fix: &lint.Fix{Edits: []lint.Edit{{Span: timeout, Text: "11"}}}},
		{Rule: "unknown-field", Span: cmd, Fix: &lint.Fix{Edits: []lint.Edit{{Span: cmd, Text: `"command"`}}}},
		{Rule: "no-fix", Span: cmd},
	}
	for _, enc := range []string{encodingUTF16, encodingUTF8} {
		doc := NewDocument("file:///w/hooks.json", 3, []byte(text), enc)
		a := FixAll(doc, findings, true)
		if a == nil || a.Kind != "source.fixAll" || len(a.Diagnostics) != 2 {
			t.Fatalf("%s: %+v", enc, a)
		}
		got := applyEdits(t, text, a.Edit.DocumentChanges[0].Edits, enc)
		want := strings.Replace(strings.Replace(text, `"10"`, "10", 1), `"cmd"`, `"command"`, 1)
		if got != want {
			t.Errorf("%s: %s, want %s", enc, got, want)
		}
	}
	if FixAll(NewDocument("file:///w/hooks.json", 1, []byte(text), encodingUTF16), findings[3:], false) != nil {
		t.Error("a fix-all action without fixes")
	}
}

// TestFixAllIsLintFix: the editor's fix-all applies the fixes hookctl lint
// --fix applies in one pass, to the byte, and each quick fix is one of
// them.
func TestFixAllIsLintFix(t *testing.T) {
	path := workspace(t)
	text := "{\n  \"g\": {\n    \"enabled\": \"false\",\n    \"pre_tool_use\": [{\"matcher\": \"Bash|browser_*\", \"hooks\": [{\"command\": \"true\", \"timeoutMs\": 5000}]}]\n  }\n}\n"
	findings := lint.LintSource(lint.TargetOf(path, ""), []byte(text))
	want, n := lint.ApplyFixes([]byte(text), findings)
	if n != 5 {
		t.Fatalf("lint applies %d fixes, want 5:\n%s", n, want)
	}
	for _, enc := range []string{encodingUTF16, encodingUTF8} {
		doc := NewDocument(pathURI(path), 1, []byte(text), enc)
		a := FixAll(doc, findings, false)
		if a == nil {
			t.Fatal("no fix-all action")
		}
		if got := applyEdits(t, text, a.Edit.Changes[doc.URI], enc); got != string(want) {
			t.Errorf("%s: fix-all gives\n%s\nlint --fix gives\n%s", enc, got, want)
		}
		whole := Range{End: doc.Position(len(text))}
		if quick := CodeActions(doc, findings, whole, false); len(quick) != n {
			t.Errorf("%s: %d quick fixes, want %d", enc, len(quick), n)
		}
	}
}
