package trust

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/templates"
)

// ownTemplateGaps are the lines of hookctl's templates that the readers
// name, each reviewed: what they run is hookctl's own code, built from
// the user's environment and the template's constants. tests-must-pass
// hands a shell HOOK_TEST_COMMAND (the user's) or one of the test
// commands it knows (make test, go test ./..., npm test --silent, cargo
// test, python3 -m pytest -q); format-file runs the prettier of the
// project's node_modules when it has one. A change to a template or a reader that
// names another line fails here, to be reviewed the same way.
var ownTemplateGaps = map[string][]int{
	"tests-must-pass.sh":  {76},
	"tests-must-pass.py":  {71},
	"tests-must-pass.mjs": {62},
	"format-file.sh":      {48},
	"format-file.py":      {79},
	"format-file.mjs":     {90},
}

// TestTemplatesLinesTheReadersName reads every template in every language
// as init writes it, and once edited (a byte added at its end): edited,
// trust names exactly the lines above, in the readers' words; unchanged,
// it names the same lines in the template's own words (Template.Runs),
// once, and nothing of a template that runs only its own code.
func TestTemplatesLinesTheReadersName(t *testing.T) {
	for _, tmpl := range templates.All() {
		for _, lang := range templates.Languages {
			file := tmpl.ID + lang.Ext
			t.Run(file, func(t *testing.T) {
				script, err := tmpl.Script(lang.ID, tmpl.ID)
				if err != nil {
					t.Fatal(err)
				}
				if _, ok := templates.Own(script); !ok {
					t.Fatalf("%s is not recognised as hookctl's own", file)
				}
				if named := len(ownTemplateGaps[file]) > 0; named != (tmpl.Runs != "") {
					t.Fatalf("the readers name lines %v of %s, and the template says it runs %q: a template whose lines are named says what it runs, and only such a one", ownTemplateGaps[file], file, tmpl.Runs)
				}
				for _, edited := range []bool{false, true} {
					root, err := Key(t.TempDir())
					if err != nil {
						t.Fatal(err)
					}
					content := string(script)
					if edited {
						content += "\n"
					}
					write(t, root, ".agents/hooks/"+file, content)
					write(t, root, HooksFile, `{"h": {"Stop": [{"command": "./hooks/`+file+`"}]}}`)
					snap := take(t, root)
					if snap.Refused != "" {
						t.Fatalf("refused: %s", snap.Refused)
					}
					cmd := snap.Commands[0]
					var lines []int
					for _, g := range cmd.Gaps {
						var n int
						at := strings.TrimPrefix(g, ".agents/hooks/"+file+":")
						if _, err := fmt.Sscanf(at, "%d", &n); err != nil {
							t.Errorf("edited %v: a gap not at a line of the script: %q", edited, g)
							continue
						}
						lines = append(lines, n)
						if runs := fmt.Sprintf("%d %s", n, tmpl.Runs); !edited && at != runs {
							t.Errorf("unchanged: named %q, want the template's words %q", at, runs)
						}
					}
					want := ownTemplateGaps[file]
					if !edited && len(want) > 0 {
						want = want[:1]
					}
					if !slices.Equal(lines, want) {
						t.Errorf("edited %v: lines named %v, want %v: %q", edited, lines, want, cmd.Gaps)
					}
					if len(cmd.Outside) > 0 {
						t.Errorf("edited %v: named outside the workspace: %q", edited, cmd.Outside)
					}
				}
			})
		}
	}
}

// Own recognises a template only as init writes it, for a name init
// accepts: a name that would change its code is not one.
func TestOwnTemplates(t *testing.T) {
	tmpl, _ := templates.Lookup("tests-must-pass")
	for name, want := range map[string]bool{
		"tests-must-pass":  true,
		"my.gate_2":        true,
		`x"; import os; "`: false,
		"a b":              false,
	} {
		script := strings.ReplaceAll(string(mustScript(t, tmpl, "py")), "{{name}}", name)
		if _, got := templates.Own([]byte(script)); got != want {
			t.Errorf("%q: Own %v, want %v", name, got, want)
		}
	}
}

func mustScript(t *testing.T, tmpl templates.Template, lang string) []byte {
	t.Helper()
	b, err := tmpl.Script(lang, "{{name}}")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// ownLines puts what a template says it runs in place of the lines the
// readers name in it, once; a template that says it runs nothing keeps
// every line named, in the readers' words.
func TestOwnLinesSaysWhatATemplateRuns(t *testing.T) {
	gaps := []string{"before", "h.sh:7 runs a", "other.sh:2 x", "h.sh:9 runs b"}
	got := ownLines(slices.Clone(gaps), 1, "h.sh", "runs the tests")
	if want := []string{"before", "h.sh:7 runs the tests", "other.sh:2 x"}; !slices.Equal(got, want) {
		t.Errorf("with what it runs: %q, want %q", got, want)
	}
	if got := ownLines(slices.Clone(gaps), 1, "h.sh", ""); !slices.Equal(got, gaps) {
		t.Errorf("saying it runs nothing: %q, want every gap kept %q", got, gaps)
	}
}
