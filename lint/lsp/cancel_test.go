package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookctl/hookctl/lint"
	"github.com/hookctl/hookctl/lint/internal/gen"
)

// TestChangeCancelsRun: a change cancels the lint run of the version it
// supersedes. The run of version 2 waits for its own cancellation, so
// the test ends only if the change to version 3 cancels it; version 3 is
// then linted and published, version 2 never.
func TestChangeCancelsRun(t *testing.T) {
	var mu sync.Mutex
	var errs []error
	running := make(chan struct{}, 1)
	lintFn := func(req lint.SourceRequest) ([]lint.Finding, map[string]fs.FileInfo, error) {
		if strings.Contains(string(req.Src), `"v2"`) {
			running <- struct{}{}
			<-req.Stop.Done()
		}
		fs, seen, err := lint.LintSourceRequest(req)
		mu.Lock()
		errs = append(errs, err)
		mu.Unlock()
		return fs, seen, err
	}
	path := workspace(t)
	uri := pathURI(path)
	c := startServer(t, Options{lint: lintFn, Poll: -1, Debounce: time.Millisecond})
	c.initialize(`{}`)
	c.notify("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: uri, Version: 1, Text: sessionHooks}})
	c.diagnostics(uri, 1)
	change := func(v int32, name string) {
		text := strings.Replace(sessionHooks, `"gate"`, `"`+name+`"`, 1)
		c.notify("textDocument/didChange", didChangeParams{TextDocument: versionedTextDocumentIdentifier{URI: uri, Version: v},
			ContentChanges: []contentChange{{Text: text}}})
	}
	change(2, "v2")
	<-running
	change(3, "v3")
	c.diagnostics(uri, 3)
	c.call("shutdown", nil, nil)
	mu.Lock()
	defer mu.Unlock()
	if !anyErr(errs, func(err error) bool { return errors.Is(err, context.Canceled) }) {
		t.Errorf("no run was cancelled: %v", errs)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range c.diags {
		if p.Version != nil && *p.Version == 2 {
			t.Errorf("the superseded version 2 was published")
		}
	}
}

func anyErr(errs []error, ok func(error) bool) bool {
	for _, err := range errs {
		if ok(err) {
			return true
		}
	}
	return false
}

// TestRapidChanges types fast into a 1,000-hook workspace file, whose lint
// takes long enough for changes to arrive during runs: the versions
// published only ever go up, and the last one published is the final
// text's, with the diagnostics lint gives that text.
func TestRapidChanges(t *testing.T) {
	root := t.TempDir()
	if err := gen.Workspace(root, 1000, false); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(root, ".agents", "hooks.json")
	uri, text := pathURI(path), string(gen.Hooks(1000))
	var mu sync.Mutex
	cancelled := 0
	lintFn := func(req lint.SourceRequest) ([]lint.Finding, map[string]fs.FileInfo, error) {
		fs, seen, err := lint.LintSourceRequest(req)
		if err != nil {
			mu.Lock()
			cancelled++
			mu.Unlock()
		}
		return fs, seen, err
	}
	c := startServer(t, Options{lint: lintFn, Poll: -1, Debounce: time.Millisecond})
	c.initialize(`{}`)
	c.notify("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: uri, Version: 1, Text: text}})
	c.diagnostics(uri, 1)

	// Each change types one more character of a hook's name, in a hook
	// that has a finding of its own further on; some changes also
	// delete a character, so that the text goes back and forth.
	at := strings.Index(text, `"gate-0"`) + len(`"gate-`)
	doc := NewDocument(uri, 1, []byte(text), encodingUTF16)
	version := int32(1)
	for i := range 60 {
		version++
		p := doc.Position(at)
		change := contentChange{Range: &Range{Start: p, End: p}, Text: "x"}
		if i%3 == 2 {
			change = contentChange{Range: &Range{Start: p, End: doc.Position(at + 1)}, Text: ""}
		}
		if err := doc.Apply(change); err != nil {
			t.Fatal(err)
		}
		c.notify("textDocument/didChange", didChangeParams{TextDocument: versionedTextDocumentIdentifier{URI: uri, Version: version},
			ContentChanges: []contentChange{change}})
	}
	got := c.diagnostics(uri, version)
	c.call("shutdown", nil, nil)
	mu.Lock()
	t.Logf("%d changes, %d runs cancelled", version-1, cancelled)
	mu.Unlock()

	c.mu.Lock()
	last := int32(0)
	for _, p := range c.diags {
		if p.URI != uri || p.Version == nil {
			continue
		}
		if *p.Version < last {
			t.Errorf("version %d published after version %d", *p.Version, last)
		}
		last = *p.Version
	}
	c.mu.Unlock()
	if last != version {
		t.Errorf("the last version published is %d, want the final %d", last, version)
	}

	tg := lint.TargetOf(path, "")
	findings, _, err := lint.LintSourceRequest(lint.SourceRequest{Target: tg, Src: doc.Text})
	if err != nil {
		t.Fatal(err)
	}
	doc.Version = version
	want := []Diagnostic{}
	for _, f := range ownFindings(tg, findings) {
		want = append(want, diagnostic(doc, f))
	}
	gotJSON, _ := json.Marshal(got)
	wantJSON, _ := json.Marshal(want)
	if string(gotJSON) != string(wantJSON) {
		t.Errorf("the final diagnostics (%d) are not lint's of the final text (%d)", len(got), len(want))
	}
}

// TestShift: findings before a change stay, those after it move with the
// text (lines and columns recounted), and one whose text the change
// touches is dropped.
func TestShift(t *testing.T) {
	old := []byte("ab\ncd é fg\nhi\n")
	span := func(from, to int) offsets { return offsets{from, to} }
	findings := []lint.Finding{
		finding(old, span(0, 2)),   // ab: before
		finding(old, span(3, 5)),   // cd: touched
		finding(old, span(9, 11)),  // fg: after, same line
		finding(old, span(12, 14)), // hi: after, next line
	}
	// "cd" becomes "xyz\n" (a line more).
	doc := NewDocument("file:///h/hooks.json", 2, []byte("ab\nxyz\n é fg\nhi\n"), encodingUTF16)
	got := shift(findings, old, doc)
	var out []string
	for _, f := range got {
		out = append(out, string(doc.Text[f.Span.Start.Offset:f.Span.End.Offset])+"@"+f.Span.Start.String()+"-"+f.Span.End.String())
	}
	if want := "ab@1:1-1:3 fg@3:4-3:6 hi@4:1-4:3"; strings.Join(out, " ") != want {
		t.Errorf("shifted: %s, want %s", strings.Join(out, " "), want)
	}
	// The whole text sent again, unchanged but for one character far
	// from the findings, keeps them all but the one it touches.
	doc2 := NewDocument(doc.URI, 3, []byte("ab\nxyz\n é fg\nhj\n"), encodingUTF16)
	if n := len(shift(got, doc.Text, doc2)); n != 2 {
		t.Errorf("%d findings kept, want 2", n)
	}
}

type offsets struct{ from, to int }

// finding is a finding of text at byte offsets, its lines and columns
// counted as lint counts them.
func finding(text []byte, sp offsets) lint.Finding {
	d := NewDocument("file:///h/hooks.json", 1, text, encodingUTF16)
	f := lint.Finding{File: "/h/hooks.json", Rule: shellcheckRule}
	f.Span.Start, f.Span.End = d.pos(sp.from), d.pos(sp.to)
	return f
}

// FuzzShift: moving findings to any new text never panics, and every
// finding kept underlines the same text as before.
func FuzzShift(f *testing.F) {
	f.Add([]byte("ab\ncd é fg\nhi\n"), []byte("ab\nxyz\n é fg\nhi\n"), 3, 5)
	f.Add([]byte("abc"), []byte(""), 0, 3)
	f.Fuzz(func(t *testing.T, old, text []byte, from, to int) {
		fd := lint.Finding{Rule: shellcheckRule}
		fd.Span.Start.Offset, fd.Span.End.Offset = from, to
		doc := NewDocument("file:///h/hooks.json", 2, text, encodingUTF16)
		for _, g := range shift([]lint.Finding{fd}, old, doc) {
			if got, want := string(text[g.Span.Start.Offset:g.Span.End.Offset]), string(old[from:to]); got != want {
				t.Errorf("the finding moved from %q to %q", want, got)
			}
		}
	})
}
