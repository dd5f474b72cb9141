package convert

import (
	"strconv"
	"strings"

	"github.com/hookctl/hookctl/schema"
)

// A matcher is read as schema.ParseMatcher's tree, so that the tools it
// names are renamed one by one wherever they stand in the regular
// expression, the alternatives that name a tool with no equivalent are
// dropped, and those that become the same tool are merged, while every
// other character stays as written.
type (
	alternatives = schema.MatcherTree
	sequence     = schema.MatcherSeq
	piece        = schema.MatcherPiece
)

// soleIdent returns the index of the one tool name an alternative consists
// of, anchors aside, or -1.
func soleIdent(s sequence) int {
	at := -1
	for i, p := range s {
		switch {
		case p.Ident != "" && at < 0:
			at = i
		case p.Text == "^" || p.Text == "$":
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
	tree := schema.ParseMatcher(m)
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
		if i := soleIdent(seq); i >= 0 {
			name := seq[i].Ident
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
						keep(sequence{{Ident: t}})
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
		case p.Group != nil:
			alts, nothing := ch.rewrite(p.Group.Alts)
			if nothing {
				return nil, true
			}
			g := *p.Group
			g.Alts = alts
			out = append(out, piece{Group: &g})
		case p.Ident != "":
			ft, foreign := schema.LookupForeignTool(p.Ident)
			switch {
			case foreign && ft.Tool == "":
				// Part of a longer pattern: it can no longer match.
				ch.drop(ft)
				return nil, true
			case foreign:
				ch.rename(ft)
				out = append(out, piece{Text: wrapAlternation(ft.Tool)})
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
	out[i] = piece{Text: wrapAlternation(tool)}
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
	for id := range schema.ParseMatcher(m).Idents() {
		if _, ok := schema.LookupForeignTool(id); ok {
			out = append(out, id)
		}
	}
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

// matcher converts an entry's matcher for the target event; ok is false
// when the entry matches only tools that have no equivalent.
func (c *converter) matcher(key string, target schema.Event, fe schema.ForeignEvent, entry *schema.Node) (*string, bool) {
	mm := entry.Get("matcher")
	var text string
	has := mm != nil && mm.Value.Kind == schema.String
	if mm != nil && !has {
		c.report.warn(mm.Value.Span.Start, "the matcher is %s, not a string: left out, so the hook runs for every tool", mm.Value.Describe())
	}
	if has {
		text = mm.Value.Str
	}
	matchesAll := text == "" || text == "*" || text == ".*"
	switch {
	case fe.Matcher != "":
		// Cursor's tool-specific events are about one kind of tool.
		if has && !matchesAll {
			c.report.warn(mm.KeySpan.Start, "the matcher %q narrows %s to some calls; %s has no such filter, so the hook runs for every %s call: filter in the script", text, key, target, fe.Matcher)
		}
		m := fe.Matcher
		return &m, true
	case !target.IsTool():
		if has && !matchesAll {
			c.report.note(mm.KeySpan.Start, "the matcher %q is left out: %s takes no matcher, so the hook runs every time", text, target)
		}
		return nil, true
	case !has:
		return nil, true
	}
	ch := convertMatcher(text)
	pos := mm.Value.Span.Start
	for _, ft := range ch.Dropped {
		why := ft.Note
		if why == "" {
			why = "this agent has no such tool"
		}
		if ch.Nothing {
			c.report.warn(pos, "the matcher %q names only tools with no equivalent (%s: %s), so this group is not carried over", text, ft.Name, why)
			return nil, false
		}
		c.report.warn(pos, "%s has no equivalent (%s), so it is left out of the matcher", ft.Name, why)
	}
	if len(ch.Renamed) > 0 {
		c.report.note(pos, "the matcher %q becomes %q (%s)", text, ch.Text, strings.Join(ch.Renamed, ", "))
	}
	for _, n := range ch.Notes {
		c.report.note(pos, "%s", n)
	}
	if isMCP(text) {
		c.report.note(pos, "MCP tool names are kept as written: MCP tools keep the names their servers give them; check the names this agent shows for them")
	} else if len(ch.Unknown) > 0 {
		c.report.note(pos, "%s %s no tool of this agent: kept as written, for MCP or new tools; check the name", strings.Join(ch.Unknown, ", "), isAre(len(ch.Unknown)))
	}
	if cm, err := schema.CompileMatcher(ch.Text); err != nil {
		c.report.warn(pos, "%v: matchers here are RE2 regular expressions; rewrite it", err)
	} else if !isMCP(text) && len(ch.Unknown) == 0 && !matchesSomeTool(cm) {
		c.report.note(pos, "the matcher %q matches none of this agent's tools: kept as written; check it (hookctl schema lists the tools)", ch.Text)
	}
	return &ch.Text, true
}

// matchesSomeTool reports whether a matcher selects a documented tool or a
// browser tool.
func matchesSomeTool(m schema.Matcher) bool {
	for _, t := range append(schema.ToolNames(), schema.BrowserPrefix+"click") {
		if m.Match(t) {
			return true
		}
	}
	return false
}
