// Package lsp is hookctl's language server: lint's findings on the unsaved
// text of hooks.json and hooks.test.json files as they are typed, lint's
// fixes as quick fixes, completion, hover, and go to definition from a
// handler's command to its script, over the Language Server Protocol 3.17
// on a pair of streams (stdin and stdout for hookctl lsp).
//
// The JSON-RPC layer is github.com/sourcegraph/jsonrpc2, the library behind
// efm-langserver and golangci-lint-langserver; the protocol's types are the
// few this server uses (protocol.go). Requests are answered on the reader
// goroutine in the order they come, and each is quick (a scan of the text
// up to the cursor); lint runs on its own goroutine per document, a short
// while after the last change, a change cancels the run of the text it
// replaces, and a result is published only if the document still has the
// text it linted. ShellCheck runs on open and on save, and its findings
// are published with every run's until the next save (those inside a
// script a handler runs on the script's own URI). Code actions wait,
// off the reader goroutine, for the lint of the version they are asked
// about.
package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/hookctl/hookctl/lint"
	"github.com/hookctl/hookctl/schema"
)

// Defaults of Options.
const (
	// DefaultDebounce is how long the server waits after a change before
	// it lints: long enough to lint once for changes that come together
	// (a paste, a key held down), short enough that diagnostics follow
	// the typing. Keystrokes further apart are each linted whatever the
	// wait, and a change during a run costs one more run, not one per
	// key, so a longer wait would only delay them.
	DefaultDebounce = 10 * time.Millisecond
	// DefaultPoll is how often the scripts that open files name are
	// looked at on disk.
	DefaultPoll = 2 * time.Second
)

// Options configure a server.
type Options struct {
	// Home is the user's home folder, which tells the user's
	// ~/.gemini/config/hooks.json from a workspace's file; "" when unknown.
	Home string
	// CheckTestFile checks a hooks.test.json and returns its mistakes.
	// When nil, a test file is checked as JSON only.
	CheckTestFile func(path string, src []byte) []Problem
	// Log receives the server's log; nil discards it. It is never the
	// stream the protocol is spoken on.
	Log io.Writer
	// Version is the server's version, told to the client.
	Version string
	// Debounce is the wait after a change before linting; DefaultDebounce
	// when zero.
	Debounce time.Duration
	// Poll is how often the scripts that open files name are looked at on
	// disk, to lint again when one is created, deleted or changes mode;
	// DefaultPoll when zero, never when negative.
	Poll time.Duration
	// ShellCheck is the ShellCheck program (see lint.FindShellCheck) the
	// shellcheck rule runs when a hooks.json is opened or saved; "" never
	// runs it.
	ShellCheck string

	// lint replaces lint.LintSourceRequest in tests.
	lint func(lint.SourceRequest) ([]lint.Finding, map[string]fs.FileInfo, error)
}

// Problem is a mistake found in a file other than a hooks.json.
type Problem struct {
	Pos     schema.Pos
	Message string
}

// ErrExitWithoutShutdown is Serve's error when the client sent exit
// without shutdown first; LSP asks the server to exit with status 1 then.
var ErrExitWithoutShutdown = errors.New("the client asked the server to exit without shutting it down first")

// ErrProtocol is returned when the client sent a message header the server
// cannot read, which ends the connection.
var ErrProtocol = errors.New("the client sent a message the server cannot read")

// fileKind is what a document holds.
type fileKind int

const (
	hooksFile fileKind = iota
	testFile
)

func kindOf(uri string) fileKind {
	if strings.HasSuffix(uri, "hooks.test.json") {
		return testFile
	}
	return hooksFile
}

// served reports whether the server looks at a document: a file whose name
// ends in hooks.json (hooks.json, claude-hooks.json) or hooks.test.json.
// Other documents are left alone, so a client that sends every JSON file
// (Zed gives a language's files to each of its servers) gets nothing
// wrong for package.json.
func served(uri string) bool {
	name := uri
	if i := strings.LastIndexAny(uri, "/:"); i >= 0 {
		name = uri[i+1:]
	}
	return strings.HasSuffix(name, "hooks.json") || strings.HasSuffix(name, "hooks.test.json")
}

