package runtime

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReliabilityTable keeps docs/reliability.md true to the tests: every
// test a row names exists, with the subtest it names.
func TestReliabilityTable(t *testing.T) {
	doc, err := os.ReadFile("../docs/reliability.md")
	if err != nil {
		t.Fatal(err)
	}
	var src strings.Builder
	files, _ := filepath.Glob("*_test.go")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src.Write(b)
	}
	named := regexp.MustCompile("`(Test[A-Za-z]+)/([^`]+)`").FindAllStringSubmatch(string(doc), -1)
	if len(named) < 30 {
		t.Fatalf("the table names %d tests; it should name one per row", len(named))
	}
	for _, m := range named {
		fn, sub := m[1], strings.ReplaceAll(m[2], "_", " ")
		if !strings.Contains(src.String(), "func "+fn+"(t *testing.T)") {
			t.Errorf("docs/reliability.md names %s, which does not exist", fn)
			continue
		}
		// Subtests are named by a literal, or by an event's name.
		if !strings.Contains(src.String(), `t.Run("`+sub+`"`) && !strings.Contains(src.String(), "schema."+sub) {
			t.Errorf("docs/reliability.md names %s/%s, which does not exist", fn, m[2])
		}
	}
}
