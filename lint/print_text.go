package lint

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/fatih/color"

	"github.com/hookctl/hookctl/internal/paint"
	"github.com/hookctl/hookctl/schema"
)

// TextPrinter writes findings for people: FILE:LINE:COL: SEVERITY: MESSAGE
// [RULE], the source line with a ^~~~ marker under the span, and a closing
// count. Colour follows fatih/color's setting (on for a terminal only).
type TextPrinter struct {
	// NoSource leaves out the source lines and markers.
	NoSource bool
}

// maxShown is how much of a long source line is shown around a finding.
const maxShown = 120

// Print writes the findings.
func (p *TextPrinter) Print(w io.Writer, r *Result) error {
	bw := bufio.NewWriter(w)
	var (
		bold   = paint.New(color.Bold)
		errC   = paint.New(color.FgRed, color.Bold)
		warnC  = paint.New(color.FgYellow, color.Bold)
		infoC  = paint.New(color.FgCyan, color.Bold)
		ruleC  = paint.New(color.Faint)
		caretC = paint.New(color.FgGreen)
	)
	lines := map[string]*lineCursor{}
	// Findings come sorted, so several in a row share a line: decode it
	// once.
	var lastFile string
	lastLine := -1
	var runes []rune
	// Of a long line only a window around the finding is decoded: cutBefore
	// and cutAfter say the line goes on past it, skipped is how many
	// characters come before it.
	var cutBefore, cutAfter bool
	skipped := 0
	dropped := map[string]DroppedFile{}
	for _, d := range r.Dropped {
		dropped[d.File] = d
	}
	// After a dropped file's findings, one line says what they add up to.
	endFile := func(name string) {
		if d, ok := dropped[name]; ok {
			fmt.Fprintf(bw, "%s\n", errC.Sprint(droppedLine(d)))
		}
	}
	for i, f := range r.Findings {
		if i > 0 && r.Findings[i-1].File != f.File {
			endFile(r.Findings[i-1].File)
		}
		sev := infoC
		switch f.Severity {
		case Error:
			sev = errC
		case Warning:
			sev = warnC
		}
		fmt.Fprintf(bw, "%s %s %s %s\n",
			bold.Sprintf("%s:%d:%d:", schema.Visible(f.File), f.Span.Start.Line, f.Span.Start.Col),
			sev.Sprintf("%s:", f.Severity), schema.Visible(f.Message), ruleC.Sprintf("[%s]", f.Rule))
		if p.NoSource {
			continue
		}
		lc, ok := lines[f.File]
		if !ok {
			lc = &lineCursor{src: r.Source(f.File)}
			lines[f.File] = lc
		}
		raw, start, ok := lc.line(f.Span.Start.Line)
		if !ok {
			continue
		}
		at := f.Span.Start.Offset - start
		long := len(raw) > longLine && at >= 0 && at <= len(raw)
		if f.File != lastFile || f.Span.Start.Line != lastLine || long {
			cutBefore, cutAfter, skipped = false, false, 0
			if long {
				lo, hi := max(0, at-4*maxShown), min(len(raw), at+4*maxShown)
				for lo < at && !utf8.RuneStart(raw[lo]) {
					lo++
				}
				for hi < len(raw) && !utf8.RuneStart(raw[hi]) {
					hi++
				}
				cutBefore, cutAfter = lo > 0, hi < len(raw)
				skipped = f.Span.Start.Col - 1 - utf8.RuneCount(raw[lo:at])
				raw = raw[lo:hi]
			}
			line := string(raw)
			if !utf8.ValidString(line) {
				line = strings.ToValidUTF8(line, "\uFFFD")
			}
			runes = []rune(line)
			lastFile, lastLine = f.File, f.Span.Start.Line
		}
		col := f.Span.Start.Col - 1 - skipped
		if col > len(runes) {
			col = len(runes)
		}
		width := 1
		if f.Span.End.Line == f.Span.Start.Line && f.Span.End.Col > f.Span.Start.Col {
			width = f.Span.End.Col - f.Span.Start.Col
		} else if f.Span.End.Line > f.Span.Start.Line {
			width = max(1, len(runes)-col)
		}
		from, to := 0, len(runes)
		prefix, suffix := "", ""
		if len(runes) > maxShown || cutBefore || cutAfter {
			from = max(0, col-maxShown/3)
			to = min(len(runes), from+maxShown)
			if from > 0 || cutBefore {
				prefix = "..."
			}
			if to < len(runes) || cutAfter {
				suffix = "..."
			}
		}
		width = max(1, min(width, to-col))
		// The line comes from the file: its control characters are shown
		// as escapes (an invalid file may hold raw ones), and the marker
		// counts them as shown.
		shown := schema.VisibleLine(strings.ReplaceAll(string(runes[from:to]), "\r", ""))
		var marker strings.Builder
		marker.WriteString(strings.Repeat(" ", len(prefix)))
		for _, c := range runes[from:col] {
			switch {
			case c == '\t':
				marker.WriteByte('\t')
			case c == '\r':
			default:
				marker.WriteString(strings.Repeat(" ", utf8.RuneCountInString(schema.VisibleLine(string(c)))))
			}
		}
		fmt.Fprintf(bw, "%s%s%s\n", prefix, shown, suffix)
		fmt.Fprintf(bw, "%s%s\n", marker.String(), caretC.Sprint("^"+strings.Repeat("~", width-1)))
	}
	if n := len(r.Findings); n > 0 {
		endFile(r.Findings[n-1].File)
	}
	fmt.Fprintln(bw, summary(r))
	if n := fixable(r.Findings); n > 0 {
		fmt.Fprintf(bw, "%d fixable with hookctl lint --fix (--fix --diff shows the changes)\n", n)
	}
	return bw.Flush()
}

