package convert

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/hookctl/hookctl/schema"
)

// Level says how much an item of the report asks of the user.
type Level int

// The levels of report items.
const (
	// Note is a change the user should know about: the converted hook does
	// the same job, in a slightly different way.
	Note Level = iota
	// Warning is something that was not carried over, or that will not work
	// as it did until the user changes it.
	Warning
)

func (l Level) String() string {
	if l == Warning {
		return "warning"
	}
	return "note"
}

// Item is one entry of the report: a place in the source file, and what
// happened to it.
type Item struct {
	// Pos is the place in the source file the item is about.
	Pos   schema.Pos
	Level Level
	// Msg says what was not carried over, or what changed, and what to do.
	Msg string
}

// Report lists, for one converted file, what could not be carried over and
// what changed.
type Report struct {
	// Path is the source file as named on the command line.
	Path  string
	Items []Item
}

func (r *Report) add(pos schema.Pos, level Level, format string, args ...any) {
	r.Items = append(r.Items, Item{Pos: pos, Level: level, Msg: fmt.Sprintf(format, args...)})
}

func (r *Report) warn(pos schema.Pos, format string, args ...any) {
	r.add(pos, Warning, format, args...)
}

func (r *Report) note(pos schema.Pos, format string, args ...any) {
	r.add(pos, Note, format, args...)
}

// sort orders the items by place in the file; items at one place keep the
// order they were found in.
func (r *Report) sort() {
	sort.SliceStable(r.Items, func(i, j int) bool {
		a, b := r.Items[i].Pos, r.Items[j].Pos
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
}

// Count returns how many items have the level.
func (r *Report) Count(level Level) int {
	n := 0
	for _, it := range r.Items {
		if it.Level == level {
			n++
		}
	}
	return n
}

// WriteTo prints the items, one a line, as FILE:LINE:COL: LEVEL: MESSAGE.
func (r *Report) WriteTo(w io.Writer) (int64, error) {
	var b strings.Builder
	for _, it := range r.Items {
		if it.Pos.IsValid() {
			fmt.Fprintf(&b, "%s:%d:%d: %s: %s\n", r.Path, it.Pos.Line, it.Pos.Col, it.Level, it.Msg)
		} else {
			fmt.Fprintf(&b, "%s: %s: %s\n", r.Path, it.Level, it.Msg)
		}
	}
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}
