package lsp

import (
	"context"
	"path/filepath"
	"time"

	"github.com/hookctl/hookctl/lint"
)

// The lint queue: each open document is linted on its own goroutine, a
// short while after its last change, one run at a time; a change cancels
// the run of the text it replaces, and a result is published only while
// the document still has the text it linted.

// result is what one lint run found in one version of a document.
type result struct {
	doc Document
	// findings are the run's and ShellCheck's (docState.checked).
	findings []lint.Finding
	diags    []Diagnostic
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

// target is the hooks.json lint sees for a document: its file, or for a
// document that is not a file, a hooks.json in the server's folder.
func (s *server) target(doc *Document) lint.Target {
	path := doc.Path
	if path == "" {
		path = "hooks.json"
	}
	return lint.TargetOf(path, s.opts.Home)
}
