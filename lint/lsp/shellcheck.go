package lsp

import (
	"bytes"
	"context"
	"maps"
	"path/filepath"
	"slices"

	"github.com/hookctl/hookctl/lint"
	"github.com/hookctl/hookctl/schema"
)

// ShellCheck runs, after the other rules, on a document's text when it is
// opened or saved; its findings are published with every run's until the
// next save, those in a script a handler runs on the script's own URI.

// shellcheckRule is the ID of the rule that runs ShellCheck.
const shellcheckRule = "shellcheck"

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
