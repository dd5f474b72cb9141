package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLintOutput: --output writes the findings to a file inside the
// current folder, replacing a link at its name instead of writing through
// it, and refuses a file outside, or behind a link that leads out, before
// linting anything.
func TestLintOutput(t *testing.T) {
	ws := t.TempDir()
	outside := t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, ".agents"), 0o755); err != nil {
		t.Fatal(err)
	}
	hooks := "{\n  \"gate\": {\n    \"pre_tool_use\": []\n  }\n}\n"
	if err := os.WriteFile(filepath.Join(ws, ".agents", "hooks.json"), []byte(hooks), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(ws)
	lintTo := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := run(append([]string{"hookctl", "lint", "--format", "sarif"}, args...), streams{strings.NewReader(""), &out, &errb})
		return code, out.String(), errb.String()
	}
	sarifIn := func(path string) {
		t.Helper()
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var log struct {
			Version string
			Runs    []struct{ Results []struct{ RuleID string } }
		}
		if err := json.Unmarshal(b, &log); err != nil || log.Version != "2.1.0" || len(log.Runs) != 1 || len(log.Runs[0].Results) == 0 || log.Runs[0].Results[0].RuleID != "unknown-event" {
			t.Errorf("%s: %v %+v", path, err, log)
		}
	}

	code, stdout, stderr := lintTo("--output", "reports/hookctl.sarif", ".")
	if code != 2 || stdout != "" || !strings.Contains(stderr, "the folder of reports/hookctl.sarif cannot be reached") {
		t.Errorf("a missing folder: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, stdout, stderr = lintTo("--output", "hookctl.sarif", ".")
	if code != 1 || stdout != "" || stderr != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	sarifIn(filepath.Join(ws, "hookctl.sarif"))

	for _, path := range []string{filepath.Join(outside, "hookctl.sarif"), "../hookctl.sarif"} {
		code, _, stderr := lintTo("-o", path, ".")
		if code != 2 || !strings.Contains(stderr, "is outside the current folder") {
			t.Errorf("%s: exit %d, stderr %q", path, code, stderr)
		}
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("written outside: %v", entries)
	}

	// A link the workspace holds, to a file of the job's own: the link is
	// replaced, the file it leads to keeps every byte.
	victim := filepath.Join(outside, "hookctl")
	if err := os.WriteFile(victim, []byte("#!/bin/sh\necho the job's own program\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(ws, "linked.sarif")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if code, _, stderr := lintTo("--output", "linked.sarif", "."); code != 1 {
		t.Errorf("through a link: exit %d, stderr %q", code, stderr)
	}
	if b, err := os.ReadFile(victim); err != nil || string(b) != "#!/bin/sh\necho the job's own program\n" {
		t.Errorf("the file behind the link: %q, %v", b, err)
	}
	if info, err := os.Lstat(filepath.Join(ws, "linked.sarif")); err != nil || !info.Mode().IsRegular() {
		t.Errorf("linked.sarif is not a regular file now: %v %v", info, err)
	}
	sarifIn(filepath.Join(ws, "linked.sarif"))

	// A folder that is a link out of the workspace.
	if err := os.Symlink(outside, filepath.Join(ws, "out")); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := lintTo("--output", filepath.Join("out", "x.sarif"), "."); code != 2 || !strings.Contains(stderr, "cannot be reached inside the current folder") {
		t.Errorf("through a linked folder: exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(outside, "x.sarif")); err == nil {
		t.Error("written through a linked folder")
	}
}
