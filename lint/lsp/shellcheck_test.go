package lsp

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookctl/hookctl/internal/testenv"
	"github.com/hookctl/hookctl/lint"
)

// shellcheckHooks has two inline commands: the first is one ShellCheck
// warns about ($HOOKCTL_WORKSPACE unquoted, SC2086), the second is clean.
const shellcheckHooks = `{
  "gate": {
    "PreToolUse": [
      {"matcher": "run_command", "hooks": [{"command": "cd $HOOKCTL_WORKSPACE && true"}]},
      {"matcher": "view_file", "hooks": [{"command": "cd \"$HOOKCTL_WORKSPACE\" && ls"}]}
    ]
  }
}
`

// scServer starts a server with the real ShellCheck on a workspace and
// counts the lint runs that ran it.
func scServer(t *testing.T, config string) (c *client, uri string, scRuns func() int) {
	bin := testenv.Need(t, "shellcheck")
	path := workspace(t)
	if config != "" {
		if err := os.WriteFile(filepath.Join(filepath.Dir(filepath.Dir(path)), ".hookctl.json"), []byte(config), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	runs := 0
	lintFn := func(req lint.SourceRequest) ([]lint.Finding, map[string]fs.FileInfo, error) {
		fs, seen, err := lint.LintSourceRequest(req)
		if req.ShellCheck != "" {
			if req.ShellCheck != bin || len(req.Rules) != 1 || req.Rules[0] != "shellcheck" {
				t.Errorf("ShellCheck ran as %q with rules %v", req.ShellCheck, req.Rules)
			}
			mu.Lock()
			runs++
			mu.Unlock()
		}
		return fs, seen, err
	}
	c = startServer(t, Options{lint: lintFn, ShellCheck: bin, Poll: -1, Debounce: time.Millisecond})
	c.initialize(`{}`)
	uri = pathURI(path)
	return c, uri, func() int {
		mu.Lock()
		defer mu.Unlock()
		return runs
	}
}

// sc returns the ShellCheck diagnostics as "SCnnnn@line:character" and
// the text each underlines.
func sc(text string, diags []Diagnostic) []string {
	doc := NewDocument("file:///x", 0, []byte(text), encodingUTF16)
	var out []string
	for _, d := range diags {
		if d.Code != "shellcheck" {
			continue
		}
		code, _, _ := strings.Cut(d.Message, ":")
		from, to := doc.Offset(d.Range.Start), doc.Offset(d.Range.End)
		out = append(out, code+"@"+text[from:to])
	}
	return out
}

// TestShellCheckOnOpenAndSave: ShellCheck runs when the file is opened
// and when it is saved, never on a change; its findings are published
// with every change's diagnostics in between, moved with the text, and a
// change to the command they are about drops them.
func TestShellCheckOnOpenAndSave(t *testing.T) {
	c, uri, scRuns := scServer(t, "")
	text := shellcheckHooks
	c.notify("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: uri, Version: 1, Text: text}})
	want := "SC2086@$HOOKCTL_WORKSPACE"
	c.waitDiagnostics(uri, func(ds []Diagnostic) bool { return strings.Join(sc(text, ds), " ") == want })
	if n := scRuns(); n != 1 {
		t.Fatalf("ShellCheck ran %d times on open, want 1", n)
	}

	version := int32(1)
	// change replaces the first from in the text with to, as an edit of
	// its range.
	change := func(from, to string) {
		t.Helper()
		i := strings.Index(text, from)
		if i < 0 {
			t.Fatalf("no %q in the text", from)
		}
		doc := NewDocument(uri, version, []byte(text), encodingUTF16)
		version++
		r := doc.Range(i, i+len(from))
		text = text[:i] + to + text[i+len(from):]
		c.notify("textDocument/didChange", didChangeParams{TextDocument: versionedTextDocumentIdentifier{URI: uri, Version: version},
			ContentChanges: []contentChange{{Range: &r, Text: to}}})
	}
	// A line added above moves the finding down; it is still published,
	// at its text.
	change(`    "PreToolUse"`, "    \"Stop\": [],\n    \"PreToolUse\"")
	if got := strings.Join(sc(text, c.diagnostics(uri, version)), " "); got != want {
		t.Errorf("after a change above the command: %q, want %q", got, want)
	}
	// The command made clean: its finding goes with the edit, and the
	// other command made wrong is not checked until the file is saved.
	change(`cd $HOOKCTL_WORKSPACE`, `cd \"$HOOKCTL_WORKSPACE\"`)
	change(`cd \"$HOOKCTL_WORKSPACE\" && ls`, `cd $HOME && ls`)
	if got := sc(text, c.diagnostics(uri, version)); len(got) != 0 {
		t.Errorf("after the changes: %q, want no ShellCheck finding until the save", got)
	}
	if n := scRuns(); n != 1 {
		t.Errorf("ShellCheck ran %d times after changes, want only the open's", n)
	}
	c.notify("textDocument/didSave", didSaveParams{TextDocument: textDocumentIdentifier{URI: uri}})
	c.waitDiagnostics(uri, func(ds []Diagnostic) bool { return strings.Join(sc(text, ds), " ") == "SC2086@$HOME" })
	if n := scRuns(); n != 2 {
		t.Errorf("ShellCheck ran %d times after a save, want 2", n)
	}
	c.call("shutdown", nil, nil)
}

// TestShellCheckConfig: a .hookctl.json that disables the shellcheck rule
// keeps ShellCheck's findings out of the editor, as out of hookctl lint.
func TestShellCheckConfig(t *testing.T) {
	c, uri, scRuns := scServer(t, `{"lint": {"disable": ["shellcheck"]}}`)
	c.notify("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: uri, Version: 1, Text: shellcheckHooks}})
	// Once ShellCheck's run is over, a change's diagnostics carry
	// whatever it found.
	deadline := time.After(hangGuard)
	for scRuns() == 0 {
		select {
		case <-c.newDiags:
		case <-deadline:
			t.Fatal("ShellCheck never ran")
		}
	}
	c.notify("textDocument/didChange", didChangeParams{TextDocument: versionedTextDocumentIdentifier{URI: uri, Version: 2},
		ContentChanges: []contentChange{{Text: shellcheckHooks}}})
	if got := sc(shellcheckHooks, c.diagnostics(uri, 2)); len(got) != 0 {
		t.Errorf("with shellcheck disabled: %q", got)
	}
	c.call("shutdown", nil, nil)
}

// TestShellCheckInScripts: ShellCheck's findings inside a script a
// handler runs are published on the script's own URI, at their place in
// it (a multi-byte character before them counted in UTF-16); a save after
// the script is fixed clears them, and so does closing the hooks.json.
func TestShellCheckInScripts(t *testing.T) {
	c, uri, _ := scServer(t, "")
	script := filepath.Join(filepath.Dir(uriPath(uri)), "hooks", "gate.sh")
	bad := "#!/bin/sh\n# a script\necho é; cd $HOOKCTL_WORKSPACE && exit 0\n"
	if err := os.WriteFile(script, []byte(bad), 0o755); err != nil {
		t.Fatal(err)
	}
	text := `{"gate": {"Stop": [{"command": "./hooks/gate.sh"}]}}`
	c.notify("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: uri, Version: 1, Text: text}})
	suri := pathURI(script)
	ds := c.waitDiagnostics(suri, func(ds []Diagnostic) bool { return len(ds) > 0 })
	if got := strings.Join(sc(bad, ds), " "); got != "SC2086@$HOOKCTL_WORKSPACE" {
		t.Errorf("the script's diagnostics %s", got)
	}
	if r := ds[0].Range; r.Start.Line != 2 || r.Start.Character != 11 || r.End.Character != 29 {
		t.Errorf("at %+v", r)
	}
	// The hooks.json itself holds none of them.
	for _, d := range c.waitDiagnostics(uri, func([]Diagnostic) bool { return true }) {
		if d.Code == "shellcheck" {
			t.Errorf("in the hooks.json: %+v", d)
		}
	}

	if err := os.WriteFile(script, []byte("#!/bin/sh\ncd \"$HOOKCTL_WORKSPACE\" && exit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	c.notify("textDocument/didSave", didSaveParams{TextDocument: textDocumentIdentifier{URI: uri}})
	c.waitDiagnostics(suri, func(ds []Diagnostic) bool { return len(ds) == 0 })

	if err := os.WriteFile(script, []byte(bad), 0o755); err != nil {
		t.Fatal(err)
	}
	c.notify("textDocument/didSave", didSaveParams{TextDocument: textDocumentIdentifier{URI: uri}})
	c.waitDiagnostics(suri, func(ds []Diagnostic) bool { return len(ds) == 1 })
	c.notify("textDocument/didClose", didCloseParams{TextDocument: textDocumentIdentifier{URI: uri}})
	c.waitDiagnostics(suri, func(ds []Diagnostic) bool { return len(ds) == 0 })
}
