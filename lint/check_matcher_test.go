package lint

import (
	"strings"
	"testing"
)

func TestCheckMatcher(t *testing.T) {
	type want struct{ rule, part, suggestion, msg string }
	for _, tc := range []struct {
		matcher string
		want    []want
	}{
		{"run_command", nil},
		{"browser_.*|view_file", nil},
		{".*", nil},
		{"Bash", []want{{"foreign-tool", "Bash", "run_command", `"Bash" is a Claude Code tool, which this agent does not have: write "run_command"`}}},
		{"Edit|Write|browser_*", []want{
			{"foreign-tool", "Edit", "replace_file_content", `"Edit" is a Claude Code tool`},
			{"foreign-tool", "Write", "write_to_file", `"Write" is a Claude Code and Cursor tool`},
			{"matcher-no-tool", "browser_*", "browser_.*", "not a glob"},
		}},
		{"Run_Command", []want{{"matcher-no-tool", "Run_Command", "run_command", "case-sensitive"}}},
		{"mcp__github__.*", []want{{"matcher-no-tool", "mcp__github__.*", "", "if it names an MCP server's tools"}}},
		{"(?!x)", []want{{"matcher-syntax", "(?!x)", "", "lookahead"}}},
		// A ] first in a class is one of its characters: the | after it
		// is inside the class, and the alternative runs to the next |.
		{"[]|]x|run_command", []want{{"matcher-no-tool", "[]|]x", "", "none of the known tools"}}},
		// A quote is escaped in the file: the finding is not placed.
		{`"x`, []want{{"matcher-no-tool", "", "", "none of the known tools"}}},
	} {
		got := CheckMatcher(tc.matcher)
		if len(got) != len(tc.want) {
			t.Errorf("%s: %d findings, want %d: %+v", tc.matcher, len(got), len(tc.want), got)
			continue
		}
		for i, w := range tc.want {
			g := got[i]
			part := ""
			if g.From >= 0 {
				part = tc.matcher[g.From:g.To]
			}
			if g.Rule != w.rule || part != w.part || g.Suggestion != w.suggestion || !strings.Contains(g.Message, w.msg) {
				t.Errorf("%s: finding %d is %+v (part %q), want %+v", tc.matcher, i, g, part, w)
			}
		}
	}
}
