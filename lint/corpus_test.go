package lint

import (
	"bufio"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/hookctl/hookctl/internal/testenv"
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

// The corpus, as actionlint's: each file of testdata/ok must give no
// finding, and each file of testdata/err gives the findings its .out file
// lists, line and column included. Every rule has at least one of each,
// named after it (RULE.json, or RULE-what.json): the mistake it catches,
// and the near miss it must leave alone.
//
// A .json file is the workspace's .agents/hooks.json, in a copy of
// testdata/workspace. A case that needs other files (the user's
// hooks.json, a misplaced one, a script) is a .txtar archive of its whole
// workspace, linted as hookctl lint run in it: a file whose name starts
// with ~/ is in the home folder, a name followed by mode=NNNN has that
// mode, and one followed by link=TARGET is a symbolic link to TARGET. The cases of the shellcheck rule run the real ShellCheck.

// corpusCase is one file of testdata/ok or testdata/err.
type corpusCase struct {
	// file is the case's file, name its name without the extension.
	file, name string
}

func corpusCases(t *testing.T, dir string) []corpusCase {
	t.Helper()
	testdata, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	var out []corpusCase
	for _, ext := range []string{".json", ".txtar"} {
		// Absolute: a .txtar case is linted in its own workspace, as the
		// working folder.
		files, _ := filepath.Glob(filepath.Join(testdata, dir, "*"+ext))
		for _, f := range files {
			out = append(out, corpusCase{file: f, name: strings.TrimSuffix(filepath.Base(f), ext)})
		}
	}
	if len(out) == 0 {
		t.Fatalf("no files in testdata/%s", dir)
	}
	return out
}

// forRule reports whether the case is named after the rule.
func (c corpusCase) forRule(id string) bool {
	return c.name == id || strings.HasPrefix(c.name, id+"-")
}

// lint lints the case and returns its findings as the .out files list
// them.
func (c corpusCase) lint(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile(c.file)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Ext(c.file) == ".json" {
		return formatFindings(lintInWorkspace(t, newWorkspace(t), src))
	}
	files := map[string]caseFile{}
	for _, f := range txtar.Parse(src).Files {
		name, mode, link := f.Name, os.FileMode(0o644), ""
		if words := strings.Fields(f.Name); len(words) == 2 && strings.HasPrefix(words[1], "mode=") {
			m, err := strconv.ParseUint(strings.TrimPrefix(words[1], "mode="), 8, 32)
			if err != nil {
				t.Fatalf("%s: %s: %v", c.file, f.Name, err)
			}
			name, mode = words[0], os.FileMode(m)
		}
		if words := strings.Fields(f.Name); len(words) == 2 && strings.HasPrefix(words[1], "link=") {
			name, link = words[0], strings.TrimPrefix(words[1], "link=")
		}
		files[name] = caseFile{body: string(f.Data), mode: mode, link: link}
	}
	var shellcheck string
	if c.forRule("shellcheck") {
		shellcheck = testenv.Need(t, "shellcheck")
	}
	res, home := lintFiles(t, files, nil, shellcheck)
	return shownFolders(formatFindings(res.Findings), home)
}

// shownFolders writes, in the output of a case linted by lintFiles, the
// workspace as ~/project and the home folder as ~, as they vary from run
// to run.
func shownFolders(s, home string) string {
	s = strings.ReplaceAll(s, filepath.Join(filepath.Dir(home), "ws"), "~/project")
	return strings.ReplaceAll(s, home, "~")
}

// caseFile is a file of a case: its text and its mode, or the target of
// the symbolic link it is.
type caseFile struct {
	body string
	mode os.FileMode
	link string
}

// lintFiles writes the files into a fresh workspace and home folder (a
// name that starts with ~/ is in the home folder, any other in the
// workspace), and lints them as hookctl lint ARGS run in the workspace
// does, with ShellCheck when shellcheck names it. It returns the result
// and the home folder.
func lintFiles(t *testing.T, files map[string]caseFile, args []string, shellcheck string) (*Result, string) {
	t.Helper()
	// Real, as messages name where links lead (macOS's /var is one).
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws, home := filepath.Join(root, "ws"), filepath.Join(root, "home")
	for _, dir := range []string{ws, home} {
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, f := range files {
		path := filepath.Join(ws, name)
		if rest, ok := strings.CutPrefix(name, "~/"); ok {
			path = filepath.Join(home, rest)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if f.link != "" {
			if err := os.Symlink(f.link, path); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(path, []byte(f.body), f.mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, f.mode); err != nil { // past the umask
			t.Fatal(err)
		}
	}
	t.Chdir(ws)
	req, err := NewRequest(args, home)
	if err != nil {
		t.Fatal(err)
	}
	req.ShellCheck = shellcheck
	res, err := Lint(req)
	if err != nil {
		t.Fatal(err)
	}
	return res, home
}

// TestOK lints every case of testdata/ok, which must give no finding.
func TestOK(t *testing.T) {
	for _, c := range corpusCases(t, "ok") {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			if got := c.lint(t); got != "" {
				t.Errorf("want no findings, got:\n%s", got)
			}
		})
	}
}

// TestErr lints every case of testdata/err and compares its findings with
// the .out file beside it, line and column included.
func TestErr(t *testing.T) {
	for _, c := range corpusCases(t, "err") {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			got := c.lint(t)
			out := strings.TrimSuffix(c.file, filepath.Ext(c.file)) + ".out"
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
				t.Errorf("%s gives no finding", c.file)
			}
			if got != string(want) {
				t.Errorf("findings of %s differ\n--- got\n%s--- want\n%s", c.file, got, want)
			}
		})
	}
}

// TestCorpusCoversEveryRule: every rule has a case in testdata/err named
// after it whose .out lists a finding of it, and a case in testdata/ok
// named after it.
func TestCorpusCoversEveryRule(t *testing.T) {
	errs, oks := corpusCases(t, "err"), corpusCases(t, "ok")
	for _, r := range Catalogue() {
		caught := false
		for _, c := range errs {
			if !c.forRule(r.ID) {
				continue
			}
			out, err := os.ReadFile(strings.TrimSuffix(c.file, filepath.Ext(c.file)) + ".out")
			if err == nil && strings.Contains(string(out), "["+r.ID+"]\n") {
				caught = true
			}
		}
		if !caught {
			t.Errorf("%s has no case in testdata/err: add %s.json (or .txtar), the mistake it catches, and %s.out, its findings (go test ./lint -run TestErr -update writes it)", r.ID, r.ID, r.ID)
		}
		if !slices.ContainsFunc(oks, func(c corpusCase) bool { return c.forRule(r.ID) }) {
			t.Errorf("%s has no case in testdata/ok: add %s.json (or .txtar), a near miss it must leave alone", r.ID, r.ID)
		}
	}
}
