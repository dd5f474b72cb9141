package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnsafePermissionsFolder: a safe script in a folder that others can
// write, without the sticky bit, is reported at its command, once for
// the folder, as hookctl run refuses it; a sticky folder is fine, and so
// is one only its group can write.
func TestUnsafePermissionsFolder(t *testing.T) {
	ws := t.TempDir()
	hooks := filepath.Join(ws, ".agents", "hooks")
	if err := os.MkdirAll(hooks, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"gate.sh", "other.sh"} {
		if err := os.WriteFile(filepath.Join(hooks, name), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	src := []byte(`{"gate": {"Stop": [{"command": "./hooks/gate.sh"}, {"command": "./hooks/other.sh"}]}}`)
	unsafe := func() []Finding {
		var out []Finding
		for _, f := range lintInWorkspace(t, ws, src) {
			if f.Rule == "unsafe-permissions" {
				out = append(out, f)
			}
		}
		return out
	}
	for _, c := range []struct {
		agents, hooks os.FileMode
		want          []string
	}{
		{0o755, 0o777, []string{`.agents/hooks.json:1:33: error: ./hooks/gate.sh is in the folder .agents/hooks, which others can write (mode 0777, no sticky bit): anyone can put their own file in its place, and hookctl run refuses it; run chmod o-w .agents/hooks [unsafe-permissions]`}},
		{0o777, 0o755, []string{`.agents/hooks.json:1:1: error: .agents/hooks.json is in the folder .agents, which others can write (mode 0777, no sticky bit): anyone can put their own file in its place, and hookctl run refuses it; run chmod o-w .agents [unsafe-permissions]`}},
		{0o755, os.ModeSticky | 0o777, nil},
		{0o775, 0o775, nil},
	} {
		if err := os.Chmod(filepath.Join(ws, ".agents"), c.agents); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(hooks, c.hooks); err != nil {
			t.Fatal(err)
		}
		got := unsafe()
		if len(got) != len(c.want) {
			t.Errorf(".agents %04o, hooks %04o: %d findings, want %d:\n%s", c.agents, c.hooks, len(got), len(c.want), formatFindings(got))
			continue
		}
		for i, f := range got {
			if f.String() != c.want[i] {
				t.Errorf(".agents %04o, hooks %04o:\n got %s\nwant %s", c.agents, c.hooks, f, c.want[i])
			}
		}
	}
	// Linted from the workspace by a relative name, as hookctl lint is
	// run, the folder is named from there too.
	if err := os.Chmod(hooks, 0o777); err != nil {
		t.Fatal(err)
	}
	t.Chdir(ws)
	res, err := Lint(Request{Files: []Target{{Path: filepath.Join(".agents", "hooks.json"), Name: ".agents/hooks.json", Scope: Workspace, Root: "."}}})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range res.Findings {
		if f.Rule == "unsafe-permissions" {
			found = true
			if !strings.Contains(f.Message, "in the folder .agents/hooks, which") || !strings.HasSuffix(f.Message, "run chmod o-w .agents/hooks") {
				t.Errorf("from the workspace: %s", f)
			}
		}
	}
	if !found {
		t.Error("from the workspace: no unsafe-permissions finding")
	}
	for _, d := range []string{hooks, filepath.Join(ws, ".agents")} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
}
