package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReliabilityEditRows keeps the rows of docs/reliability.md that name
// tests by package (`./scaffold TestName/subtest`) true: the package has
// the test, and the test the subtest.
func TestReliabilityEditRows(t *testing.T) {
	doc, err := os.ReadFile("../../docs/reliability.md")
	if err != nil {
		t.Fatal(err)
	}
	named := regexp.MustCompile("`\\./([a-z/]+) (Test[A-Za-z]+)(?:/([^`]+))?`").FindAllStringSubmatch(string(doc), -1)
	if len(named) < 5 {
		t.Fatalf("docs/reliability.md names %d tests by package; the rows of init and import should", len(named))
	}
	sources := map[string]string{}
	for _, m := range named {
		pkg, fn, sub := m[1], m[2], m[3]
		src, ok := sources[pkg]
		if !ok {
			files, _ := filepath.Glob(filepath.Join("../..", pkg, "*_test.go"))
			var b strings.Builder
			for _, f := range files {
				content, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				b.Write(content)
			}
			src = b.String()
			sources[pkg] = src
		}
		if !strings.Contains(src, "func "+fn+"(t *testing.T)") {
			t.Errorf("docs/reliability.md names %s in ./%s, which has no such test", fn, pkg)
			continue
		}
		if sub == "" {
			continue
		}
		if fn == "TestScripts" {
			if _, err := os.Stat(filepath.Join("../..", pkg, "testdata", "script", sub+".txtar")); err != nil {
				t.Errorf("docs/reliability.md names the script %s, which does not exist", sub)
			}
			continue
		}
		// A subtest is named by a string literal, go test's underscores
		// standing for its spaces, or by a file of a corpus in testdata.
		files, _ := filepath.Glob(filepath.Join("../..", pkg, "testdata", "*", sub))
		if !strings.Contains(src, `"`+strings.ReplaceAll(sub, "_", " ")+`"`) && !strings.Contains(src, `"`+sub+`"`) && len(files) == 0 {
			t.Errorf("docs/reliability.md names %s/%s in ./%s, which has no such subtest", fn, sub, pkg)
		}
	}
}
