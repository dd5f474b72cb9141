package templates

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/hookctl/hookctl/internal/testenv"
	"github.com/hookctl/hookctl/schema"
)

// runScript writes the template's script into a workspace's .agents/hooks/
// and runs it from .agents/, where the agent runs handlers, with the payload
// on stdin.
func runScript(t *testing.T, tmpl Template, lang string, workspace string, in []byte) (stdout, stderr string, code int) {
	t.Helper()
	return runScriptEnv(t, tmpl, lang, workspace, in)
}

// runScriptEnv runs the template's script as runScript does, with env
// added to its environment (the last of two values wins). HOOKCTL_TEST is
// unset unless env sets it.
func runScriptEnv(t *testing.T, tmpl Template, lang string, workspace string, in []byte, env ...string) (stdout, stderr string, code int) {
	t.Helper()
	needs := map[string]string{"sh": "sh", "py": "python3", "node": "node"}[lang]
	testenv.Need(t, needs)
	if lang == "sh" && tmpl.NeedsJQ {
		testenv.Need(t, "jq")
	}
	src, err := tmpl.Script(lang, "test-hook")
	if err != nil {
		t.Fatal(err)
	}
	l, _ := LookupLanguage(lang)
	dir := filepath.Join(workspace, ".agents")
	script := filepath.Join(dir, "hooks", tmpl.ID+l.Ext)
	if err := os.MkdirAll(filepath.Dir(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(script, src, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("/bin/sh", "-c", "./hooks/"+tmpl.ID+l.Ext)
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(in)
	cmd.Env = append(append(os.Environ(), "HOME="+workspace, "DISPLAY=", "WAYLAND_DISPLAY=", "HOOKCTL_TEST="), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

func TestScriptsNameTheHookAndStartWithAShebang(t *testing.T) {
	for _, tmpl := range All() {
		for _, l := range Languages {
			src, err := tmpl.Script(l.ID, "my-gate")
			if err != nil {
				t.Fatalf("%s.%s: %v", tmpl.ID, l.ID, err)
			}
			want := map[string]string{"sh": "#!/bin/sh\n", "py": "#!/usr/bin/env python3\n", "node": "#!/usr/bin/env node\n"}[l.ID]
			if !bytes.HasPrefix(src, []byte(want)) {
				t.Errorf("%s%s starts with %q, want %q", tmpl.ID, l.Ext, bytes.SplitN(src, []byte("\n"), 2)[0], want)
			}
			if bytes.Contains(src, []byte("{{")) {
				t.Errorf("%s%s keeps a placeholder", tmpl.ID, l.Ext)
			}
			if !bytes.Contains(src, []byte("my-gate")) {
				t.Errorf("%s%s never names its hook", tmpl.ID, l.Ext)
			}
		}
		if tmpl.Event.IsTool() {
			if _, err := schema.CompileMatcher(tmpl.Matcher); err != nil {
				t.Errorf("%s: default matcher %q: %v", tmpl.ID, tmpl.Matcher, err)
			}
		}
	}
}

func TestEveryEventHasATemplate(t *testing.T) {
	for _, e := range schema.Events {
		if len(ForEvent(e)) == 0 {
			t.Errorf("no template for %s", e)
		}
	}
}

// TestDocsDescribeEveryTemplate keeps docs/templates.md in step with the
// templates: a section per template naming its event and its timeout.
func TestDocsDescribeEveryTemplate(t *testing.T) {
	doc, err := os.ReadFile("../docs/templates.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, tmpl := range All() {
		head := fmt.Sprintf("### `%s` (%s, ", tmpl.ID, tmpl.Event)
		i := bytes.Index(doc, []byte(head))
		if i < 0 {
			t.Errorf("docs/templates.md has no section %q", head)
			continue
		}
		line := doc[i : i+bytes.IndexByte(doc[i:], '\n')]
		if !bytes.HasSuffix(line, []byte(fmt.Sprintf(" %d s)", tmpl.Timeout))) {
			t.Errorf("%s: the section says %q, but the timeout is %d s", tmpl.ID, line, tmpl.Timeout)
		}
	}
}
