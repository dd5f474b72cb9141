package lsp

import (
	"context"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/hookctl/hookctl/lint"
)

// Code actions: lint's certain fixes as quick fixes, and all of them at
// once as source.fixAll.

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

// CodeActions returns a quick fix for each finding that carries a fix and
// whose span meets rng. Each fix changes only the spans its edits name;
// a fix whose edits fall outside the text or inside a character is left
// out rather than offered wrong. With documentChanges the edits name the
// document's version, so a client refuses them once the text has moved on.
func CodeActions(doc *Document, findings []lint.Finding, rng Range, documentChanges bool) []CodeAction {
	rFrom, rTo := doc.Offset(rng.Start), doc.Offset(rng.End)
	actions := []CodeAction{}
	for _, f := range findings {
		if f.Fix == nil || len(f.Fix.Edits) == 0 {
			continue
		}
		from, to := spanOffsets(doc, f.Span)
		if from > rTo || rFrom > to {
			continue
		}
		edits, ok := textEdits(doc, f.Fix.Edits)
		if !ok {
			continue
		}
		title := f.Fix.Description
		if title == "" {
			title = "Fix: " + f.Message
		}
		a := CodeAction{
			Title:       title,
			Kind:        kindQuickFix,
			Diagnostics: []Diagnostic{diagnostic(doc, f)},
			IsPreferred: true,
			Edit:        &WorkspaceEdit{},
		}
		if documentChanges {
			a.Edit.DocumentChanges = []TextDocumentEdit{{
				TextDocument: versionedTextDocumentIdentifier{URI: doc.URI, Version: doc.Version},
				Edits:        edits,
			}}
		} else {
			a.Edit.Changes = map[string][]TextEdit{doc.URI: edits}
		}
		actions = append(actions, a)
	}
	return actions
}

// FixAll returns one action that applies every fix of the findings that
// does not clash with a fix before it, in file order: the set
// lint.NonOverlapping picks, as one pass of hookctl lint --fix; nil when
// no finding carries a fix. Editors run it on request or on save
// (source.fixAll).
func FixAll(doc *Document, findings []lint.Finding, documentChanges bool) *CodeAction {
	var usable []lint.Finding
	for _, f := range findings {
		if f.Fix != nil && len(f.Fix.Edits) > 0 {
			if _, ok := textEdits(doc, f.Fix.Edits); ok {
				usable = append(usable, f)
			}
		}
	}
	var all []TextEdit
	var diags []Diagnostic
	for _, f := range lint.NonOverlapping(doc.Text, usable) {
		edits, _ := textEdits(doc, f.Fix.Edits)
		all = append(all, edits...)
		diags = append(diags, diagnostic(doc, f))
	}
	if len(all) == 0 {
		return nil
	}
	a := &CodeAction{Title: "Apply every certain fix of hookctl lint", Kind: kindFixAll, Diagnostics: diags, Edit: &WorkspaceEdit{}}
	if documentChanges {
		a.Edit.DocumentChanges = []TextDocumentEdit{{TextDocument: versionedTextDocumentIdentifier{URI: doc.URI, Version: doc.Version}, Edits: all}}
	} else {
		a.Edit.Changes = map[string][]TextEdit{doc.URI: all}
	}
	return a
}

// textEdits converts a fix's edits, refusing any whose offsets are not
// places in the text.
func textEdits(doc *Document, edits []lint.Edit) ([]TextEdit, bool) {
	out := make([]TextEdit, 0, len(edits))
	for _, e := range edits {
		from, to := e.Span.Start.Offset, e.End().Offset
		if from < 0 || to < from || to > len(doc.Text) || !boundary(doc.Text, from) || !boundary(doc.Text, to) {
			return nil, false
		}
		out = append(out, TextEdit{Range: doc.Range(from, to), NewText: e.Text})
	}
	return out, true
}

// boundary reports whether off is between two characters of text.
func boundary(text []byte, off int) bool {
	return off == len(text) || utf8.RuneStart(text[off])
}
