package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/lint/internal/gen"
)

// BenchmarkChangeToDiagnostics1000 times what a user waits for: from a
// keystroke sent to the server (an incremental didChange of a 1,000-hook
// workspace file, generated with every kind of mistake by lint's
// benchmark generator) to the diagnostics of that version received by the
// client, with the server's default debounce included. The client speaks
// the protocol over a pipe as an editor does: "decoded" parses each
// message once, as an editor's JSON parser does; "wire" stops at the last
// byte of the diagnostics, the server's part alone. docs/performance.md
// holds the figures.
//
//	go test ./lint/lsp -run XXX -bench ChangeToDiagnostics -benchtime 50x
func BenchmarkChangeToDiagnostics1000(b *testing.B) {
	b.Run("decoded", func(b *testing.B) { benchmarkChange(b, 1000, true) })
	b.Run("wire", func(b *testing.B) { benchmarkChange(b, 1000, false) })
	b.Run("jsonrpc2-client", func(b *testing.B) { benchmarkChangeJSONRPC2(b, 1000) })
}

// benchmarkChangeJSONRPC2 is the same with the tests' client, a jsonrpc2
// connection, which decodes each message three times over (as a generic
// message, as a request with its parameters re-encoded, then as the
// diagnostics): a client slower than any editor's.
func benchmarkChangeJSONRPC2(b *testing.B, n int) {
	uri, text := workspace1000(b, n)
	t := &testing.T{}
	c := startServer(t, Options{})
	c.t = t
	c.initialize(`{}`)
	c.notify("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: uri, LanguageID: "json", Version: 1, Text: text}})
	if len(c.diagnostics(uri, 1)) < n/5 {
		b.Fatal("the generated file has fewer findings than it should")
	}
	typing(b, uri, text, func(ch didChangeParams) {
		c.notify("textDocument/didChange", ch)
		c.diagnostics(uri, ch.TextDocument.Version)
	})
	if t.Failed() {
		b.Fatal("the client failed")
	}
	c.call("shutdown", nil, nil)
	c.notify("exit", nil)
	c.end()
}

// wireClient writes messages to a server and reads its messages frame by
// frame, with nothing between it and the pipe.
type wireClient struct {
	b   *testing.B
	in  *io.PipeWriter
	out *bufio.Reader
	id  int
}

func (c *wireClient) send(method string, params any, call bool) {
	msg := map[string]any{"jsonrpc": "2.0", "method": method, "params": params}
	if call {
		c.id++
		msg["id"] = c.id
	}
	body, err := json.Marshal(msg)
	if err != nil {
		c.b.Fatal(err)
	}
	if err := writeFrame(c.in, body); err != nil {
		c.b.Fatal(err)
	}
}

// until reads messages until one satisfies done.
func (c *wireClient) until(done func(body []byte) bool) {
	for {
		body, err := readFrame(c.out)
		if err != nil {
			c.b.Fatal(err)
		}
		if done(body) {
			return
		}
	}
}

// diagnostics waits for the diagnostics of a version; decode parses the
// message whole, else only its head is looked at.
func (c *wireClient) diagnostics(version int32, decode bool) int {
	n := 0
	c.until(func(body []byte) bool {
		if !decode {
			head := body[:min(len(body), 256)]
			return strings.Contains(string(head), `"method":"textDocument/publishDiagnostics"`) &&
				strings.Contains(string(head), `"version":`+strconv.Itoa(int(version))+`,`)
		}
		var msg struct {
			Method string                   `json:"method"`
			Params publishDiagnosticsParams `json:"params"`
		}
		if err := json.Unmarshal(body, &msg); err != nil {
			c.b.Fatal(err)
		}
		n = len(msg.Params.Diagnostics)
		return msg.Method == "textDocument/publishDiagnostics" && msg.Params.Version != nil && *msg.Params.Version == version
	})
	return n
}

// workspace1000 lays out the generated workspace of n hooks and returns
// its hooks.json's URI and text.
func workspace1000(b *testing.B, n int) (string, string) {
	root := b.TempDir()
	if err := gen.Workspace(root, n, false); err != nil {
		b.Fatal(err)
	}
	return pathURI(filepath.Join(root, ".agents", "hooks.json")), string(gen.Hooks(n))
}

// typing sends the timed changes: each types or deletes one character of
// a hook's name, and send waits for its diagnostics.
func typing(b *testing.B, uri, text string, send func(didChangeParams)) {
	at := strings.Index(text, `"gate-0"`) + len(`"gate-`)
	p := pos(text, at, encodingUTF16)
	version := int32(1)
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		version++
		change := contentChange{Range: &Range{Start: p, End: p}, Text: "x"}
		if i%2 == 1 {
			change = contentChange{Range: &Range{Start: p, End: Position{p.Line, p.Character + 1}}, Text: ""}
		}
		send(didChangeParams{TextDocument: versionedTextDocumentIdentifier{URI: uri, Version: version}, ContentChanges: []contentChange{change}})
	}
	b.StopTimer()
}

func benchmarkChange(b *testing.B, n int, decode bool) {
	uri, text := workspace1000(b, n)

	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	go func() {
		err := Serve(context.Background(), inR, outW, Options{})
		outW.Close()
		served <- err
	}()
	c := &wireClient{b: b, in: inW, out: bufio.NewReaderSize(outR, 1<<20)}
	c.send("initialize", map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}}, true)
	c.until(func(body []byte) bool { return strings.Contains(string(body), `"id":1`) })
	c.send("initialized", map[string]any{}, false)
	c.send("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: uri, LanguageID: "json", Version: 1, Text: text}}, false)
	if got := c.diagnostics(1, true); got < n/5 {
		b.Fatalf("the generated file has %d findings, fewer than it should", got)
	}
	typing(b, uri, text, func(ch didChangeParams) {
		c.send("textDocument/didChange", ch, false)
		c.diagnostics(ch.TextDocument.Version, decode)
	})
	go func() { _, _ = io.Copy(io.Discard, outR) }()
	c.send("shutdown", nil, true)
	c.send("exit", nil, false)
	if err := <-served; err != nil {
		b.Fatal(err)
	}
}
