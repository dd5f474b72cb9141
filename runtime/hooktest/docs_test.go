package hooktest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/schema"
)

var (
	docsFile    = filepath.Join("..", "..", "docs", "testing.md")
	exampleFile = filepath.Join("..", "..", "cmd", "hookctl", "testdata", "script", "test_doc.txtar")
)

// docBlock is a fenced block of docs/testing.md marked with
// <!-- file: NAME --> or <!-- output: NAME -->, NAME being a file of the
// example's archive.
type docBlock struct {
	kind, name, text string
	line             int
}

var marker = regexp.MustCompile("(?m)^<!-- (file|output): (\\S+) -->\n```[a-z]*\n")

func docBlocks(t *testing.T, doc string) []docBlock {
	t.Helper()
	var out []docBlock
	for _, m := range marker.FindAllStringSubmatchIndex(doc, -1) {
		body := doc[m[1]:]
		end := strings.Index(body, "```\n")
		if end < 0 {
			t.Fatalf("%s: the block after %q is not closed", docsFile, doc[m[0]:m[1]])
		}
		out = append(out, docBlock{kind: doc[m[2]:m[3]], name: doc[m[4]:m[5]], text: body[:end],
			line: strings.Count(doc[:m[0]], "\n") + 1})
	}
	return out
}

// durations are what varies from run to run in the quoted output.
var (
	docDuration = regexp.MustCompile(`(?m) \(\d+(\.\d+)?m?s\)$`)
	docMillis   = regexp.MustCompile(`"(durationMs|p50Ms|maxMs)": \d+`)
	docSlowest  = regexp.MustCompile(`(?m)slowest \d+(\.\d+)?m?s, p50 \d+(\.\d+)?m?s$`)
)

func normalize(s string) string {
	s = docDuration.ReplaceAllString(s, " (T)")
	s = docSlowest.ReplaceAllString(s, "slowest T, p50 T")
	return docMillis.ReplaceAllString(s, `"$1": 12`)
}

// TestDocsQuoteTheExample checks that docs/testing.md quotes the files of
// its worked example, and the output hookctl gives for them, exactly as
// the end-to-end script test_doc.txtar has them; that script runs them
// through the real command line, so the page cannot drift from what hookctl
// does.
func TestDocsQuoteTheExample(t *testing.T) {
	doc, err := os.ReadFile(docsFile)
	if err != nil {
		t.Fatal(err)
	}
	ar, err := txtar.ParseFile(exampleFile)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, f := range ar.Files {
		files[f.Name] = string(f.Data)
	}
	blocks := docBlocks(t, string(doc))
	if len(blocks) < 6 {
		t.Fatalf("%s quotes %d marked blocks, want the example's files and outputs", docsFile, len(blocks))
	}
	quoted := map[string]bool{}
	for _, b := range blocks {
		quoted[b.name] = true
		want, ok := files[b.name]
		if !ok {
			t.Errorf("%s:%d: %s %s is not in %s", docsFile, b.line, b.kind, b.name, exampleFile)
			continue
		}
		got := b.text
		if b.kind == "output" {
			got, want = normalize(got), normalize(want)
		}
		if got != want {
			t.Errorf("%s:%d: %s %s differs from %s:\n--- the page\n%s--- the script\n%s", docsFile, b.line, b.kind, b.name, exampleFile, got, want)
		}
	}
	for name := range files {
		if name != "show.sh" && !quoted[name] {
			t.Errorf("%s has %s, which %s does not quote", exampleFile, name, docsFile)
		}
	}
}

// TestDocsSampleCalls checks that the table of calls in docs/testing.md
// lists every known tool with the arguments hookctl test --contract really
// sends.
func TestDocsSampleCalls(t *testing.T) {
	doc, err := os.ReadFile(docsFile)
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(doc), "<!-- sample-calls -->\n")
	if !ok {
		t.Fatalf("%s has no <!-- sample-calls --> table", docsFile)
	}
	row := regexp.MustCompile("^\\| `([a-z_]+)` \\| `(.*)` \\|$")
	listed := map[string]string{}
	for _, line := range strings.Split(table, "\n")[2:] {
		if !strings.HasPrefix(line, "|") {
			break
		}
		m := row.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("%s: a row of the calls' table does not read | `tool` | `args` |: %s", docsFile, line)
		}
		listed[m[1]] = m[2]
	}
	for _, tool := range schema.ToolNames() {
		want := string(runtime.SampleArgs(tool, "/home/dev/project"))
		if got, ok := listed[tool]; !ok {
			t.Errorf("%s does not list the call of %s: %s", docsFile, tool, want)
		} else if got != want {
			t.Errorf("%s: %s is listed with %s, but is called with %s", docsFile, tool, got, want)
		}
		delete(listed, tool)
	}
	for tool := range listed {
		t.Errorf("%s lists %s, which is not a known tool", docsFile, tool)
	}
}
