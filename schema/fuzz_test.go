package schema

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// FuzzLoad feeds arbitrary bytes to the loader. It must never panic; every
// position it reports must agree with its byte offset; and it must agree with
// encoding/json on what is JSON (the agent's decoder): invalid UTF-8 in a
// string is read as U+FFFD, nesting deeper than MaxDepth is refused.
//
// FuzzValidateMatcher holds ValidateMatcher to CompileMatcher's verdict.
func FuzzValidateMatcher(f *testing.F) {
	for _, s := range []string{"run_command|view_file", "browser_.*", "(?=x)", "[a-", "a{1001}", "a)|(b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, cerr := CompileMatcher(s)
		if verr := ValidateMatcher(s); (cerr == nil) != (verr == nil) {
			t.Fatalf("%q: compile %v, validate %v", s, cerr, verr)
		}
	})
}

// FuzzMatcherRule holds CompileMatcher, literal shortcut included, to the
// rule: the whole tool name against ^(?:matcher)$ in RE2.
func FuzzMatcherRule(f *testing.F) {
	f.Add("run_command|browser_.*", "browser_click")
	f.Add("a.b", "axb")
	f.Add("x|", "")
	f.Fuzz(func(t *testing.T, m, tool string) {
		cm, err := CompileMatcher(m)
		if err != nil || m == "" || m == "*" {
			return
		}
		rule := regexp.MustCompile("^(?:" + m + ")$")
		if cm.Match(tool) != rule.MatchString(tool) {
			t.Fatalf("matcher %q, tool %q: %v, the rule says %v", m, tool, cm.Match(tool), rule.MatchString(tool))
		}
	})
}

func FuzzLoad(f *testing.F) {
	for _, glob := range []string{"testdata/*.json", "../testdata/realworld/*.json"} {
		files, _ := filepath.Glob(glob)
		for _, path := range files {
			if b, err := os.ReadFile(path); err == nil {
				f.Add(b)
			}
		}
	}
	for _, s := range []string{"", "{", "{}", "[]", "\xEF\xBB\xBF{}", `{"a":1,}`, "{\n// c\n}", `{"a":"\ud800"}`, `{"a":{"Stop":[{"command":"x","timeout":1e3}]}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		c := Parse("hooks.json", src)
		if c.Syntax != nil {
			if want := posOf(src, c.Syntax.Pos.Offset); want != c.Syntax.Pos {
				t.Fatalf("error position %+v, recomputed %+v", c.Syntax.Pos, want)
			}
			if json.Valid(src) {
				t.Fatalf("rejected valid JSON: %v", c.Syntax)
			}
			return
		}
		if !json.Valid(src) {
			t.Fatalf("accepted what encoding/json rejects: %q", src)
		}
		checkSpans(t, src, c.Root)
		for _, p := range c.Problems {
			if want := posOf(src, p.Span.Start.Offset); want != p.Span.Start {
				t.Fatalf("%s at %+v, recomputed %+v", p.Rule, p.Span.Start, want)
			}
		}
	})
}
