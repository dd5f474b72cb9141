package lsp

import (
	"strings"
	"testing"
)

// TestToolDocsSayWhatIsNotPublished: a tool seen in use whose arguments
// no source publishes says so on hover, rather than that it has none.
func TestToolDocsSayWhatIsNotPublished(t *testing.T) {
	for _, name := range []string{"edit_file", "edit_notebook"} {
		if d := docs().tools[name]; !strings.Contains(d, "Arguments (`toolCall.args`): not published.") {
			t.Errorf("%s: %q", name, d)
		}
	}
	if d := docs().tools["list_permissions"]; !strings.Contains(d, "Arguments (`toolCall.args`): none.") {
		t.Errorf("list_permissions: %q", d)
	}
}
