package runtime

import (
	"testing"

	"github.com/hookctl/hookctl/schema"
)

// TestMatchersAgreeWithTheMatchingRule checks the string comparisons
// against schema.CompileMatcher, the format's rule, on every pair.
func TestMatchersAgreeWithTheMatchingRule(t *testing.T) {
	texts := []string{
		"", "*", "run_command", "run", "run_command|view_file", "browser_.*", "mcp__.*|run_command",
		"run_comman.", ".*", "view_file|", "run_.*_file", "Run_Command", "(?i)run_command", "run_command$",
		"^run_command", "run_command.*", "list_dir|find_by_name|grep_search", "browser_", "a.b", "x|y.*|z",
		"[rv]un_command", `run\_command`, "run_command+", "view_file?", "mcp__github__.*",
	}
	tools := []string{"run_command", "run_command2", "view_file", "browser_click", "browser_", "mcp__github__create_issue",
		"Run_Command", "run", "", "list_dir", "axb", "a.b", "y", "yy", "browser_a\nb", "x|y", "run_commandd", "view_fil"}
	var ms matchers
	for _, m := range texts {
		rule, err := schema.CompileMatcher(m)
		if err != nil {
			t.Fatalf("%q: %v", m, err)
		}
		for _, tool := range tools {
			if got, want := ms.match(m, tool), rule.Match(tool); got != want {
				t.Errorf("matcher %q, tool %q: %v, the rule says %v", m, tool, got, want)
			}
		}
	}
}