type server struct {
	opts   Options
	log    *log.Logger
	conn   *jsonrpc2.Conn
	stream *stream
	ctx    context.Context

	// pubMu is held from the check that a result is current to the end of
	// its publication, and by a closed document's last publication, so
	// that what the client sees last of a document is its newest state.
	// It is taken before mu.
	pubMu sync.Mutex

	mu              sync.Mutex
	docs            map[string]*docState
	encoding        string
	documentChanges bool
	markdown        bool // hover in Markdown
	markdownItems   bool // completion items' documentation in Markdown
	watchFiles      bool
	// scriptsShown are the script files whose ShellCheck findings were
	// last published non-empty, so that they are cleared once no open
	// document's run finds them.
	scriptsShown map[string]bool
	initialized  bool
	shutdown     bool
	exited       bool
	// ready is closed once conn is set: the connection reads, and so
	// calls Handle, from the moment it is made.
	ready chan struct{}
}

// docState is an open document and what the server knows of it.
type docState struct {
	doc  *Document
	kind fileKind

	timer   *time.Timer
	linting bool // a lint run of this document is under way
	again   bool // lint again when the run under way ends
	// cancel stops the run under way, whose text a change has made
	// stale; nil when no run is under way.
	cancel context.CancelFunc

	// shellcheck is set when the document was opened or saved and
	// ShellCheck has not run on its text since: the next run runs it.
	shellcheck bool
	// checked are ShellCheck's findings of the text it last ran on,
	// moved with the text since (shifted): published with every run's
	// until ShellCheck runs again.
	checked []lint.Finding
	// scripts are ShellCheck's findings, by script file (an absolute
	// path), in the files the document's handlers run, from its last
	// run: published on those files' own URIs.
	scripts map[string][]lint.Finding

	// result is the last lint published, for its version.
	result *result
	// linted is closed when a new result is stored.
	linted chan struct{}
	// stamps sum up what the last lint saw of each file it looked at on
	// disk; the poll compares them with the disk.
	stamps map[string]string
}

// result is what one lint run found in one version of a document.
type result struct {
	doc Document
	// findings are the run's and ShellCheck's (docState.checked).
	findings []lint.Finding
	diags    []Diagnostic
}

