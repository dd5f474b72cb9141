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

// alternatives splits a matcher at its top-level "|" (schema.SplitMatcher).
func alternatives(s string) []alternative {
	alts := schema.SplitMatcher(s)
	out := make([]alternative, len(alts))
	for i, a := range alts {
		out[i] = alternative{a.Text, a.From, a.To}
	}
	return out
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
