package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/internal/testenv"
	"github.com/hookctl/hookctl/lint"
)

// TestFixDiffAsGit: lint --fix --diff prints, for each file, the hunks git
// diff --no-index prints for the file as it is and as --fix leaves it:
// unchanged braces stay context, and changes whose contexts touch share a
// hunk.
func TestFixDiffAsGit(t *testing.T) {
	git := testenv.Need(t, "git")
	var many strings.Builder
	many.WriteString("{\n")
	for i := range 120 {
		fmt.Fprintf(&many, "  // hook %d\n  \"h%d\": {\n    \"Stop\": [\n      {\n        \"command\": \"exit 0\",\n        \"timeout\": 30000\n      },\n    ]\n  },\n", i, i)
	}
	many.WriteString("  \"last\": {}\n}\n")
	files := map[string]string{
		"braces": "{\n  \"gate\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"Bash\",\n        \"hooks\": [\n          {\n            \"command\": \"exit 0\",\n            \"timeout\": 5000\n          }\n        ]\n      },\n      {\n        \"matcher\": \"Write*\",\n        \"hooks\": [\n          {\n            \"command\": \"exit 0\",\n            \"timeout\": 5000\n          }\n        ]\n      }\n    ]\n  }\n}\n",
		"many":   many.String(),
	}
	for _, p := range []string{"../../lint/testdata/err/json-syntax-all.json", "../../lint/testdata/err/foreign-tool.json", "../../lint/testdata/err/timeout-value.json"} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Base(p)] = string(b)
	}
	real, _ := filepath.Glob("../../testdata/realworld/*.json")
	for _, p := range real {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files["realworld-"+filepath.Base(p)] = string(b)
	}
	diffs := 0
	for name, src := range files {
		root := t.TempDir()
		path := filepath.Join(root, "ws", ".agents", "hooks.json")
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Chdir(root)
		req, err := lint.NewRequest([]string{"ws"}, "")
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		changed, err := lintFix(streams{out: &out, err: io.Discard}, req, true)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !changed {
			continue
		}
		diffs++
		fixed, err := lint.FixFiles(req)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "fixed.json"), fixed[0].After, 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(git, "-c", "diff.algorithm=default", "-c", "diff.context=3", "-c", "diff.interHunkContext=0", "diff", "--no-index", "--no-color", "--no-ext-diff", path, filepath.Join(root, "fixed.json"))
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+root)
		want, _ := cmd.Output()
		got := out.String()
		if !strings.HasPrefix(got, "diff a/ws/.agents/hooks.json b/ws/.agents/hooks.json\n--- a/ws/.agents/hooks.json\n+++ b/ws/.agents/hooks.json\n@@ ") {
			t.Errorf("%s: header of\n%s", name, got)
		}
		if g, w := got[strings.Index(got, "\n@@ ")+1:], string(want[bytes.Index(want, []byte("\n@@ "))+1:]); g != w {
			t.Errorf("%s: lint --fix --diff\n%s\ngit diff\n%s", name, g, w)
		}
	}
	if diffs < 10 {
		t.Errorf("only %d files had fixes", diffs)
	}
}
