package lsp

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/sourcegraph/jsonrpc2"
)

// The lifecycle: initialize, initialized, shutdown and exit.

// initialize reads what the client can do and tells it what the server
// does.
func (s *server) initialize(req *jsonrpc2.Request) (any, error) {
	// The client's capabilities are read field by field: a field of the
	// wrong type, or one this server does not know, is as good as absent,
	// so that a client that gets one wrong still gets a server (with
	// positions in UTF-16, the protocol's default).
	var p struct {
		Capabilities json.RawMessage `json:"capabilities"`
		ClientInfo   json.RawMessage `json:"clientInfo"`
	}
	if req.Params != nil {
		if err := json.Unmarshal(*req.Params, &p); err != nil {
			return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: fmt.Sprintf("initialize: the params are not an object: %v", err)}
		}
	}
	var caps any
	_ = json.Unmarshal(p.Capabilities, &caps)
	s.mu.Lock()
	defer s.mu.Unlock()
	if slices.Contains(strs(field(caps, "general", "positionEncodings")), encodingUTF8) {
		s.encoding = encodingUTF8
	}
	s.documentChanges = field(caps, "workspace", "workspaceEdit", "documentChanges") == true
	s.watchFiles = field(caps, "workspace", "didChangeWatchedFiles", "dynamicRegistration") == true
	s.markdown = slices.Contains(strs(field(caps, "textDocument", "hover", "contentFormat")), "markdown")
	s.markdownItems = slices.Contains(strs(field(caps, "textDocument", "completion", "completionItem", "documentationFormat")), "markdown")
	s.initialized = true
	name := "an unnamed client"
	var info any
	_ = json.Unmarshal(p.ClientInfo, &info)
	if n, _ := field(info, "name").(string); n != "" {
		v, _ := field(info, "version").(string)
		name = strings.TrimSpace(n + " " + v)
	}
	s.log.Printf("initialized by %s; positions in %s", name, s.encoding)
	return initializeResult{
		Capabilities: serverCapabilities{
			PositionEncoding:   s.encoding,
			TextDocumentSync:   textDocumentSync{OpenClose: true, Change: syncIncremental, Save: saveOptions{}},
			CompletionProvider: &completionOptions{TriggerCharacters: []string{`"`, "|", "/", "(", " "}},
			HoverProvider:      true,
			DefinitionProvider: true,
			CodeActionProvider: &codeActionOptions{CodeActionKinds: []string{kindQuickFix, kindFixAll}},
		},
		ServerInfo: serverInfo{Name: "hookctl", Version: s.opts.Version},
	}, nil
}

// field returns the value at the path of keys in decoded JSON, nil when a
// step is missing or not an object.
func field(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// strs returns the strings of a decoded JSON array, nil for anything
// else; elements that are not strings are skipped.
func strs(v any) []string {
	a, _ := v.([]any)
	var out []string
	for _, e := range a {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// beginShutdown answers shutdown: every lint stops, and from now on only
// exit is accepted.
func (s *server) beginShutdown() {
	s.mu.Lock()
	s.shutdown = true
	for _, d := range s.docs {
		d.stop()
	}
	s.mu.Unlock()
}

// exit closes the connection, which ends Serve; without shutdown first,
// Serve returns ErrExitWithoutShutdown.
func (s *server) exit() {
	s.mu.Lock()
	s.exited = true
	s.mu.Unlock()
	go s.conn.Close()
}
