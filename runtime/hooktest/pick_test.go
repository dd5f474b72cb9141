package hooktest

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func writeFile(t *testing.T, path, src string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoadAllReportsEveryMistake(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	bad := filepath.Join(dir, "bad.json")
	writeFile(t, good, `{"tests": [{"name": "a", "event": "Stop"}]}`)
	writeFile(t, bad, `{"tests": [{"event": "Stop"}, {"name": "b", "event": "Nope"}]}`)
	missing := filepath.Join(dir, "missing.json")
	suites, mistakes := LoadAll([]string{bad, good, missing})
	if len(suites) != 1 || suites[0].Path != good {
		t.Errorf("suites %v, want only %s", suites, good)
	}
	if len(mistakes) != 3 {
		t.Fatalf("mistakes %q, want two of %s and one of %s", mistakes, bad, missing)
	}
	var p Problem
	if !errors.As(mistakes[0], &p) || p.Pos.Line != 1 {
		t.Errorf("first mistake %v, want a Problem at line 1", mistakes[0])
	}
	if !errors.Is(mistakes[2], ErrNotFound) {
		t.Errorf("last mistake %v, want ErrNotFound", mistakes[2])
	}
}

func TestBatchesPickTheWorkspace(t *testing.T) {
	root := t.TempDir()
	inWs := filepath.Join(root, "ws", ".agents", "hooks.test.json")
	elsewhere := filepath.Join(root, "cases.json")
	suites := []*Suite{
		{Path: inWs, Cases: []*Case{{Name: "one"}, {Name: "two"}}},
		{Path: elsewhere, Cases: []*Case{{Name: "three"}}},
	}
	b := Batches(suites, func(n string) bool { return n != "two" }, "", root)
	if got, want := []string{b[0].Workspace, b[1].Workspace}, []string{filepath.Join(root, "ws"), root}; !slices.Equal(got, want) {
		t.Errorf("workspaces %q, want %q", got, want)
	}
	if len(b[0].Cases) != 1 || b[0].Cases[0].Name != "one" {
		t.Errorf("first file's cases %v, want one", b[0].Cases)
	}
	if b := Batches(suites, nil, "/named", root); b[0].Workspace != "/named" || b[1].Workspace != "/named" || len(b[0].Cases) != 2 {
		t.Errorf("a named workspace: %+v", b)
	}
}

func TestTargetFiles(t *testing.T) {
	ws := t.TempDir()
	home := t.TempDir()
	user := filepath.Join(home, ".gemini", "config", "hooks.json")
	wsFile := filepath.Join(ws, ".agents", "hooks.json")

	if _, _, _, err := (Target{Root: ws, Home: home}).Files(); err == nil {
		t.Error("no file anywhere: no error")
	}
	if _, _, _, err := (Target{Configs: []string{ws}}).Files(); err == nil || err.Error() != "--config "+ws+": no such file" {
		t.Errorf("a folder as --config: %v", err)
	}
	writeFile(t, user, "{}")
	files, got, note, err := Target{Root: ws, Home: home}.Files()
	if err != nil || !slices.Equal(files, []string{user}) || got != ws || note == "" {
		t.Errorf("outside a workspace: %q %s %q %v, want the user's file and a note", files, got, note, err)
	}
	if _, _, _, err := (Target{Workspace: ws, Root: ws, Home: home}).Files(); err == nil {
		t.Error("a named workspace without hooks fell back to the user's")
	}
	writeFile(t, wsFile, "{}")
	files, _, note, err = Target{Root: ws, Home: home}.Files()
	if err != nil || !slices.Equal(files, []string{wsFile}) || note != "" {
		t.Errorf("in a workspace: %q %q %v, want %s", files, note, err, wsFile)
	}
	files, _, _, err = Target{User: true, Root: ws, Home: home}.Files()
	if err != nil || !slices.Equal(files, []string{user}) {
		t.Errorf("--user: %q %v, want %s", files, err, user)
	}
}
