package lint

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestPrintRules prints every rule as a table and as JSON, with the level
// a choice set and where it was set, and refuses another format.
func TestPrintRules(t *testing.T) {
	rules := (&Choice{}).Describe()
	rules[0].Level, rules[0].From = "off", ".hookctl.json"
	var text bytes.Buffer
	if err := PrintRules(&text, "text", rules); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(text.String(), "\n"), "\n")
	if len(lines) != len(rules)+1 || !strings.HasPrefix(lines[0], "RULE ") || !strings.Contains(lines[0], "  SEVERITY  ") {
		t.Fatalf("table:\n%s", text.String())
	}
	if f := strings.Fields(lines[1]); f[0] != rules[0].ID || f[1] != "off" || f[2] != "(.hookctl.json)" {
		t.Errorf("first row %q", lines[1])
	}
	var js bytes.Buffer
	if err := PrintRules(&js, "json", rules); err != nil {
		t.Fatal(err)
	}
	var got []map[string]string
	if err := json.Unmarshal(js.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(rules) || got[0]["rule"] != rules[0].ID || got[0]["severity"] != "off" || got[0]["default"] != rules[0].SeverityText() || got[0]["from"] != ".hookctl.json" {
		t.Errorf("first rule %v", got[0])
	}
	if _, ok := got[1]["from"]; ok {
		t.Errorf("a rule at its default says where it was set: %v", got[1])
	}
	if err := PrintRules(&js, "sarif", rules); !errors.Is(err, ErrRulesFormat) {
		t.Errorf("sarif: %v", err)
	}
}
