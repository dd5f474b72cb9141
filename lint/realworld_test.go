package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/schema"
)

// The real hooks.json files of testdata/realworld, as committed to public
// repositories. Their scripts are not there: script rules fire on every
// relative path unless a test creates the scripts.

func realworldFiles(t *testing.T) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "realworld", "*.json"))
	if len(files) < 110 {
		t.Fatalf("found %d real files, want 110", len(files))
	}
	return files
}

// lintReal lints one real file as the .agents/hooks.json of an empty
// workspace; with scripts set, it first creates every script the file's
// commands name, where the agent would look for it.
func lintReal(t *testing.T, file string, scripts bool) []Finding {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	ws := t.TempDir()
	path := filepath.Join(ws, ".agents", "hooks.json")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	target := Target{Path: path, Name: ".agents/hooks.json", Scope: Workspace, Root: ws}
	if scripts {
		run := &Run{fs: newFSCache()}
		f := run.newFile(target, schema.Parse(path, src))
		for _, s := range f.scripts() {
			if !strings.HasPrefix(s.path, ws) {
				continue
			}
			if err := os.MkdirAll(filepath.Dir(s.path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(s.path, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	res, err := Lint(Request{Files: []Target{target}})
	if err != nil {
		t.Fatal(err)
	}
	return res.Findings
}

func rulesOf(fs []Finding) map[string]int {
	m := map[string]int{}
	for _, f := range fs {
		m[f.Rule]++
	}
	return m
}

// TestRealworldGolden lints every real file (none may crash the linter)
// and compares what each gets, rule by rule, with testdata/realworld.golden.
func TestRealworldGolden(t *testing.T) {
	var b strings.Builder
	for _, file := range realworldFiles(t) {
		counts := rulesOf(lintReal(t, file, false))
		rules := make([]string, 0, len(counts))
		for r := range counts {
			rules = append(rules, r)
		}
		sort.Strings(rules)
		fmt.Fprintf(&b, "%s:", filepath.Base(file))
		for _, r := range rules {
			fmt.Fprintf(&b, " %s=%d", r, counts[r])
		}
		b.WriteByte('\n')
	}
	got := b.String()
	golden := filepath.Join("testdata", "realworld.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("findings on the real files changed (go test ./lint -run TestRealworldGolden -update accepts them)\n--- got\n%s--- want\n%s", got, want)
	}
}

// realworldValid are real files that follow the format: with their
// scripts in place they must give no finding at all.
var realworldValid = []string{
	"002", "006", "009", "011", "013", "015", "017", "022", "029", "031", "034", "044",
	"047", "056", "059", "061", "063", "069", "071", "072", "073", "076", "079", "083", "092",
	"097", "099", "106", "109",
}

func TestRealworldValidFilesAreClean(t *testing.T) {
	for _, n := range realworldValid {
		t.Run(n, func(t *testing.T) {
			got := lintReal(t, filepath.Join("..", "testdata", "realworld", n+".json"), true)
			if len(got) > 0 {
				t.Errorf("false alarm on a valid file:\n%s", formatFindings(got))
			}
		})
	}
}

// realworldMistakes are the mistakes the real files make, by rule: each
// listed file must get at least one finding of the rule.
var realworldMistakes = map[string][]string{
	// A Stop handler that echoes a reminder, which the agent drops (016
	// follows the format otherwise).
	"literal-answer": {"016"},
	// Another agent's configuration as a whole.
	"foreign-format": {"001", "007", "010", "028", "033", "035", "038", "049", "055", "067", "080", "091", "093", "095", "100"},
	// Other agents' tool names in matchers.
	"foreign-tool": {"003", "004", "042", "077"},
	// Other agents' events, invented events.
	"unknown-event": {"036", "042", "101"},
	// SessionStart, which only agy 1.1.27 and later fire.
	"agent-version": {"005", "036", "042"},
	// Stop or PostInvocation written as matcher groups.
	"event-shape": {"008", "012", "042", "078"},
	// Events at the top level, without a hook name.
	"root-shape": {"026", "105"},
	"schema-key": {"074", "105"},
	// A path committed as a file (a symbolic link).
	"json-syntax": {"045", "052"},
	// Milliseconds where seconds are meant (30000, 15000).
	"timeout-value": {"005"},
	// Windows-only and one-machine commands.
	"platform-specific": {"014", "023", "024", "025", "027", "039", "040", "041", "046", "048", "054",
		"058", "062", "065", "081", "084", "088", "090", "094", "096", "098", "103"},
	// Tool names that exist nowhere.
	"matcher-no-tool": {"003", "004", "042", "104"},
	"unknown-field":   {"004"},
	// Arguments written from the workspace root (.agents/...).
	"argument-path": {"040", "066"},
	// Paths written from the workspace root.
	"script-not-found": {"012", "018", "021", "037", "053", "057", "060", "078", "082", "085", "087", "101", "102"},
}

func TestRealworldMistakesFound(t *testing.T) {
	t.Parallel()
	found := map[string]map[string]int{}
	for _, file := range realworldFiles(t) {
		found[strings.TrimSuffix(filepath.Base(file), ".json")] = rulesOf(lintReal(t, file, false))
	}
	for rule, files := range realworldMistakes {
		for _, n := range files {
			if found[n][rule] == 0 {
				t.Errorf("%s.json: no %s finding (got %v)", n, rule, found[n])
			}
		}
	}
	// 28800 is 8 hours in seconds, a real timeout, not 28.8 s in
	// milliseconds.
	if found["070"]["timeout-value"] > 0 {
		t.Errorf("070.json: a timeout-value finding on 28800 (8 hours): %v", found["070"])
	}
	// "*" matches every tool: no file is faulted for it.
	for _, n := range []string{"043", "048", "057", "096", "102", "107"} {
		if found[n]["matcher-syntax"]+found[n]["matcher-no-tool"] > 0 {
			t.Errorf("%s.json: a matcher finding on \"*\", which matches every tool: %v", n, found[n])
		}
	}
}

// TestRealworldWrongFolder checks the commonest real mistake: a path
// written from the workspace root in .agents/hooks.json is named as such,
// with the path to write instead.
func TestRealworldWrongFolder(t *testing.T) {
	got := lintReal(t, filepath.Join("..", "testdata", "realworld", "018.json"), false)
	var msgs []string
	for _, f := range got {
		if f.Rule == "script-not-found" {
			msgs = append(msgs, f.Message)
		}
	}
	if len(msgs) == 0 || !strings.Contains(msgs[0], "a path that starts with .agents/ points into .agents/.agents/") {
		t.Errorf("018.json: want the .agents/ prefix named, got %q", msgs)
	}
}

// TestRealworldDropsExplained: on every real file, what makes the agent
// drop the file is a finding marked file-dropped.
func TestRealworldDropsExplained(t *testing.T) {
	t.Parallel()
	for _, file := range realworldFiles(t) {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		checkDropsExplained(t, b, lintReal(t, file, false))
	}
}

// TestRealworldTable holds the table of docs/rules.md ("What lint finds in
// real files") and its counts of files to testdata/realworld.golden.
func TestRealworldTable(t *testing.T) {
	golden, err := os.ReadFile(filepath.Join("testdata", "realworld.golden"))
	if err != nil {
		t.Fatal(err)
	}
	files, findings := map[string]int{}, map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(string(golden)), "\n") {
		_, rest, _ := strings.Cut(line, ":")
		for _, kv := range strings.Fields(rest) {
			rule, n, _ := strings.Cut(kv, "=")
			c, _ := strconv.Atoi(n)
			files[rule]++
			findings[rule] += c
		}
	}
	doc, err := os.ReadFile(docsFile)
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(doc), "## What lint finds in real files")
	section, _, _ = strings.Cut(section, "\n## ")
	row := regexp.MustCompile("(?m)^\\| `([a-z-]+)` \\| ([0-9]+) \\| ([0-9]+) \\|$")
	shown := map[string]bool{}
	for _, m := range row.FindAllStringSubmatch(section, -1) {
		shown[m[1]] = true
		if want := fmt.Sprintf("%d %d", files[m[1]], findings[m[1]]); m[2]+" "+m[3] != want {
			t.Errorf("rules.md: %s in %s files with %s findings, the corpus gives %s", m[1], m[2], m[3], want)
		}
	}
	for rule := range files {
		if !shown[rule] && rule != "script-not-found" {
			t.Errorf("rules.md: the table of real files leaves out %s (%d files)", rule, files[rule])
		}
	}
	for _, want := range []string{
		fmt.Sprintf("`script-not-found` fires on %d files", files["script-not-found"]),
		fmt.Sprintf("the %d files that follow the format", len(realworldValid)),
	} {
		if !strings.Contains(section, want) {
			t.Errorf("rules.md does not say %q", want)
		}
	}
}
