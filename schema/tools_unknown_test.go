package schema

import "testing"

// TestUnknownToolNote names this agent's tool for another agent's, the
// nearest for a typo, and nothing for a known tool or an MCP tool's name.
func TestUnknownToolNote(t *testing.T) {
	const goingOn = " Going on with it: an MCP server's or a newer tool may have that name."
	for name, want := range map[string]string{
		"run_command":    "",
		"Bash":           `"Bash" is Claude Code's tool, not this agent's: did you mean "run_command"?` + goingOn,
		"run_comand":     `"run_comand" is not a known tool: did you mean "run_command"?` + goingOn,
		"mcp_files_read": "",
	} {
		if got := UnknownToolNote(name); got != want {
			t.Errorf("UnknownToolNote(%q) = %q, want %q", name, got, want)
		}
	}
}
