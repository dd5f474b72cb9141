package convert

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/hookctl/hookctl/schema"
)

// The names of the converted hooks: the source's own where it gives one,
// else made from the event and the matcher, each made unique.

// hookName derives a readable name from the source: the group's own id or
// name, else the event and what the matcher names (pre-tool-use-bash).
func (c *converter) hookName(key string, entry *schema.Node, handlers []*schema.Node) string {
	for _, k := range []string{"id", "name"} {
		if m := entry.Get(k); m != nil && m.Value.Kind == schema.String && kebab(m.Value.Str) != "" {
			return kebab(m.Value.Str)
		}
	}
	name := kebab(key)
	if m := entry.Get("matcher"); m != nil && m.Value.Kind == schema.String {
		if slug := matcherSlug(m.Value.Str); slug != "" {
			name += "-" + slug
		}
	}
	return name
}

// matcherSlug turns a matcher into words for a name: "Edit|Write" is
// "edit-write", "mcp__github__.*" is "mcp-github".
func matcherSlug(m string) string {
	var words []string
	for id := range schema.ParseMatcher(m).Idents() {
		words = append(words, kebab(id))
	}
	var out []string
	length := 0
	for _, w := range words {
		if w == "" || isOneOf(w, out) {
			continue
		}
		if len(out) == 3 || length+len(w) > 40 {
			out = append(out, "more")
			break
		}
		out = append(out, w)
		length += len(w) + 1
	}
	return strings.Join(out, "-")
}

// kebab writes a name in lower case with hyphens between its words:
// "PreToolUse" is "pre-tool-use", "run_command" is "run-command".
func kebab(s string) string {
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case unicode.IsUpper(r):
			if i > 0 && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1])) {
				b.WriteByte('-')
			}
			b.WriteRune(unicode.ToLower(r))
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	parts := strings.FieldsFunc(b.String(), func(r rune) bool { return r == '-' })
	return strings.Join(parts, "-")
}

// addHook adds a converted hook under a name no other hook has.
func (c *converter) addHook(h Hook) {
	if h.Name == "" {
		h.Name = "imported"
	}
	name := h.Name
	for i := 2; c.names[name]; i++ {
		name = fmt.Sprintf("%s-%d", h.Name, i)
	}
	h.Name = name
	c.names[name] = true
	c.hooks = append(c.hooks, h)
}
