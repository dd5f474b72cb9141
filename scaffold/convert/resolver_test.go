package convert

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/lint"
	"github.com/hookctl/hookctl/runtime/trust"
	"github.com/hookctl/hookctl/schema"
)

// lintMissing reads the file a script-not-found finding names: the path as
// the command writes it, from the folder the message says it starts in.
var lintMissing = regexp.MustCompile(`^(\S+) does not exist in (the workspace root|\S+/)[,:]? `)

// TestOneResolver: import, lint and trust name the same scripts for a
// command, through cd chains, interpreters, wrappers and hookctl trace,
// because all three read it with schema/shellcmd. Each Claude Code command
// is imported into .agents/hooks.json; then import's scripts (those it
// found and those it warns are missing), lint's script-not-found findings
// on the imported file, and the files trust fingerprints for the handler
// must be the same, with the scripts missing and with them there.
func TestOneResolver(t *testing.T) {
	cases := []struct {
		command string
		scripts []string
	}{
		{`cd hooks && ./b.sh`, []string{"hooks/b.sh"}},
		{`cd hooks && cd sub && ./c.sh`, []string{"hooks/sub/c.sh"}},
		{`cd hooks/sub && ../b.sh && sh ./c.sh`, []string{"hooks/b.sh", "hooks/sub/c.sh"}},
		{`(cd hooks && ./b.sh) && ./scripts/x.sh`, []string{"hooks/b.sh", "scripts/x.sh"}},
		{`cd "$CLAUDE_PROJECT_DIR" && ./hooks/b.sh`, []string{"hooks/b.sh"}},
		{`"$CLAUDE_PROJECT_DIR"/hooks/b.sh`, []string{"hooks/b.sh"}},
		{`python3 -u hooks/c.py --strict`, []string{"hooks/c.py"}},
		{`node scripts/x.js && bash -e scripts/x.sh`, []string{"scripts/x.js", "scripts/x.sh"}},
		{`sh < scripts/x.sh`, []string{"scripts/x.sh"}},
		{`echo '{}' | ./hooks/b.sh`, []string{"hooks/b.sh"}},
		{`env FOO=1 ./hooks/b.sh`, []string{"hooks/b.sh"}},
		{`timeout 5 ./hooks/b.sh`, []string{"hooks/b.sh"}},
		{`timeout -s KILL 5 nice -n 10 env X=1 python3 hooks/c.py`, []string{"hooks/c.py"}},
		{`hookctl trace -- ./hooks/b.sh`, []string{"hooks/b.sh"}},
		{`hookctl trace --hook gate -- python3 hooks/c.py`, []string{"hooks/c.py"}},
		{`cd hooks && hookctl trace -- ./b.sh`, []string{"hooks/b.sh"}},
		// A module, found by its name: the file trust names is the one lint
		// finds missing.
		{`python3 -m hooks.m5`, []string{"hooks/m5.py"}},
		{`node hooks/m6`, []string{"hooks/m6"}},
		{`cd hooks && python3 -m sub.m7`, []string{"hooks/sub/m7.py"}},
	}
	for _, tc := range cases {
		for _, present := range []bool{false, true} {
			root, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range []string{".agents", ".claude", "hooks/sub", "scripts"} {
				if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if present {
				for _, s := range tc.scripts {
					if err := os.WriteFile(filepath.Join(root, s), []byte("#!/bin/sh\necho '{}'\n"), 0o755); err != nil {
						t.Fatal(err)
					}
				}
			}
			what := tc.command
			if present {
				what += " (scripts there)"
			}

			// import
			pl := places{base: root, project: root, altBase: filepath.Join(root, ".claude"), targetDir: filepath.Join(root, ".agents"),
				targetRoot: root, anchorSrc: root, anchorDst: root, strict: true}
			ch := pl.convertCommand(tc.command)
			found, missing := relAll(t, root, ch.Scripts), relAll(t, root, ch.Missing)
			want := slices.Sorted(slices.Values(tc.scripts))
			if present && (!slices.Equal(found, want) || len(missing) > 0) || !present && (!slices.Equal(missing, want) || len(found) > 0) {
				t.Errorf("%s: import finds %q and misses %q, want %q (imported as %s)", what, found, missing, want, ch.Command)
			}

			// lint, on the imported file
			hooksJSON := filepath.Join(root, ".agents", "hooks.json")
			def := map[string]any{"gate": map[string]any{"PreToolUse": []any{map[string]any{"matcher": "run_command",
				"hooks": []any{map[string]any{"type": "command", "command": ch.Command}}}}}}
			src, _ := json.Marshal(def)
			if err := os.WriteFile(hooksJSON, src, 0o644); err != nil {
				t.Fatal(err)
			}
			res, err := lint.Lint(lint.Request{Files: []lint.Target{{Path: hooksJSON, Name: ".agents/hooks.json", Scope: lint.Workspace, Root: root}}})
			if err != nil {
				t.Fatal(err)
			}
			var lintNames []string
			for _, f := range res.Findings {
				if f.Rule != "script-not-found" {
					continue
				}
				m := lintMissing.FindStringSubmatch(f.Message)
				if m == nil {
					t.Fatalf("%s: a finding this test cannot read: %s", what, f.Message)
				}
				dir := filepath.Join(root, m[2])
				if m[2] == "the workspace root" {
					dir = root
				}
				lintNames = append(lintNames, filepath.Join(dir, m[1]))
			}
			lintNames = relAll(t, root, lintNames)
			if present && len(lintNames) > 0 || !present && !slices.Equal(lintNames, want) {
				t.Errorf("%s: lint finds %q missing in %s, import %q", what, lintNames, ch.Command, missing)
			}

			// trust, on the imported file
			snap := trust.FromConfig(root, schema.Parse(hooksJSON, src))
			if len(snap.Commands) != 1 {
				t.Fatalf("%s: %d commands in the snapshot", what, len(snap.Commands))
			}
			covered := snap.Commands[0].Files
			if !slices.Equal(covered, want) {
				t.Errorf("%s: trust covers %q, want %q (gaps %q)", what, covered, want, snap.Commands[0].Gaps)
			}
			for _, f := range snap.Files {
				if slices.Contains(want, f.Path) && (f.State == trust.Present) != present {
					t.Errorf("%s: trust has %s as %s", what, f.Path, f.State)
				}
			}
		}
	}
}

// relAll names absolute paths from root, sorted.
func relAll(t *testing.T, root string, paths []string) []string {
	t.Helper()
	out := []string{}
	for _, p := range paths {
		r, err := filepath.Rel(root, p)
		if err != nil || strings.HasPrefix(r, "..") {
			t.Fatalf("%s is outside %s", p, root)
		}
		out = append(out, filepath.ToSlash(r))
	}
	slices.Sort(out)
	return out
}