// Serve speaks the protocol on in and out until the client exits or in
// ends. It returns nil after shutdown and exit or at the end of in, and
// ErrExitWithoutShutdown when the client exits without shutting the
// server down, ErrProtocol when a message header cannot be read.
func Serve(ctx context.Context, in io.Reader, out io.Writer, opts Options) error {
	if opts.Debounce == 0 {
		opts.Debounce = DefaultDebounce
	}
	if opts.Poll == 0 {
		opts.Poll = DefaultPoll
	}
	if opts.lint == nil {
		opts.lint = lint.LintSourceRequest
	}
	logw := opts.Log
	if logw == nil {
		logw = io.Discard
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s := &server{
		opts:     opts,
		log:      log.New(safeWriter{logw}, "hookctl lsp: ", log.LstdFlags),
		docs:     map[string]*docState{},
		encoding: encodingUTF16,
		ready:    make(chan struct{}),
		ctx:      ctx,
	}
	s.stream = newStream(pipe{in, out}, codec{s.log})
	s.conn = jsonrpc2.NewConn(ctx, s.stream, s, jsonrpc2.SetLogger(s.log))
	close(s.ready)
	if opts.Poll > 0 {
		go s.poll(ctx)
	}
	select {
	case <-s.conn.DisconnectNotify():
	case <-ctx.Done():
		s.conn.Close()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range s.docs {
		d.stop()
	}
	if s.exited && !s.shutdown {
		return ErrExitWithoutShutdown
	}
	if fe := s.stream.broken.Load(); fe != nil {
		return fmt.Errorf("%w: %v", ErrProtocol, *fe)
	}
	return nil
}

// safeWriter escapes control characters other than line breaks and tabs,
// so that a file or client name in a log line cannot send escape
// sequences to a terminal that shows the log.
type safeWriter struct{ w io.Writer }

func (s safeWriter) Write(p []byte) (int, error) {
	var b strings.Builder
	for _, r := range string(p) {
		switch {
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case unicode.IsControl(r):
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			b.WriteRune(r)
		}
	}
	if _, err := io.WriteString(s.w, b.String()); err != nil {
		return 0, err
	}
	return len(p), nil
}

// pipe joins the two streams into the connection jsonrpc2 wants; closing
// it closes in when it can be closed, which ends a read under way.
type pipe struct {
	io.Reader
	io.Writer
}

func (p pipe) Close() error {
	if c, ok := p.Reader.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// LSP's error codes beyond JSON-RPC's.
const (
	codeServerNotInitialized = -32002
	codeRequestFailed        = -32803
)

// Handle answers one message. It runs on the connection's reader
// goroutine, so it never waits for lint: code actions, which need the
// current version's findings, are answered from their own goroutine.
func (s *server) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	<-s.ready
	defer func() {
		if r := recover(); r != nil {
			s.log.Printf("internal error in %s: %v", req.Method, r)
			if !req.Notif {
				_ = conn.ReplyWithError(ctx, req.ID, &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: fmt.Sprintf("hookctl lsp: internal error in %s: %v", req.Method, r)})
			}
		}
	}()
	result, err := s.handle(ctx, req)
	if req.Notif {
		if err != nil {
			s.log.Printf("%s: %v", req.Method, err)
		}
		return
	}
	if errors.Is(err, errAnswered) {
		return
	}
	if err != nil {
		var je *jsonrpc2.Error
		if !errors.As(err, &je) {
			je = &jsonrpc2.Error{Code: codeRequestFailed, Message: err.Error()}
		}
		_ = conn.ReplyWithError(ctx, req.ID, je)
		return
	}
	if err := conn.Reply(ctx, req.ID, result); err != nil && !errors.Is(err, jsonrpc2.ErrClosed) {
		s.log.Printf("replying to %s: %v", req.Method, err)
	}
}

// errAnswered says that a request's answer is sent by another goroutine.
var errAnswered = errors.New("answered later")

func (s *server) handle(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	s.mu.Lock()
	initialized, shutdown := s.initialized, s.shutdown
	s.mu.Unlock()
	switch {
	case req.Method == "exit":
		s.mu.Lock()
		s.exited = true
		s.mu.Unlock()
		go s.conn.Close()
		return nil, nil
	case req.Method == "initialize":
		if initialized {
			return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidRequest, Message: "the server is already initialized"}
		}
		return s.initialize(req)
	case !initialized:
		if req.Notif {
			return nil, nil
		}
		return nil, &jsonrpc2.Error{Code: codeServerNotInitialized, Message: "the server is not initialized yet: send initialize first"}
	case shutdown:
		if req.Notif {
			return nil, nil
		}
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidRequest, Message: "the server is shut down: only exit is accepted"}
	}
	switch req.Method {
	case "initialized":
		s.registerWatchers()
		return nil, nil
	case "shutdown":
		s.mu.Lock()
		s.shutdown = true
		for _, d := range s.docs {
			d.stop()
		}
		s.mu.Unlock()
		return nil, nil
	case "textDocument/didOpen":
		var p didOpenParams
		if err := params(req, &p); err != nil {
			return nil, err
		}
		s.didOpen(p)
		return nil, nil
	case "textDocument/didChange":
		var p didChangeParams
		if err := params(req, &p); err != nil {
			return nil, err
		}
		return nil, s.didChange(p)
	case "textDocument/didClose":
		var p didCloseParams
		if err := params(req, &p); err != nil {
			return nil, err
		}
		s.didClose(p)
		return nil, nil
	case "textDocument/didSave":
		var p didSaveParams
		if err := params(req, &p); err != nil {
			return nil, err
		}
		s.saved(p.TextDocument.URI)
		return nil, nil
	case "workspace/didChangeWatchedFiles":
		var p didChangeWatchedFilesParams
		if err := params(req, &p); err != nil {
			return nil, err
		}
		s.filesChanged(p)
		return nil, nil
	case "textDocument/codeAction":
		var p codeActionParams
		if err := params(req, &p); err != nil {
			return nil, err
		}
		go s.codeAction(ctx, req.ID, p)
		return nil, errAnswered
	case "textDocument/completion":
		var p textDocumentPositionParams
		if err := params(req, &p); err != nil {
			return nil, err
		}
		return s.completion(p), nil
	case "textDocument/hover":
		var p textDocumentPositionParams
		if err := params(req, &p); err != nil {
			return nil, err
		}
		return s.hover(p), nil
	case "textDocument/definition":
		var p textDocumentPositionParams
		if err := params(req, &p); err != nil {
			return nil, err
		}
		return s.definition(p), nil
	}
	if req.Notif {
		// $/cancelRequest, $/setTrace, workspace/didChangeConfiguration,
		// ...: nothing to do.
		return nil, nil
	}
	return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "hookctl lsp does not handle " + req.Method}
}

