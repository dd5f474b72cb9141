package lint

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hookctl/hookctl/schema"
)

// TestDecoderNamesLintRules holds the one name of each finding of the
// decoder: every rule a Problem names, over the files of testdata/err, is a
// rule of the catalogue, and so is each of the parser's.
func TestDecoderNamesLintRules(t *testing.T) {
	ids := map[string]bool{}
	for _, r := range Catalogue() {
		ids[r.ID] = true
	}
	for _, id := range []string{schema.RuleJSONSyntax, schema.RuleDuplicateKey} {
		if !ids[id] {
			t.Errorf("the parser's rule %q is not in the catalogue", id)
		}
	}
	files, err := filepath.Glob("testdata/err/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no files in testdata/err: %v", err)
	}
	named := map[string]bool{}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range schema.ParseRecovering(path, src).Problems {
			named[p.Rule] = true
			if !ids[p.Rule] {
				t.Errorf("%s: the decoder names the rule %q, which is not in the catalogue", path, p.Rule)
			}
		}
	}
	for _, id := range []string{schema.RuleRootShape, schema.RuleKeyCase, schema.RuleUnknownEvent, schema.RuleTimeoutValue} {
		if !named[id] {
			t.Errorf("no file of testdata/err makes the decoder name %q", id)
		}
	}
}
