package lint

import (
	"bufio"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the expected findings of testdata/err and the golden files from the real output")

// newWorkspace copies testdata/workspace into a temporary folder and gives
// its files the modes that testdata/workspace.modes lists.
func newWorkspace(t testing.TB) string {
	t.Helper()
	dir := copyTree(t, filepath.Join("testdata", "workspace"))
	modes, err := os.Open(filepath.Join("testdata", "workspace.modes"))
	if err != nil {
		t.Fatal(err)
	}
	defer modes.Close()
	sc := bufio.NewScanner(modes)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, mode, _ := strings.Cut(line, " ")
		m, err := strconv.ParseUint(mode, 8, 32)
		if err != nil {
			t.Fatalf("workspace.modes: %q: %v", line, err)
		}
		if err := os.Chmod(filepath.Join(dir, name), fs.FileMode(m)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// copyTree copies the folder src into a new temporary folder, every file
// with mode 0644, and returns the copy.
func copyTree(t testing.TB, src string) string {
	t.Helper()
	dir := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// lintInWorkspace lints src as the workspace's .agents/hooks.json, named
// as a user would see it.
func lintInWorkspace(t testing.TB, ws string, src []byte) []Finding {
	t.Helper()
	path := filepath.Join(ws, ".agents", "hooks.json")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Lint(Request{Files: []Target{{Path: path, Name: ".agents/hooks.json", Scope: Workspace, Root: ws}}})
	if err != nil {
		t.Fatal(err)
	}
	return res.Findings
}

// formatFindings writes findings as the .out files list them: one line
// each, and the suggestion, when there is one, on the next.
func formatFindings(fs []Finding) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(f.String())
		b.WriteByte('\n')
		if f.Suggestion != "" {
			b.WriteString("  suggestion: " + f.Suggestion + "\n")
		}
	}
	return b.String()
}

// TestOK lints every file of testdata/ok, which must give no finding.
func TestOK(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "ok", "*.json"))
	if len(files) == 0 {
		t.Fatal("no files in testdata/ok")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if got := lintInWorkspace(t, newWorkspace(t), src); len(got) > 0 {
				t.Errorf("want no findings, got:\n%s", formatFindings(got))
			}
		})
	}
}

// TestErr lints every file of testdata/err and compares its findings with
// the .out file beside it, line and column included.
func TestErr(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "err", "*.json"))
	if len(files) == 0 {
		t.Fatal("no files in testdata/err")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			got := formatFindings(lintInWorkspace(t, newWorkspace(t), src))
			out := strings.TrimSuffix(file, ".json") + ".out"
			if *update {
				if err := os.WriteFile(out, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(out)
			if err != nil {
				t.Fatalf("%v (run go test ./lint -run TestErr -update to create it)", err)
			}
			if got == "" {
				t.Errorf("%s gives no finding", file)
			}
			if got != string(want) {
				t.Errorf("findings of %s differ\n--- got\n%s--- want\n%s", file, got, want)
			}
		})
	}
}
