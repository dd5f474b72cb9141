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
//
// One file per concern, as gopls has them: server.go serves the
// connection and holds the table of methods; general.go the lifecycle;
// text_synchronization.go the open documents; lint_queue.go when and how
// they are linted; shellcheck.go ShellCheck's runs; diagnostics.go what
// is published; code_action.go the fixes; complete.go and hover.go what
// the cursor is on; watch.go the files the documents name.
package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
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

// handle answers a message of the lifecycle itself (initialize, exit),
// refuses any other before initialize and after shutdown, and hands the
// rest to their method in the table.
func (s *server) handle(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	s.mu.Lock()
	initialized, shutdown := s.initialized, s.shutdown
	s.mu.Unlock()
	switch {
	case req.Method == "exit":
		s.exit()
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
	if m := methods()[req.Method]; m != nil {
		return m(s, ctx, req)
	}
	if req.Notif {
		// $/cancelRequest, $/setTrace, workspace/didChangeConfiguration,
		// ...: nothing to do.
		return nil, nil
	}
	return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "hookctl lsp does not handle " + req.Method}
}

// method answers one message of an initialized server that is not shut
// down: it decodes the params into the type its handler takes and calls
// it (see the adapters below).
type method func(s *server, ctx context.Context, req *jsonrpc2.Request) (any, error)

// methods are the messages the server answers between initialize and
// shutdown, each with its handler.
var methods = sync.OnceValue(func() map[string]method {
	return map[string]method{
		// The lifecycle (general.go).
		"initialized": noParams((*server).registerWatchers),
		"shutdown":    noParams((*server).beginShutdown),
		// The documents' texts (text_synchronization.go) and the files they
		// name (watch.go).
		"textDocument/didOpen":            notification((*server).didOpen),
		"textDocument/didChange":          notification((*server).didChange),
		"textDocument/didClose":           notification((*server).didClose),
		"textDocument/didSave":            notification((*server).didSave),
		"workspace/didChangeWatchedFiles": notification((*server).filesChanged),
		// Quick fixes (code_action.go), answered once lint caught up.
		"textDocument/codeAction": answeredLater((*server).codeAction),
		// What the cursor is on (complete.go, hover.go).
		"textDocument/completion": request((*server).completion),
		"textDocument/hover":      request((*server).hover),
		"textDocument/definition": request((*server).definition),
	}
})

// noParams is the method of a handler that reads no params.
func noParams(h func(*server)) method {
	return func(s *server, _ context.Context, _ *jsonrpc2.Request) (any, error) {
		h(s)
		return nil, nil
	}
}

// notification is the method of a handler that answers nothing; its error
// is logged (or, when a client sent it as a request, answered).
func notification[P any](h func(*server, P) error) method {
	return func(s *server, _ context.Context, req *jsonrpc2.Request) (any, error) {
		var p P
		if err := params(req, &p); err != nil {
			return nil, err
		}
		return nil, h(s, p)
	}
}

// request is the method of a handler whose result is the answer.
func request[P, R any](h func(*server, P) R) method {
	return func(s *server, _ context.Context, req *jsonrpc2.Request) (any, error) {
		var p P
		if err := params(req, &p); err != nil {
			return nil, err
		}
		return h(s, p), nil
	}
}

// answeredLater is the method of a handler that answers from its own
// goroutine, so that the reader goroutine never waits.
func answeredLater[P any](h func(s *server, ctx context.Context, id jsonrpc2.ID, p P)) method {
	return func(s *server, ctx context.Context, req *jsonrpc2.Request) (any, error) {
		var p P
		if err := params(req, &p); err != nil {
			return nil, err
		}
		go h(s, ctx, req.ID, p)
		return nil, errAnswered
	}
}

// params decodes a message's params into v.
func params(req *jsonrpc2.Request, v any) error {
	if req.Params == nil {
		return &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: req.Method + " needs params"}
	}
	if err := json.Unmarshal(*req.Params, v); err != nil {
		return &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: fmt.Sprintf("%s: %v", req.Method, err)}
	}
	return nil
}
