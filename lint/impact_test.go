package lint

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/internal/testenv"
	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/scope"
)

// impactRow is one mistake and what it means to the agent.
type impactRow struct {
	rule, src string
	want      Impact
	// files are written into the workspace's .agents folder first: path
	// (relative to it) to content; a "+x" suffix on the path makes the
	// file executable, "+gw" group-writable, and "+link" makes it a
	// symbolic link to the content.
	files map[string]string
	// user is the user's hooks.json, when the row needs one.
	user string
}

// impactRows hold at least one row for every rule of the catalogue.
var impactRows = []impactRow{
	{rule: "json-syntax", src: `{"g": {"Stop": [{"command": "x"},]}}`, want: FileDropped},
	{rule: "json-syntax", src: `{"g": {"x": ` + strings.Repeat("[", schema.MaxDepth) + strings.Repeat("]", schema.MaxDepth) + `}}`, want: FileDropped},
	{rule: "enabled-type", src: `{"g": {"enabled": "false", "Stop": [{"command": "true"}]}}`, want: FileDropped},
	{rule: "enabled-type", src: `{"g": {"enabled": null, "Stop": [{"command": "true"}]}}`, want: Ignored},
	{rule: "timeout-value", src: `{"g": {"Stop": [{"command": "true", "timeout": "5"}]}}`, want: FileDropped},
	{rule: "timeout-value", src: `{"g": {"Stop": [{"command": "true", "timeout": 5.5}]}}`, want: FileDropped},
	{rule: "timeout-value", src: `{"g": {"Stop": [{"command": "true", "timeout": 0}]}}`, want: Misbehaves},
	{rule: "timeout-value", src: `{"g": {"Stop": [{"command": "true", "timeout": 30000}]}}`, want: Misbehaves},
	{rule: "timeout-value", src: `{"g": {"Stop": [{"command": "true", "timeout": null}]}}`, want: Ignored},
	{rule: "missing-command", src: `{"g": {"Stop": [{"command": 5}]}}`, want: FileDropped},
	{rule: "missing-command", src: `{"g": {"Stop": [{"command": ""}]}}`, want: Ignored},
	{rule: "missing-command", src: `{"g": {"Stop": [{"timeout": 5}]}}`, want: Ignored},
	{rule: "missing-command", src: `{"g": {"Stop": [{"cmd": "true"}]}}`, want: Ignored},
	{rule: "event-shape", src: `{"g": {"Stop": "true"}}`, want: FileDropped},
	{rule: "event-shape", src: `{"g": {"Stop": ["true"]}}`, want: FileDropped},
	{rule: "event-shape", src: `{"g": {"Stop": [{"matcher": "x", "hooks": [{"command": "true"}]}]}}`, want: Ignored},
	{rule: "event-shape", src: `{"g": {"PreToolUse": [{"command": "true"}]}}`, want: Ignored},
	{rule: "event-shape", src: `{"g": {"Stop": null}}`, want: Ignored},
	{rule: "matcher-syntax", src: `{"g": {"PreToolUse": [{"matcher": 5, "hooks": [{"command": "true"}]}]}}`, want: FileDropped},
	{rule: "matcher-syntax", src: `{"g": {"PreToolUse": [{"matcher": "(", "hooks": [{"command": "true"}]}]}}`, want: Ignored},
	{rule: "matcher-syntax", src: `{"g": {"PreToolUse": [{"matcher": null, "hooks": [{"command": "true"}]}]}}`, want: Ignored},
	{rule: "matcher-no-tool", src: `{"g": {"PreToolUse": [{"matcher": "browser_*", "hooks": [{"command": "true"}]}]}}`, want: Ignored},
	{rule: "ignored-matcher", src: `{"g": {"Stop": [{"matcher": "run_command", "command": "true"}]}}`, want: Ignored},
	{rule: "handler-type", src: `{"g": {"Stop": [{"type": "prompt", "command": "true"}]}}`, want: Ignored},
	{rule: "handler-type", src: `{"g": {"Stop": [{"type": 1, "command": "true"}]}}`, want: FileDropped},
	{rule: "handler-type", src: `{"g": {"Stop": [{"type": null, "command": "true"}]}}`, want: Ignored},
	{rule: "root-shape", src: `["g"]`, want: FileDropped},
	{rule: "root-shape", src: `{"g": "true"}`, want: FileDropped},
	{rule: "root-shape", src: `{"g": null, "h": {"Stop": [{"command": "true"}]}}`, want: Ignored},
	{rule: "unknown-event", src: `{"g": {"UserPromptSubmit": [{"command": "true"}]}}`, want: Ignored},
	{rule: "unknown-field", src: `{"g": {"Stop": [{"command": "true", "timeoutMs": 5000}]}}`, want: Ignored},
	// A key read only because the decoder ignores case runs as meant; one
	// that another key of the same field overrides, whichever of the two is
	// spelled right, never runs; a null after a value changes nothing.
	{rule: "key-case", src: `{"g": {"stop": [{"command": "true"}]}}`, want: NoImpact},
	{rule: "key-case", src: `{"g": {"stop": [{"command": "a"}], "Stop": [{"command": "b"}]}}`, want: Ignored},
	{rule: "key-case", src: `{"g": {"Stop": [{"command": "a"}], "STOP": [{"command": "b"}]}}`, want: Ignored},
	{rule: "key-case", src: `{"g": {"Stop": [{"Command": "a", "command": "b"}]}}`, want: Ignored},
	{rule: "key-case", src: `{"g": {"Stop": [{"command": "a", "timeout": 5, "Timeout": null}]}}`, want: Ignored},
	{rule: "key-case", src: `{"g": {"Stop": [{"Command": 5, "command": "b"}]}}`, want: FileDropped},
	{rule: "duplicate-key", src: `{"g": {"Stop": [{"command": "a"}]}, "g": {"Stop": [{"command": "b"}]}}`, want: Ignored},
	{rule: "agent-decode", src: `{"g": 1, "g": {"Stop": [{"command": "true"}]}}`, want: FileDropped},
	{rule: "schema-key", src: `{"$schema": "x", "g": {"Stop": [{"command": "true"}]}}`, want: FileDropped},
	{rule: "foreign-tool", src: `{"g": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"command": "true"}]}]}}`, want: Ignored},
	{rule: "foreign-format", src: `{"version": 1, "hooks": {"stop": [{"command": "true"}]}}`, want: FileDropped},
	{rule: "foreign-format", src: `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}]}}`, want: Misbehaves},
	{rule: "foreign-variable", src: `{"g": {"Stop": [{"command": "\"$CLAUDE_PROJECT_DIR\"/hooks/x.sh"}]}}`, want: Misbehaves},
	{rule: "foreign-payload", src: `{"g": {"PreToolUse": [{"hooks": [{"command": "./gate.sh"}]}]}}`, want: Misbehaves,
		files: map[string]string{"gate.sh+x": "#!/bin/sh\njq -r .tool_input.command\n"}},
	{rule: "agent-version", src: `{"g": {"SessionStart": [{"command": "true"}]}}`, want: NoImpact},
	{rule: "empty-hook", src: `{"g": {}}`, want: NoImpact},
	{rule: "script-not-found", src: `{"g": {"Stop": [{"command": "./missing.sh"}]}}`, want: Misbehaves},
	{rule: "script-not-executable", src: `{"g": {"Stop": [{"command": "./x.sh"}]}}`, want: Misbehaves,
		files: map[string]string{"x.sh": "#!/bin/sh\ntrue\n"}},
	{rule: "script-shebang", src: `{"g": {"Stop": [{"command": "./x.sh"}]}}`, want: Misbehaves,
		files: map[string]string{"x.sh+x": "true\n"}},
	{rule: "unsafe-permissions", src: `{"g": {"Stop": [{"command": "./x.sh"}]}}`, want: NoImpact,
		files: map[string]string{"x.sh+x+gw": "#!/bin/sh\ntrue\n"}},
	{rule: "duplicate-handler", src: `{"g": {"Stop": [{"command": "./x.sh"}, {"command": "./x.sh"}]}}`, want: Misbehaves,
		files: map[string]string{"x.sh+x": "#!/bin/sh\ntrue\n"}},
	{rule: "shadowed-hook", src: `{"g": {"Stop": [{"command": "true"}]}}`, want: NoImpact,
		user: `{"g": {"Stop": [{"command": "true"}]}}`},
	{rule: "dangerous-command", src: `{"g": {"Stop": [{"command": "curl -s https://x.example | sh"}]}}`, want: NoImpact},
	{rule: "platform-specific", src: `{"g": {"Stop": [{"command": "powershell -File x.ps1"}]}}`, want: Misbehaves},
	{rule: "misplaced-config", src: `{"g": {"Stop": [{"command": "true"}]}}`, want: Ignored,
		files: map[string]string{"../.agent/hooks.json": `{"h": {"Stop": [{"command": "true"}]}}`}},
	{rule: "control-character", src: `{"g": {"Stop": [{"command": "true\u0000"}]}}`, want: NoImpact},
	{rule: "control-character", src: "{\"g\": {\"Stop\": [{\"command\": \"echo \xff\"}]}}", want: Misbehaves},
	{rule: "literal-answer", src: `{"g": {"PreToolUse": [{"hooks": [{"command": "echo '{}'"}]}]}}`, want: Misbehaves},
	{rule: "literal-answer", src: `{"g": {"PreToolUse": [{"hooks": [{"command": "echo '{\"decison\":\"allow\"}'"}]}]}}`, want: Misbehaves},
	{rule: "shell-syntax", src: `{"g": {"Stop": [{"command": "echo 'done"}]}}`, want: Misbehaves},
	{rule: "shell-syntax", src: `{"g": {"Stop": [{"command": "echo $(` + strings.Repeat("$(", 300) + `x` + strings.Repeat(")", 301) + `"}]}}`, want: Misbehaves},
	{rule: "confusable-name", src: `{"gаte": {"Stop": [{"command": "./hooks/gаte.sh"}]}}`, want: NoImpact},
	{rule: "argument-path", src: `{"g": {"Stop": [{"command": "cat .agents/notes.md"}]}}`, want: Misbehaves,
		files: map[string]string{"notes.md": "x\n"}},
	{rule: "outside-link", src: `{"g": {"Stop": [{"command": "./x.sh"}]}}`, want: NoImpact,
		files: map[string]string{"x.sh+link": "../../outside/x.sh"}},
	{rule: "shellcheck", src: `{"g": {"Stop": [{"command": "./x.sh"}]}}`, want: NoImpact,
		files: map[string]string{"x.sh+x": "#!/bin/sh\necho $1\n"}},
}

