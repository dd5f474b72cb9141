package main

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReliabilityCommandLine keeps the command line's rows of
// docs/reliability.md true to the tests: every script and Go test a row
// names exists.
func TestReliabilityCommandLine(t *testing.T) {
	doc, err := os.ReadFile("../../docs/reliability.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "\n## The command line\n")
	if !ok {
		t.Fatal("docs/reliability.md has no section on the command line")
	}
	if i := strings.Index(section, "\n## "); i >= 0 {
		section = section[:i]
	}
	var tests strings.Builder
	err = filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != "../.." {
			return filepath.SkipDir
		}
		if strings.HasSuffix(path, "_test.go") {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			tests.Write(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	rows := 0
	for _, line := range strings.Split(section, "\n") {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| tried ") || strings.HasPrefix(line, "| ---") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		last := cells[len(cells)-1]
		names := regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(last, -1)
		if len(names) == 0 {
			t.Errorf("this row names no test: %s", line)
		}
		rows++
		for _, m := range names {
			name := m[1]
			switch {
			case strings.HasSuffix(name, ".txtar"):
				if _, err := os.Stat(filepath.Join("testdata/script", name)); err != nil {
					t.Errorf("docs/reliability.md names the script %s, which does not exist", name)
				}
			case strings.HasPrefix(name, "Test"):
				if !strings.Contains(tests.String(), "func "+name+"(t *testing.T)") {
					t.Errorf("docs/reliability.md names %s, which does not exist", name)
				}
			default:
				t.Errorf("docs/reliability.md names %q as a test: name a script (.txtar) or a Go test", name)
			}
		}
	}
	if rows == 0 {
		t.Error("the section on the command line has no rows")
	}
}

// TestDocumentedVersionsExist keeps the install and pre-commit
// instructions to versions that exist: every hookctl version they name is
// a tag of this repository, and none relies on @latest, which needs a
// published release; COMMIT and TAG stand for the one the reader picks.
func TestDocumentedVersionsExist(t *testing.T) {
	tags := map[string]bool{}
	if out, err := exec.Command("git", "tag").Output(); err == nil {
		for _, tag := range strings.Fields(string(out)) {
			tags[tag] = true
		}
	} else {
		t.Logf("git tag: %v: no tags known", err)
	}
	files, _ := filepath.Glob("../../docs/*.md")
	files = append(files, "../../README.md", "../../.pre-commit-hooks.yaml")
	install := regexp.MustCompile("hookctl/hookctl/cmd/hookctl@([^\\s`]+)")
	rev := regexp.MustCompile(`(?m)^\s*#?\s*rev:\s*(\S+)`)
	for _, f := range files {
		if strings.HasSuffix(f, "reliability.md") {
			continue // it tells what used to be written
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range append(install.FindAllStringSubmatch(string(b), -1), rev.FindAllStringSubmatch(string(b), -1)...) {
			v := m[1]
			if v == "COMMIT" || v == "TAG" || tags[v] {
				continue
			}
			t.Errorf("%s names hookctl version %q, which is no tag of this repository: pin a commit (COMMIT) instead", f, v)
		}
	}
}
