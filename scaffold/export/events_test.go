package export

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/hookctl/hookctl/schema"
)

// TestWorkspaceEvents lists the events of the enabled hooks once each, as
// the hooks first use them, and says what to do without a readable file.
func TestWorkspaceEvents(t *testing.T) {
	file := filepath.Join(t.TempDir(), "hooks.json")
	if _, err := WorkspaceEvents(file, "ws/.agents/hooks.json"); err == nil || err.Error() != "ws/.agents/hooks.json does not exist: there are no hooks to export (create them with hookctl init, or bring them over with hookctl import)" {
		t.Errorf("missing file: %v", err)
	}
	src := `{"b": {"Stop": [{"command": "./b.sh"}]},
 "off": {"enabled": false, "SessionStart": [{"command": "./o.sh"}]},
 "a": {"PreToolUse": [{"hooks": [{"command": "./a.sh"}]}]},
 "c": {"Stop": [{"command": "./c.sh"}]}}`
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	events, err := WorkspaceEvents(file, "ws/.agents/hooks.json")
	if err != nil || !slices.Equal(events, []schema.Event{schema.Stop, schema.PreToolUse}) {
		t.Errorf("events %v, %v", events, err)
	}
	if err := os.WriteFile(file, []byte("{\n  \"a\": ,\n}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := WorkspaceEvents(file, "ws/.agents/hooks.json"); err == nil || err.Error()[:25] != "ws/.agents/hooks.json:2:8" {
		t.Errorf("syntax error: %v", err)
	}
}
