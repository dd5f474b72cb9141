package lsp

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// at splits a text written with a | where the cursor stands.
func at(t *testing.T, marked string) (string, int) {
	t.Helper()
	i := strings.Index(marked, "‸")
	if i < 0 {
		t.Fatal("no ‸ in the text")
	}
	return marked[:i] + marked[i+len("‸"):], i
}

func labels(items []completionItem) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.Label)
	}
	return out
}

// TestComplete checks what is offered where, and what each item writes,
// on texts that are not valid JSON, as while typing.
func TestComplete(t *testing.T) {
	cases := []struct {
		name   string
		kind   fileKind
		marked string
		want   []string // labels, in order, or nil for none
		// pick and result: the text after applying the item so named.
		pick, result string
	}{
		{
			name:   "event names in a hook, inside a key string",
			marked: `{"h": {"Pre‸"`,
			want:   []string{"enabled", "SessionStart", "PreToolUse", "PostToolUse", "PreInvocation", "PostInvocation", "Stop"},
			pick:   "PreToolUse", result: `{"h": {"PreToolUse"`,
		},
		{
			name:   "event names after a comma, without a quote yet",
			marked: "{\"h\": {\"enabled\": true,\n  Pos‸}}",
			want:   []string{"enabled", "SessionStart", "PreToolUse", "PostToolUse", "PreInvocation", "PostInvocation", "Stop"},
			pick:   "PostToolUse", result: "{\"h\": {\"enabled\": true,\n  \"PostToolUse\"}}",
		},
		{
			name:   "enabled's values",
			marked: `{"h": {"enabled": tr‸`,
			want:   []string{"true", "false"},
			pick:   "false", result: `{"h": {"enabled": false`,
		},
		{
			name:   "group fields",
			marked: `{"h": {"PreToolUse": [{"‸"}]}}`,
			want:   []string{"matcher", "hooks"},
			pick:   "hooks", result: `{"h": {"PreToolUse": [{"hooks"}]}}`,
		},
		{
			name:   "handler fields in a tool event",
			marked: `{"h": {"PreToolUse": [{"matcher": "x|(y)", "hooks": [{"command": "a b", "ti‸`,
			want:   []string{"type", "command", "timeout"},
			pick:   "timeout", result: `{"h": {"PreToolUse": [{"matcher": "x|(y)", "hooks": [{"command": "a b", "timeout`,
		},
		{
			name:   "handler fields in Stop, replacing the whole key",
			marked: `{"h": {"Stop": [{"com‸xx": 1}]}}`,
			want:   []string{"type", "command", "timeout"},
			pick:   "command", result: `{"h": {"Stop": [{"command": 1}]}}`,
		},
		{
			name:   "handler fields under a misspelt event",
			marked: `{"h": {"PretoolUse": [{"hooks": [{"‸`,
			want:   []string{"type", "command", "timeout"},
		},
		{
			name:   "type's value",
			marked: `{"h": {"Stop": [{"type": "‸"}]}}`,
			want:   []string{"command"},
			pick:   "command", result: `{"h": {"Stop": [{"type": "command"}]}}`,
		},
		{
			name:   "a tool in the middle of an alternation",
			marked: `{"h": {"PostToolUse": [{"matcher": "view_file|wri‸te|(run_command)"`,
			pick:   "write_to_file", result: `{"h": {"PostToolUse": [{"matcher": "view_file|write_to_file|(run_command)"`,
		},
		{
			name:   "a tool in a group",
			marked: `{"h": {"PreToolUse": [{"matcher": "(‸)"`,
			pick:   "browser_.*", result: `{"h": {"PreToolUse": [{"matcher": "(browser_.*)"`,
		},
		{
			name:   "nothing for hook names",
			marked: `{"‸`,
		},
		{
			name:   "nothing in a matcher of Stop's handler",
			marked: `{"h": {"Stop": [{"matcher": "‸`,
		},
		{
			name:   "nothing inside an escaped quote of a command",
			marked: `{"h": {"Stop": [{"command": "echo \"x‸`,
		},
		{
			name:   "test case keys",
			kind:   testFile,
			marked: `{"tests": [{"name": "x", "‸`,
			want:   testCaseKeys,
		},
		{
			name:   "test case events",
			kind:   testFile,
			marked: `{"tests": [{"event": "S‸"}]}`,
			want:   []string{"SessionStart", "PreToolUse", "PostToolUse", "PreInvocation", "PostInvocation", "Stop"},
			pick:   "Stop", result: `{"tests": [{"event": "Stop"}]}`,
		},
		{
			name:   "test case tools",
			kind:   testFile,
			marked: `{"tests": [{"tool": "run‸"}]}`,
			pick:   "run_command", result: `{"tests": [{"tool": "run_command"}]}`,
		},
	}
	for _, c := range cases {
		for _, enc := range []string{encodingUTF16, encodingUTF8} {
			text, off := at(t, c.marked)
			doc := NewDocument("file:///w/.agents/hooks.json", 1, []byte(text), enc)
			items := complete(doc, c.kind, off)
			got := labels(items)
			if c.want != nil && !slices.Equal(got, c.want) {
				t.Errorf("%s (%s): %v, want %v", c.name, enc, got, c.want)
			}
			if c.want == nil && c.pick == "" && len(got) > 0 {
				t.Errorf("%s (%s): %v, want nothing", c.name, enc, got)
			}
			if c.pick == "" {
				continue
			}
			i := slices.Index(got, c.pick)
			if i < 0 {
				t.Errorf("%s (%s): no %q in %v", c.name, enc, c.pick, got)
				continue
			}
			if res := applyEdits(t, text, []TextEdit{*items[i].TextEdit}, enc); res != c.result {
				t.Errorf("%s (%s): %q gives\n%s\nwant\n%s", c.name, enc, c.pick, res, c.result)
			}
		}
	}
}

