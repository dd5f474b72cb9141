// Package linediff writes the unified diff that turns one text into
// another as git diff writes it: a line diff with three lines of context
// around each change, and one hunk wherever the contexts of two changes
// touch or overlap.
//
// The lines are matched by Myers' algorithm, from
// github.com/aymanbagabas/go-udiff/lcs (a copy of the Go team's
// golang.org/x/tools/internal/diff/lcs, which cannot be imported): the
// diff with the fewest lines removed and added, as git diff's default
// finds it. That implementation bounds its search to stay fast, which
// past some fifty changed lines gives a longer diff than needed, unchanged
// lines removed and added again; so a large region is first split at the
// lines that stand once in each text, in the same order (as git diff
// --patience does), and Myers' algorithm runs between them.
package linediff

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"sort"

	"github.com/aymanbagabas/go-udiff/lcs"
)

// Context is how many unchanged lines stand before and after a change.
const Context = 3

// Unified returns the diff that turns old into new, headed
// "diff OLD NEW", "--- OLD" and "+++ NEW" with the names given (a/FILE and
// b/FILE, for patch -p1); nil when the texts are equal.
func Unified(oldName string, old []byte, newName string, new []byte) []byte {
	if bytes.Equal(old, new) {
		return nil
	}
	a, b := splitLines(old), splitLines(new)
	diffs := lineDiffs(a, b, 0, len(a), 0, len(b), 0, nil)
	var out bytes.Buffer
	fmt.Fprintf(&out, "diff %s %s\n--- %s\n+++ %s\n", oldName, newName, oldName, newName)
	writeHunks(&out, a, b, diffs)
	return out.Bytes()
}

// splitLines splits a text into its lines, each with its line break; the
// last one lacks it when the text does not end with one.
func splitLines(text []byte) []string {
	var lines []string
	for len(text) > 0 {
		i := bytes.IndexByte(text, '\n') + 1
		if i == 0 {
			i = len(text)
		}
		lines = append(lines, string(text[:i]))
		text = text[i:]
	}
	return lines
}

const (
	// exact is the most lines removed and added in one region that the
	// bounded search of lcs surely finds the shortest diff for.
	exact = 40
	// maxAnchored bounds the regions that are split at their unique lines
	// (a map of their lines), and maxDepth how often a region is split
	// again: a hostile text of millions of lines costs the bounded search
	// alone.
	maxAnchored = 1 << 18
	maxDepth    = 32
)

// lineDiffs appends to out the differences between a[alo:ahi] and
// b[blo:bhi], in order, as lines of a replaced by lines of b.
func lineDiffs(a, b []string, alo, ahi, blo, bhi, depth int, out []lcs.Diff) []lcs.Diff {
	for alo < ahi && blo < bhi && a[alo] == b[blo] {
		alo, blo = alo+1, blo+1
	}
	for alo < ahi && blo < bhi && a[ahi-1] == b[bhi-1] {
		ahi, bhi = ahi-1, bhi-1
	}
	if alo == ahi || blo == bhi {
		if alo == ahi && blo == bhi {
			return out
		}
		return append(out, lcs.Diff{Start: alo, End: ahi, ReplStart: blo, ReplEnd: bhi})
	}
	ds := lcs.DiffLines(a[alo:ahi], b[blo:bhi])
	changed := 0
	for _, d := range ds {
		changed += d.End - d.Start + d.ReplEnd - d.ReplStart
	}
	var anchors []pair
	if changed > exact && depth < maxDepth && ahi-alo+bhi-blo <= maxAnchored {
		anchors = uniqueInOrder(a[alo:ahi], b[blo:bhi])
	}
	if len(anchors) == 0 {
		for _, d := range ds {
			out = append(out, lcs.Diff{Start: d.Start + alo, End: d.End + alo, ReplStart: d.ReplStart + blo, ReplEnd: d.ReplEnd + blo})
		}
		return out
	}
	pa, pb := alo, blo
	for _, p := range anchors {
		out = lineDiffs(a, b, pa, alo+p.i, pb, blo+p.j, depth+1, out)
		pa, pb = alo+p.i+1, blo+p.j+1
	}
	return lineDiffs(a, b, pa, ahi, pb, bhi, depth+1, out)
}

