package hooktest

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParse checks that any test file, however hostile, is either accepted
// with cases that can be sent, or refused with problems that each name a
// place inside the file; and that comparing any expectation with itself
// finds nothing. Plain go test runs the seeds only.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"tests": [{"name": "a", "tool": "run_command", "args": {"CommandLine": "ls"}, "expect": {"decision": "deny"}}]}`))
	f.Add([]byte(`{"tests": [{"name": "b", "event": "Stop", "payload": {"executionNum": 1e999}, "expect": {"decision": "allow", "reason": null}, "expectFailures": ["x"]}]}`))
	f.Add([]byte(`{"tests": [{"name": "c", "event": "PreInvocation", "expect": {"injectSteps": [{"userMessage": "\u00e9"}]}}, {"name": "c"}]}`))
	f.Add([]byte(`{"tests": [{"name": "d", "event": "PostToolUse", "payload": {"toolCall": {"name": "x", "args": []}}, "tool": 1}]}`))
	f.Add(largeSuite(5))
	f.Add([]byte(`{"tests": [`))
	f.Add([]byte(strings.Repeat("[", 2000)))
	f.Fuzz(func(t *testing.T, src []byte) {
		s, ps := Parse("t.json", src)
		if (s == nil) == (len(ps) == 0) {
			t.Fatalf("Parse returned suite %v with %d problems", s != nil, len(ps))
		}
		for _, p := range ps {
			if p.Pos.Offset < 0 || p.Pos.Offset > len(src) || (p.Pos.IsValid() && p.Pos.Line < 1) {
				t.Fatalf("problem outside the file: %v", p)
			}
			if !utf8.ValidString(p.Msg) && utf8.Valid(src) {
				t.Fatalf("problem message is not UTF-8: %q", p.Msg)
			}
		}
		if s == nil {
			return
		}
		for _, c := range s.Cases {
			if c.Name == "" || !c.Event.Valid() {
				t.Fatalf("accepted a case without a name or event: %+v", c)
			}
			if len(c.Payload) > 0 {
				if _, err := decode(c.Payload); err != nil {
					t.Fatalf("case %q: the payload %s is not JSON: %v", c.Name, c.Payload, err)
				}
			}
			if c.Expect != nil {
				v, err := decode(src[c.Expect.Span.Start.Offset:c.Expect.Span.End.Offset])
				if err != nil {
					t.Fatal(err)
				}
				if ms := Compare(c.Expect, v); len(ms) > 0 {
					t.Fatalf("case %q: its expect does not match itself: %+v", c.Name, ms)
				}
			}
		}
	})
}
