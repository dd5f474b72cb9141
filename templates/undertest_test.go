package templates

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakePrograms puts on PATH, first, programs of those names that each
// leave a file of its name in the returned folder when run: whether a
// template ran one is then a file's existence.
func fakePrograms(t *testing.T, names ...string) (pathEnv, ranDir string) {
	t.Helper()
	bin, ranDir := t.TempDir(), t.TempDir()
	for _, n := range names {
		script := "#!/bin/sh\n: > '" + filepath.Join(ranDir, n) + "'\n"
		if err := os.WriteFile(filepath.Join(bin, n), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return "PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"), ranDir
}

// inTurn skips, under -short, the k-th template of a test in every language
// but one, taking the languages in turn.
func inTurn(t *testing.T, k int, lang string) {
	t.Helper()
	if ids := LanguageIDs(); testing.Short() && ids[k%len(ids)] != lang {
		t.Skipf("-short runs it in %s", ids[k%len(ids)])
	}
}

func ran(dir, name string) bool {
	_, err := os.Stat(filepath.Join(dir, name))
	return err == nil
}

// TestSideEffectsLeftOutUnderTest runs each template with a side effect
// (a log it appends to, a notification it shows, a file it rewrites, a
// test suite it runs) in every language with HOOKCTL_TEST=1, which hookctl
// test sets: the side effect is left out, stderr says so, and the answer
// is the one it gives outside a test. Each is run without it too, so
// that the side effect is known to happen there. -short runs each
// template in one language, taking the languages in turn.
func TestSideEffectsLeftOutUnderTest(t *testing.T) {
	for _, lang := range LanguageIDs() {
		t.Run(lang, func(t *testing.T) {
			t.Run("audit-log", func(t *testing.T) {
				inTurn(t, 0, lang)
				tmpl, _ := Lookup("audit-log")
				ws := t.TempDir()
				in := []byte(`{"toolCall":{"name":"run_command","args":{"CommandLine":"make"}},"stepIdx":0}`)
				out, errOut, code := runScriptEnv(t, tmpl, lang, ws, in, "HOOKCTL_TEST=1")
				log := filepath.Join(ws, ".agents", "audit.jsonl")
				if _, err := os.Stat(log); err == nil || code != 0 || strings.TrimSpace(out) != "{}" || !strings.Contains(errOut, "under test, not appended to audit.jsonl: ") {
					t.Errorf("under test: exit %d, stdout %q, stderr %q, log written: %v", code, out, errOut, err == nil)
				}
				runScriptEnv(t, tmpl, lang, ws, in)
				if _, err := os.Stat(log); err != nil {
					t.Errorf("outside a test the log is not written: %v", err)
				}
			})
			t.Run("notify", func(t *testing.T) {
				inTurn(t, 1, lang)
				tmpl, _ := Lookup("notify")
				ws := t.TempDir()
				path, ranDir := fakePrograms(t, "notify-send", "osascript")
				in := []byte(`{"executionNum":1,"terminationReason":"model_stop","fullyIdle":true}`)
				out, errOut, code := runScriptEnv(t, tmpl, lang, ws, in, path, "DISPLAY=:0", "HOOKCTL_TEST=1")
				if ran(ranDir, "notify-send") || ran(ranDir, "osascript") || code != 0 || strings.TrimSpace(out) != `{"decision":"allow"}` ||
					!strings.Contains(errOut, "under test, not shown: The agent has finished") {
					t.Errorf("under test: exit %d, stdout %q, stderr %q, notified: %v", code, out, errOut, ran(ranDir, "notify-send"))
				}
				runScriptEnv(t, tmpl, lang, ws, in, path, "DISPLAY=:0")
				if !ran(ranDir, "notify-send") {
					t.Error("outside a test no notification is sent")
				}
			})
			t.Run("format-file", func(t *testing.T) {
				inTurn(t, 2, lang)
				tmpl, _ := Lookup("format-file")
				ws := t.TempDir()
				path, ranDir := fakePrograms(t, "gofmt")
				if err := os.WriteFile(filepath.Join(ws, "main.go"), []byte("package main\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				in, _ := json.Marshal(map[string]any{"toolCall": map[string]any{"name": "write_to_file", "args": map[string]any{"TargetFile": "main.go"}}, "workspacePaths": []string{ws}})
				out, errOut, code := runScriptEnv(t, tmpl, lang, ws, in, path, "HOOKCTL_TEST=1")
				if ran(ranDir, "gofmt") || code != 0 || strings.TrimSpace(out) != "{}" ||
					!strings.Contains(errOut, "under test, not formatted: "+filepath.Join(ws, "main.go")+" (would run gofmt)") {
					t.Errorf("under test: exit %d, stdout %q, stderr %q, formatted: %v", code, out, errOut, ran(ranDir, "gofmt"))
				}
				runScriptEnv(t, tmpl, lang, ws, in, path)
				if !ran(ranDir, "gofmt") {
					t.Error("outside a test the file is not formatted")
				}
			})
			t.Run("tests-must-pass", func(t *testing.T) {
				inTurn(t, 3, lang)
				tmpl, _ := Lookup("tests-must-pass")
				ws := t.TempDir()
				mark := filepath.Join(ws, "tests-ran")
				if err := os.WriteFile(filepath.Join(ws, "Makefile"), []byte("test:\n\t@: > '"+mark+"'; exit 1\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				in, _ := json.Marshal(map[string]any{"executionNum": 1, "fullyIdle": true, "terminationReason": "model_stop", "workspacePaths": []string{ws}})
				out, errOut, code := runScriptEnv(t, tmpl, lang, ws, in, "HOOKCTL_TEST=1")
				if _, err := os.Stat(mark); err == nil || code != 0 || strings.TrimSpace(out) != `{"decision":"allow"}` ||
					!strings.Contains(errOut, "under test, the project's tests were not run") {
					t.Errorf("under test: exit %d, stdout %q, stderr %q, tests ran: %v", code, out, errOut, err == nil)
				}
				// HOOK_TEST_COMMAND is the user's own choice: it runs under test.
				out, _, _ = runScriptEnv(t, tmpl, lang, ws, in, "HOOKCTL_TEST=1", "HOOK_TEST_COMMAND=echo 'FAIL: TestX'; exit 1")
				if !strings.Contains(out, `"decision":"continue"`) || !strings.Contains(out, "FAIL: TestX") {
					t.Errorf("under test with HOOK_TEST_COMMAND: %s", out)
				}
				runScriptEnv(t, tmpl, lang, ws, in)
				if _, err := os.Stat(mark); err != nil {
					t.Error("outside a test the project's tests are not run")
				}
			})
		})
	}
}
