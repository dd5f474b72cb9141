package schema

import (
	"iter"
	"strings"
)

// MatcherTree is a matcher read as a small tree: its alternatives, each a
// sequence of pieces, where a piece is a tool name (a run of letters,
// digits and underscores), a group holding alternatives of its own, or any
// other syntax (an escape, a class, an operator, a character) kept as
// text. It is just enough to find the tool names a matcher spells out and
// where they stand, to split it into alternatives, and to rename tools one
// by one: every matcher, valid or not, prints back byte for byte.
type MatcherTree []MatcherSeq

// MatcherSeq is one alternative of a MatcherTree.
type MatcherSeq []MatcherPiece

// MatcherPiece is one piece of an alternative: Ident, Group or Text.
type MatcherPiece struct {
	// Text is an escape, a class, an operator or a literal character.
	Text string
	// Ident is a run of letters, digits and underscores.
	Ident string
	// Group is a parenthesized group.
	Group *MatcherSubgroup
}

// MatcherSubgroup is a parenthesized group of a matcher.
type MatcherSubgroup struct {
	// Open is "(", "(?:", "(?P<name>", "(?i:" ...
	Open string
	Alts MatcherTree
	// Close is ")", or "" when the matcher ends without one.
	Close string
}

// MatcherAlt is one top-level alternative of a matcher and where it stands
// in the matcher's text, from and to as byte offsets.
type MatcherAlt struct {
	Text     string
	From, To int
}

type matcherParser struct {
	s string
	i int
}

// ParseMatcher reads a matcher as a tree. It never fails: what is not
// valid syntax is kept as text, and a ")" that closes nothing (which RE2
// rejects) is text in the alternative it ends.
func ParseMatcher(s string) MatcherTree {
	p := &matcherParser{s: s}
	alts := p.alternatives()
	for p.i < len(s) {
		p.i++
		more := p.alternatives()
		last := len(alts) - 1
		alts[last] = append(append(alts[last], MatcherPiece{Text: ")"}), more[0]...)
		alts = append(alts, more[1:]...)
	}
	return alts
}

func (p *matcherParser) alternatives() MatcherTree {
	alts := MatcherTree{nil}
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == ')':
			return alts
		case c == '|':
			p.i++
			alts = append(alts, nil)
		default:
			alts[len(alts)-1] = append(alts[len(alts)-1], p.piece())
		}
	}
	return alts
}

func (p *matcherParser) piece() MatcherPiece {
	s, start := p.s, p.i
	c := s[p.i]
	switch {
	case c == '\\':
		p.i = min(p.i+2, len(s))
		return MatcherPiece{Text: s[start:p.i]}
	case c == '[':
		p.i++
		if p.i < len(s) && s[p.i] == '^' {
			p.i++
		}
		// A ] first in a class is one of its characters.
		if p.i < len(s) && s[p.i] == ']' {
			p.i++
		}
		for p.i < len(s) && s[p.i] != ']' {
			if s[p.i] == '\\' {
				p.i++
			}
			p.i++
		}
		p.i = min(p.i+1, len(s))
		return MatcherPiece{Text: s[start:p.i]}
	case c == '(':
		p.i++
		if p.i < len(s) && s[p.i] == '?' {
			// (?:, (?P<name>, (?<name>, (?i:, or a bare flag group (?i).
			for p.i < len(s) && s[p.i] != ':' && s[p.i] != '>' && s[p.i] != ')' {
				p.i++
			}
			if p.i < len(s) && s[p.i] == ')' {
				p.i++
				return MatcherPiece{Text: s[start:p.i]}
			}
			p.i = min(p.i+1, len(s))
		}
		g := &MatcherSubgroup{Open: s[start:p.i]}
		g.Alts = p.alternatives()
		if p.i < len(s) && s[p.i] == ')' {
			p.i++
			g.Close = ")"
		}
		return MatcherPiece{Group: g}
	case isToolNameByte(c):
		for p.i < len(s) && isToolNameByte(s[p.i]) {
			p.i++
		}
		return MatcherPiece{Ident: s[start:p.i]}
	}
	p.i++
	return MatcherPiece{Text: s[start:p.i]}
}

func isToolNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// String prints the matcher back.
func (t MatcherTree) String() string {
	parts := make([]string, len(t))
	for i, s := range t {
		parts[i] = s.String()
	}
	return strings.Join(parts, "|")
}

// String prints the alternative back.
func (s MatcherSeq) String() string {
	var b strings.Builder
	for _, p := range s {
		switch {
		case p.Group != nil:
			b.WriteString(p.Group.Open)
			b.WriteString(p.Group.Alts.String())
			b.WriteString(p.Group.Close)
		case p.Ident != "":
			b.WriteString(p.Ident)
		default:
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// Idents yields the tool names the matcher spells out, groups included,
// in the order they are written.
func (t MatcherTree) Idents() iter.Seq[string] {
	return func(yield func(string) bool) {
		t.idents(yield)
	}
}

func (t MatcherTree) idents(yield func(string) bool) bool {
	for _, seq := range t {
		for _, p := range seq {
			switch {
			case p.Group != nil:
				if !p.Group.Alts.idents(yield) {
					return false
				}
			case p.Ident != "" && !yield(p.Ident):
				return false
			}
		}
	}
	return true
}

// SplitMatcher returns the top-level alternatives of a matcher, with where
// each stands, leaving alternations inside groups and classes whole. A
// matcher written anchored or grouped as a whole, "^(?:Bash|Read)$", is
// split inside: matching anchors and groups it anyway.
func SplitMatcher(s string) []MatcherAlt {
	base := 0
	for {
		inner, off, ok := UnwrapMatcher(s)
		if !ok {
			break
		}
		s, base = inner, base+off
	}
	var out []MatcherAlt
	from := base
	for _, seq := range ParseMatcher(s) {
		// The tree prints back byte for byte, so each alternative's
		// text is the matcher's between two top-level "|".
		text := seq.String()
		out = append(out, MatcherAlt{Text: text, From: from, To: from + len(text)})
		from += len(text) + 1
	}
	return out
}

// UnwrapMatcher strips the anchors and the one group around a whole
// matcher ("^(?:a|b)$" to "a|b", "(a|b)" to "a|b", "^a|b$" to "a|b"), which
// matching adds anyway, and returns where the rest starts. ok is false when
// there is nothing to strip.
func UnwrapMatcher(s string) (inner string, offset int, ok bool) {
	t := s
	if strings.HasPrefix(t, "^") && strings.HasSuffix(t, "$") && !strings.HasSuffix(t, `\$`) && len(t) >= 2 {
		t, offset = t[1:len(t)-1], 1
	}
	if tree := ParseMatcher(t); len(tree) == 1 && len(tree[0]) == 1 && tree[0][0].Group != nil {
		g := tree[0][0].Group
		if (g.Open == "(" || g.Open == "(?:") && g.Close == ")" {
			return t[len(g.Open) : len(t)-1], offset + len(g.Open), true
		}
	}
	return t, offset, offset > 0
}
