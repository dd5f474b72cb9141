package schema

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/hookctl/hookctl/internal/testenv"
)

// TestVSCodeJSONLanguageService checks completion, hover and validation of
// hooks.json with vscode-json-languageservice, the engine of VS Code's JSON
// support, driven by testdata/vscode/editor-check.mjs. It installs the
// package from the npm registry (pinned by package-lock.json) on first run.
func TestVSCodeJSONLanguageService(t *testing.T) {
	if testing.Short() {
		t.Skip("drives node: skipped with -short")
	}
	node := testenv.Need(t, "node")
	testenv.Need(t, "npm")
	dir := filepath.Join("testdata", "vscode")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "vscode-json-languageservice")); err != nil {
		npm := exec.Command("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
		npm.Dir = dir
		if out, err := npm.CombinedOutput(); err != nil {
			t.Fatalf("npm ci: %v\n%s", err, out)
		}
	}
	schema, err := filepath.Abs("hooks.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, filepath.Join(dir, "editor-check.mjs"), schema).CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("editor checks failed: %v", err)
	}
}
