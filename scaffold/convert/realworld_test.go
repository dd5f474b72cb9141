package convert

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/lint"
	"github.com/hookctl/hookctl/schema"
)

// realworld lists the files of the repository's corpus of real hooks.json
// files with their class: native, claude, gemini, cursor, mixed or other.
func realworld(t *testing.T) map[string]string {
	t.Helper()
	dir := filepath.Join("..", "..", "testdata", "realworld")
	f, err := os.Open(filepath.Join(dir, "SOURCES.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) >= 4 && strings.HasSuffix(cols[0], ".json") {
			out[filepath.Join(dir, cols[0])] = cols[3]
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRealWorld imports every real configuration of another agent, and every
// file that mixes one into this format: each converts, names every item of
// its report at a line of the file, and gives a hooks.json that lints with
// no error the report does not explain. Files of no known format are
// refused with a reason.
func TestRealWorld(t *testing.T) {
	files := realworld(t)
	if len(files) < 100 {
		t.Fatalf("the corpus lists %d files, want the whole corpus", len(files))
	}
	counts := map[string]int{}
	for path, class := range files {
		switch class {
		case "claude", "gemini", "cursor", "mixed":
			counts[class]++
			t.Run(filepath.Base(path), func(t *testing.T) {
				src, err := Read(workDir(t), path, "")
				if err != nil {
					t.Fatalf("a %s file is refused: %v", class, err)
				}
				dir := t.TempDir()
				res := Convert(src, Options{Target: filepath.Join(dir, ".agents", "hooks.json"), Root: dir})
				lines := strings.Count(string(src.Src), "\n") + 1
				for _, it := range res.Report.Items {
					if it.Pos.Line < 1 || it.Pos.Line > lines {
						t.Errorf("report item at line %d of a %d-line file: %s", it.Pos.Line, lines, it.Msg)
					}
				}
				out := res.JSON()
				cfg := schema.Parse("hooks.json", out)
				if cfg.Syntax != nil || len(cfg.Problems) > 0 {
					t.Fatalf("the converted file does not load cleanly: %v %v\n%s", cfg.Syntax, cfg.Problems, out)
				}
				report := reportText(res)
				for _, f := range lint.LintSource(lint.Target{Path: filepath.Join(dir, ".agents", "hooks.json"), Scope: lint.Workspace, Root: dir}, out) {
					if f.Severity == lint.Error && !explained(f, report) {
						t.Errorf("lint error the report does not explain: %s\nreport:\n%s", f, report)
					}
				}
			})
		case "other":
			counts[class]++
			t.Run(filepath.Base(path), func(t *testing.T) {
				_, err := Read(workDir(t), path, "")
				var fe *FormatError
				if err != nil && (!errors.As(err, &fe) || fe.Msg == "") {
					t.Errorf("refused without a reason: %v", err)
				}
			})
		}
	}
	for _, class := range []string{"claude", "cursor", "mixed", "other"} {
		if counts[class] == 0 {
			t.Errorf("the corpus has no %s file", class)
		}
	}
}

// explained reports whether the report accounts for a lint error of the
// converted file: a script it reports missing, or a matcher it reports.
func explained(f lint.Finding, report string) bool {
	switch f.Rule {
	case "script-not-found", "script-not-executable":
		return strings.Contains(report, "does not exist") || strings.Contains(report, "handlers run in")
	case "matcher-syntax":
		return strings.Contains(report, "RE2")
	case "platform-specific", "dangerous-command":
		return true // carried over as written: the source has the same command
	}
	return false
}
