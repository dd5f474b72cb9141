package lint

import (
	"sync"

	"github.com/hookctl/hookctl/schema"
)

// matcherInfo is what the rules need to know about one matcher text,
// worked out once per run: files repeat the same matchers, and compiling a
// regular expression costs more than everything else lint does with it.
type matcherInfo struct {
	m   schema.Matcher
	err error
	// selects holds, for each name of probeTools, whether the matcher
	// selects it.
	selects []bool

	noToolDone bool
	noTool     []noToolAlt
	foreign    []foreignHit
	foreignOK  bool
}

type noToolAlt struct {
	alt             alternative
	msg, suggestion string
	// certain: the suggestion is what was meant; foreign: it is another
	// agent's tool with glob stars (see noToolMessage).
	certain, foreign bool
}

type foreignHit struct {
	// at is where the name stands in the matcher; end is where the text
	// its fix replaces ends: past the name and the glob stars written
	// after it ("Write*"), which the tool meant here makes useless.
	at, end int
	ft      schema.ForeignTool
}

// probeTools are the names a matcher is tried on: the documented tools and
// members of the browser family.
var probeTools = sync.OnceValue(func() []string { return append(schema.ToolNames(), browserSamples...) })

func (c *fsCache) matcher(text string) *matcherInfo {
	if mi, ok := c.matchers[text]; ok {
		return mi
	}
	mi := &matcherInfo{}
	mi.m, mi.err = schema.CompileMatcher(text)
	if mi.err == nil {
		mi.selects = make([]bool, len(probeTools()))
		for i, t := range probeTools() {
			mi.selects[i] = mi.m.Match(t)
		}
	}
	c.matchers[text] = mi
	return mi
}

// overlaps reports whether two valid matchers select a common tool.
func (mi *matcherInfo) overlaps(other *matcherInfo) bool {
	if mi.err != nil || other.err != nil {
		return false
	}
	if mi.m.MatchesAll() || other.m.MatchesAll() {
		return true
	}
	for i := range mi.selects {
		if mi.selects[i] && other.selects[i] {
			return true
		}
	}
	return false
}

// noToolAlternatives returns the alternatives of the matcher that select no
// known tool and are not another agent's tool names, with what to say
// about each.
func (mi *matcherInfo) noToolAlternatives(text string) []noToolAlt {
	if mi.noToolDone {
		return mi.noTool
	}
	mi.noToolDone = true
	if mi.err != nil || mi.m.MatchesAll() {
		return nil
	}
	for _, a := range alternatives(text) {
		if a.text == "" || matchesKnownTool(a.text) {
			continue
		}
		if _, ok := schema.LookupForeignTool(a.text); ok {
			continue // foreign-tool names the equivalent
		}
		msg, sugg, certain, foreign := noToolMessage(a.text)
		mi.noTool = append(mi.noTool, noToolAlt{a, msg, sugg, certain, foreign})
	}
	return mi.noTool
}

// foreignTools returns the other agents' tool names that the matcher
// spells out and selects: "run_command|Bash" and "^(?:Bash|Read)$" do,
// ".*" does not.
func (mi *matcherInfo) foreignTools(text string) []foreignHit {
	if mi.foreignOK {
		return mi.foreign
	}
	mi.foreignOK = true
	if mi.err != nil || mi.m.MatchesAll() {
		return nil
	}
	for _, ft := range schema.ForeignTools {
		i := wordIndex(text, ft.Name)
		if i < 0 || !mi.m.Match(ft.Name) || schema.IsKnownTool(ft.Name) {
			continue
		}
		end := i + len(ft.Name)
		for end < len(text) && text[end] == '*' {
			end++
		}
		mi.foreign = append(mi.foreign, foreignHit{i, end, ft})
	}
	return mi.foreign
}