func params(req *jsonrpc2.Request, v any) error {
	if req.Params == nil {
		return &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: req.Method + " needs params"}
	}
	if err := json.Unmarshal(*req.Params, v); err != nil {
		return &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: fmt.Sprintf("%s: %v", req.Method, err)}
	}
	return nil
}

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

func (s *server) didOpen(p didOpenParams) {
	item := p.TextDocument
	if !served(item.URI) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if old := s.docs[item.URI]; old != nil {
		old.stop()
	}
	d := &docState{
		doc:        NewDocument(item.URI, item.Version, []byte(item.Text), s.encoding),
		kind:       kindOf(item.URI),
		linted:     make(chan struct{}),
		shellcheck: true,
	}
	s.docs[item.URI] = d
	s.schedule(item.URI, d, 0)
}

func (s *server) didChange(p didChangeParams) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[p.TextDocument.URI]
	if d == nil {
		if !served(p.TextDocument.URI) {
			return nil
		}
		return fmt.Errorf("a change to %s, which is not open", p.TextDocument.URI)
	}
	// The document is copied so that a lint run's snapshot keeps its text
	// and line table.
	doc := *d.doc
	for _, c := range p.ContentChanges {
		if err := doc.Apply(c); err != nil {
			return fmt.Errorf("%s: %v", p.TextDocument.URI, err)
		}
	}
	doc.Version = p.TextDocument.Version
	if len(d.checked) > 0 {
		d.checked = shift(d.checked, d.doc.Text, &doc)
	}
	d.doc = &doc
	// The run under way lints a text that is no more: it stops, and the
	// new text is linted once the debounce has passed.
	if d.cancel != nil {
		d.cancel()
	}
	s.schedule(p.TextDocument.URI, d, s.opts.Debounce)
	return nil
}

func (s *server) didClose(p didCloseParams) {
	uri := p.TextDocument.URI
	s.mu.Lock()
	d := s.docs[uri]
	delete(s.docs, uri)
	if d != nil {
		d.stop()
	}
	s.mu.Unlock()
	if d != nil {
		// A closed file's findings leave the editor's problem list. The
		// publication waits for one under way (off the reader goroutine),
		// and is left out when the document was opened again meanwhile.
		go func() {
			s.pubMu.Lock()
			defer s.pubMu.Unlock()
			s.mu.Lock()
			reopened := s.docs[uri] != nil
			s.mu.Unlock()
			if !reopened {
				s.publish(publishDiagnosticsParams{URI: uri, Diagnostics: []Diagnostic{}})
			}
			if len(d.scripts) > 0 {
				s.publishScripts()
			}
		}()
	}
}

// stop stops the document's waiting lint and the run under way. s.mu is
// held.
func (d *docState) stop() {
	if d.timer != nil {
		d.timer.Stop()
	}
	if d.cancel != nil {
		d.cancel()
	}
}

// saved lints a saved document again with ShellCheck: what lint says of
// the file on disk (its mode) and of its scripts may have changed.
func (s *server) saved(uri string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d := s.docs[uri]; d != nil {
		d.shellcheck = true
		s.schedule(uri, d, 0)
	}
}

// schedule lints the document after the wait, replacing a lint that was
// waiting. s.mu is held.
func (s *server) schedule(uri string, d *docState, wait time.Duration) {
	if s.shutdown {
		return
	}
	if d.timer != nil {
		d.timer.Stop()
	}
	d.timer = time.AfterFunc(wait, func() { s.lintNow(uri, d) })
}

