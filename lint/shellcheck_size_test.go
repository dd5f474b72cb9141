package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestShellcheckTooLarge: a script larger than scMaxText is not handed to
// ShellCheck (which takes about a hundred times a text's size in memory)
// and is named as not checked; a script within the bound still is.
func TestShellcheckTooLarge(t *testing.T) {
	bin, log := fakeShellcheck(t, `true`)
	ws := t.TempDir()
	writeImpactFile(t, filepath.Join(ws, ".agents/hooks/big.sh"), "#!/bin/sh\n"+strings.Repeat("# padding\n", scMaxText/10), 0o755)
	writeImpactFile(t, filepath.Join(ws, ".agents/hooks/small.sh"), "#!/bin/sh\necho '{}'\n", 0o755)
	path := filepath.Join(ws, ".agents", "hooks.json")
	if err := os.WriteFile(path, []byte(`{"g": {"Stop": [{"command": "./hooks/big.sh"}, {"command": "./hooks/small.sh"}]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	fs := shellcheckFindings(t, bin, Target{Path: path, Name: ".agents/hooks.json", Scope: Workspace, Root: ws})
	if len(fs) != 1 || fs[0].Severity != Info || !strings.Contains(fs[0].Message, "ShellCheck could not check .agents/hooks/big.sh: it is larger than 256 KiB") {
		t.Errorf("findings %s, want one saying big.sh was not checked", formatFindings(fs))
	}
	var texts []string
	for _, r := range readShellcheckLog(t, log) {
		texts = append(texts, r.texts...)
	}
	if len(texts) != 1 || !strings.Contains(texts[0], "echo '{}'") {
		t.Errorf("ShellCheck was handed %d texts, want small.sh's alone", len(texts))
	}
}
