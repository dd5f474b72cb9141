package lsp

import (
	"context"
	"encoding/json"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// client is an LSP client for tests: it speaks to a server started with
// Serve over a pair of pipes, as an editor speaks to hookctl lsp.
type client struct {
	t    *testing.T
	conn *jsonrpc2.Conn
	// served receives Serve's error when the server ends.
	served chan error
	// toServer is the server's stdin, for tests that end it.
	toServer *io.PipeWriter

	mu            sync.Mutex
	diags         []publishDiagnosticsParams
	newDiags      chan struct{}
	registrations []registration
}

// hangGuard bounds every wait of the tests: a server that never answers
// fails the test instead of hanging it. It is not a measure of speed.
const hangGuard = 20 * time.Second

func startServer(t *testing.T, opts Options) *client {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &client{t: t, served: make(chan error, 1), toServer: inW, newDiags: make(chan struct{}, 1)}
	go func() {
		err := Serve(context.Background(), inR, outW, opts)
		outW.Close()
		c.served <- err
	}()
	stream := jsonrpc2.NewBufferedStream(struct {
		io.Reader
		io.WriteCloser
	}{outR, inW}, jsonrpc2.VSCodeObjectCodec{})
	c.conn = jsonrpc2.NewConn(context.Background(), stream, jsonrpc2.HandlerWithError(c.handle))
	t.Cleanup(func() { c.conn.Close() })
	return c
}

func (c *client) handle(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	switch req.Method {
	case "textDocument/publishDiagnostics":
		var p publishDiagnosticsParams
		if err := json.Unmarshal(*req.Params, &p); err != nil {
			c.t.Errorf("publishDiagnostics: %v", err)
			return nil, nil
		}
		c.mu.Lock()
		c.diags = append(c.diags, p)
		c.mu.Unlock()
		select {
		case c.newDiags <- struct{}{}:
		default:
		}
	case "client/registerCapability":
		var p registrationParams
		if err := json.Unmarshal(*req.Params, &p); err != nil {
			c.t.Errorf("registerCapability: %v", err)
		}
		c.mu.Lock()
		c.registrations = append(c.registrations, p.Registrations...)
		c.mu.Unlock()
	}
	return nil, nil
}

func (c *client) call(method string, params, result any) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	if err := c.conn.Call(ctx, method, params, result); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

// initialize starts the session with the client capabilities given as
// JSON.
func (c *client) initialize(capabilities string) initializeResult {
	c.t.Helper()
	var res initializeResult
	c.call("initialize", map[string]any{"processId": nil, "rootUri": nil, "capabilities": json.RawMessage(capabilities)}, &res)
	c.notify("initialized", map[string]any{})
	return res
}

// diagnostics waits for the diagnostics of a version of a document, the
// newest published, and returns them.
func (c *client) diagnostics(uri string, version int32) []Diagnostic {
	c.t.Helper()
	deadline := time.After(hangGuard)
	for {
		c.mu.Lock()
		for i := len(c.diags) - 1; i >= 0; i-- {
			p := c.diags[i]
			if p.URI == uri && p.Version != nil && *p.Version == version {
				c.mu.Unlock()
				return p.Diagnostics
			}
		}
		c.mu.Unlock()
		select {
		case <-c.newDiags:
		case <-deadline:
			c.t.Fatalf("no diagnostics for version %d of %s", version, uri)
		}
	}
}

// waitDiagnostics waits until the newest diagnostics of a document pass
// the test.
func (c *client) waitDiagnostics(uri string, ok func([]Diagnostic) bool) []Diagnostic {
	c.t.Helper()
	deadline := time.After(hangGuard)
	for {
		c.mu.Lock()
		for i := len(c.diags) - 1; i >= 0; i-- {
			if p := c.diags[i]; p.URI == uri {
				if ok(p.Diagnostics) {
					c.mu.Unlock()
					return p.Diagnostics
				}
				break
			}
		}
		c.mu.Unlock()
		select {
		case <-c.newDiags:
		case <-deadline:
			c.t.Fatalf("the diagnostics of %s never showed what the test waits for", uri)
		}
	}
}

// end waits for the server to end and returns Serve's error.
func (c *client) end() error {
	c.t.Helper()
	select {
	case err := <-c.served:
		return err
	case <-time.After(hangGuard):
		c.t.Fatal("the server did not end")
		return nil
	}
}
