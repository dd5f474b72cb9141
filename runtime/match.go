package runtime

import "github.com/hookctl/hookctl/schema"

// matchers decides whether matchers select a tool, compiling each distinct
// matcher once per dispatch (schema.CompileMatcher decides the common ones,
// tool names and prefixes, without a regular expression).
type matchers struct {
	cache map[string]schema.Matcher
}

// match reports whether the valid matcher m selects tool.
func (ms *matchers) match(m, tool string) bool {
	cm, seen := ms.cache[m]
	if !seen {
		var err error
		if cm, err = schema.CompileMatcher(m); err != nil {
			return false
		}
		if ms.cache == nil {
			ms.cache = map[string]schema.Matcher{}
		}
		ms.cache[m] = cm
	}
	return cm.Match(tool)
}
