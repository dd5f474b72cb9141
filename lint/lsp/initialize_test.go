package lsp

import (
	"encoding/json"
	"io/fs"
	"testing"
	"time"

	"github.com/hookctl/hookctl/lint"
)

// TestCapabilitiesDefensively: the client's capabilities are read field by
// field, so a field of the wrong type or one the server does not know
// leaves the rest in force and positions in UTF-16, instead of failing
// initialize with -32602.
func TestCapabilitiesDefensively(t *testing.T) {
	for _, tc := range []struct {
		caps     string
		encoding string
		markdown bool
	}{
		{`{"general": {"positionEncodings": "utf-8"}}`, encodingUTF16, false},
		{`{"general": {"positionEncodings": ["utf-8", 8]}}`, encodingUTF8, false},
		{`{"general": {"positionEncodings": [null, "utf-32", "utf-8"]}, "textDocument": {"hover": {"contentFormat": ["markdown"]}}}`, encodingUTF8, true},
		{`{"general": "utf-8", "textDocument": {"hover": {"contentFormat": "markdown"}}}`, encodingUTF16, false},
		{`{"general": {"positionEncodings": ["utf-16"]}, "workspace": {"workspaceEdit": {"documentChanges": "yes"}}, "experimental": {"x": 1}, "textDocument": {"hover": {"contentFormat": [1, "markdown"]}}}`, encodingUTF16, true},
		{`7`, encodingUTF16, false},
		{`null`, encodingUTF16, false},
	} {
		c := startServer(t, Options{Poll: -1})
		var res initializeResult
		c.call("initialize", map[string]any{"processId": "not a number", "rootUri": 3, "clientInfo": "an editor", "capabilities": json.RawMessage(tc.caps)}, &res)
		if res.Capabilities.PositionEncoding != tc.encoding {
			t.Errorf("%s: positions in %q, want %q", tc.caps, res.Capabilities.PositionEncoding, tc.encoding)
		}
		if !res.Capabilities.HoverProvider || res.Capabilities.TextDocumentSync.Change != syncIncremental {
			t.Errorf("%s: capabilities %+v", tc.caps, res.Capabilities)
		}
		c.notify("initialized", map[string]any{})
		// Hover follows what was read of the client: Markdown or plain.
		var h *hover
		path := workspace(t)
		c.notify("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: pathURI(path), Version: 1, Text: sessionHooks}})
		c.call("textDocument/hover", textDocumentPositionParams{TextDocument: textDocumentIdentifier{URI: pathURI(path)}, Position: Position{Line: 2, Character: 6}}, &h)
		if h == nil || (h.Contents.Kind == "markdown") != tc.markdown {
			t.Errorf("%s: hover %+v, markdown %v", tc.caps, h, tc.markdown)
		}
		c.call("shutdown", nil, nil)
		c.notify("exit", nil)
		if err := c.end(); err != nil {
			t.Errorf("%s: %v", tc.caps, err)
		}
	}
}

// TestStaleRunNotPublished: a run whose version a change superseded
// publishes nothing, and the newest text is linted when it ends.
func TestStaleRunNotPublished(t *testing.T) {
	release := make(chan struct{})
	started := make(chan int, 10)
	runs := 0
	slow := func(req lint.SourceRequest) ([]lint.Finding, map[string]fs.FileInfo, error) {
		runs++
		started <- runs
		if runs == 2 {
			<-release // the run of version 2 waits while version 3 arrives
		}
		return lint.LintSourceRequest(req)
	}
	path := workspace(t)
	uri := pathURI(path)
	c := startServer(t, Options{lint: slow, Poll: -1, Debounce: time.Millisecond})
	c.initialize(`{}`)
	c.notify("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: uri, Version: 1, Text: sessionHooks}})
	c.diagnostics(uri, 1)
	<-started
	change := func(v int32) {
		c.notify("textDocument/didChange", didChangeParams{TextDocument: versionedTextDocumentIdentifier{URI: uri, Version: v},
			ContentChanges: []contentChange{{Text: sessionHooks}}})
	}
	change(2)
	if n := <-started; n != 2 {
		t.Fatalf("run %d started, want 2", n)
	}
	change(3)
	// The server handles messages in order: once it answers a request
	// sent after the change, it has taken version 3.
	var h *hover
	c.call("textDocument/hover", textDocumentPositionParams{TextDocument: textDocumentIdentifier{URI: uri}, Position: Position{Line: 2, Character: 6}}, &h)
	close(release)
	c.diagnostics(uri, 3)
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range c.diags {
		if p.Version != nil && *p.Version == 2 {
			t.Errorf("the superseded version 2 was published")
		}
	}
}
