package main

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/lint"
)

// TestLintRules checks that hookctl lint --rules lists the whole rule
// catalogue, each rule with its severity and summary, as text and json.
func TestLintRules(t *testing.T) {
	hookctl := func(args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		if code := run(append([]string{"hookctl", "lint", "--rules"}, args...), streams{strings.NewReader(""), &out, &errb}); code != 0 {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		return out.String()
	}
	cat := lint.Catalogue()
	lines := strings.Split(strings.TrimSuffix(hookctl(), "\n"), "\n")
	if !regexp.MustCompile(`^RULE +SEVERITY +CATCHES$`).MatchString(lines[0]) || len(lines) != len(cat)+1 {
		t.Fatalf("got %d lines for %d rules, starting %q", len(lines), len(cat), lines[0])
	}
	for i, r := range cat {
		f := regexp.MustCompile(`^(\S+) +(\S+(?: / \S+)*) +(.+)$`).FindStringSubmatch(lines[i+1])
		if f == nil || f[1] != r.ID || f[2] != r.SeverityText() || f[3] != r.Summary {
			t.Errorf("line %q, want %s %s %s", lines[i+1], r.ID, r.SeverityText(), r.Summary)
		}
	}

	var rules []struct{ Rule, Severity, Default, Summary string }
	if err := json.Unmarshal([]byte(hookctl("--format", "json")), &rules); err != nil {
		t.Fatal(err)
	}
	if len(rules) != len(cat) {
		t.Fatalf("json lists %d rules, want %d", len(rules), len(cat))
	}
	for i, r := range cat {
		if rules[i].Rule != r.ID || rules[i].Severity != r.SeverityText() || rules[i].Default != r.SeverityText() || rules[i].Summary != r.Summary {
			t.Errorf("json rule %d: %+v, want %+v", i, rules[i], r)
		}
	}
}