// pair is a line of a and the same line of b.
type pair struct{ i, j int }

// uniqueInOrder returns the lines that stand once in a and once in b, the
// longest run of them that stands in the same order in both.
func uniqueInOrder(a, b []string) []pair {
	type seen struct{ na, nb, ib int }
	lines := make(map[string]*seen, len(a))
	for _, l := range a {
		s := lines[l]
		if s == nil {
			s = &seen{}
			lines[l] = s
		}
		s.na++
	}
	for j, l := range b {
		if s := lines[l]; s != nil {
			s.nb++
			s.ib = j
		}
	}
	var ps []pair
	for i, l := range a {
		if s := lines[l]; s.na == 1 && s.nb == 1 {
			ps = append(ps, pair{i, s.ib})
		}
	}
	// The longest increasing run of j, by patience sorting: tops[k] is
	// the pair that ends the best run of length k+1 found so far.
	var tops []int
	prev := make([]int, len(ps))
	for n, p := range ps {
		k := sort.Search(len(tops), func(k int) bool { return ps[tops[k]].j > p.j })
		prev[n] = -1
		if k > 0 {
			prev[n] = tops[k-1]
		}
		if k == len(tops) {
			tops = append(tops, n)
		} else {
			tops[k] = n
		}
	}
	if len(tops) == 0 {
		return nil
	}
	run := make([]pair, len(tops))
	for n, k := tops[len(tops)-1], len(tops)-1; k >= 0; n, k = prev[n], k-1 {
		run[k] = ps[n]
	}
	return run
}

// writeHunks writes the differences as hunks: each change with Context
// lines around it, changes whose contexts touch or overlap in one hunk.
func writeHunks(out *bytes.Buffer, a, b []string, diffs []lcs.Diff) {
	slices.SortFunc(diffs, func(x, y lcs.Diff) int { return cmp.Compare(x.Start, y.Start) })
	for first := 0; first < len(diffs); {
		last := first
		for last+1 < len(diffs) && diffs[last+1].Start-diffs[last].End <= 2*Context {
			last++
		}
		d0, d1 := diffs[first], diffs[last]
		aFrom, aTo := max(0, d0.Start-Context), min(len(a), d1.End+Context)
		bFrom := d0.ReplStart - (d0.Start - aFrom)
		bTo := d1.ReplEnd + (aTo - d1.End)
		fmt.Fprintf(out, "@@ -%s +%s @@\n", rangeOf(aFrom, aTo), rangeOf(bFrom, bTo))
		at := aFrom
		for _, d := range diffs[first : last+1] {
			for ; at < d.Start; at++ {
				writeLine(out, ' ', a[at])
			}
			for _, l := range a[d.Start:d.End] {
				writeLine(out, '-', l)
			}
			for _, l := range b[d.ReplStart:d.ReplEnd] {
				writeLine(out, '+', l)
			}
			at = d.End
		}
		for ; at < aTo; at++ {
			writeLine(out, ' ', a[at])
		}
		first = last + 1
	}
}

// rangeOf writes the lines [from, to) as a hunk header does: the first
// line (1-based) and the count, which is left out when it is 1; an empty
// range names the line before it.
func rangeOf(from, to int) string {
	switch to - from {
	case 0:
		return fmt.Sprintf("%d,0", from)
	case 1:
		return fmt.Sprintf("%d", from+1)
	}
	return fmt.Sprintf("%d,%d", from+1, to-from)
}

// writeLine writes a line of a hunk; a last line without its line break
// is followed by the note that says so.
func writeLine(out *bytes.Buffer, mark byte, line string) {
	out.WriteByte(mark)
	out.WriteString(line)
	if len(line) == 0 || line[len(line)-1] != '\n' {
		out.WriteString("\n\\ No newline at end of file\n")
	}
}
