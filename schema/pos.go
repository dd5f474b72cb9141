package schema

import "fmt"

// Pos is a place in a file: a 0-based byte offset and a 1-based line and
// column, the column counting characters (not bytes) from the line's start.
type Pos struct {
	Offset int
	Line   int
	Col    int
}

// IsValid reports whether p names a place (the zero Pos does not).
func (p Pos) IsValid() bool { return p.Line > 0 }

func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// Span is the stretch of a file that a key or value covers: Start is its
// first character, End the place just after its last.
type Span struct {
	Start Pos
	End   Pos
}