// TestCompleteScripts checks the script paths offered in a command: the
// files under the folder that holds hooks.json, written as the command
// names them, quoted when the shell needs it, without hidden folders or
// the hooks.json itself.
func TestCompleteScripts(t *testing.T) {
	root := t.TempDir()
	agents := filepath.Join(root, ".agents")
	for name, mode := range map[string]os.FileMode{
		"hooks.json":           0o644,
		"hooks/gate.sh":        0o755,
		"hooks/format.py":      0o644,
		"hooks/my script.sh":   0o755,
		"hooks/.cache/x":       0o644,
		"node_modules/y/z.js":  0o644,
		"hooks/bad\"quote.sh":  0o755,
		"deep/a/b/c/d/e/f.sh":  0o755,
		"hooks/lib/helpers.sh": 0o644,
	} {
		p := filepath.Join(agents, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, mode); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(agents, "hooks.json")
	check := func(marked string, want []string, pick, result string) {
		t.Helper()
		text, off := at(t, marked)
		doc := NewDocument(pathURI(path), 1, []byte(text), encodingUTF16)
		items := complete(doc, hooksFile, off)
		got := labels(items)
		if !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", marked, got, want)
		}
		if i := slices.Index(got, pick); i >= 0 {
			if res := applyEdits(t, text, []TextEdit{*items[i].TextEdit}, encodingUTF16); res != result {
				t.Errorf("%s: %q gives %s, want %s", marked, pick, res, result)
			}
			if items[i].Detail == "" {
				t.Errorf("%s: %q has no detail", marked, pick)
			}
		} else {
			t.Errorf("%s: no %q", marked, pick)
		}
	}
	check(`{"h": {"Stop": [{"command": "‸"}]}}`,
		[]string{"./hooks/format.py", "./hooks/gate.sh", "./hooks/my script.sh", "./hooks/lib/helpers.sh"},
		"./hooks/my script.sh", `{"h": {"Stop": [{"command": "'./hooks/my script.sh'"}]}}`)
	check(`{"h": {"Stop": [{"command": "python3 ho‸ --flag"}]}}`,
		[]string{"hooks/format.py", "hooks/gate.sh", "hooks/my script.sh", "hooks/lib/helpers.sh"},
		"hooks/format.py", `{"h": {"Stop": [{"command": "python3 hooks/format.py --flag"}]}}`)
}

// TestHover checks the texts shown on hover.
func TestHover(t *testing.T) {
	cases := []struct {
		kind   fileKind
		marked string
		want   []string
		covers string
	}{
		{hooksFile, `{"h": {"St‸op": []}}`, []string{"**Stop**", "**Payload**", "`terminationReason`", "**Answer**", "`decision`"}, `"Stop"`},
		{hooksFile, `{"h": {"SessionStart": [], "en‸abled": true}}`, []string{"Set to false to disable the hook"}, `"enabled"`},
		{hooksFile, `{"h": {"PreToolUse": [{"matcher": "view_file|run_com‸mand"}]}}`, []string{"**run_command**", "`CommandLine`", "`Cwd`"}, "run_command"},
		{hooksFile, `{"h": {"PreToolUse": [{"matcher": "Ba‸sh"}]}}`, []string{"**Bash**", "Claude Code", "`run_command`"}, "Bash"},
		{hooksFile, `{"h": {"PreToolUse": [{"matcher": "browser_cl‸ick"}]}}`, []string{"browser_.*"}, "browser_click"},
		{hooksFile, `{"h": {"Stop": [{"time‸out": 5}]}}`, []string{"Timeout in seconds"}, `"timeout"`},
		{hooksFile, `{"h": {"PostToolUse": [{"hoo‸ks": []}]}}`, []string{"The handlers to run"}, `"hooks"`},
		{testFile, `{"tests": [{"event": "PostInvoc‸ation"}]}`, []string{"**PostInvocation**", "`invocationNum`", "`terminationBehavior`"}, `"PostInvocation"`},
		{testFile, `{"tests": [{"tool": "list_d‸ir"}]}`, []string{"**list_dir**", "`DirectoryPath`"}, `"list_dir"`},
		{hooksFile, `{"h": {"Stop": [{"command": "ec‸ho"}]}}`, nil, ""},
	}
	for _, c := range cases {
		text, off := at(t, c.marked)
		doc := NewDocument("file:///w/.agents/hooks.json", 1, []byte(text), encodingUTF16)
		got, rng := hoverText(doc, c.kind, nil, off)
		if c.want == nil {
			if got != "" {
				t.Errorf("%s: hover %q, want none", c.marked, got)
			}
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: hover lacks %q:\n%s", c.marked, w, got)
			}
		}
		if rng == nil || slice(t, text, *rng, encodingUTF16) != c.covers {
			t.Errorf("%s: hover range %+v, want it to cover %s", c.marked, rng, c.covers)
		}
	}
}

func TestPlainText(t *testing.T) {
	if got := plainText("**Stop** (`x`): under \\<dir\\>"); got != "Stop (x): under <dir>" {
		t.Errorf("%q", got)
	}
}
