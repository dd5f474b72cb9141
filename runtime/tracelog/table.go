package tracelog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hookctl/hookctl/schema"
)

// Table writes records as hookctl log shows them, one a line under a
// header, in columns that fit the records it was made with; with --follow,
// records written later are cut to them.
type Table struct {
	widths [8]int
}

var tableColumns = [8]string{"TIME", "EVENT", "TOOL", "HOOK", "EXIT", "DECISION", "DURATION", "ID"}

// Bounds of the columns that hold names: a hostile or a long one is cut.
var tableMaxWidths = [8]int{20, 26, 32, 32, 9, 23, 8, 8}

// NewTable returns a table whose columns fit the records rs; follow
// leaves room for what usually comes later, and for every event's name.
func NewTable(rs []*Record, follow bool) *Table {
	t := &Table{}
	for i, c := range tableColumns {
		t.widths[i] = len(c)
	}
	if follow {
		// Room for what usually comes, and for every event's name.
		t.widths = [8]int{20, eventWidth(), 20, 16, 4, 8, 8, 8}
	}
	for _, r := range rs {
		for i, c := range r.cells() {
			t.widths[i] = max(t.widths[i], min(utf8.RuneCountInString(c), tableMaxWidths[i]))
		}
	}
	return t
}

// WriteHeader writes the line that names the columns.
func (t *Table) WriteHeader(w io.Writer) error {
	return t.line(w, tableColumns)
}

// WriteRow writes the record's line.
func (t *Table) WriteRow(w io.Writer, r *Record) error {
	return t.line(w, r.cells())
}

func (t *Table) line(w io.Writer, cells [8]string) error {
	var b strings.Builder
	for i, c := range cells {
		c = fit(c, t.widths[i])
		b.WriteString(c)
		if i < len(cells)-1 {
			b.WriteString(strings.Repeat(" ", t.widths[i]-utf8.RuneCountInString(c)+2))
		}
	}
	b.WriteByte('\n')
	_, err := io.WriteString(w, b.String())
	return err
}

// fit cuts s to n characters, ending it with … when cut.
func fit(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// eventWidth is the width of the longest event name the EVENT column
// shows, a pair of tool events in one cell included.
func eventWidth() int {
	w := 0
	for _, pre := range schema.EventNames() {
		w = max(w, utf8.RuneCountInString(pre))
		for _, post := range schema.EventNames() {
			if both, ok := ToolPair(pre, post); ok {
				w = max(w, utf8.RuneCountInString(both))
			}
		}
	}
	return w
}

// cells are a record's cells, every string from the log made visible.
func (r *Record) cells() [8]string {
	dash := func(s string) string {
		if s == "" {
			return "-"
		}
		return schema.Visible(s)
	}
	hook, exit := r.Who()
	return [8]string{
		schema.FormatTime(r.Time),
		dash(r.EventName()),
		dash(r.Tool),
		dash(hook),
		schema.Visible(exit),
		dash(r.Decision()),
		formatDuration(r.Duration.Duration()),
		schema.Visible(ShortID(r.ID)),
	}
}

// formatDuration writes a duration as people read it: 80µs, 2.4ms, 12ms,
// 1.5s.
func formatDuration(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%dµs", d.Microseconds())
	case d < 10*time.Millisecond:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(d)/1e6), ".0") + "ms"
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", d.Seconds()), ".0") + "s"
	}
	return d.Round(time.Second).String()
}

// Skipped says that n lines of the log at path are not records, as a
// reader warns of them.
func Skipped(n int, path string) string {
	what := "are not records"
	if n == 1 {
		what = "is not a record"
	}
	return fmt.Sprintf("skipped %s of %s that %s", schema.Plural(n, "line"), schema.Visible(path), what)
}

// Indented returns the record whole, as indented JSON with what a terminal
// would act on escaped (SafeJSON), as hookctl log --show prints it.
func (r *Record) Indented() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return nil, err
	}
	return SafeJSON(b.Bytes()), nil
}
