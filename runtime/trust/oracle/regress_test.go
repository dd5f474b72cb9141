package oracle

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/hookctl/hookctl/schema"
)

// A regression case is a txtar archive in testdata/regress: its comment
// holds "command:", "event:" (Stop by default), "form:", "data:" (one
// pattern a line), "needs:" (the programs it runs), "link: PATH -> TARGET"
// and "dir: PATH" lines; its files
// are the workspace, .agents/hooks.json included.

// archive returns the workspace at root as a regression case for c.
func archive(t *testing.T, root string, c oracleCase) string {
	t.Helper()
	var comment strings.Builder
	comment.WriteString("form: " + c.form + "\ncommand: " + c.command + "\n")
	for _, d := range c.data {
		comment.WriteString("data: " + d + "\n")
	}
	a := &txtar.Archive{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == root {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			to, err := os.Readlink(p)
			if err != nil {
				return err
			}
			comment.WriteString("link: " + rel + " -> " + to + "\n")
		case d.IsDir():
			if entries, _ := os.ReadDir(p); len(entries) == 0 {
				comment.WriteString("dir: " + rel + "\n")
			}
		case d.Type().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			a.Files = append(a.Files, txtar.File{Name: rel, Data: b})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	a.Comment = []byte(comment.String())
	return string(txtar.Format(a))
}

// regressCase reads a regression case.
func regressCase(t *testing.T, path string) (oracleCase, *txtar.Archive) {
	t.Helper()
	a, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c := oracleCase{name: "regress " + strings.TrimSuffix(filepath.Base(path), ".txtar"), files: map[string]string{}, hooks: "-"}
	for _, line := range strings.Split(string(a.Comment), "\n") {
		k, v, ok := strings.Cut(line, ": ")
		if !ok {
			continue
		}
		switch k {
		case "command":
			c.command = v
		case "form":
			c.form = v
		case "event":
			c.event = schema.Event(v)
		case "data":
			c.data = append(c.data, v)
		case "needs":
			c.needs = strings.Fields(v)
		case "link":
			from, to, _ := strings.Cut(v, " -> ")
			c.files[from] = "@link:" + to
		case "dir":
			c.files[v+"/"] = ""
		}
	}
	for _, f := range a.Files {
		c.files[f.Name] = string(f.Data)
	}
	if c.command == "" {
		t.Fatalf("%s names no command", path)
	}
	return c, a
}

// TestRegressions runs the cases of testdata/regress: each a workspace and
// a command on which the oracle once found trust wrong.
func TestRegressions(t *testing.T) {
	needStrace(t)
	need(t, "sh")
	names, err := filepath.Glob(filepath.Join("testdata", "regress", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(names)
	for _, n := range names {
		c, _ := regressCase(t, n)
		t.Run(strings.TrimPrefix(c.name, "regress "), func(t *testing.T) {
			t.Parallel()
			need(t, c.needs...)
			r := c.run(t)
			report(t, c, r, knownFailures)
		})
	}
}
