package lint

import (
	"fmt"
	"strings"

	"github.com/hookctl/hookctl/schema"
)

type matcherNoTool struct{ RuleBase }

func newMatcherNoTool() Rule {
	return &matcherNoTool{newBase("matcher-no-tool", Warning,
		"a matcher, or one of its alternatives, that matches none of the known tools; names glob and case mistakes")}
}

func (r *matcherNoTool) Check(f *File) {
	for _, g := range f.groups() {
		if g.Matcher == nil || g.Matcher.Kind != schema.String {
			continue
		}
		for _, a := range f.fs.matcher(g.Matcher.Str).noToolAlternatives(g.Matcher.Str) {
			span := f.strSpan(g.Matcher, a.alt.from, a.alt.to)
			var fix *Fix
			if a.certain && !(a.foreign && f.choice.runs("foreign-tool")) {
				fix = replaceFix("write "+quoted(a.suggestion), span, jsonInner(a.suggestion))
			}
			r.reportFix(f, span, fix, a.suggestion, "%s", a.msg)
		}
	}
}

// noToolMessage explains why an alternative matches no known tool: a glob
// star, a case mistake, a misspelling, or a tool this format does not
// document.
// certain is set when the suggestion is what the author meant beyond doubt:
// a glob written for the expression, or the one tool the alternative
// names in another case.
// foreign is set for another agent's tool name with glob stars
// ("Write*"), whose fix foreign-tool's finding carries when that rule runs.
func noToolMessage(alt string) (msg, suggestion string, certain, foreign bool) {
	const glob = "a matcher is a regular expression, not a glob, so * repeats the character before it"
	if g := globToRegexp(alt); g != alt && validMatcher(g) && matchesKnownTool(g) {
		return fmt.Sprintf("%q matches no tool: %s; write %q", alt, glob, g), g, true, false
	}
	bare := alt
	if inner, _, ok := schema.UnwrapMatcher(alt); ok {
		bare = inner // ^(?:Write*)$
	}
	if name := strings.TrimRight(bare, "*"); name != bare {
		if ft, ok := schema.LookupForeignTool(name); ok {
			if ft.Tool == "" {
				return fmt.Sprintf("%q matches no tool: %s, and %q is another agent's tool, with no equivalent here", alt, glob, name), "", false, true
			}
			return fmt.Sprintf("%q matches no tool: %s, and %q is another agent's tool: write %q", alt, glob, name, ft.Tool), ft.Tool, true, true
		}
	}
	if ts := toolsMatchingFold(alt); len(ts) > 0 {
		return fmt.Sprintf("%q matches no tool because matching is case-sensitive: write %q", alt, strings.Join(ts, "|")), strings.Join(ts, "|"), len(ts) == 1, false
	}
	if near := schema.Nearest(alt, schema.ToolNames()); near != "" {
		return fmt.Sprintf("%q matches none of the known tools: did you mean %q?", alt, near), near, false, false
	}
	if strings.HasPrefix(alt, "mcp") {
		return fmt.Sprintf("%q matches none of the documented tools; if it names an MCP server's tools, check the names the server gives them", alt), "", false, false
	}
	return fmt.Sprintf("%q matches none of the known tools (%s, browser_...); if it names an MCP or newer tool, ignore this warning", alt, shortToolList()), "", false, false
}

func shortToolList() string {
	names := schema.ToolNames()
	return strings.Join(names[:4], ", ") + ", ..."
}
