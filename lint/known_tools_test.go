package lint

import (
	"os"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/schema"
)

// TestKnownToolsTable holds lint and the schema to the one table of known
// tools: a matcher naming a tool seen in real configurations or probes is
// neither another agent's tool nor one that matches nothing, the schema
// offers every name as a suggestion, and docs/agent.md says where each
// name beyond the format's documentation was seen.
func TestKnownToolsTable(t *testing.T) {
	src := `{"g": {"PreToolUse": [{"matcher": "edit_file|edit_notebook|codebase_search|ask_permission|send_command_input", "hooks": [{"command": "true"}]}]}}`
	for _, f := range LintSource(Target{Path: t.TempDir() + "/.agents/hooks.json", Name: ".agents/hooks.json"}, []byte(src)) {
		if f.Rule == "matcher-no-tool" || f.Rule == "foreign-tool" {
			t.Errorf("%s", f)
		}
	}
	schemaText, err := os.ReadFile("../schema/hooks.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("../docs/agent.md")
	if err != nil {
		t.Fatal(err)
	}
	sources := map[string]string{"prompt": "system prompt", "configs": "real configurations", "probes": "live probes"}
	for _, tool := range schema.Tools {
		if !strings.Contains(string(schemaText), `"`+tool.Name+`"`) {
			t.Errorf("the schema does not suggest %s", tool.Name)
		}
		if tool.Source == "doc" {
			continue
		}
		cite, ok := sources[tool.Source]
		if !ok {
			t.Errorf("%s: unknown source %q", tool.Name, tool.Source)
			continue
		}
		line := ""
		for _, l := range strings.Split(string(doc), "\n") {
			if strings.Contains(l, "`"+tool.Name+"`") && strings.HasPrefix(l, "| ") {
				line = l
			}
		}
		if !strings.Contains(line, cite) {
			t.Errorf("docs/agent.md has no row for %s citing the %s: %q", tool.Name, cite, line)
		}
	}
}
