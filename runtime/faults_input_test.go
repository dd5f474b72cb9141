//go:build unix

package runtime

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/internal/fifo"
)

// Hostile payloads and configs, through the built hookctl.

func TestFaultsPayloads(t *testing.T) {
	t.Parallel()
	t.Run("50 MB payload read whole", func(t *testing.T) {
		t.Parallel()
		c := newFaultCase(t)
		big := hugePayload(50 << 20)
		cmd := savePid + `wc -c > size; echo '{"decision":"allow"}'`
		r := c.run(big, "run", "PreToolUse", "--config", c.config("PreToolUse", cmd, 60))
		if r.decision() != "allow" {
			t.Fatalf("answer %s, want allow", r.stdout)
		}
		b, _ := os.ReadFile(filepath.Join(c.dir, "size"))
		if n, _ := strconv.Atoi(strings.TrimSpace(string(b))); n != len(big) {
			t.Fatalf("the handler read %s bytes, want %d", b, len(big))
		}
	})
	t.Run("50 MB payload, handler reads none", func(t *testing.T) {
		t.Parallel()
		c := newFaultCase(t)
		r := c.run(hugePayload(50<<20), "run", "PreToolUse", "--config", c.config("PreToolUse", savePid+`echo '{"decision":"allow"}'`, 60))
		if r.decision() != "allow" {
			t.Fatalf("answer %s, want allow", r.stdout)
		}
	})
	t.Run("nested 100000 levels", func(t *testing.T) {
		t.Parallel()
		c := newFaultCase(t)
		deep := `{"toolCall":{"name":"run_command","args":{"x":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}}}`
		r := c.run([]byte(deep), "run", "PreToolUse", "--config", c.config("PreToolUse", savePid+`cat > got; echo '{"decision":"allow"}'`, 30))
		// encoding/json refuses nesting deeper than 10,000 levels, which no
		// agent sends: the payload is refused before any handler starts.
		if r.code != 2 || !strings.Contains(r.stderr, "hookctl: the payload is not valid JSON: stdin:1:10044: ") || !strings.Contains(r.stderr, "exceeded max depth") {
			t.Fatalf("exit %d, stderr %q; want exit 2 naming the depth", r.code, r.stderr)
		}
		if len(c.pids()) != 0 {
			t.Fatal("a handler ran")
		}
	})
	t.Run("nested 100000 levels, unclosed", func(t *testing.T) {
		t.Parallel()
		c := newFaultCase(t)
		deep := `{"toolCall":{"name":"x"},"a":` + strings.Repeat(`{"a":`, 100000)
		r := c.run([]byte(deep), "run", "PreToolUse", "--config", c.config("PreToolUse", savePid+`echo '{"decision":"allow"}'`, 30))
		if r.code != 2 || !strings.Contains(r.stderr, "not valid JSON") {
			t.Fatalf("exit %d, stderr %q; want exit 2 naming the invalid JSON", r.code, r.stderr)
		}
	})
	t.Run("not UTF-8", func(t *testing.T) {
		t.Parallel()
		c := newFaultCase(t)
		payload := []byte("{\"toolCall\":{\"name\":\"run_command\",\"args\":{\"CommandLine\":\"echo \xff\xfe\xc3\x28 \xed\xa0\x80\"}},\"stepIdx\":1}")
		r := c.run(payload, "run", "PreToolUse", "--config", c.config("PreToolUse", savePid+`cat > got; echo '{"decision":"allow"}'`, 30))
		if r.decision() != "allow" {
			t.Fatalf("answer %s, want allow", r.stdout)
		}
		if got, _ := os.ReadFile(filepath.Join(c.dir, "got")); !bytes.Equal(got, payload) {
			t.Fatalf("the handler received %q, want the payload's bytes unchanged %q", got, payload)
		}
	})
	t.Run("tool name not UTF-8", func(t *testing.T) {
		t.Parallel()
		c := newFaultCase(t)
		payload := []byte("{\"toolCall\":{\"name\":\"run_\xff\"}}")
		r := c.run(payload, "run", "PreToolUse", "--config", c.config("PreToolUse", savePid+`echo '{"decision":"allow"}'`, 30))
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
	})
	t.Run("not an object", func(t *testing.T) {
		t.Parallel()
		c := newFaultCase(t)
		for _, p := range []string{"", "[]", "null", `"x"`, "{", "\x00\x01", `{"toolCall":{}}`} {
			r := c.run([]byte(p), "run", "PreToolUse", "--config", c.config("PreToolUse", savePid+"true", 30))
			if r.code != 2 {
				t.Fatalf("payload %q: exit %d, want 2", p, r.code)
			}
		}
		if len(c.pids()) != 0 {
			t.Fatal("a handler ran for a payload that cannot be dispatched")
		}
	})
}