// lintNow lints the document's current text unless a run is already under
// way; that run then lints again when it ends, so at most one run per
// document is ever busy and the last text is always linted. A change
// cancels the run under way (didChange), whose findings are then never
// published.
func (s *server) lintNow(uri string, d *docState) {
	s.mu.Lock()
	if s.docs[uri] != d || s.shutdown {
		s.mu.Unlock()
		return
	}
	if d.linting {
		d.again = true
		s.mu.Unlock()
		return
	}
	d.linting = true
	cur := d.doc
	doc := *cur
	shellcheck := d.shellcheck && d.kind == hooksFile && s.opts.ShellCheck != ""
	ctx, cancel := context.WithCancel(s.ctx)
	d.cancel = cancel
	s.mu.Unlock()
	defer cancel()

	if res, stamps, ok := s.run(ctx, &doc); ok {
		s.store(uri, d, cur, res, stamps)
	}
	// ShellCheck runs after the other rules' findings are out: they do not
	// wait for it.
	if shellcheck && ctx.Err() == nil {
		if found, scripts, ok := s.runShellCheck(ctx, &doc); ok {
			s.storeShellCheck(uri, d, cur, found, scripts)
		}
	}

	s.mu.Lock()
	d.linting = false
	d.cancel = nil
	again := d.again && s.docs[uri] == d
	d.again = false
	if again {
		s.schedule(uri, d, 0)
	}
	s.mu.Unlock()
}

// store keeps and publishes a run's result of the text cur, with
// ShellCheck's findings, unless cur is no longer the document's text.
func (s *server) store(uri string, d *docState, cur *Document, res *result, stamps map[string]string) {
	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	s.mu.Lock()
	current := s.docs[uri] == d && d.doc == cur && !s.shutdown
	checked := d.checked
	s.mu.Unlock()
	if !current {
		return
	}
	if res.diags == nil {
		res.findings = merge(res.findings, checked)
		res.diags = s.diagnostics(&res.doc, res.findings)
	}
	s.mu.Lock()
	current = s.docs[uri] == d && d.doc == cur && !s.shutdown
	if current {
		d.result = res
		d.stamps = stamps
		close(d.linted)
		d.linted = make(chan struct{})
	}
	s.mu.Unlock()
	if current {
		v := res.doc.Version
		s.publish(publishDiagnosticsParams{URI: uri, Version: &v, Diagnostics: res.diags})
	}
}

// storeShellCheck keeps ShellCheck's findings of the text cur and
// publishes them with the run's, unless cur is no longer the document's
// text: then ShellCheck stays owed, and the next run runs it.
func (s *server) storeShellCheck(uri string, d *docState, cur *Document, found []lint.Finding, scripts map[string][]lint.Finding) {
	s.mu.Lock()
	current := s.docs[uri] == d && d.doc == cur
	if current {
		d.checked = found
		d.scripts = scripts
		d.shellcheck = false
	}
	var fast []lint.Finding
	if d.result != nil && d.result.doc.Version == cur.Version {
		fast = unchecked(d.result.findings)
	}
	stamps := d.stamps
	s.mu.Unlock()
	s.store(uri, d, cur, &result{doc: *cur, findings: fast}, stamps)
	if current {
		s.pubMu.Lock()
		s.publishScripts()
		s.pubMu.Unlock()
	}
}

// maxScriptText is the most of a script file read to place its
// findings.
const maxScriptText = 8 << 20

// publishScripts publishes ShellCheck's findings in the script files the
// open documents' handlers run, on each script's own URI (an editor shows
// them in its problem list, and when the script is opened), the findings
// of every document that runs a script together; a script no document's
// findings name any more is cleared. s.pubMu is held.
func (s *server) publishScripts() {
	s.mu.Lock()
	if s.shutdown {
		s.mu.Unlock()
		return
	}
	all := map[string][]lint.Finding{}
	for _, d := range s.docs {
		for path, found := range d.scripts {
			all[path] = append(all[path], found...)
		}
	}
	shown := s.scriptsShown
	s.scriptsShown = make(map[string]bool, len(all))
	for path := range all {
		s.scriptsShown[path] = true
	}
	enc := s.encoding
	s.mu.Unlock()
	for _, path := range slices.Sorted(maps.Keys(all)) {
		found := all[path]
		lint.Sort(found)
		found = slices.CompactFunc(found, func(a, b lint.Finding) bool {
			return a.Span == b.Span && a.Rule == b.Rule && a.Message == b.Message
		})
		text, err := readScript(path)
		if err != nil {
			s.log.Printf("placing ShellCheck's findings in %s: %v", path, err)
		}
		doc := NewDocument(pathURI(path), 0, text, enc)
		s.publish(publishDiagnosticsParams{URI: doc.URI, Diagnostics: s.diagnostics(doc, found)})
	}
	for _, path := range slices.Sorted(maps.Keys(shown)) {
		if _, ok := all[path]; !ok {
			s.publish(publishDiagnosticsParams{URI: pathURI(path), Diagnostics: []Diagnostic{}})
		}
	}
}

