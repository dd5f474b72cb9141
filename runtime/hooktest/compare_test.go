package hooktest

import (
	"fmt"
	"testing"
)

func TestCompare(t *testing.T) {
	tests := []struct {
		name      string
		want, got string
		// mismatches lists each mismatch as PATH@LINE:COL, missing ones
		// with a trailing "?".
		mismatches []string
	}{
		{"subset of the top level", `{"decision":"deny"}`, `{"decision":"deny","reason":"no"}`, nil},
		{"different value", `{"decision":"deny"}`, `{"decision":"allow"}`, []string{"decision@1:13"}},
		{"missing key", `{"reason":"x"}`, `{"decision":"ask"}`, []string{"reason@1:2?"}},
		{"null matches an absent key", `{"reason":null}`, `{"decision":"ask"}`, nil},
		{"null does not match a present key", `{"reason":null}`, `{"reason":"x"}`, []string{"reason@1:11"}},
		{"objects are subsets at every depth", `{"overwrite":{"Cwd":"/w"}}`, `{"overwrite":{"Cwd":"/w","CommandLine":"ls"}}`, nil},
		{"a nested difference names its path", `{"overwrite":{"Cwd":"/w"}}`, `{"overwrite":{"Cwd":"/x"}}`, []string{"overwrite.Cwd@1:21"}},
		{"arrays must have the same length", `{"permissionOverrides":["a"]}`, `{"permissionOverrides":["a","b"]}`, []string{"permissionOverrides@1:24"}},
		{"arrays are ordered", `{"permissionOverrides":["b","a"]}`, `{"permissionOverrides":["a","b"]}`, []string{"permissionOverrides[0]@1:25", "permissionOverrides[1]@1:29"}},
		{"objects in arrays are subsets", `{"injectSteps":[{"userMessage":"hi"}]}`, `{"injectSteps":[{"userMessage":"hi","extra":1}]}`, nil},
		{"an element's field", `{"injectSteps":[{"userMessage":"hi"}]}`, `{"injectSteps":[{"userMessage":"ho"}]}`, []string{"injectSteps[0].userMessage@1:32"}},
		{"1 equals 1.0", `{"n":1}`, `{"n":1.0}`, nil},
		{"1e2 equals 100", `{"n":1e2}`, `{"n":100}`, nil},
		{"-0 equals 0", `{"n":-0}`, `{"n":0}`, nil},
		{"big integers stay exact", `{"n":9007199254740993}`, `{"n":9007199254740992}`, []string{"n@1:6"}},
		{"a number is not a string", `{"n":1}`, `{"n":"1"}`, []string{"n@1:6"}},
		{"a string is not a number", `{"n":"1"}`, `{"n":1}`, []string{"n@1:6"}},
		{"booleans", `{"b":true}`, `{"b":false}`, []string{"b@1:6"}},
		{"an object is not an array", `{"o":{}}`, `{"o":[]}`, []string{"o@1:6"}},
		{"an empty object matches any object", `{}`, `{"decision":"ask"}`, nil},
		{"an empty key", `{"":{"a":1}}`, `{"":{"a":2}}`, []string{`[""].a@1:10`}},
		{"odd keys are quoted", `{"a b":1}`, `{}`, []string{`["a b"]@1:2?`}},
		{"a huge exponent costs nothing", `{"n":1e999999999}`, `{"n":1}`, []string{"n@1:6"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ms, err := CompareJSON([]byte(tt.want), []byte(tt.got))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range ms {
				s := fmt.Sprintf("%s@%d:%d", m.Path, m.Pos.Line, m.Pos.Col)
				if m.Missing {
					s += "?"
				}
				got = append(got, s)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.mismatches) {
				t.Errorf("Compare(%s, %s) = %v, want %v", tt.want, tt.got, got, tt.mismatches)
			}
		})
	}
}

func TestCompareKeepsTheValues(t *testing.T) {
	ms, err := CompareJSON([]byte(`{"decision":"deny","reason":"x"}`), []byte(`{"decision":"allow"}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 2 {
		t.Fatalf("got %d mismatches, want 2: %+v", len(ms), ms)
	}
	if ms[0].Want != "deny" || ms[0].Got != "allow" || ms[0].Missing {
		t.Errorf("first mismatch = %+v, want deny vs allow", ms[0])
	}
	if ms[1].Want != "x" || ms[1].Got != nil || !ms[1].Missing {
		t.Errorf("second mismatch = %+v, want a missing reason", ms[1])
	}
}

func TestJSONTextKeepsCommandLinesReadable(t *testing.T) {
	if got := jsonText("a && b > c"); got != `"a && b > c"` {
		t.Errorf("jsonText = %s", got)
	}
}
