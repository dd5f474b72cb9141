package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/schema"
)

// TestPastTheBoundOnValues: a hooks.json of more values than hookctl reads
// is valid JSON the agent loads, so no command says it is invalid or that
// the agent drops it: lint reports the bound with no impact on the agent
// and no dropped file, list, doctor and test --contract name the bound,
// trust refuses, and run fails its one handler (a deny for PreToolUse).
func TestPastTheBoundOnValues(t *testing.T) {
	root, home := t.TempDir(), t.TempDir()
	var src strings.Builder
	src.WriteString(handlersPastTheBound() + "]}]}}\n")
	for _, p := range []string{filepath.Join(root, ".agents", "hooks.json"), filepath.Join(home, ".gemini", "config", "hooks.json")} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, "state"))
	t.Chdir(root)
	const bound = "hookctl reads no further, so it neither checks nor runs these hooks"
	hookctl := func(stdin string, args ...string) (int, string, string) {
		var out, errb strings.Builder
		code := run(append([]string{"hookctl"}, args...), streams{strings.NewReader(stdin), &out, &errb})
		return code, out.String(), errb.String()
	}
	notDropped := func(what, text string) {
		t.Helper()
		if !strings.Contains(text, bound) {
			t.Errorf("%s does not name the bound:\n%s", what, text)
		}
		for _, wrong := range []string{"not valid JSON", "loads none"} {
			if strings.Contains(text, wrong) {
				t.Errorf("%s says %q of a valid file:\n%s", what, wrong, text)
			}
		}
	}

	code, out, _ := hookctl("", "lint", "--format", "json", ".agents/hooks.json")
	var findings []struct{ Rule, Message, Impact string }
	if err := json.Unmarshal([]byte(out), &findings); err != nil || code != exitFindings {
		t.Fatalf("lint: exit %d, %v\n%s", code, err, out)
	}
	if len(findings) != 1 || findings[0].Rule != "json-syntax" || findings[0].Impact != "none" {
		t.Errorf("lint: %+v, want one json-syntax finding of impact none", findings)
	}
	_, out, _ = hookctl("", "lint", ".agents/hooks.json")
	notDropped("lint", out)

	_, out, _ = hookctl("", "list")
	notDropped("list", out)
	_, out, _ = hookctl("", "doctor")
	notDropped("doctor", out)
	_, out, errOut := hookctl("", "test", "--contract")
	notDropped("test --contract", out+errOut)
	code, _, errOut = hookctl("", "trust", "--yes")
	notDropped("trust", errOut)
	if code == 0 {
		t.Error("trust took a file it cannot read")
	}

	payload := `{"toolCall": {"name": "run_command", "args": {"CommandLine": "ls"}}, "workspacePaths": ["` + root + `"]}`
	code, out, errOut = hookctl(payload, "run", "PreToolUse")
	notDropped("run", errOut)
	if code != 0 || !strings.Contains(out, `"decision":"deny"`) {
		t.Errorf("run: exit %d, %s, want the user file's one failed handler to deny", code, out)
	}
}

// handlersPastTheBound is a hooks.json of one hook whose handlers hold
// more values and keys than schema.MaxValues, up to the "]}]}}" that
// would close it.
func handlersPastTheBound() string {
	var src strings.Builder
	src.WriteString(`{"h": {"PreToolUse": [{"hooks": [`)
	for i := range schema.MaxValues / 3 {
		if i > 0 {
			src.WriteString(",")
		}
		src.WriteString(`{"command": "./h.sh"}`)
	}
	return src.String()
}