// readScript reads a script file, bounded, for the places of findings.
func readScript(path string) ([]byte, error) {
	f, _, err := schema.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var b bytes.Buffer
	_, err = schema.CopyBounded(&b, f, path, maxScriptText)
	return b.Bytes(), err
}

// merge returns the run's findings with ShellCheck's, in file order.
func merge(findings, checked []lint.Finding) []lint.Finding {
	if len(checked) == 0 {
		return findings
	}
	out := append(slices.Clip(findings), checked...)
	lint.Sort(out)
	return out
}

// unchecked returns the findings that are not ShellCheck's.
func unchecked(findings []lint.Finding) []lint.Finding {
	return slices.DeleteFunc(slices.Clone(findings), func(f lint.Finding) bool { return f.Rule == shellcheckRule })
}

// shellcheckRule is the ID of the rule that runs ShellCheck.
const shellcheckRule = "shellcheck"

// run lints one snapshot of a document with every rule but ShellCheck's,
// and sums up what lint saw of the files it looked at on disk; ok is
// false when ctx stopped it. A panic in a rule is logged and leaves the
// document without findings rather than ending the server.
func (s *server) run(ctx context.Context, doc *Document) (res *result, stamps map[string]string, ok bool) {
	res = &result{doc: *doc, diags: []Diagnostic{}}
	defer func() {
		if r := recover(); r != nil {
			s.log.Printf("linting %s failed: %v", doc.URI, r)
			res, stamps, ok = &result{doc: *doc, diags: []Diagnostic{}}, nil, true
		}
	}()
	if kindOf(doc.URI) == testFile {
		res.diags = s.checkTestFile(doc)
		return res, nil, true
	}
	t := s.target(doc)
	findings, seen, err := s.opts.lint(lint.SourceRequest{Target: t, Src: doc.Text, Stop: ctx})
	if err != nil {
		return nil, nil, false
	}
	res.findings = ownFindings(t, findings)
	res.diags = nil // made by store once the run is known to be current
	if doc.Path != "" {
		stamps = make(map[string]string, len(seen))
		for path, info := range seen {
			if filepath.IsAbs(path) {
				stamps[path] = stampOf(info)
			}
		}
	}
	return res, stamps, true
}

// runShellCheck runs the shellcheck rule, as hookctl lint does, on one
// snapshot of a document; ok is false when ctx stopped it. A panic is
// logged and leaves no findings.
func (s *server) runShellCheck(ctx context.Context, doc *Document) (found []lint.Finding, scripts map[string][]lint.Finding, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Printf("running ShellCheck on %s failed: %v", doc.URI, r)
			found, scripts, ok = nil, nil, true
		}
	}()
	t := s.target(doc)
	findings, _, err := s.opts.lint(lint.SourceRequest{Target: t, Src: doc.Text, Rules: []string{shellcheckRule}, ShellCheck: s.opts.ShellCheck, Stop: ctx})
	if err != nil {
		return nil, nil, false
	}
	if doc.Path != "" {
		for _, f := range findings {
			if f.File == t.Path {
				continue
			}
			path := f.File
			if !filepath.IsAbs(path) {
				path = filepath.Join(filepath.Dir(t.Path), path)
			}
			if scripts == nil {
				scripts = map[string][]lint.Finding{}
			}
			scripts[path] = append(scripts[path], f)
		}
	}
	return ownFindings(t, findings), scripts, true
}

// ownFindings are the findings in the linted file itself: those in other
// files (a script's own) have no place in its diagnostics.
func ownFindings(t lint.Target, findings []lint.Finding) []lint.Finding {
	var out []lint.Finding
	for _, f := range findings {
		if f.File == t.Path {
			out = append(out, f)
		}
	}
	return out
}

