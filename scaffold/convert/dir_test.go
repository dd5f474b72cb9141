package convert

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/schema"
)

// TestReadFromAFolder: a relative path starts from the folder Read is
// given, not from the process's working folder, and the report shows the
// paths of missing scripts from that folder.
func TestReadFromAFolder(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	settings := `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/gone.sh"}]}]}}`
	if err := os.WriteFile(filepath.Join(dir, ".claude", "settings.json"), []byte(settings), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir()) // a working folder that holds nothing
	src, err := Read(dir, filepath.Join(".claude", "settings.json"), "")
	if err != nil {
		t.Fatal(err)
	}
	if src.Abs != filepath.Join(dir, ".claude", "settings.json") || src.Agent != schema.Claude {
		t.Fatalf("read %s as %s's", src.Abs, src.Agent)
	}
	res := Convert(src, Options{Target: filepath.Join(dir, ".agents", "hooks.json"), Root: dir})
	var b strings.Builder
	res.Report.WriteTo(&b)
	want := "the script .claude/hooks/gone.sh does not exist: copy it there or fix the path"
	if !strings.Contains(b.String(), want) {
		t.Errorf("the report does not say %q:\n%s", want, b.String())
	}
	if _, err := Read(dir, "missing.json", ""); err == nil || err.Error() != "missing.json: no such file" {
		t.Errorf("a file missing from the folder: %v", err)
	}
}
