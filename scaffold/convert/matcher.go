package convert

import (
	"strconv"
	"strings"

	"github.com/hookctl/hookctl/schema"
)

// A matcher is read as a small tree, just enough to rename the tools it
// names one by one wherever they stand in the regular expression, to drop
// the alternatives that name a tool with no equivalent, and to merge the
// alternatives that become the same tool, while every other character
// stays as written.
type (
	alternatives []sequence
	sequence     []piece
	piece        struct {
		text  string // an escape, a class, an operator or a literal character
		ident string // a run of letters, digits and underscores
		group *group
	}
	group struct {
		open  string // "(", "(?:", "(?P<name>" ...
		alts  alternatives
		close string // ")" or "" when the matcher ends without one
	}
)

type matcherParser struct {
	s string
	i int
}

func parseMatcher(s string) alternatives {
	p := &matcherParser{s: s}
	alts := p.alternatives()
	for p.i < len(s) {
		// A ")" that closes nothing: RE2 rejects it, but it prints back.
		p.i++
		more := p.alternatives()
		last := len(alts) - 1
		alts[last] = append(append(alts[last], piece{text: ")"}), more[0]...)
		alts = append(alts, more[1:]...)
	}
	return alts
}

func (p *matcherParser) alternatives() alternatives {
	alts := alternatives{nil}
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

func (p *matcherParser) piece() piece {
	s, start := p.s, p.i
	c := s[p.i]
	switch {
	case c == '\\':
		p.i = min(p.i+2, len(s))
		return piece{text: s[start:p.i]}
	case c == '[':
		p.i++
		if p.i < len(s) && s[p.i] == '^' {
			p.i++
		}
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
		return piece{text: s[start:p.i]}
	case c == '(':
		p.i++
		if p.i < len(s) && s[p.i] == '?' {
			// (?:, (?P<name>, (?<name>, (?i:, or a bare flag group (?i).
			for p.i < len(s) && s[p.i] != ':' && s[p.i] != '>' && s[p.i] != ')' {
				p.i++
			}
			if p.i < len(s) && s[p.i] == ')' {
				p.i++
				return piece{text: s[start:p.i]}
			}
			p.i = min(p.i+1, len(s))
		}
		g := &group{open: s[start:p.i]}
		g.alts = p.alternatives()
		if p.i < len(s) && s[p.i] == ')' {
			p.i++
			g.close = ")"
		}
		return piece{group: g}
	case isIdentByte(c):
		for p.i < len(s) && isIdentByte(s[p.i]) {
			p.i++
		}
		return piece{ident: s[start:p.i]}
	}
	p.i++
	return piece{text: s[start:p.i]}
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func (a alternatives) String() string {
	parts := make([]string, len(a))
	for i, s := range a {
		parts[i] = s.String()
	}
	return strings.Join(parts, "|")
}

func (s sequence) String() string {
	var b strings.Builder
	for _, p := range s {
		switch {
		case p.group != nil:
			b.WriteString(p.group.open)
			b.WriteString(p.group.alts.String())
			b.WriteString(p.group.close)
		case p.ident != "":
			b.WriteString(p.ident)
		default:
			b.WriteString(p.text)
		}
	}
	return b.String()
}

// soleIdent returns the index of the one tool name an alternative consists
// of, anchors aside, or -1.
func (s sequence) soleIdent() int {
	at := -1
	for i, p := range s {
		switch {
		case p.ident != "" && at < 0:
			at = i
		case p.text == "^" || p.text == "$":
		default:
			return -1
		}
	}
	return at
}

// matcherChange is what converting a matcher did.
type matcherChange struct {
	// Text is the converted matcher.
	Text string
	// Renamed lists "Bash → run_command" for every tool renamed.
	Renamed []string
	// Dropped lists the tools with no equivalent, with why.
	Dropped []schema.ForeignTool
	// Notes are the table's remarks on tools that were renamed.
	Notes []string
	// Unknown lists names that are neither this agent's tools nor another
	// agent's (MCP tools, new tools): kept as written.
	Unknown []string
	// Nothing is true when every tool the matcher named had no equivalent:
	// the group would match no tool.
	Nothing bool
}

// convertMatcher renames another agent's tools in a matcher. "", "*" and
// ".*" match every tool in both formats and stay as they are.
func convertMatcher(m string) matcherChange {
	ch := matcherChange{Text: m}
	if m == "" || m == "*" || m == ".*" {
		return ch
	}
	tree := parseMatcher(m)
	tree, nothing := ch.rewrite(tree)
	if nothing {
		ch.Nothing = true
		return ch
	}
	if len(ch.Renamed) > 0 || len(ch.Dropped) > 0 {
		// Otherwise the matcher stays byte for byte as written.
		ch.Text = tree.String()
	}
	return ch
}

// rewrite converts the alternatives and reports whether none is left.
func (ch *matcherChange) rewrite(alts alternatives) (alternatives, bool) {
	var out alternatives
	seen := map[string]bool{}
	keep := func(s sequence) {
		k := s.String()
		if !seen[k] {
			seen[k] = true
			out = append(out, s)
		}
	}
	hadAny := len(alts) > 0
	for _, seq := range alts {
		if i := seq.soleIdent(); i >= 0 {
			name := seq[i].ident
			ft, foreign := schema.LookupForeignTool(name)
			switch {
			case foreign && ft.Tool == "":
				ch.drop(ft)
				continue
			case foreign:
				ch.rename(ft)
				tools := strings.Split(ft.Tool, "|")
				if len(seq) == 1 {
					for _, t := range tools {
						keep(sequence{{ident: t}})
					}
					continue
				}
				seq = replaceAt(seq, i, ft.Tool)
			default:
				ch.checkKnown(name)
			}
			keep(seq)
			continue
		}
		seq, empty := ch.rewriteSequence(seq)
		if empty {
			continue
		}
		keep(seq)
	}
	return out, hadAny && len(out) == 0
}

// rewriteSequence converts the tools named inside an alternative made of
// more than one name, and reports whether it can match no tool any more.
func (ch *matcherChange) rewriteSequence(seq sequence) (sequence, bool) {
	out := make(sequence, 0, len(seq))
	for _, p := range seq {
		switch {
		case p.group != nil:
			alts, nothing := ch.rewrite(p.group.alts)
			if nothing {
				return nil, true
			}
			g := *p.group
			g.alts = alts
			out = append(out, piece{group: &g})
		case p.ident != "":
			ft, foreign := schema.LookupForeignTool(p.ident)
			switch {
			case foreign && ft.Tool == "":
				// Part of a longer pattern: it can no longer match.
				ch.drop(ft)
				return nil, true
			case foreign:
				ch.rename(ft)
				out = append(out, piece{text: wrapAlternation(ft.Tool)})
			default:
				out = append(out, p)
			}
		default:
			out = append(out, p)
		}
	}
	return out, false
}

func replaceAt(seq sequence, i int, tool string) sequence {
	out := append(sequence(nil), seq...)
	out[i] = piece{text: wrapAlternation(tool)}
	return out
}

func wrapAlternation(tool string) string {
	if strings.Contains(tool, "|") {
		return "(?:" + tool + ")"
	}
	return tool
}

func (ch *matcherChange) rename(ft schema.ForeignTool) {
	r := ft.Name + " → " + ft.Tool
	for _, x := range ch.Renamed {
		if x == r {
			return
		}
	}
	ch.Renamed = append(ch.Renamed, r)
	if ft.Note != "" {
		ch.Notes = append(ch.Notes, ft.Name+": "+ft.Note)
	}
}

func (ch *matcherChange) drop(ft schema.ForeignTool) {
	for _, x := range ch.Dropped {
		if x.Name == ft.Name {
			return
		}
	}
	ch.Dropped = append(ch.Dropped, ft)
}

// checkKnown notes a whole-alternative name that is no tool of this agent.
func (ch *matcherChange) checkKnown(name string) {
	if schema.IsKnownTool(name) {
		return
	}
	for _, x := range ch.Unknown {
		if x == name {
			return
		}
	}
	ch.Unknown = append(ch.Unknown, name)
}

// foreignToolsIn lists the other agents' tool names a matcher names.
func foreignToolsIn(m string) []string {
	var out []string
	var walk func(alternatives)
	walk = func(alts alternatives) {
		for _, seq := range alts {
			for _, p := range seq {
				switch {
				case p.group != nil:
					walk(p.group.alts)
				case p.ident != "":
					if _, ok := schema.LookupForeignTool(p.ident); ok {
						out = append(out, p.ident)
					}
				}
			}
		}
	}
	walk(parseMatcher(m))
	return out
}

// isMCP reports whether a matcher is about MCP tools, whose names their
// servers choose.
func isMCP(m string) bool {
	return strings.HasPrefix(strings.TrimLeft(m, "^(?:"), "mcp_")
}

// number returns a JSON number's value.
func number(n *schema.Node) (float64, bool) {
	if n == nil || n.Kind != schema.Number {
		return 0, false
	}
	f, err := strconv.ParseFloat(n.Str, 64)
	return f, err == nil
}
