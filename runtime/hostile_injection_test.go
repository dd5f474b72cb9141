//go:build unix

package runtime

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/scope"
)

// hostile returns a string that, should any of it reach a shell, a file
// path or an environment variable's name, would create a file named pwned*
// in dir or two folders above the handler's.
func hostile(dir string) string {
	return "$(touch " + dir + "/pwned-subst)`touch " + dir + "/pwned-backtick`; touch " + dir + "/pwned-semicolon | touch " + dir +
		"/pwned-pipe && touch " + dir + "/pwned-and\ntouch " + dir + "/pwned-newline\r\n../../pwned-dotdot ${IFS}%s%n'\"\\ \x00 NUL=\x00 A=B"
}

// hostilePayload is a payload of the event whose every field, key and
// nested value holds the hostile string (NUL as the JSON escape \u0000).
func hostilePayload(e schema.Event, dir string) []byte {
	h := hostile(dir)
	noNUL := strings.ReplaceAll(h, "\x00", "")
	p := map[string]any{
		"conversationId": h,
		// The workspace names a folder; a NUL in it is refused (tested
		// below), so this one holds everything else.
		"workspacePaths":        []any{"/" + noNUL, h},
		"transcriptPath":        h,
		"artifactDirectoryPath": h,
		"modelName":             h,
		h:                       map[string]any{h: []any{h, 1, true, nil}},
	}
	switch e {
	case schema.PreToolUse, schema.PostToolUse:
		p["toolCall"] = map[string]any{"name": "run_command; " + h, "args": map[string]any{
			"CommandLine": h, "Cwd": "../../" + h, "TargetFile": "../../pwned-target", h: h}}
		p["stepIdx"] = 3
		if e == schema.PostToolUse {
			p["error"] = h
		}
	case schema.PreInvocation, schema.PostInvocation:
		p["invocationNum"], p["initialNumSteps"] = 1, 2
	case schema.Stop:
		p["executionNum"], p["terminationReason"], p["error"], p["fullyIdle"] = 1, h, h, true
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(p); err != nil {
		panic(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// TestNoInjection sends every event a payload full of shell syntax, path
// traversals and NUL escapes, through the built hookctl: no file is
// created, the handler receives the payload's bytes unchanged, and the
// only environment variables it gains are the four HOOKCTL_ ones.
func TestNoInjection(t *testing.T) {
	t.Parallel()
	for _, e := range schema.Events {
		t.Run(string(e), func(t *testing.T) {
			t.Parallel()
			c := newFaultCase(t)
			answer := ""
			if e == schema.PreToolUse {
				answer = `echo '{"decision":"allow"}'`
			}
			cfg := c.config(string(e), savePid+`cat > got; env -0 > env.bin; `+answer, 30)
			payload := hostilePayload(e, c.dir)
			if !bytes.Contains(payload, []byte(`\u0000`)) || !bytes.Contains(payload, []byte("$(touch")) {
				t.Fatalf("the payload lacks its hostile parts: %s", payload)
			}
			r := c.run(payload, "run", string(e), "--config", cfg)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			if r.response == nil || (e == schema.PreToolUse && r.decision() != "allow") {
				t.Fatalf("answer %s", r.stdout)
			}
			got, err := os.ReadFile(filepath.Join(c.dir, "got"))
			if err != nil || !bytes.Equal(got, payload) {
				t.Fatalf("the handler received %q, want the payload's bytes unchanged", got)
			}
			noPwned(t, c.dir)
			wantEnvNames(t, filepath.Join(c.dir, "env.bin"))
		})
	}
	// Discovery: the workspace is the payload's workspacePaths[0], which
	// names a folder to look in, never one to create or run from.
	t.Run("workspacePaths", func(t *testing.T) {
		t.Parallel()
		c := newFaultCase(t)
		user := scope.UserFile(c.home)
		os.MkdirAll(filepath.Dir(user), 0o755)
		os.WriteFile(user, []byte(`{"u":{"Stop":[{"command":"cat > `+filepath.Join(c.dir, "got")+`"}]}}`), 0o644)
		payload := hostilePayload(schema.Stop, c.dir)
		r := c.run(payload, "run", "Stop")
		if r.code != 0 || r.stderr != "" {
			t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
		}
		if got, _ := os.ReadFile(filepath.Join(c.dir, "got")); !bytes.Equal(got, payload) {
			t.Fatalf("the user's handler received %q, want the payload unchanged", got)
		}
		noPwned(t, c.dir)
	})
	t.Run("NUL in workspacePaths", func(t *testing.T) {
		t.Parallel()
		c := newFaultCase(t)
		r := c.run([]byte(`{"workspacePaths":["/w\u0000; touch `+c.dir+`/pwned-nul"]}`), "run", "Stop", "--config", c.config("Stop", savePid+"true", 30))
		if r.code != 2 || !strings.Contains(r.stderr, "NUL") {
			t.Fatalf("exit %d, stderr %q; want exit 2 naming the NUL", r.code, r.stderr)
		}
		noPwned(t, c.dir)
	})
}

// noPwned fails when a file named pwned* exists in dir, in the folders
// above it that ../../ reaches, or in the test's own folder.
func noPwned(t *testing.T, dir string) {
	t.Helper()
	wd, _ := os.Getwd()
	for _, d := range []string{dir, filepath.Dir(dir), filepath.Dir(filepath.Dir(dir)), wd} {
		m, _ := filepath.Glob(filepath.Join(d, "pwned*"))
		if len(m) > 0 {
			t.Fatalf("payload text was executed or used as a path: %v", m)
		}
	}
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), "pwned") {
			t.Fatalf("payload text was executed or used as a path: %s", p)
		}
		return nil
	})
}

// wantEnvNames checks the handler's environment (env -0) holds the names
// of the test's environment, the four HOOKCTL_ variables, and the ones the
// shell sets itself: none from the payload.
func wantEnvNames(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	allowed := map[string]bool{"HOME": true, "XDG_CONFIG_HOME": true, "PIDS": true, "PWD": true, "OLDPWD": true, "SHLVL": true, "_": true,
		"HOOKCTL_EVENT": true, "HOOKCTL_HOOK": true, "HOOKCTL_CONFIG": true, "HOOKCTL_WORKSPACE": true}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		allowed[k] = true
	}
	var got []string
	for _, kv := range bytes.Split(bytes.TrimSuffix(b, []byte{0}), []byte{0}) {
		k, _, _ := strings.Cut(string(kv), "=")
		got = append(got, k)
		if !allowed[k] {
			t.Errorf("the handler's environment has %q, which the payload put there", k)
		}
	}
	for _, k := range []string{"HOOKCTL_EVENT", "HOOKCTL_HOOK", "HOOKCTL_CONFIG", "HOOKCTL_WORKSPACE"} {
		if !slices.Contains(got, k) {
			t.Errorf("the handler's environment lacks %s", k)
		}
	}
}