func TestFaultsConfigs(t *testing.T) {
	t.Parallel()
	payload := prePayload
	t.Run("truncated", func(t *testing.T) {
		t.Parallel()
		c := newFaultCase(t)
		p := c.config("PreToolUse", savePid+"true", 30)
		b, _ := os.ReadFile(p)
		os.WriteFile(p, b[:len(b)/2], 0o644)
		r := c.run(payload, "run", "PreToolUse", "--config", p)
		wantConfigFailure(t, r, p+":1:")
	})
	t.Run("empty", func(t *testing.T) {
		t.Parallel()
		c := newFaultCase(t)
		p := filepath.Join(c.dir, "hooks.json")
		os.WriteFile(p, nil, 0o644)
		r := c.run(payload, "run", "PreToolUse", "--config", p)
		wantConfigFailure(t, r, p)
	})
	t.Run("mode 000", func(t *testing.T) {
		t.Parallel()
		if os.Geteuid() == 0 {
			t.Skip("root reads a file of mode 000; the folder case below covers a config that cannot be read")
		}
		c := newFaultCase(t)
		p := c.config("PreToolUse", savePid+"true", 30)
		os.Chmod(p, 0)
		r := c.run(payload, "run", "PreToolUse", "--config", p)
		wantConfigFailure(t, r, "permission denied")
	})
	t.Run("a folder in place of the file", func(t *testing.T) {
		t.Parallel()
		c := newFaultCase(t)
		p := filepath.Join(c.dir, "hooks.json")
		os.Mkdir(p, 0o755)
		r := c.run(payload, "run", "PreToolUse", "--config", p)
		wantConfigFailure(t, r, "is a folder")
	})
	t.Run("a FIFO", func(t *testing.T) {
		t.Parallel()
		c := newFaultCase(t)
		p := filepath.Join(c.dir, "hooks.json")
		if err := fifo.Make(p, 0o644); err != nil {
			t.Fatal(err)
		}
		r := c.run(payload, "run", "PreToolUse", "--config", p)
		wantConfigFailure(t, r, "is a named pipe (FIFO), not a regular file")
	})
	t.Run("a link to a device", func(t *testing.T) {
		t.Parallel()
		c := newFaultCase(t)
		p := filepath.Join(c.dir, "hooks.json")
		os.Symlink("/dev/zero", p)
		r := c.run(payload, "run", "PreToolUse", "--config", p)
		wantConfigFailure(t, r, "is a device")
	})
	t.Run("a symlink loop", func(t *testing.T) {
		t.Parallel()
		c := newFaultCase(t)
		p := filepath.Join(c.dir, "hooks.json")
		os.Symlink("other.json", p)
		os.Symlink("hooks.json", filepath.Join(c.dir, "other.json"))
		r := c.run(payload, "run", "PreToolUse", "--config", p)
		wantConfigFailure(t, r, "too many levels of symbolic links")
	})
	t.Run("world-writable", func(t *testing.T) {
		t.Parallel()
		c := newFaultCase(t)
		p := c.config("PreToolUse", savePid+"true", 30)
		os.Chmod(p, 0o666)
		r := c.run(payload, "run", "PreToolUse", "--config", p)
		wantConfigFailure(t, r, "run chmod go-w "+p)
	})
	t.Run("missing --config", func(t *testing.T) {
		t.Parallel()
		c := newFaultCase(t)
		r := c.run(payload, "run", "PreToolUse", "--config", filepath.Join(c.dir, "nope.json"))
		if r.code != 2 || !strings.Contains(r.stderr, "no such file") {
			t.Fatalf("exit %d, %q; want exit 2 naming the missing file", r.code, r.stderr)
		}
	})
	t.Run("broken workspace file never trusted", func(t *testing.T) {
		t.Parallel()
		c := newFaultCase(t)
		ws := filepath.Join(c.dir, "ws")
		os.MkdirAll(filepath.Join(ws, ".agents", "hooks.json"), 0o755)
		r := c.run(payload, "run", "PreToolUse", "--workspace", ws)
		if r.decision() != "ask" || !strings.Contains(r.stderr, "never trusted, and ") {
			t.Fatalf("answer %s, stderr %q; want ask: an untrusted workspace cannot make a tool call fail", r.stdout, r.stderr)
		}
	})
}

