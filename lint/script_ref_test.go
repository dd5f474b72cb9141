package lint

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestScriptFindingsNameTheirHandler: a finding about a file a command
// runs carries the path as written, what is wrong with it, and the
// handler, so that doctor can say which handler needs what.
func TestScriptFindingsNameTheirHandler(t *testing.T) {
	ws := t.TempDir()
	dir := filepath.Join(ws, ".agents")
	writeImpactFile(t, filepath.Join(dir, "plain.sh"), "#!/bin/sh\n", 0o644)
	path := filepath.Join(dir, "hooks.json")
	writeImpactFile(t, path, `{
  "gate": {
    "Stop": [
      {"command": "python3 ./gone.py"},
      {"command": "./plain.sh"}
    ]
  }
}
`, 0o644)
	res, err := Lint(Request{Files: []Target{{Path: path, Name: ".agents/hooks.json", Scope: Workspace, Root: ws}}, Rules: []string{"script-not-found", "script-not-executable"}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Findings {
		if s := f.Script; s != nil {
			got = append(got, f.Rule+" "+s.Path+" ("+s.Problem+") "+s.Hook+" "+fmt.Sprintf("%d:%d", s.Handler.Line, s.Handler.Col))
		}
	}
	want := "script-not-found ./gone.py (no such file) gate 4:7\nscript-not-executable ./plain.sh (not executable) gate 5:7"
	if strings.Join(got, "\n") != want {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), want)
	}
}

// TestScriptRulesStepAsideOnlyForARuleThatRuns: script-not-found leaves a
// path into one user's home, a Windows path and a file of another agent's
// format to platform-specific and foreign-format; in a run limited to the
// script rules, it reports them itself, so that no missing file goes
// unnamed.
func TestScriptRulesStepAsideOnlyForARuleThatRuns(t *testing.T) {
	for name, src := range map[string]string{
		"home":    `{"gate": {"Stop": [{"command": "python3 /home/nobody-here/gate.py"}]}}`,
		"windows": `{"gate": {"Stop": [{"command": "python3 G:/nowhere/gate.py"}]}}`,
		"foreign": `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "python3 ./gone.py"}]}]}}`,
	} {
		ws := t.TempDir()
		path := filepath.Join(ws, ".agents", "hooks.json")
		writeImpactFile(t, path, src, 0o644)
		target := []Target{{Path: path, Name: ".agents/hooks.json", Scope: Workspace, Root: ws}}
		count := func(rules []string) int {
			res, err := Lint(Request{Files: target, Rules: rules})
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, f := range res.Findings {
				if f.Rule == "script-not-found" {
					n++
				}
			}
			return n
		}
		if n := count(nil); n != 0 {
			t.Errorf("%s: every rule: %d script-not-found, want none (another rule says it)", name, n)
		}
		if n := count([]string{"script-not-found"}); n != 1 {
			t.Errorf("%s: script-not-found alone: %d findings, want 1", name, n)
		}
	}
}
