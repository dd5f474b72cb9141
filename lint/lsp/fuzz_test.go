package lsp

import (
	"os"
	"testing"
	"unicode/utf8"

	"github.com/hookctl/hookctl/lint"
)

// FuzzDocumentChange applies changes made from the fuzzer's bytes to a
// document, as didChange does, in both encodings, and after each change
// runs everything the server does with the text: lint and its diagnostics,
// quick fixes, completion and hover at the changed place. Nothing may
// panic, and positions must stay consistent with the text.
//
//	go test ./lint/lsp -run XXX -fuzz FuzzDocumentChange -fuzztime 1m
func FuzzDocumentChange(f *testing.F) {
	mistakes, err := os.ReadFile("../../examples/mistakes/.agents/hooks.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(mistakes, []byte{3, 10, 3, 14, 'x', 0, 0, 0, 0, '{'})
	f.Add([]byte(sessionHooks), []byte{3, 88, 3, 92, '5', 1, 1, 255, 255, '"'})
	f.Add([]byte("{\"h\": {\"Stop\": [{\"command\": \"é😀\r\n\"}]}}"), []byte{0, 30, 0, 31, 0xf0, 1, 0, 1, 2, '\r'})
	f.Add([]byte{}, []byte{0, 0, 0, 0, '{'})
	f.Fuzz(func(t *testing.T, text, changes []byte) {
		if len(text) > 4096 || len(changes) > 100 {
			return
		}
		for _, enc := range []string{encodingUTF16, encodingUTF8} {
			doc := NewDocument("file:///nonexistent/.agents/hooks.json", 1, text, enc)
			for c := changes; len(c) >= 5; c = c[5:] {
				r := &Range{Start: Position{uint32(c[0] % 8), uint32(c[1])}, End: Position{uint32(c[2] % 8), uint32(c[3])}}
				if c[0]%8 == 7 {
					r = nil // a whole-text change
				}
				insert := string(c[4:5])
				before := doc.Text
				if err := doc.Apply(contentChange{Range: r, Text: insert}); err != nil {
					if !bytesEqual(before, doc.Text) {
						t.Fatalf("a refused change altered the text")
					}
					continue
				}
				checkDocument(t, doc)
				exercise(t, doc, doc.Offset(r0(r)))
			}
		}
	})
}

func r0(r *Range) Position {
	if r == nil {
		return Position{}
	}
	return r.Start
}

func bytesEqual(a, b []byte) bool { return string(a) == string(b) }

// checkDocument checks the line table and that positions and offsets
// agree both ways.
func checkDocument(t *testing.T, doc *Document) {
	t.Helper()
	if doc.lines[0] != 0 {
		t.Fatalf("the first line starts at %d", doc.lines[0])
	}
	for i := 1; i < len(doc.lines); i++ {
		s := doc.lines[i]
		if s <= doc.lines[i-1] || s > len(doc.Text) || (doc.Text[s-1] != '\n' && doc.Text[s-1] != '\r') {
			t.Fatalf("line %d starts at %d in %q", i, s, doc.Text)
		}
	}
	for off := 0; off <= len(doc.Text); off++ {
		if off < len(doc.Text) && (!utf8.RuneStart(doc.Text[off]) || doc.Text[off] == '\n' || (doc.Text[off] == '\r' && off+1 < len(doc.Text) && doc.Text[off+1] == '\n') || (off > 0 && doc.Text[off-1] == '\r' && doc.Text[off] == '\n')) {
			continue
		}
		if utf8.FullRune(doc.Text[off:]) || off == len(doc.Text) {
			p := doc.Position(off)
			if got := doc.Offset(p); got != off && validUpTo(doc.Text, off) {
				t.Fatalf("%s: Offset(Position(%d)) = %d in %q", doc.Encoding, off, got, doc.Text)
			}
		}
	}
}

// validUpTo reports whether the line that holds off is valid UTF-8 up to
// off: an invalid byte is one unit, which round-trips too, but a partial
// character at the end of the text does not.
func validUpTo(text []byte, off int) bool {
	return utf8.Valid(text[:off]) || off == len(text) && utf8.Valid(text)
}

// exercise runs what the server does with a text.
func exercise(t *testing.T, doc *Document, off int) {
	t.Helper()
	findings := lint.LintSource(lint.Target{Path: doc.Path}, doc.Text)
	for i := range findings {
		d := diagnostic(doc, findings[i])
		if d.Range.Start.Line > d.Range.End.Line || (d.Range.Start.Line == d.Range.End.Line && d.Range.Start.Character > d.Range.End.Character) {
			t.Fatalf("diagnostic range %+v ends before it starts", d.Range)
		}
		// Every finding gets a fix over its own span, to try the path.
		findings[i].Fix = &lint.Fix{Edits: []lint.Edit{{Span: findings[i].Span, Text: "x"}}}
	}
	CodeActions(doc, findings, Range{End: doc.Position(len(doc.Text))}, true)
	for _, k := range []fileKind{hooksFile, testFile} {
		complete(doc, k, off)
		hoverText(doc, k, findings, off)
	}
	(&server{}).checkTestFile(doc)
}