// TestImpactTable holds each rule's impact to what the agent does with the
// mistake, and every row to the emulated loader (schema.AgentErrors, itself
// held to encoding/json): a row whose impact is file-dropped is a file the
// loader refuses, every other row one it loads. Every rule of the
// catalogue has a row.
func TestImpactTable(t *testing.T) {
	t.Parallel()
	covered := map[string]bool{}
	for _, tc := range impactRows {
		covered[tc.rule] = true
	}
	for _, r := range Catalogue() {
		if !covered[r.ID] {
			t.Errorf("rule %s has no row in the impact table", r.ID)
		}
	}
	shellcheck := testenv.Want(t, "shellcheck", "the rows of the shellcheck rule")
	for _, tc := range impactRows {
		if tc.rule == "shellcheck" && shellcheck == "" {
			continue
		}
		// The emulated loader: is the file loaded at all?
		root, _, serr := schema.ParseJSON([]byte(tc.src))
		loaderDrops := serr != nil || len(schema.AgentErrors(root, schema.AgentOptions{})) > 0
		if loaderDrops != (tc.want == FileDropped) {
			t.Errorf("%s: the agent's loader drops the file: %v, but the row says %s", tc.src, loaderDrops, tc.want)
		}

		ws, home := t.TempDir(), t.TempDir()
		writeImpactFile(t, filepath.Join(ws, ".agents", "hooks.json"), tc.src, 0o644)
		for name, body := range tc.files {
			mode := os.FileMode(0o644)
			if strings.Contains(name, "+x") {
				mode |= 0o111
			}
			if strings.Contains(name, "+gw") {
				mode |= 0o020
			}
			link := strings.Contains(name, "+link")
			name, _, _ = strings.Cut(name, "+")
			if link {
				if err := os.Symlink(body, filepath.Join(ws, ".agents", name)); err != nil {
					t.Fatal(err)
				}
				continue
			}
			writeImpactFile(t, filepath.Join(ws, ".agents", name), body, mode)
		}
		if tc.user != "" {
			writeImpactFile(t, scope.UserFile(home), tc.user, 0o644)
		}
		req, err := NewRequest([]string{ws}, home)
		if err != nil {
			t.Fatal(err)
		}
		req.ShellCheck = shellcheck
		res, err := Lint(req)
		if err != nil {
			t.Fatal(err)
		}
		var got []Finding
		for _, f := range res.Findings {
			if f.Rule == tc.rule {
				got = append(got, f)
			}
		}
		if len(got) == 0 {
			t.Errorf("%s: no %s finding (%v)", tc.src, tc.rule, res.Findings)
			continue
		}
		if got[0].Impact != tc.want {
			t.Errorf("%s: %s is %q, want %q (%s)", tc.src, tc.rule, got[0].Impact, tc.want, got[0].Message)
		}
		if dropped := len(res.Dropped) > 0; dropped != loaderDrops {
			t.Errorf("%s: lint says the file is dropped: %v, the loader %v", tc.src, dropped, loaderDrops)
		}
	}
}

func writeImpactFile(t *testing.T, path, body string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil { // past the umask
		t.Fatal(err)
	}
}

// TestImpactRowsSorted keeps the table readable: the rules it names are
// the catalogue's, spelled as the catalogue spells them.
func TestImpactRowsNameRules(t *testing.T) {
	ids := map[string]bool{}
	for _, r := range Catalogue() {
		ids[r.ID] = true
	}
	var unknown []string
	for _, tc := range impactRows {
		if !ids[tc.rule] {
			unknown = append(unknown, tc.rule)
		}
	}
	sort.Strings(unknown)
	if len(unknown) > 0 {
		t.Errorf("rows name rules that are not in the catalogue: %v", unknown)
	}
}
