package convert

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/runtime/adapter"
)

const docsPath = "../../docs/import.md"

// fences returns the fenced blocks of a Markdown file, in order.
func fences(t *testing.T, doc string) []string {
	t.Helper()
	re := regexp.MustCompile("(?s)```[a-z]*\n(.*?)```")
	var out []string
	for _, m := range re.FindAllStringSubmatch(doc, -1) {
		out = append(out, m[1])
	}
	return out
}

// TestDocsExample runs the worked example of docs/import.md: its converted
// hooks.json and report are the real output.
func TestDocsExample(t *testing.T) {
	b, err := os.ReadFile(docsPath)
	if err != nil {
		t.Fatal(err)
	}
	blocks := fences(t, string(b))
	if len(blocks) < 6 {
		t.Fatalf("docs/import.md has %d code blocks, want the example's", len(blocks))
	}
	settings, script, want, report := blocks[1], blocks[2], blocks[3], blocks[4]
	root := t.TempDir()
	write := func(rel, content string, mode os.FileMode) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
	}
	write(".claude/settings.json", settings, 0o644)
	write(".claude/hooks/block-rm.sh", script, 0o755)
	t.Chdir(root)
	src, err := Read(workDir(t), ".claude/settings.json", "")
	if err != nil {
		t.Fatal(err)
	}
	res := Convert(src, Options{Target: filepath.Join(root, ".agents", "hooks.json"), Root: root, Adapt: true, Answer: adapter.Literal})
	if got := string(res.JSON()); got != want {
		t.Errorf("the example's hooks.json is out of date:\n--- real\n%s--- docs\n%s", got, want)
	}
	if got := strings.Replace(reportText(res), "converted", "hookctl import: converted", 1); got != report {
		t.Errorf("the example's report is out of date:\n--- real\n%s--- docs\n%s", got, report)
	}
}

// TestDocsTables: docs/import.md lists every event and tool of the table,
// with what it becomes and where the row comes from, exactly as the table
// holds them (go test -update rewrites the tables).
func TestDocsTables(t *testing.T) {
	b, err := os.ReadFile(docsPath)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, tbl := range []struct{ head, body string }{
		{"| event | agents | becomes | what differs | source |", EventTable()},
		{"| tool | agents | becomes | arguments | note | source |", ToolTable()},
		{"| field | value | agents | events | here | note | source |", AnswerTable()},
		{"| source | document | version |", SourceTable()},
	} {
		i := strings.Index(doc, tbl.head+"\n")
		if i < 0 {
			t.Errorf("docs/import.md has no table headed %s", tbl.head)
			continue
		}
		end := i + len(doc[i:])
		if j := strings.Index(doc[i:], "\n\n"); j >= 0 {
			end = i + j + 1
		}
		if got := doc[i:end]; got != tbl.body {
			if *update {
				doc = doc[:i] + tbl.body + doc[end:]
				continue
			}
			t.Errorf("docs/import.md's table %s is out of date (go test -update rewrites it); want:\n%s", tbl.head, tbl.body)
		}
	}
	if *update {
		if err := os.WriteFile(docsPath, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
