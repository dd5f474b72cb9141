package convert

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// project lays out a workspace with a few scripts, as another agent's
// configuration would name them.
func project(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for _, f := range []string{".claude/hooks/x.sh", ".claude/hooks/lint.py", ".agents/scripts/guard.js", "scripts/check.sh", "backend/go.mod"} {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestConvertCommand rebases paths and variables for .agents/, where the
// converted handlers run, and sends commands that run project tools to the
// workspace root first.
func TestConvertCommand(t *testing.T) {
	root := project(t)
	pl := places{base: root, project: root, altBase: filepath.Join(root, ".claude"), targetDir: filepath.Join(root, ".agents"), targetRoot: root, anchorSrc: root, anchorDst: root, strict: true}
	cases := []struct{ in, want string }{
		{`.claude/hooks/x.sh`, `../.claude/hooks/x.sh`},
		{`"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh`, `../.claude/hooks/x.sh`},
		{`"$CLAUDE_PROJECT_DIR/.claude/hooks/x.sh" --strict`, `../.claude/hooks/x.sh --strict`},
		{`${CLAUDE_PROJECT_DIR}/.claude/hooks/x.sh`, `../.claude/hooks/x.sh`},
		{`$GEMINI_PROJECT_DIR/.claude/hooks/x.sh`, `../.claude/hooks/x.sh`},
		{`python3 -u .claude/hooks/lint.py`, `python3 -u ../.claude/hooks/lint.py`},
		{`/usr/bin/env python3 .claude/hooks/lint.py`, `/usr/bin/env python3 ../.claude/hooks/lint.py`},
		{`node .agents/scripts/guard.js`, `node scripts/guard.js`},
		{`.agents/scripts/guard.js`, `scripts/guard.js`},
		{`bash scripts/check.sh && echo ok`, `bash ../scripts/check.sh && echo ok`},
		// After a cd, paths start from where it went.
		{`cd backend && ./run.sh`, `cd .. && cd backend && ./run.sh`},
		{`"$(git rev-parse --show-toplevel)/.claude/hooks/x.sh"`, `../.claude/hooks/x.sh`},
		{`echo done >> .claude/hooks.log`, `echo done >> ../.claude/hooks.log`},
		{`test -f "$CLAUDE_PROJECT_DIR/scripts/check.sh" && sh "$CLAUDE_PROJECT_DIR/scripts/check.sh"`, `test -f ../scripts/check.sh && sh ../scripts/check.sh`},
		{`cd "$CLAUDE_PROJECT_DIR" && make lint`, `cd .. && make lint`},
		// A path the script was written from its own folder (Cursor).
		{`./hooks/x.sh`, `../.claude/hooks/x.sh`},
		// Project tools run from the root, where they find the project.
		{`npm test --silent`, `cd .. && npm test --silent`},
		{`go vet ./...`, `cd .. && go vet ./...`},
		{`jq -r .file | xargs npx prettier --write`, `cd .. && jq -r .file | xargs npx prettier --write`},
		// Nothing to change.
		{`echo '{"decision":"allow"}'`, `echo '{"decision":"allow"}'`},
		{`python3 -c "import sys; sys.exit(0)"`, `python3 -c "import sys; sys.exit(0)"`},
		{`~/bin/notify.sh`, `~/bin/notify.sh`},
		{`/opt/hooks/gate.sh`, `/opt/hooks/gate.sh`},
		{`git diff --stat`, `git diff --stat`},
		// A path with spaces is quoted.
		{`"$CLAUDE_PROJECT_DIR/my hooks/x.sh"`, `'../my hooks/x.sh'`},
	}
	for _, c := range cases {
		if got := pl.convertCommand(c.in).Command; got != c.want {
			t.Errorf("%s\n  becomes %s\n  want    %s", c.in, got, c.want)
		}
	}
}

// TestConvertCommandReports checks what a conversion tells about a
// command: the scripts found and the variables that are not set here.
func TestConvertCommandReports(t *testing.T) {
	root := project(t)
	pl := places{base: root, project: root, targetDir: filepath.Join(root, ".agents"), targetRoot: root, anchorSrc: root, anchorDst: root, strict: true}
	ch := pl.convertCommand(`echo "$CLAUDE_TOOL_INPUT" | python3 .claude/hooks/lint.py && .claude/hooks/missing.sh`)
	if len(ch.Scripts) != 1 || !strings.HasSuffix(ch.Scripts[0], ".claude/hooks/lint.py") {
		t.Errorf("Scripts = %v, want the lint.py script", ch.Scripts)
	}
	if len(ch.Missing) != 1 || !strings.HasSuffix(ch.Missing[0], ".claude/hooks/missing.sh") {
		t.Errorf("Missing = %v, want missing.sh", ch.Missing)
	}
	if strings.Join(ch.Unset, ",") != "CLAUDE_TOOL_INPUT" {
		t.Errorf("Unset = %v, want CLAUDE_TOOL_INPUT", ch.Unset)
	}
	// Outside a plugin, its folder is unknown: reported, left as written.
	plugin := pl.convertCommand(`node ${CLAUDE_PLUGIN_ROOT}/scripts/stop.js`)
	if plugin.Command != `node ${CLAUDE_PLUGIN_ROOT}/scripts/stop.js` || strings.Join(plugin.Unset, ",") != "CLAUDE_PLUGIN_ROOT" {
		t.Errorf("a plugin variable outside a plugin: %q, Unset %v", plugin.Command, plugin.Unset)
	}
	bad := pl.convertCommand(`if [ -f x ]; then "$CLAUDE_PROJECT_DIR/x.sh"`)
	if !bad.Unparsed || bad.Command != `if [ -f x ]; then "../x.sh"` {
		t.Errorf("an unparsable command: Unparsed %v, %q", bad.Unparsed, bad.Command)
	}
}

// TestConvertCommandUser: the user's hooks.json serves every workspace, so
// a command that names project files first goes to the workspace root.
func TestConvertCommandUser(t *testing.T) {
	root := project(t)
	pl := places{base: root, project: root, targetDir: "/home/u/.gemini/config", anchorSrc: root, strict: true}
	cases := []struct{ in, want string }{
		{`"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh`, `cd "$(git rev-parse --show-toplevel)" && .claude/hooks/x.sh`},
		{`/opt/gate.sh`, `/opt/gate.sh`},
		{`notify-send done`, `notify-send done`},
	}
	for _, c := range cases {
		if got := pl.convertCommand(c.in).Command; got != c.want {
			t.Errorf("%s\n  becomes %s\n  want    %s", c.in, got, c.want)
		}
	}
}
