package runtime

import (
	"regexp"
	"strings"

	"github.com/hookctl/hookctl/schema"
)

// matchers decides whether matchers select a tool, compiling each distinct
// matcher at most once.
//
// Most matchers are tool names, alternations of tool names, or a family
// prefix such as "browser_.*". Those are decided by comparing strings, the
// same way the anchored expression would decide them, because compiling a
// regular expression costs tens of microseconds: with a few thousand hooks,
// that alone would be most of a dispatch.
type matchers struct {
	cache map[string]bool
}

// match reports whether the valid matcher m selects tool.
func (ms *matchers) match(m, tool string) bool {
	if m == "" || m == "*" {
		return true
	}
	if ok, simple := matchSimple(m, tool); simple {
		return ok
	}
	key := m + "\x00" + tool
	if ok, seen := ms.cache[key]; seen {
		return ok
	}
	cm, err := schema.CompileMatcher(m)
	ok := err == nil && cm.Match(tool)
	if ms.cache == nil {
		ms.cache = map[string]bool{}
	}
	ms.cache[key] = ok
	return ok
}

// matchSimple decides a matcher made of alternatives that are each a
// literal name or a literal prefix followed by ".*". It reports simple =
// false for any other matcher.
func matchSimple(m, tool string) (ok, simple bool) {
	if strings.ContainsAny(m, `()[]{}\^$`) {
		return false, false
	}
	for alt := range strings.SplitSeq(m, "|") {
		prefix, family := strings.CutSuffix(alt, ".*")
		if regexp.QuoteMeta(prefix) != prefix {
			return false, false
		}
		switch {
		case !family && tool == prefix:
			ok = true
		case family && strings.HasPrefix(tool, prefix) && !strings.Contains(tool[len(prefix):], "\n"):
			// "." matches any character but a line break.
			ok = true
		}
	}
	return ok, true
}
