package convert

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/scaffold"
)

// convertClaudeSample converts a copy of the Claude Code sample project for
// its .agents/hooks.json, target.
func convertClaudeSample(t *testing.T) (root, target string, res *Result) {
	t.Helper()
	root = copyTree(t, "testdata/claude")
	src, err := Read(workDir(t), filepath.Join(root, ".claude", "settings.json"), "")
	if err != nil {
		t.Fatal(err)
	}
	target = filepath.Join(root, ".agents", "hooks.json")
	return root, target, Convert(src, Options{Target: target, Root: root})
}

// TestMergeUnderReadsThroughTheBounds: under the lock, the target is read
// through the transaction's bounds. A hooks.json that became a link out
// of the workspace after import checked it is refused, and nothing of the
// file it leads to is read into the merge.
func TestMergeUnderReadsThroughTheBounds(t *testing.T) {
	root, target, res := convertClaudeSample(t)
	bounds, err := scaffold.NewBounds(scaffold.Workspace, root, "")
	if err != nil {
		t.Fatal(err)
	}
	tx, err := bounds.Begin(context.Background(), filepath.Dir(target))
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Close()

	m, err := res.MergeUnder(tx, target)
	if err != nil || !m.Created || m.Added != len(res.Hooks) || m.Old != nil {
		t.Fatalf("no hooks.json yet: %+v, %v; want it created with every hook", m, err)
	}

	outside := filepath.Join(t.TempDir(), "hooks.json")
	if err := os.WriteFile(outside, []byte("{\n\t\"private\": {\"Stop\": [{\"command\": \"true\"}]}\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, target); err != nil {
		t.Fatal(err)
	}
	m, err = res.MergeUnder(tx, target)
	if err == nil {
		t.Fatalf("a hooks.json linked out of the workspace was merged: it held %q", m.Old)
	}
	if !strings.Contains(err.Error(), "outside the workspace "+root) || strings.Contains(err.Error(), "private") {
		t.Errorf("a hooks.json linked out of the workspace: %v; want it refused as outside, nothing of the file shown", err)
	}
}
