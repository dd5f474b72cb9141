package schema

import (
	"slices"
	"testing"
)

// TestSpanSet holds the set's answer to the pairwise check, on every
// span over a small range against sets of spans that nest, touch and are
// empty.
func TestSpanSet(t *testing.T) {
	sp := func(s, e int) Span {
		return Span{Start: Pos{Offset: s}, End: Pos{Offset: e}}
	}
	sets := [][]Span{
		nil,
		{sp(3, 3)},
		{sp(2, 5)},
		{sp(0, 10), sp(2, 3)},
		{sp(6, 6), sp(1, 2), sp(4, 4)},
		{sp(5, 9), sp(1, 3), sp(2, 8), sp(9, 9)},
	}
	for _, set := range sets {
		ix := NewSpanSet(set)
		for s := 0; s <= 11; s++ {
			for e := s; e <= 12; e++ {
				q := sp(s, e)
				want := slices.ContainsFunc(set, func(b Span) bool { return overlaps(q, b) })
				if got := ix.Overlaps(q); got != want {
					t.Errorf("spans %v, query [%d,%d): %v, want %v", set, s, e, got, want)
				}
			}
		}
	}
}

// overlaps reports whether two spans share a byte, or one is empty and
// stands inside the other: what a SpanSet answers for a set of spans.
func overlaps(a, b Span) bool {
	as, ae, bs, be := a.Start.Offset, a.End.Offset, b.Start.Offset, b.End.Offset
	if ae == as {
		ae++
	}
	if be == bs {
		be++
	}
	return as < be && bs < ae
}