// droppedLine says that the agent loads none of a file's hooks.
func droppedLine(d DroppedFile) string {
	hooks := "hooks"
	switch {
	case d.Hooks == 1:
		hooks = "1 hook"
	case d.Hooks >= 0:
		hooks = fmt.Sprintf("%d hooks", d.Hooks)
	}
	if d.Hooks < 0 {
		return fmt.Sprintf("%s: the agent loads none of this file's hooks (first cause: %d:%d)", schema.Visible(d.File), d.Cause.Line, d.Cause.Col)
	}
	return fmt.Sprintf("%s: the agent loads none of this file's %s (first cause: %d:%d)", schema.Visible(d.File), hooks, d.Cause.Line, d.Cause.Col)
}

// summary is the closing count: "3 problems (2 errors, 1 warning) in 1
// file", "in 1 of 2 files" when some files linted have none.
func summary(r *Result) string {
	if len(r.Findings) == 0 {
		return fmt.Sprintf("no problems in %s", schema.Plural(len(r.Files), "file"))
	}
	var n [3]int
	files := map[string]bool{}
	linted := map[string]bool{}
	for _, f := range r.Files {
		linted[f.Name] = true
	}
	for _, f := range r.Findings {
		n[f.Severity]++
		files[f.File] = true
		linted[f.File] = true
	}
	var parts []string
	for _, s := range []Severity{Error, Warning, Info} {
		if n[s] > 0 {
			word := s.String()
			if s == Info {
				parts = append(parts, fmt.Sprintf("%d info", n[s]))
				continue
			}
			parts = append(parts, schema.Plural(n[s], word))
		}
	}
	in := schema.Plural(len(files), "file")
	if len(linted) > len(files) {
		in = fmt.Sprintf("%d of %d files", len(files), len(linted))
	}
	return fmt.Sprintf("%s (%s) in %s", schema.Plural(len(r.Findings), "problem"), strings.Join(parts, ", "), in)
}

// fixable counts the findings that carry a certain fix.
func fixable(fs []Finding) int {
	n := 0
	for _, f := range fs {
		if f.Fix != nil && len(f.Fix.Edits) > 0 {
			n++
		}
	}
	return n
}

// longLine is the length from which a line is decoded only around the
// finding shown: a file may be one line of 16 MiB.
const longLine = 64 << 10

// lineCursor finds the lines of a file in turn, without splitting it all
// (a file of 16 MiB of line breaks has millions): findings come in file
// order, so it goes forward, and back to the start only when asked for an
// earlier line.
type lineCursor struct {
	src []byte
	// n is the line that starts at off, counting from 1.
	n, off int
	// end is where line n ends, when endKnown: many findings on one long
	// line look for its end once.
	end      int
	endKnown bool
}

// line returns line n of the file, without its line break, and the offset
// of its start; false when the file has no line n. Lines end as the parser
// counts them: at \n, \r\n and a lone \r.
func (c *lineCursor) line(n int) ([]byte, int, bool) {
	if n < 1 || c.src == nil {
		return nil, 0, false
	}
	if c.n == 0 || n < c.n {
		c.n, c.off, c.endKnown = 1, 0, false
	}
	if c.n < n {
		c.endKnown = false
	}
	for c.n < n {
		i := bytes.IndexAny(c.src[c.off:], "\r\n")
		if i < 0 {
			return nil, 0, false
		}
		i += c.off
		if c.src[i] == '\r' && i+1 < len(c.src) && c.src[i+1] == '\n' {
			i++
		}
		c.n, c.off = c.n+1, i+1
	}
	if c.off >= len(c.src) {
		// The file ends with the break before line n.
		return nil, 0, false
	}
	if !c.endKnown {
		c.end, c.endKnown = len(c.src), true
		if i := bytes.IndexAny(c.src[c.off:], "\r\n"); i >= 0 {
			c.end = c.off + i
		}
	}
	return c.src[c.off:c.end], c.off, true
}
