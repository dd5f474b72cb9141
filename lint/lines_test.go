package lint

import (
	"bytes"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/schema"
)

// splitLines splits source into lines the way the parser counts them: \n,
// \r\n and a lone \r each end a line.
func splitLines(src []byte) [][]byte {
	var out [][]byte
	for len(src) > 0 {
		i := bytes.IndexAny(src, "\r\n")
		if i < 0 {
			out = append(out, src)
			break
		}
		out = append(out, src[:i])
		if src[i] == '\r' && i+1 < len(src) && src[i+1] == '\n' {
			i++
		}
		src = src[i+1:]
	}
	return out
}

// TestLineCursor: the cursor finds the lines splitLines finds, in any order.
func TestLineCursor(t *testing.T) {
	for _, src := range []string{"", "a", "a\n", "a\nb", "a\r\nb\rc\n\nd", "\n\n", "\r\n\r", "x\r"} {
		want := splitLines([]byte(src))
		c := &lineCursor{src: []byte(src)}
		for _, n := range []int{1, 1, 2, 3, 3, 4, 5, 5, 2, 2, 1, 5, 0} {
			got, start, ok := c.line(n)
			if ok != (n >= 1 && n <= len(want)) {
				t.Errorf("%q line %d: ok %v, file of %d lines", src, n, ok, len(want))
				continue
			}
			if ok && (string(got) != string(want[n-1]) || src[start:start+len(got)] != string(got)) {
				t.Errorf("%q line %d: %q at %d, want %q", src, n, got, start, want[n-1])
			}
		}
	}
}

// TestTextLongLine: a finding on a line of megabytes shows the same window
// around its place, with "..." on both sides, as on a line just past
// maxShown, without decoding the whole line.
func TestTextLongLine(t *testing.T) {
	show := func(pad int) string {
		src := []byte(`{"h": {"Stop": [{"command": "` + strings.Repeat("é", pad) + `", "timeout": "x"}]}}`)
		at := bytes.Index(src, []byte(`"x"`))
		col := 1 + len([]rune(string(src[:at])))
		f := Finding{File: "hooks.json", Rule: "timeout-value", Severity: Error, Message: "m",
			Span: schema.Span{Start: schema.Pos{Offset: at, Line: 1, Col: col}, End: schema.Pos{Offset: at + 3, Line: 1, Col: col + 3}}}
		res := &Result{Findings: []Finding{f}, Files: []*File{{Name: "hooks.json", Config: schema.Parse("hooks.json", src)}}}
		var b strings.Builder
		if err := (&TextPrinter{}).Print(&b, res); err != nil {
			t.Fatal(err)
		}
		return strings.SplitN(b.String(), "\n", 2)[1]
	}
	short, long := show(200), show(1<<20)
	if short != long {
		t.Errorf("long line shown as\n%s\nwant, as a short one,\n%s", long, short)
	}
	if !strings.HasPrefix(long, "...") || !strings.Contains(long, `"x"`) {
		t.Errorf("want the finding's place after an ellipsis: %s", long)
	}
}
