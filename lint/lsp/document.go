package lsp

import (
	"fmt"
	"net/url"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Document is the text of an open file as the editor has it, unsaved
// changes included.
type Document struct {
	// URI names the document; Path is its file, "" when the URI is not a
	// file: URI.
	URI, Path string
	// Version is the editor's version of the text.
	Version int32
	// Text is the content. It is never modified in place: a change makes
	// a new slice, so a snapshot taken for a lint run stays valid.
	Text []byte
	// Encoding is how positions count characters: utf-16 or utf-8.
	Encoding string

	lines []int // byte offset of the start of each line
}

// NewDocument returns a document with the text as given.
func NewDocument(uri string, version int32, text []byte, encoding string) *Document {
	d := &Document{URI: uri, Path: uriPath(uri), Version: version, Encoding: encoding}
	d.setText(text)
	return d
}

func (d *Document) setText(text []byte) {
	d.Text = text
	d.lines = lineStarts(text)
}

// lineStarts finds where each line starts. LSP ends lines at "\n", "\r\n"
// and a lone "\r".
func lineStarts(text []byte) []int {
	starts := []int{0}
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\n':
			starts = append(starts, i+1)
		case '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			starts = append(starts, i+1)
		}
	}
	return starts
}

// lineEnd returns the offset where line l's text ends, before its line
// break.
func (d *Document) lineEnd(l int) int {
	end := len(d.Text)
	if l+1 < len(d.lines) {
		end = d.lines[l+1]
		if end > 0 && d.Text[end-1] == '\n' {
			end--
		}
		if end > d.lines[l] && d.Text[end-1] == '\r' {
			end--
		}
	}
	return end
}

// Offset returns the byte offset of a position. A line past the end means
// the end of the text, a character past the end of its line the end of the
// line, and a character inside a multi-unit character that character's
// start, so any position the client sends names a place in the text.
func (d *Document) Offset(p Position) int {
	l := int(p.Line)
	if l >= len(d.lines) {
		return len(d.Text)
	}
	off, end := d.lines[l], d.lineEnd(l)
	units := 0
	for off < end {
		r, size := utf8.DecodeRune(d.Text[off:end])
		w := d.width(r, size)
		if units+w > int(p.Character) {
			break
		}
		units += w
		off += size
	}
	return off
}

// width is how many position units a character takes.
func (d *Document) width(r rune, size int) int {
	if d.Encoding == encodingUTF8 {
		return size
	}
	if r == utf8.RuneError && size == 1 {
		// An invalid byte: editors that decode it show U+FFFD, one unit.
		return 1
	}
	return len(utf16.Encode([]rune{r}))
}

// Position returns the position of a byte offset, clamped to the text.
func (d *Document) Position(off int) Position {
	off = max(0, min(off, len(d.Text)))
	l := sort.Search(len(d.lines), func(i int) bool { return d.lines[i] > off }) - 1
	start := d.lines[l]
	// An offset inside a line break counts as the end of the line.
	off = min(off, max(start, d.lineEnd(l)))
	units := 0
	for i := start; i < off; {
		r, size := utf8.DecodeRune(d.Text[i:off])
		units += d.width(r, size)
		i += size
	}
	return Position{Line: uint32(l), Character: uint32(units)}
}

// Range returns the range between two byte offsets.
func (d *Document) Range(from, to int) Range {
	return Range{Start: d.Position(from), End: d.Position(max(from, to))}
}

// Apply applies one change of a didChange notification: the whole text
// when its range is nil, else the replacement of its range.
func (d *Document) Apply(c contentChange) error {
	if c.Range == nil {
		d.setText([]byte(c.Text))
		return nil
	}
	from, to := d.Offset(c.Range.Start), d.Offset(c.Range.End)
	if to < from {
		return fmt.Errorf("a change's range ends before it starts (%d:%d to %d:%d)",
			c.Range.Start.Line, c.Range.Start.Character, c.Range.End.Line, c.Range.End.Character)
	}
	text := make([]byte, 0, len(d.Text)-(to-from)+len(c.Text))
	text = append(text, d.Text[:from]...)
	text = append(text, c.Text...)
	text = append(text, d.Text[to:]...)
	d.setText(text)
	return nil
}

// uriPath returns the file a file: URI names, "" for another URI.
func uriPath(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || u.Path == "" {
		return ""
	}
	return filepath.Clean(u.Path)
}

// pathURI returns the file: URI of an absolute path.
func pathURI(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

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
