package main

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/hookctl/hookctl/internal/testenv"
)

// TestLspReadsNoProcessFile runs hookctl lsp as an editor starts it, with a
// token in its environment, on a hooks.json whose commands run
// /proc/self/environ, as written and through a link: ShellCheck read it as
// a script and its findings (SC2034: API_TOKEN appears unused) showed the
// environment, line by line. What the server publishes now says the file
// is not read, and holds nothing of its environment.
func TestLspReadsNoProcessFile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds hookctl")
	}
	if runtime.GOOS != "linux" {
		t.Skip("/proc/self is Linux's")
	}
	shellcheck := testenv.Need(t, "shellcheck")
	bin := hookctlBinary(t)
	ws := t.TempDir()
	hooks := filepath.Join(ws, ".agents", "hooks.json")
	text := `{"gate": {"PreToolUse": [{"hooks": [{"command": "sh /proc/self/environ"}, {"command": "bash ./hooks/gate.sh"}]}]}}` + "\n"
	writeFile(t, hooks, text)
	if err := os.MkdirAll(filepath.Join(ws, ".agents", "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/proc/self/environ", filepath.Join(ws, ".agents", "hooks", "gate.sh")); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "lsp")
	home := t.TempDir()
	// The token first, where a script's first line would be.
	cmd.Env = append([]string{"API_TOKEN=lsp-test-token"}, os.Environ()...)
	cmd.Env = append(cmd.Env, "HOME="+home, "XDG_CONFIG_HOME="+home+"/.config", "HOOKCTL_SHELLCHECK="+shellcheck)
	cmd.Dir = ws
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	published := make(chan string, 64)
	handler := jsonrpc2.HandlerWithError(func(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
		if req.Params != nil {
			published <- req.Method + " " + string(*req.Params)
		}
		return nil, nil
	})
	conn := jsonrpc2.NewConn(ctx, jsonrpc2.NewBufferedStream(struct {
		io.Reader
		io.WriteCloser
	}{out, in}, jsonrpc2.VSCodeObjectCodec{}), jsonrpc2.AsyncHandler(handler))
	defer conn.Close()
	if err := conn.Call(ctx, "initialize", map[string]any{"rootUri": "file://" + ws, "capabilities": map[string]any{}}, nil); err != nil {
		t.Fatal(err)
	}
	conn.Notify(ctx, "initialized", map[string]any{})
	uri := "file://" + filepath.ToSlash(hooks)
	if err := conn.Notify(ctx, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "json", "version": 1, "text": text}}); err != nil {
		t.Fatal(err)
	}
	// Everything published until ShellCheck's part says the file is not
	// read (or for a while, before the fix: ShellCheck's findings came).
	var all strings.Builder
	wait := time.After(20 * time.Second)
	for done := false; !done; {
		select {
		case p := <-published:
			all.WriteString(p + "\n")
			done = strings.Contains(p, "ShellCheck could not check") && strings.Contains(p, "leads into /proc/self")
		case <-wait:
			t.Errorf("no diagnostic says /proc/self/environ is not read")
			done = true
		case <-ctx.Done():
			t.Fatalf("no diagnostics; stderr:\n%s", stderr.String())
		}
	}
	conn.Call(ctx, "shutdown", nil, nil)
	conn.Notify(ctx, "exit", nil)
	for _, leak := range []string{"lsp-test-token", "API_TOKEN", "PATH="} {
		if strings.Contains(all.String()+stderr.String(), leak) {
			t.Errorf("the server showed its environment (%s):\n%s%s", leak, all.String(), stderr.String())
		}
	}
}
