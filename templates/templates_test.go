package templates

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/schema"
)

// payload builds what the agent sends: the documented common fields around
// the case's own.
func payload(t *testing.T, workspace string, c Case, e schema.Event) []byte {
	t.Helper()
	p := map[string]any{
		"conversationId":        "ec33ebf9-0cba-4100-8142-c61503f6c587",
		"workspacePaths":        []string{workspace},
		"transcriptPath":        "/home/u/.gemini/antigravity/brain/ec33ebf9/.system_generated/logs/transcript.jsonl",
		"artifactDirectoryPath": "/home/u/.gemini/antigravity/brain/ec33ebf9",
		"modelName":             "gemini-3.6-flash-medium",
	}
	if e.IsTool() {
		p["stepIdx"] = 19
	}
	for k, v := range c.EventPayload() {
		p[k] = v
	}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// runScript writes the template's script into a workspace's .agents/hooks/
// and runs it from .agents/, where the agent runs handlers, with the payload
// on stdin.
func runScript(t *testing.T, tmpl Template, lang string, workspace string, in []byte) (stdout, stderr string, code int) {
	t.Helper()
	needs := map[string]string{"sh": "sh", "py": "python3"}[lang]
	if _, err := exec.LookPath(needs); err != nil {
		t.Skipf("%s is not installed", needs)
	}
	if lang == "sh" && tmpl.NeedsJQ {
		if _, err := exec.LookPath("jq"); err != nil {
			t.Skip("jq is not installed")
		}
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
	cmd.Env = append(os.Environ(), "HOME="+workspace, "DISPLAY=", "WAYLAND_DISPLAY=")
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

// subset reports whether every key of want is in got with a value that is,
// recursively, a subset of got's.
func subset(want, got any) bool {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return false
		}
		for k, v := range w {
			if !subset(v, g[k]) {
				return false
			}
		}
		return true
	default:
		return reflect.DeepEqual(normalizeJSON(want), normalizeJSON(got))
	}
}

func normalizeJSON(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

func TestEveryTemplateAnswersItsCases(t *testing.T) {
	for _, tmpl := range All() {
		for _, lang := range LanguageIDs() {
			for _, c := range tmpl.Cases {
				t.Run(tmpl.ID+"."+lang+"/"+c.Name, func(t *testing.T) {
					ws := t.TempDir()
					out, errOut, code := runScript(t, tmpl, lang, ws, payload(t, ws, c, tmpl.Event))
					if code != 0 {
						t.Fatalf("exit status %d, stderr:\n%s", code, errOut)
					}
					var got map[string]any
					if strings.TrimSpace(out) == "" {
						got = map[string]any{}
					} else if err := json.Unmarshal([]byte(out), &got); err != nil {
						t.Fatalf("stdout is not one JSON object: %v\n%s", err, out)
					}
					if !subset(c.Expect, got) {
						t.Errorf("answer %s, want it to contain %v", out, c.Expect)
					}
					checkValidAnswer(t, tmpl.Event, out)
				})
			}
		}
	}
}

// checkValidAnswer decodes the answer strictly into the event's output type,
// as a check that it uses only the documented fields.
func checkValidAnswer(t *testing.T, e schema.Event, out string) {
	t.Helper()
	if strings.TrimSpace(out) == "" {
		return
	}
	v := reflect.New(reflect.TypeOf(schema.OutputType(e))).Interface()
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Errorf("the answer is not a valid %s output: %v\n%s", e, err, out)
	}
}

func TestScriptsNameTheHookAndStartWithAShebang(t *testing.T) {
	for _, tmpl := range All() {
		for _, l := range Languages {
			src, err := tmpl.Script(l.ID, "my-gate")
			if err != nil {
				t.Fatalf("%s.%s: %v", tmpl.ID, l.ID, err)
			}
			want := map[string]string{"sh": "#!/bin/sh\n", "py": "#!/usr/bin/env python3\n"}[l.ID]
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