// diagnostics turns findings into the document's diagnostics; a panic is
// logged and leaves the document without diagnostics.
func (s *server) diagnostics(doc *Document, findings []lint.Finding) (diags []Diagnostic) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Printf("reporting the findings of %s failed: %v", doc.URI, r)
			diags = []Diagnostic{}
		}
	}()
	diags = make([]Diagnostic, 0, len(findings))
	for _, f := range findings {
		diags = append(diags, diagnostic(doc, f))
	}
	return diags
}

// scripts returns the files a document's handlers run, nil when they
// cannot be found (a panic is logged).
func (s *server) scripts(doc *Document) (out []lint.Script) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Printf("finding the scripts of %s failed: %v", doc.URI, r)
			out = nil
		}
	}()
	return lint.Scripts(s.target(doc), doc.Text)
}

// target is the hooks.json lint sees for a document: its file, or for a
// document that is not a file, a hooks.json in the server's folder.
func (s *server) target(doc *Document) lint.Target {
	path := doc.Path
	if path == "" {
		path = "hooks.json"
	}
	scope, root := lint.ScopeOf(path, s.opts.Home)
	return lint.Target{Path: path, Scope: scope, Root: root}
}

// publish sends a document's diagnostics, encoded by appendPublish.
func (s *server) publish(p publishDiagnosticsParams) {
	select {
	case <-s.conn.DisconnectNotify():
		return
	default:
	}
	if err := s.stream.writeRaw(appendPublish(nil, p)); err != nil {
		s.log.Printf("publishing diagnostics of %s: %v", p.URI, err)
	}
}

// codeAction answers a code action request once the findings of the
// document's current version are known.
func (s *server) codeAction(ctx context.Context, id jsonrpc2.ID, p codeActionParams) {
	var actions []CodeAction
	defer func() {
		if r := recover(); r != nil {
			s.log.Printf("internal error in textDocument/codeAction: %v", r)
			actions = nil
		}
		if actions == nil {
			actions = []CodeAction{}
		}
		if err := s.conn.Reply(ctx, id, actions); err != nil && !errors.Is(err, jsonrpc2.ErrClosed) {
			s.log.Printf("replying to textDocument/codeAction: %v", err)
		}
	}()
	only := p.Context.Only
	quickFixes, fixAll := len(only) == 0 || wants(only, kindQuickFix), wants(only, kindFixAll)
	if !quickFixes && !fixAll {
		return
	}
	deadline := time.After(5 * time.Second)
	for {
		s.mu.Lock()
		d := s.docs[p.TextDocument.URI]
		if d == nil {
			s.mu.Unlock()
			return
		}
		if d.result != nil && d.result.doc.Version == d.doc.Version {
			res, documentChanges := d.result, s.documentChanges
			s.mu.Unlock()
			if quickFixes {
				actions = CodeActions(&res.doc, res.findings, p.Range, documentChanges)
			}
			if a := FixAll(&res.doc, res.findings, documentChanges); fixAll && a != nil {
				actions = append(actions, *a)
			}
			return
		}
		wait := d.linted
		s.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			return
		case <-s.ctx.Done():
			return
		case <-deadline:
			return
		}
	}
}

// wants reports whether a request's "only" list asks for a kind of code
// action: the kind itself or a kind it refines ("source" covers
// "source.fixAll").
func wants(only []string, kind string) bool {
	for _, k := range only {
		if k == kind || strings.HasPrefix(kind, k+".") {
			return true
		}
	}
	return false
}

// snapshot returns a copy of an open document and the last lint result of
// its current version (nil when lint has not caught up).
func (s *server) snapshot(uri string) (*Document, *result, fileKind) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[uri]
	if d == nil {
		return nil, nil, hooksFile
	}
	doc := *d.doc
	var res *result
	if d.result != nil && d.result.doc.Version == doc.Version {
		res = d.result
	}
	return &doc, res, d.kind
}

// folder is where a document's handlers run: the folder that holds it.
func folder(doc *Document) string {
	if doc.Path == "" {
		return "."
	}
	return filepath.Dir(doc.Path)
}
