package schema

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// Matcher selects tools by name. The zero Matcher matches every tool.
type Matcher struct {
	re *regexp.Regexp
	// alts decide, without a regular expression, a matcher made only of
	// literal names and literal prefixes followed by ".*" ("run_command",
	// "view_file|browser_.*"): most real matchers, and compiling a regular
	// expression costs tens of microseconds, which a file of thousands of
	// hooks would pay on every dispatch.
	alts []literalAlt
}

// literalAlt is one alternative of a literal matcher: a name, or with
// family set, a prefix followed by ".*".
type literalAlt struct {
	text   string
	family bool
}

// MatchesAll reports whether the matcher selects every tool.
func (m Matcher) MatchesAll() bool { return m.re == nil && m.alts == nil }

// Match reports whether the matcher selects the tool.
func (m Matcher) Match(tool string) bool {
	if m.alts != nil {
		for _, a := range m.alts {
			if !a.family && tool == a.text {
				return true
			}
			// "." matches any character but a line break.
			if a.family && strings.HasPrefix(tool, a.text) && !strings.Contains(tool[len(a.text):], "\n") {
				return true
			}
		}
		return false
	}
	return m.re == nil || m.re.MatchString(tool)
}

// literalMatcher returns the alternatives of a matcher made only of literal
// names and literal prefixes followed by ".*", and false for any other.
func literalMatcher(s string) ([]literalAlt, bool) {
	if strings.ContainsAny(s, `()[]{}\^$`) || !utf8.ValidString(s) {
		return nil, false
	}
	alts := make([]literalAlt, 0, strings.Count(s, "|")+1)
	for alt := range strings.SplitSeq(s, "|") {
		prefix, family := strings.CutSuffix(alt, ".*")
		if regexp.QuoteMeta(prefix) != prefix {
			return nil, false
		}
		alts = append(alts, literalAlt{text: prefix, family: family})
	}
	return alts, true
}

// CompileMatcher compiles a matcher by the format's rule: "" and "*" match
// every tool; anything else is an RE2 regular expression matched against the
// whole tool name, as if written ^(?:matcher)$. The error says what is wrong
// in terms a hook author can act on, naming lookaround and backreferences,
// which RE2 does not support.
func CompileMatcher(s string) (Matcher, error) {
	if s == "" || s == "*" {
		return Matcher{}, nil
	}
	if alts, ok := literalMatcher(s); ok {
		return Matcher{alts: alts}, nil
	}
	// The matcher alone first, so that an error quotes what the author
	// wrote rather than the anchored form.
	if _, err := regexp.Compile(s); err != nil {
		return Matcher{}, matcherError(s, err)
	}
	re, err := regexp.Compile("^(?:" + s + ")$")
	if err != nil {
		return Matcher{}, matcherError(s, err)
	}
	return Matcher{re: re}, nil
}

// ValidateMatcher reports whether CompileMatcher would accept the matcher,
// with the same error, without building the matching program: parsing is
// enough to know, and a file's loader only needs to know.
func ValidateMatcher(s string) error {
	if _, literal := literalMatcher(s); s == "" || s == "*" || literal {
		return nil
	}
	if _, err := syntax.Parse(s, syntax.Perl); err != nil {
		_, cerr := CompileMatcher(s)
		if cerr != nil {
			return cerr
		}
	}
	return nil
}

func matcherError(s string, err error) error {
	switch {
	case strings.Contains(s, "(?=") || strings.Contains(s, "(?!"):
		return fmt.Errorf("the matcher %q uses lookahead ((?= or (?!), which RE2 regular expressions do not support: list the tools to match instead, such as \"run_command|view_file\"", s)
	case strings.Contains(s, "(?<=") || strings.Contains(s, "(?<!"):
		return fmt.Errorf("the matcher %q uses lookbehind ((?<= or (?<!), which RE2 regular expressions do not support: list the tools to match instead", s)
	case hasBackreference(s):
		return fmt.Errorf("the matcher %q uses a backreference (\\1), which RE2 regular expressions do not support", s)
	}
	if se, ok := err.(*syntax.Error); ok {
		why := se.Code.String()
		if se.Code == syntax.ErrMissingRepeatArgument && (strings.HasPrefix(s, "*") || strings.Contains(s, "|*")) {
			return fmt.Errorf("the matcher %q is not a valid regular expression: %s %q; a matcher is a regular expression, not a glob: write \".*\" for \"any characters\"", s, why, se.Expr)
		}
		return fmt.Errorf("the matcher %q is not a valid regular expression: %s %q", s, why, se.Expr)
	}
	return fmt.Errorf("the matcher %q is not a valid regular expression: %v", s, err)
}

// hasBackreference reports whether s holds \1 to \9 outside a character
// class.
func hasBackreference(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '\\' {
			if s[i+1] >= '1' && s[i+1] <= '9' {
				return true
			}
			i++
		}
	}
	return false
}
