package lint

import (
	"regexp"
	"strings"

	"github.com/hookctl/hookctl/schema"
)

// alternative is one top-level alternative of a matcher ("Bash" in
// "run_command|Bash") and where it stands in the matcher's text.
type alternative struct {
	text     string
	from, to int
}

// alternatives splits a matcher at its top-level "|", leaving alternations
// inside groups and classes whole. A matcher written anchored and grouped,
// "^(?:Bash|Read)$", is split inside its group.
func alternatives(s string) []alternative {
	return splitAlternatives(s, 0)
}

func splitAlternatives(s string, base int) []alternative {
	if inner, off, ok := unwrap(s); ok {
		return splitAlternatives(inner, base+off)
	}
	var out []alternative
	start := 0
	scanRegexp(s, func(i, depth int) bool {
		if s[i] == '|' && depth == 0 {
			out = append(out, alternative{s[start:i], base + start, base + i})
			start = i + 1
		}
		return true
	})
	return append(out, alternative{s[start:], base + start, base + len(s)})
}

// scanRegexp calls visit for each byte of s that is syntax rather than
// escaped or inside a character class, with the group depth after it (an
// opening parenthesis counts, a closing one no longer does), until visit
// returns false.
func scanRegexp(s string, visit func(i, depth int) bool) {
	depth := 0
	inClass := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			i++
			continue
		case inClass:
			if c == ']' {
				inClass = false
			}
			continue
		case c == '[':
			inClass = true
			continue
		case c == '(':
			depth++
		case c == ')':
			depth--
		}
		if !visit(i, depth) {
			return
		}
	}
}

// unwrap strips the anchors and the one group around a whole matcher
// ("^(?:a|b)$" to "a|b"), which matching adds anyway, and returns where the
// rest starts.
func unwrap(s string) (string, int, bool) {
	off := 0
	t := s
	if strings.HasPrefix(t, "^") && strings.HasSuffix(t, "$") && !strings.HasSuffix(t, "\\$") {
		t = t[1 : len(t)-1]
		off = 1
	}
	open := 0
	switch {
	case strings.HasPrefix(t, "(?:"):
		open = 3
	case strings.HasPrefix(t, "(") && !strings.HasPrefix(t, "(?"):
		open = 1
	}
	if open > 0 && strings.HasSuffix(t, ")") && closes(t) == len(t)-1 {
		return t[open : len(t)-1], off + open, true
	}
	if off > 0 {
		return t, off, true
	}
	return "", 0, false
}

// closes returns the index of the parenthesis that closes the one at s[0].
func closes(s string) int {
	at := -1
	scanRegexp(s, func(i, depth int) bool {
		if s[i] == ')' && depth == 0 {
			at = i
			return false
		}
		return true
	})
	return at
}

// wordIndex returns where name stands in s as a whole word (not inside a
// longer tool name), or -1.
func wordIndex(s, name string) int {
	for from := 0; ; {
		i := strings.Index(s[from:], name)
		if i < 0 {
			return -1
		}
		i += from
		end := i + len(name)
		if (i == 0 || !isNameByte(s[i-1])) && (end == len(s) || !isNameByte(s[end])) {
			return i
		}
		from = i + 1
	}
}

func isNameByte(c byte) bool {
	return c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// browserSamples stand for the browser_ family, whose members the format's
// documentation does not list.
var browserSamples = []string{"browser_click", "browser_navigate", "browser_screenshot", "browser_type"}

// matchesKnownTool reports whether the regular expression (already valid)
// selects a documented tool or a browser tool. An expression whose literal
// prefix is browser_ counts as selecting the browser family.
func matchesKnownTool(alt string) bool {
	re, err := regexp.Compile("^(?:" + alt + ")$")
	if err != nil {
		return true // matcher-syntax reports it
	}
	for _, t := range schema.ToolNames() {
		if re.MatchString(t) {
			return true
		}
	}
	for _, t := range browserSamples {
		if re.MatchString(t) {
			return true
		}
	}
	prefix, _ := re.LiteralPrefix()
	return strings.HasPrefix(prefix, schema.BrowserPrefix)
}

// toolsMatching returns the known tools the expression selects,
// case-insensitively.
func toolsMatchingFold(alt string) []string {
	re, err := regexp.Compile("(?i)^(?:" + alt + ")$")
	if err != nil {
		return nil
	}
	var out []string
	for _, t := range schema.ToolNames() {
		if re.MatchString(t) {
			out = append(out, t)
		}
	}
	return out
}

// globToRegexp rewrites the glob stars of a matcher ("browser_*", "*")
// as the regular expression the author meant ("browser_.*", ".*"): a star
// that follows a letter, digit, "_", "|", "(" or nothing repeats nothing
// useful in a regular expression.
func globToRegexp(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			b.WriteByte(c)
			b.WriteByte(s[i+1])
			i++
			continue
		}
		if c == '*' {
			prev := byte(0)
			if i > 0 {
				prev = s[i-1]
			}
			if prev == 0 || prev == '_' || prev == '|' || prev == '(' || prev == '-' || prev >= 'a' && prev <= 'z' || prev >= 'A' && prev <= 'Z' || prev >= '0' && prev <= '9' {
				b.WriteString(".*")
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

func validMatcher(s string) bool {
	_, err := schema.CompileMatcher(s)
	return err == nil
}