// wantConfigFailure checks that a config that cannot be used counted as a
// failed handler: for PreToolUse, the default deny, naming the problem.
func wantConfigFailure(t *testing.T, r runResult, says string) {
	t.Helper()
	if r.code != 0 || r.decision() != "deny" || !strings.Contains(r.reason(), says) || !strings.Contains(r.stderr, says) {
		t.Fatalf("exit %d, answer %s, stderr %q; want a deny that says %q", r.code, r.stdout, r.stderr, says)
	}
}

// TestFaultsHome: without a usable HOME the user's file cannot be found,
// and a gate that might be there cannot be consulted: one failed handler.
func TestFaultsHome(t *testing.T) {
	t.Parallel()
	// withHome returns env with HOME set to home, or left out when unset.
	withHome := func(home string, unset bool) func([]string) []string {
		return func(env []string) []string {
			var out []string
			for _, kv := range env {
				if !strings.HasPrefix(kv, "HOME=") {
					out = append(out, kv)
				}
			}
			if unset {
				return out
			}
			return append(out, "HOME="+home)
		}
	}
	const notRead = "; the user's hooks ~/.gemini/config/hooks.json were not read (set HOME to the absolute path of your home folder)"
	check := func(t *testing.T, home string, unset bool, says string) {
		t.Helper()
		t.Parallel()
		c := newFaultCase(t)
		c.env = withHome(home, unset)
		ran := filepath.Join(c.dir, "ran")
		user := filepath.Join(c.home, ".gemini", "config", "hooks.json")
		os.MkdirAll(filepath.Dir(user), 0o755)
		os.WriteFile(user, []byte(`{"u": {"PreToolUse": [{"hooks": [{"command": "touch `+ran+`; echo '{\"decision\":\"allow\"}'"}]}], "Stop": [{"command": "touch `+ran+`"}]}}`), 0o644)
		ws := filepath.Join(c.dir, "ws")
		os.Mkdir(ws, 0o755)

		r := c.run(prePayload, "run", "PreToolUse", "--workspace", ws)
		line := "hookctl: " + says + notRead + "\n"
		if r.decision() != "deny" || r.reason() != says+notRead || !strings.Contains(r.stderr, line) {
			t.Fatalf("answer %s, stderr %q; want a deny and a line that say %q", r.stdout, r.stderr, says+notRead)
		}
		r = c.run(prePayload, "run", "PreToolUse", "--workspace", ws, "--on-error", "ask")
		if r.decision() != "force_ask" {
			t.Errorf("--on-error ask: answer %s, want force_ask", r.stdout)
		}
		r = c.run(prePayload, "run", "PreToolUse", "--workspace", ws, "--on-error", "ignore")
		if r.decision() != "ask" || !strings.Contains(r.stderr, line) {
			t.Errorf("--on-error ignore: answer %s, stderr %q; want ask, and the line all the same", r.stdout, r.stderr)
		}
		// Other events: said on stderr, nothing added to the answer.
		r = c.run([]byte(`{"executionNum":1}`), "run", "Stop", "--workspace", ws)
		if string(r.stdout) != `{"decision":"allow"}`+"\n" || !strings.Contains(r.stderr, line) {
			t.Errorf("Stop: answer %s, stderr %q", r.stdout, r.stderr)
		}
		if _, err := os.Stat(ran); err == nil {
			t.Error("a hooks.json found through a HOME that is not a usable home folder ran")
		}
	}
	t.Run("HOME unset", func(t *testing.T) { check(t, "", true, "HOME is not set") })
	t.Run("HOME empty", func(t *testing.T) { check(t, "", false, "HOME is empty") })
	// Relative to the current folder it names a user file, which a
	// repository could hold: it is not read.
	t.Run("HOME relative", func(t *testing.T) { check(t, "home", false, `HOME is "home", not an absolute path`) })
}
