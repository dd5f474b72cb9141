package lsp

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/hookctl/hookctl/lint"
)

// sessionHooks is the hooks.json of the session test. Line 3 carries an
// emoji (two UTF-16 code units, four bytes) and an é (one unit, two bytes)
// before the timeout that lint reports.
const sessionHooks = `{
  "gate": {
    "PreToolUse": [
      {"matcher": "run_command", "hooks": [{"command": "./hooks/gate.sh 😀 é", "timeout": 5000}]}
    ]
  }
}
`

// workspace writes a workspace whose .agents/hooks/gate.sh exists and is
// executable, and returns the path of its .agents/hooks.json (not
// written: the editor's unsaved text is what the server lints).
func workspace(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	script := filepath.Join(root, ".agents", "hooks", "gate.sh")
	if err := os.MkdirAll(filepath.Dir(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(script, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(root, ".agents", "hooks.json")
}

// withFixes lints as lint does: the quick fixes the server offers are
// the fixes lint's findings carry, those hookctl lint --fix applies.
func withFixes(req lint.SourceRequest) ([]lint.Finding, map[string]fs.FileInfo, error) {
	return lint.LintSourceRequest(req)
}

// TestSession drives the server through a whole session as an editor
// would: initialize, open, diagnostics, an incremental change, a quick fix
// applied to the text, completion, hover, definition, a script deleted on
// disk, shutdown and exit.
func TestSession(t *testing.T) {
	for _, enc := range []string{encodingUTF16, encodingUTF8} {
		t.Run(enc, func(t *testing.T) { session(t, enc) })
	}
}

func session(t *testing.T, enc string) {
	path := workspace(t)
	uri := pathURI(path)
	c := startServer(t, Options{lint: withFixes, Poll: 20 * time.Millisecond, Debounce: time.Millisecond})
	caps := `{"textDocument": {"hover": {"contentFormat": ["markdown", "plaintext"]}}, "workspace": {"workspaceEdit": {"documentChanges": true}}}`
	if enc == encodingUTF8 {
		caps = `{"general": {"positionEncodings": ["utf-8", "utf-16"]}, "textDocument": {"hover": {"contentFormat": ["markdown"]}}, "workspace": {"workspaceEdit": {"documentChanges": true}}}`
	}
	init := c.initialize(caps)
	if init.Capabilities.PositionEncoding != enc {
		t.Fatalf("positionEncoding %q, want %q", init.Capabilities.PositionEncoding, enc)
	}
	if init.Capabilities.TextDocumentSync.Change != syncIncremental {
		t.Errorf("textDocumentSync.change %d, want incremental", init.Capabilities.TextDocumentSync.Change)
	}
	text := sessionHooks
	c.notify("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: uri, LanguageID: "json", Version: 1, Text: text}})

	// The timeout's column counts the emoji as two UTF-16 units or four
	// bytes, and é as one unit or two bytes.
	diags := c.diagnostics(uri, 1)
	timeout := find(t, diags, "timeout-value")
	wantChar := map[string]uint32{encodingUTF16: 90, encodingUTF8: 93}[enc]
	want := Range{Start: Position{3, wantChar}, End: Position{3, wantChar + 4}}
	if timeout.Range != want {
		t.Errorf("timeout-value at %+v, want %+v", timeout.Range, want)
	}
	if got := slice(t, text, timeout.Range, enc); got != "5000" {
		t.Errorf("the finding's range holds %q, want 5000", got)
	}
	if timeout.Severity != severityWarning || timeout.Source != "hookctl" || timeout.CodeDescription == nil ||
		timeout.CodeDescription.Href != "https://github.com/hookctl/hookctl/blob/main/docs/rules.md#timeout-value" {
		t.Errorf("diagnostic %+v", timeout)
	}

	// An incremental change: "PreToolUse" becomes "PreT_olUse".
	at := strings.Index(text, "PreToolUse") + len("PreT")
	change := Range{Start: pos(text, at, enc), End: pos(text, at+1, enc)}
	text = text[:at] + "_" + text[at+1:]
	c.notify("textDocument/didChange", didChangeParams{
		TextDocument:   versionedTextDocumentIdentifier{URI: uri, Version: 2},
		ContentChanges: []contentChange{{Range: &change, Text: "_"}},
	})
	diags = c.diagnostics(uri, 2)
	unknown := find(t, diags, "unknown-event")
	if got := slice(t, text, unknown.Range, enc); got != `"PreT_olUse"` {
		t.Errorf("unknown-event covers %q", got)
	}
	// Undo it with a whole-text change.
	text = sessionHooks
	c.notify("textDocument/didChange", didChangeParams{
		TextDocument:   versionedTextDocumentIdentifier{URI: uri, Version: 3},
		ContentChanges: []contentChange{{Text: text}},
	})
	diags = c.diagnostics(uri, 3)
	if slices.ContainsFunc(diags, func(d Diagnostic) bool { return d.Code == "unknown-event" }) {
		t.Errorf("unknown-event still reported after the change: %+v", diags)
	}

	// The quick fix, applied as the editor applies it, changes the text
	// exactly as lint's fix says, and nothing else.
	var actions []CodeAction
	c.call("textDocument/codeAction", codeActionParams{TextDocument: textDocumentIdentifier{URI: uri}, Range: timeout.Range}, &actions)
	if len(actions) != 1 {
		t.Fatalf("%d code actions, want 1: %+v", len(actions), actions)
	}
	a := actions[0]
	if a.Kind != kindQuickFix || a.Edit == nil || len(a.Edit.DocumentChanges) != 1 || a.Edit.DocumentChanges[0].TextDocument.Version != 3 {
		t.Fatalf("code action %+v", a)
	}
	fixed := applyEdits(t, text, a.Edit.DocumentChanges[0].Edits, enc)
	if wantText := lintFixed(t, path, text, "timeout-value"); fixed != wantText {
		t.Errorf("the quick fix gives\n%s\nwant\n%s", fixed, wantText)
	}
	if fixed != strings.Replace(text, `"timeout": 5000`, `"timeout": 5`, 1) {
		t.Errorf("the quick fix changed more than the timeout:\n%s", fixed)
	}

	// The fix-all action, as an editor asks for it on save.
	actions = nil
	all := codeActionParams{TextDocument: textDocumentIdentifier{URI: uri}, Range: Range{End: pos(text, len(text), enc)}}
	all.Context.Only = []string{"source.fixAll"}
	c.call("textDocument/codeAction", all, &actions)
	if len(actions) != 1 || actions[0].Kind != "source.fixAll" {
		t.Fatalf("fix-all actions %+v", actions)
	}
	if got := applyEdits(t, text, actions[0].Edit.DocumentChanges[0].Edits, enc); got != fixed {
		t.Errorf("fix all gives\n%s\nwant\n%s", got, fixed)
	}

	// Completion of a tool name inside the matcher, after "run_".
	off := strings.Index(text, "run_command") + len("run_")
	var list completionList
	c.call("textDocument/completion", textDocumentPositionParams{TextDocument: textDocumentIdentifier{URI: uri}, Position: pos(text, off, enc)}, &list)
	item := findItem(t, list.Items, "run_command")
	if item.TextEdit == nil || slice(t, text, item.TextEdit.Range, enc) != "run_command" {
		t.Errorf("run_command's edit %+v does not replace the tool name", item.TextEdit)
	}
	if item.Documentation == nil || !strings.Contains(item.Documentation.Value, "CommandLine") {
		t.Errorf("run_command's documentation lacks its arguments: %+v", item.Documentation)
	}

	// Hover on the event shows its payload and answer; on the timeout,
	// the rule.
	var h hover
	off = strings.Index(text, "PreToolUse") + 2
	c.call("textDocument/hover", textDocumentPositionParams{TextDocument: textDocumentIdentifier{URI: uri}, Position: pos(text, off, enc)}, &h)
	for _, want := range []string{"**PreToolUse**", "**Payload**", "`toolCall.args`", "**Answer**", `"allow"`} {
		if !strings.Contains(h.Contents.Value, want) {
			t.Errorf("hover on PreToolUse lacks %q:\n%s", want, h.Contents.Value)
		}
	}
	h = hover{}
	c.call("textDocument/hover", textDocumentPositionParams{TextDocument: textDocumentIdentifier{URI: uri}, Position: timeout.Range.Start}, &h)
	for _, want := range []string{"**timeout-value** (warning)", "docs/rules.md#timeout-value"} {
		if !strings.Contains(h.Contents.Value, want) {
			t.Errorf("hover on the timeout lacks %q:\n%s", want, h.Contents.Value)
		}
	}

	// Go to definition from the command to its script.
	var locs []Location
	off = strings.Index(text, "gate.sh")
	c.call("textDocument/definition", textDocumentPositionParams{TextDocument: textDocumentIdentifier{URI: uri}, Position: pos(text, off, enc)}, &locs)
	script := filepath.Join(filepath.Dir(path), "hooks", "gate.sh")
	if len(locs) != 1 || locs[0].URI != pathURI(script) {
		t.Errorf("definition %+v, want %s", locs, pathURI(script))
	}

	// The script is deleted: the diagnostics come back with
	// script-not-found, with no change to the document.
	if err := os.Remove(script); err != nil {
		t.Fatal(err)
	}
	c.waitDiagnostics(uri, func(ds []Diagnostic) bool {
		return slices.ContainsFunc(ds, func(d Diagnostic) bool { return d.Code == "script-not-found" })
	})

	c.call("shutdown", nil, nil)
	c.notify("exit", nil)
	if err := c.end(); err != nil {
		t.Errorf("Serve after shutdown and exit: %v", err)
	}
}

// TestExit checks the three ways a session ends: exit after shutdown,
// exit without it (an error, so that hookctl exits with status 1), and
// the end of the input.
func TestExit(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(`{}`)
	c.notify("exit", nil)
	if err := c.end(); !errors.Is(err, ErrExitWithoutShutdown) {
		t.Errorf("exit without shutdown: %v, want ErrExitWithoutShutdown", err)
	}

	c = startServer(t, Options{})
	c.initialize(`{}`)
	c.toServer.Close()
	if err := c.end(); err != nil {
		t.Errorf("end of input: %v, want nil", err)
	}
}

// TestRequestsOutsideTheSession checks the answers to requests before
// initialize and after shutdown.
func TestRequestsOutsideTheSession(t *testing.T) {
	c := startServer(t, Options{})
	err := c.conn.Call(t.Context(), "textDocument/hover", textDocumentPositionParams{}, nil)
	if err == nil || !strings.Contains(err.Error(), "not initialized") {
		t.Errorf("hover before initialize: %v", err)
	}
	c.initialize(`{}`)
	c.call("shutdown", nil, nil)
	err = c.conn.Call(t.Context(), "textDocument/hover", textDocumentPositionParams{}, nil)
	if err == nil || !strings.Contains(err.Error(), "shut down") {
		t.Errorf("hover after shutdown: %v", err)
	}
	c.notify("exit", nil)
	if err := c.end(); err != nil {
		t.Errorf("Serve: %v", err)
	}
}

func find(t *testing.T, diags []Diagnostic, rule string) Diagnostic {
	t.Helper()
	for _, d := range diags {
		if d.Code == rule {
			return d
		}
	}
	t.Fatalf("no %s diagnostic in %+v", rule, diags)
	return Diagnostic{}
}

func findItem(t *testing.T, items []completionItem, label string) completionItem {
	t.Helper()
	for _, it := range items {
		if it.Label == label {
			return it
		}
	}
	var labels []string
	for _, it := range items {
		labels = append(labels, it.Label)
	}
	t.Fatalf("no completion %q among %v", label, labels)
	return completionItem{}
}

// The client's side of positions, written apart from the server's
// Document so that the two check each other.

// pos returns the position of a byte offset of text, in the encoding's
// units. The test texts end lines with "\n" only.
func pos(text string, off int, enc string) Position {
	line := strings.Count(text[:off], "\n")
	start := strings.LastIndex(text[:off], "\n") + 1
	return Position{Line: uint32(line), Character: units(text[start:off], enc)}
}

func units(s string, enc string) uint32 {
	if enc == encodingUTF8 {
		return uint32(len(s))
	}
	return uint32(len(utf16.Encode([]rune(s))))
}

// offset returns the byte offset of a position of text.
func offset(t *testing.T, text string, p Position, enc string) int {
	t.Helper()
	lines := strings.SplitAfter(text, "\n")
	if int(p.Line) >= len(lines) {
		t.Fatalf("position %+v past the end", p)
	}
	off := 0
	for _, l := range lines[:p.Line] {
		off += len(l)
	}
	line := lines[p.Line]
	n := uint32(0)
	for i, r := range line {
		if n == p.Character {
			return off + i
		}
		if n > p.Character {
			t.Fatalf("position %+v inside a character", p)
		}
		n += units(string(r), enc)
	}
	if n == p.Character {
		return off + len(line)
	}
	t.Fatalf("position %+v past the end of its line", p)
	return 0
}

func slice(t *testing.T, text string, r Range, enc string) string {
	t.Helper()
	return text[offset(t, text, r.Start, enc):offset(t, text, r.End, enc)]
}

// applyEdits applies edits as an editor does: all ranges refer to the
// text before any edit.
func applyEdits(t *testing.T, text string, edits []TextEdit, enc string) string {
	t.Helper()
	type span struct {
		from, to int
		text     string
	}
	var spans []span
	for _, e := range edits {
		spans = append(spans, span{offset(t, text, e.Range.Start, enc), offset(t, text, e.Range.End, enc), e.NewText})
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].from > spans[j].from })
	for _, s := range spans {
		text = text[:s.from] + s.text + text[s.to:]
	}
	if !utf8.ValidString(text) {
		t.Fatalf("the edits cut a character: %q", text)
	}
	return text
}

// lintFixed applies, by byte offsets, the fix that lint (with withFixes)
// carries for the rule's finding in text.
func lintFixed(t *testing.T, path, text, rule string) string {
	t.Helper()
	findings, _, _ := withFixes(lint.SourceRequest{Target: lint.TargetOf(path, ""), Src: []byte(text)})
	for _, f := range findings {
		if f.Rule != rule || f.Fix == nil {
			continue
		}
		edits := slices.Clone(f.Fix.Edits)
		sort.Slice(edits, func(i, j int) bool { return edits[i].Span.Start.Offset > edits[j].Span.Start.Offset })
		for _, e := range edits {
			text = text[:e.Span.Start.Offset] + e.Text + text[e.Span.End.Offset:]
		}
		return text
	}
	t.Fatalf("lint carries no fix for %s", rule)
	return ""
}

// TestWatchedFiles checks both ways the server learns that a script
// changed on disk: the client's watcher, which the server registers when
// the client can take it (here with no poll), and the poll, which sees a
// change of mode that the text does not show.
func TestWatchedFiles(t *testing.T) {
	path := workspace(t)
	uri := pathURI(path)
	script := filepath.Join(filepath.Dir(path), "hooks", "gate.sh")
	has := func(rule string) func([]Diagnostic) bool {
		return func(ds []Diagnostic) bool {
			return slices.ContainsFunc(ds, func(d Diagnostic) bool { return d.Code == rule })
		}
	}

	c := startServer(t, Options{Poll: -1})
	c.initialize(`{"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}}}`)
	c.notify("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: uri, Version: 1, Text: sessionHooks}})
	if has("script-not-found")(c.diagnostics(uri, 1)) {
		t.Fatal("script-not-found before the script is deleted")
	}
	var regs []registration
	for deadline := time.Now().Add(hangGuard); len(regs) == 0 && time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		c.mu.Lock()
		regs = slices.Clone(c.registrations)
		c.mu.Unlock()
	}
	if len(regs) != 1 || regs[0].Method != "workspace/didChangeWatchedFiles" {
		t.Errorf("registrations %+v, want one for workspace/didChangeWatchedFiles", regs)
	}
	if err := os.Remove(script); err != nil {
		t.Fatal(err)
	}
	c.notify("workspace/didChangeWatchedFiles", didChangeWatchedFilesParams{Changes: []fileEvent{{URI: pathURI(script), Type: 3}}})
	c.waitDiagnostics(uri, has("script-not-found"))
	c.call("shutdown", nil, nil)
	c.notify("exit", nil)
	c.end()

	// The poll, with a client that cannot watch files: the script comes
	// back without its execute bit.
	c = startServer(t, Options{Poll: 10 * time.Millisecond})
	c.initialize(`{}`)
	c.notify("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: uri, Version: 1, Text: sessionHooks}})
	c.waitDiagnostics(uri, has("script-not-found"))
	if err := os.WriteFile(script, []byte("#!/bin/sh\nexit 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.waitDiagnostics(uri, has("script-not-executable"))
	if err := os.Chmod(script, 0o755); err != nil {
		t.Fatal(err)
	}
	c.waitDiagnostics(uri, func(ds []Diagnostic) bool { return !has("script-not-executable")(ds) && !has("script-not-found")(ds) })
	c.mu.Lock()
	regs = c.registrations
	c.mu.Unlock()
	if len(regs) != 0 {
		t.Errorf("registered %+v with a client that cannot take it", regs)
	}
	c.call("shutdown", nil, nil)
	c.notify("exit", nil)
	c.end()
}

// TestOtherFiles checks that a JSON file not named like a hooks file gets
// nothing from the server, as with a client that sends every JSON file.
func TestOtherFiles(t *testing.T) {
	c := startServer(t, Options{Poll: -1})
	c.initialize(`{}`)
	other := pathURI(filepath.Join(t.TempDir(), "package.json"))
	c.notify("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: other, Version: 1, Text: `{"PreToolUse": [`}})
	c.notify("textDocument/didChange", didChangeParams{TextDocument: versionedTextDocumentIdentifier{URI: other, Version: 2}, ContentChanges: []contentChange{{Text: "{"}}})
	var list completionList
	c.call("textDocument/completion", textDocumentPositionParams{TextDocument: textDocumentIdentifier{URI: other}, Position: Position{0, 1}}, &list)
	if len(list.Items) != 0 {
		t.Errorf("completion in package.json: %+v", list.Items)
	}
	hooks := pathURI(filepath.Join(t.TempDir(), "claude-hooks.json"))
	c.notify("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: hooks, Version: 1, Text: `{`}})
	if len(c.diagnostics(hooks, 1)) == 0 {
		t.Error("no diagnostics for a broken claude-hooks.json")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range c.diags {
		if p.URI == other {
			t.Errorf("diagnostics published for package.json: %+v", p)
		}
	}
}
