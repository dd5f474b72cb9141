package linediff

import (
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/internal/testenv"
)

// gitDiff returns the hunks git diff --no-index writes for the two
// texts, with git's defaults whatever the machine's configuration says
// (Myers' algorithm, three lines of context, the indent heuristic).
func gitDiff(t *testing.T, old, new string) string {
	t.Helper()
	git := testenv.Need(t, "git")
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	if err := os.WriteFile(a, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, []byte(new), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(git, "-c", "diff.algorithm=default", "-c", "diff.context=3", "-c", "diff.interHunkContext=0", "-c", "diff.indentHeuristic=true",
		"diff", "--no-index", "--no-color", "--no-ext-diff", a, b)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+dir)
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
		t.Fatalf("git diff: %v", err)
	}
	return hunks(string(out))
}

// hunks returns a diff from its first hunk on.
func hunks(d string) string {
	if i := strings.Index(d, "\n@@ "); i >= 0 {
		return d[i+1:]
	}
	return ""
}

func checkAsGit(t *testing.T, name, old, new string) {
	t.Helper()
	got := string(Unified("a/x", []byte(old), "b/x", []byte(new)))
	if want := gitDiff(t, old, new); hunks(got) != want {
		t.Errorf("%s: diff\n%s\ngit diff\n%s", name, got, want)
	}
	if old != new && !strings.HasPrefix(got, "diff a/x b/x\n--- a/x\n+++ b/x\n@@ ") {
		t.Errorf("%s: header of\n%s", name, got)
	}
}

// TestUnifiedAsGit: the hunks are git diff's, byte for byte: an unchanged
// line stays context, changes whose contexts touch share a hunk, and
// many changes give no longer a diff than git's.
func TestUnifiedAsGit(t *testing.T) {
	hook := func(i int, timeout string, comma bool) string {
		s := fmt.Sprintf("  \"h%d\": {\n    \"Stop\": [\n      {\n        \"command\": \"true\",\n        \"timeout\": %s\n      }\n    ]\n  }", i, timeout)
		if comma {
			s += ","
		}
		return s + "\n"
	}
	file := func(n int, timeout func(i int) string) string {
		var b strings.Builder
		b.WriteString("{\n")
		for i := range n {
			b.WriteString(hook(i, timeout(i), i < n-1))
		}
		b.WriteString("}\n")
		return b.String()
	}
	for _, n := range []int{1, 2, 3, 12, 60, 400} {
		old := file(n, func(int) string { return "30000" })
		checkAsGit(t, fmt.Sprintf("%d changes", n), old, file(n, func(int) string { return "30" }))
		checkAsGit(t, fmt.Sprintf("every third of %d", n), old, file(n, func(i int) string {
			if i%3 == 0 {
				return "30"
			}
			return "30000"
		}))
	}
	// Two changes this many unchanged lines apart: git joins their hunks
	// up to six.
	for gap := 4; gap <= 8; gap++ {
		var a, b []string
		for i := range 20 {
			line := fmt.Sprintf("  \"k%d\": %d,\n", i, i)
			a, b = append(a, line), append(b, line)
		}
		a[5], b[5] = "  \"x\": 1,\n", "  \"x\": 2,\n"
		a[6+gap], b[6+gap] = "  \"y\": 1,\n", "  \"y\": 2,\n"
		checkAsGit(t, fmt.Sprintf("gap of %d", gap), strings.Join(a, ""), strings.Join(b, ""))
	}
	for name, c := range map[string][2]string{
		"from nothing":             {"", "{}\n"},
		"to nothing":               {"{}\n", ""},
		"no line break at the end": {"{\n  \"a\": 1\n}", "{\n  \"a\": 2\n}"},
		"line break taken away":    {"{\n  \"a\": 1\n}\n", "{\n  \"a\": 1\n}"},
		"line break added":         {"{\n  \"a\": 1\n}", "{\n  \"a\": 1\n}\n"},
		"comment lines removed":    {"{\n  // a\n  \"a\": {},\n  // b\n  \"b\": {}\n}\n", "{\n  \"a\": {},\n  \"b\": {}\n}\n"},
		"first line":               {"// x\n{}\n", "{}\n"},
		"braces around changes": {"{\n  \"g\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"Bash\",\n        \"hooks\": [\n          {\n            \"command\": \"true\",\n            \"timeout\": 5000\n          }\n        ]\n      },\n      {\n        \"matcher\": \"Write\",\n        \"hooks\": [\n          {\n            \"command\": \"true\",\n            \"timeout\": 5000\n          }\n        ]\n      }\n    ]\n  }\n}\n",
			"{\n  \"g\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"run_command\",\n        \"hooks\": [\n          {\n            \"command\": \"true\",\n            \"timeout\": 5\n          }\n        ]\n      },\n      {\n        \"matcher\": \"write_to_file\",\n        \"hooks\": [\n          {\n            \"command\": \"true\",\n            \"timeout\": 5\n          }\n        ]\n      }\n    ]\n  }\n}\n"},
	} {
		checkAsGit(t, name, c[0], c[1])
	}
	if d := Unified("a", []byte("x\n"), "b", []byte("x\n")); d != nil {
		t.Errorf("equal texts: %q", d)
	}
}

