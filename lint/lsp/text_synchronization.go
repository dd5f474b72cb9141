package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/hookctl/hookctl/lint"
)

// Text synchronization: the documents the client opens, changes, saves
// and closes, as the server keeps them.

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

// didOpen keeps a document the client opened, and lints it.
func (s *server) didOpen(p didOpenParams) error {
	item := p.TextDocument
	if !served(item.URI) {
		return nil
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
	return nil
}

// didChange applies the client's changes to a document's text, and
// lints the new text a short while later.
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

// didClose forgets a document the client closed.
func (s *server) didClose(p didCloseParams) error {
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
	return nil
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

// didSave lints a saved document again with ShellCheck: what lint says of
// the file on disk (its mode) and of its scripts may have changed.
func (s *server) didSave(p didSaveParams) error {
	uri := p.TextDocument.URI
	s.mu.Lock()
	defer s.mu.Unlock()
	if d := s.docs[uri]; d != nil {
		d.shellcheck = true
		s.schedule(uri, d, 0)
	}
	return nil
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
