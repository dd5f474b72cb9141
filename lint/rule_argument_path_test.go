package lint

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// applyFixes applies the fixes of the findings to src, from the end of the
// file backwards, as a user's editor or hookctl lint --fix would.
func applyFixes(t *testing.T, src []byte, fs []Finding) string {
	t.Helper()
	var edits []Edit
	for _, f := range fs {
		if f.Fix != nil {
			edits = append(edits, f.Fix.Edits...)
		}
	}
	slices.SortFunc(edits, func(a, b Edit) int { return b.Span.Start.Offset - a.Span.Start.Offset })
	out := slices.Clone(src)
	for _, e := range edits {
		out = slices.Concat(out[:e.Span.Start.Offset], []byte(e.Text), out[e.Span.End.Offset:])
	}
	return string(out)
}

// TestArgumentPathFix checks the exact bytes the fixes write, escapes and
// quotes in the command included.
func TestArgumentPathFix(t *testing.T) {
	ws := newWorkspace(t)
	src := []byte(`{
  "memory": {
    "Stop": [
      {"command": "git add .agents/MEMORY.md \".agents/notes.md\""},
      {"command": "cat ./.agents/scripts/lint.sh ./tools/check.py >&2"},
      {"command": "echo \u00e9 && cat tools/check.py >&2"},
      {"command": "ls .agents/ >&2"},
      {"command": "[ ! -f .agents/gate.sh ] || .agents/gate.sh"}
    ]
  }
}
`)
	got := applyFixes(t, src, lintInWorkspace(t, ws, src))
	want := `{
  "memory": {
    "Stop": [
      {"command": "git add MEMORY.md \"notes.md\""},
      {"command": "cat ./scripts/lint.sh ../tools/check.py >&2"},
      {"command": "echo \u00e9 && cat ../tools/check.py >&2"},
      {"command": "ls . >&2"},
      {"command": "[ ! -f gate.sh ] || ./gate.sh"}
    ]
  }
}
`
	if got != want {
		t.Errorf("fixed:\n%s\nwant:\n%s", got, want)
	}
	// Fixed, the file gives no argument-path finding.
	for _, f := range lintInWorkspace(t, ws, []byte(got)) {
		if f.Rule == "argument-path" {
			t.Errorf("after the fix: %s", f)
		}
	}
}

// TestArgumentPathHere: a path that exists from .agents/ is right as
// written, even when it starts with .agents/ (a .agents folder inside).
func TestArgumentPathHere(t *testing.T) {
	ws := newWorkspace(t)
	if err := os.MkdirAll(filepath.Join(ws, ".agents", ".agents"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, ".agents", ".agents", "MEMORY.md"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range lintInWorkspace(t, ws, []byte(`{"m": {"Stop": [{"command": "git add .agents/MEMORY.md"}]}}`)) {
		t.Errorf("finding: %s", f)
	}
}