// TestUnifiedAsGitOnRealFiles changes the real hooks.json files as fixes
// do (a line rewritten, a line removed, a trailing comma or the last line
// break taken away, up to a dozen at once) and compares each diff with
// git's.
func TestUnifiedAsGitOnRealFiles(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "realworld", "*.json"))
	if len(files) < 100 {
		t.Fatalf("found %d real files", len(files))
	}
	cases := 300
	if testing.Short() {
		cases = 40
	}
	r := rand.New(rand.NewSource(1))
	for n := range cases {
		file := files[r.Intn(len(files))]
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(string(src), "\n")
		for k := 1 + r.Intn(12); k > 0 && len(lines) > 2; k-- {
			i := r.Intn(len(lines))
			switch r.Intn(4) {
			case 0:
				lines[i] = strings.Replace(lines[i], `"`, `"x`, 1)
			case 1:
				lines = append(lines[:i], lines[i+1:]...)
			case 2:
				lines[i] = strings.Replace(lines[i], ",\n", "\n", 1)
			case 3:
				lines[len(lines)-1] = strings.TrimSuffix(lines[len(lines)-1], "\n")
			}
		}
		checkAsGit(t, fmt.Sprintf("%s, change %d", filepath.Base(file), n), string(src), strings.Join(lines, ""))
	}
}

// TestUnifiedHostile: a text of a million lines that are all alike, with
// changes all over it, costs the bounded search, not a map of its lines
// per split, and its diff, longer than needed, still turns it into the
// other.
func TestUnifiedHostile(t *testing.T) {
	if testing.Short() {
		t.Skip("a million lines")
	}
	var a, b strings.Builder
	for i := range 1 << 20 {
		a.WriteString("1,\n")
		if i%1000 == 0 {
			b.WriteString("2,\n")
		} else {
			b.WriteString("1,\n")
		}
	}
	d := Unified("a", []byte(a.String()), "b", []byte(b.String()))
	if got := apply(t, a.String(), string(d)); got != b.String() {
		t.Error("the diff does not turn the text into the other")
	}
}

// apply applies a unified diff of this package's to old.
func apply(t *testing.T, old, diff string) string {
	t.Helper()
	src := strings.SplitAfter(old, "\n")
	var out []string
	at := 0
	lines := strings.SplitAfter(diff, "\n")
	for i := 3; i < len(lines); i++ {
		l := lines[i]
		switch {
		case strings.HasPrefix(l, "@@ -"):
			var from int
			fmt.Sscanf(l, "@@ -%d", &from)
			for ; at < from-1; at++ {
				out = append(out, src[at])
			}
		case strings.HasPrefix(l, " "):
			out = append(out, src[at])
			at++
		case strings.HasPrefix(l, "-"):
			at++
		case strings.HasPrefix(l, "+"):
			out = append(out, l[1:])
		}
	}
	return strings.Join(append(out, src[at:]...), "")
}
