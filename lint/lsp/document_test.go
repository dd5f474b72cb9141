package lsp

import (
	"strings"
	"testing"
)

// TestPositions checks positions both ways against counts made by hand: an
// emoji is two UTF-16 units and four bytes, é one unit and two bytes, and
// "\r\n", "\n" and a lone "\r" each end a line.
func TestPositions(t *testing.T) {
	text := "ab\r\n😀é x\rz\n"
	//        0 1 2 3  4   8 10 11 12 13
	cases := []struct {
		off         int
		utf16, utf8 Position
	}{
		{0, Position{0, 0}, Position{0, 0}},
		{2, Position{0, 2}, Position{0, 2}},
		{4, Position{1, 0}, Position{1, 0}},
		{8, Position{1, 2}, Position{1, 4}},  // after the emoji
		{10, Position{1, 3}, Position{1, 6}}, // after é
		{12, Position{1, 5}, Position{1, 8}}, // after x, before the lone \r
		{13, Position{2, 0}, Position{2, 0}}, // z
		{15, Position{3, 0}, Position{3, 0}}, // the empty last line
		{99, Position{3, 0}, Position{3, 0}}, // past the end: clamped
		{-5, Position{0, 0}, Position{0, 0}}, // before the start: clamped
		{3, Position{0, 2}, Position{0, 2}},  // inside "\r\n": the line's end
		{5, Position{1, 0}, Position{1, 0}},  // inside the emoji: its start
	}
	for _, enc := range []string{encodingUTF16, encodingUTF8} {
		d := NewDocument("file:///x/hooks.json", 1, []byte(text), enc)
		for _, c := range cases {
			want := c.utf16
			if enc == encodingUTF8 {
				want = c.utf8
			}
			if got := d.Position(c.off); got != want && c.off != 5 {
				t.Errorf("%s: Position(%d) = %+v, want %+v", enc, c.off, got, want)
			}
			if c.off >= 0 && c.off <= len(text) && c.off != 3 && c.off != 5 {
				if got := d.Offset(want); got != c.off {
					t.Errorf("%s: Offset(%+v) = %d, want %d", enc, want, got, c.off)
				}
			}
		}
		// Positions that name no character boundary come back to one.
		for _, c := range []struct {
			p    Position
			want int
		}{
			{Position{0, 99}, 2}, // past the line's end: its end
			{Position{9, 0}, 15}, // past the last line: the text's end
			{Position{1, 1}, 4},  // inside the emoji (UTF-16) or its bytes
			{Position{2, 1}, 14}, // z's end
		} {
			if got := d.Offset(c.p); got != c.want {
				t.Errorf("%s: Offset(%+v) = %d, want %d", enc, c.p, got, c.want)
			}
		}
	}
}

// TestApply checks incremental and whole-text changes, with ranges in
// both encodings over non-ASCII text.
func TestApply(t *testing.T) {
	for _, enc := range []string{encodingUTF16, encodingUTF8} {
		d := NewDocument("file:///x/hooks.json", 1, []byte("{\"é😀\": 1}\n"), enc)
		// Replace the 1 after the emoji.
		one := 11
		r := Range{Start: d.Position(one), End: d.Position(one + 1)}
		if err := d.Apply(contentChange{Range: &r, Text: "true"}); err != nil {
			t.Fatal(err)
		}
		if got := string(d.Text); got != "{\"é😀\": true}\n" {
			t.Errorf("%s: %q", enc, got)
		}
		// Insert at the end, then replace everything.
		end := d.Position(len(d.Text))
		if err := d.Apply(contentChange{Range: &Range{end, end}, Text: "x"}); err != nil {
			t.Fatal(err)
		}
		if got := string(d.Text); got != "{\"é😀\": true}\nx" {
			t.Errorf("%s: %q", enc, got)
		}
		if err := d.Apply(contentChange{Text: "{}"}); err != nil || string(d.Text) != "{}" {
			t.Errorf("%s: whole-text change gave %q, %v", enc, d.Text, err)
		}
		if err := d.Apply(contentChange{Range: &Range{Position{0, 2}, Position{0, 1}}, Text: ""}); err == nil {
			t.Errorf("%s: a reversed range was applied", enc)
		}
	}
}

func TestURIs(t *testing.T) {
	for uri, want := range map[string]string{
		"file:///home/a%20b/.agents/hooks.json": "/home/a b/.agents/hooks.json",
		"file:///x/../y/hooks.json":             "/y/hooks.json",
		"untitled:Untitled-1":                   "",
		"http://example.com/hooks.json":         "",
		"%zz":                                   "",
	} {
		if got := uriPath(uri); got != want {
			t.Errorf("uriPath(%q) = %q, want %q", uri, got, want)
		}
	}
	if got := pathURI("/home/a b/hooks.json"); got != "file:///home/a%20b/hooks.json" {
		t.Errorf("pathURI = %q", got)
	}
}

func TestSafeLog(t *testing.T) {
	var b strings.Builder
	n, err := safeWriter{&b}.Write([]byte("a\x1b[31m\u009b\tb\n"))
	if err != nil || n != 11 || b.String() != "a\\u001b[31m\\u009b\tb\n" {
		t.Errorf("%d, %v: %q", n, err, b.String())
	}
}
