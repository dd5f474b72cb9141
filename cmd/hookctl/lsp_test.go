package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/hookctl/hookctl/internal/testenv"
	"github.com/hookctl/hookctl/lint/lsp"
)

// TestLspArguments checks that hookctl lsp refuses arguments: an editor
// starts it with none.
func TestLspArguments(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"hookctl", "lsp", "extra"}, streams{strings.NewReader(""), &out, &errOut})
	if code != exitUsage || !strings.Contains(errOut.String(), "takes no arguments") {
		t.Errorf("exit %d, stderr %q", code, errOut.String())
	}
}

// TestLspEndOfInput checks that hookctl lsp ends cleanly, with nothing on
// stdout, when its input ends before any message.
func TestLspEndOfInput(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"hookctl", "lsp"}, streams{strings.NewReader(""), &out, &errOut}); code != exitOK || out.Len() != 0 {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
}

// neovimCheck runs in Neovim after it opened the broken hooks.json with the
// documented configuration: it waits for hookctl's diagnostics, asks for a
// hover, and writes both to the file named by HOOKCTL_NVIM_OUT as JSON.
const neovimCheck = `
local function codes()
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(0)) do
    local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
    table.insert(out, { code = code, lnum = d.lnum, col = d.col, severity = d.severity, message = d.message })
  end
  return out
end
vim.wait(20000, function()
  local seen = {}
  for _, d in ipairs(codes()) do seen[d.code] = true end
  return seen["unknown-event"] and seen["timeout-value"] and seen["script-not-found"]
end, 50)
local hover = vim.lsp.buf_request_sync(0, "textDocument/hover", {
  textDocument = { uri = vim.uri_from_bufnr(0) },
  position = { line = 5, character = 6 },
}, 10000)
local text = ""
for _, r in pairs(hover or {}) do
  if r.result and r.result.contents then text = r.result.contents.value end
end
local items = {}
local completion = vim.lsp.buf_request_sync(0, "textDocument/completion", {
  textDocument = { uri = vim.uri_from_bufnr(0) },
  position = { line = 3, character = 22 },
}, 10000)
for _, r in pairs(completion or {}) do
  for _, it in ipairs(r.result and r.result.items or {}) do table.insert(items, it.label) end
end
vim.fn.writefile({ vim.fn.json_encode({ version = vim.version(), diagnostics = codes(), hover = text, completion = items }) }, os.getenv("HOOKCTL_NVIM_OUT"))
vim.cmd("qall!")
`

// TestNeovim opens a broken hooks.json in a real, headless Neovim set up
// with editors/neovim/hookctl.lua (the configuration docs/editors.md
// shows), and reads back the diagnostics and a hover that hookctl lsp gave
// it. The test binary serves as hookctl, through a link on PATH.
func TestNeovim(t *testing.T) {
	nvim := testenv.Need(t, "nvim")
	tmp := t.TempDir()
	bin := hookctlOnPath(t)
	ws := filepath.Join(tmp, "ws")
	hooks := filepath.Join(ws, ".agents", "hooks.json")
	if err := os.MkdirAll(filepath.Dir(hooks), 0o755); err != nil {
		t.Fatal(err)
	}
	broken := `{
  "guard": {
    "PreToolUse": [
      {"matcher": "run_command", "hooks": [{"command": "./hooks/guard.sh", "timeout": 5000}]}
    ],
    "Sotp": []
  }
}
`
	if err := os.WriteFile(hooks, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	config, err := filepath.Abs("../../editors/neovim/hookctl.lua")
	if err != nil {
		t.Fatal(err)
	}
	init := filepath.Join(tmp, "init.lua")
	if err := os.WriteFile(init, []byte("dofile("+luaString(config)+")\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	check := filepath.Join(tmp, "check.lua")
	if err := os.WriteFile(check, []byte(neovimCheck), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(tmp, "out.json")

	// A bound on a hung editor, not a measure of speed.
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "-n", "-i", "NONE", "-u", init, hooks, "-c", "luafile "+check)
	home := filepath.Join(tmp, "home")
	cmd.Env = append(os.Environ(),
		"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"HOME="+home, "XDG_CONFIG_HOME="+home+"/.config", "XDG_DATA_HOME="+home+"/.local/share",
		"XDG_STATE_HOME="+home+"/.local/state", "XDG_CACHE_HOME="+home+"/.cache",
		"HOOKCTL_NVIM_OUT="+out)
	cmd.Dir = ws
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nvim: %v\n%s", err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("nvim wrote no result: %v", err)
	}
	var got struct {
		Version     map[string]any
		Diagnostics []struct {
			Code      string
			Lnum, Col int
			Severity  int
			Message   string
		}
		Hover      string
		Completion []string
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	t.Logf("Neovim %v.%v.%v", got.Version["major"], got.Version["minor"], got.Version["patch"])
	type at struct {
		code      string
		lnum, col int
	}
	seen := map[at]bool{}
	for _, d := range got.Diagnostics {
		seen[at{d.Code, d.Lnum, d.Col}] = true
	}
	for _, want := range []at{
		{"unknown-event", 5, 4},     // "Sotp"
		{"script-not-found", 3, 56}, // ./hooks/guard.sh
		{"timeout-value", 3, 86},    // 5000
	} {
		if !seen[want] {
			t.Errorf("Neovim has no %s at line %d, column %d (0-based); it has %+v", want.code, want.lnum, want.col, got.Diagnostics)
		}
	}
	// Completion inside "run_command", after "run_".
	if !slices.Contains(got.Completion, "run_command") || !slices.Contains(got.Completion, "browser_.*") {
		t.Errorf("completion in the matcher: %v", got.Completion)
	}
	if !strings.Contains(got.Hover, "**unknown-event** (error)") || !strings.Contains(got.Hover, `"Stop"`) {
		t.Errorf("hover on the misspelt event: %q", got.Hover)
	}
}

func luaString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// lspSession speaks to hookctl lsp, run in this process as the command
// line runs it, over pipes; it returns a connection and a channel of the
// diagnostics published, and the command's exit status when it ends.
func lspSession(t *testing.T) (*jsonrpc2.Conn, chan map[string]any, chan int) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	status := make(chan int, 1)
	go func() {
		var errOut bytes.Buffer
		status <- run([]string{"hookctl", "lsp"}, streams{inR, outW, &errOut})
		outW.Close()
	}()
	diags := make(chan map[string]any, 16)
	handler := jsonrpc2.HandlerWithError(func(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
		if req.Method == "textDocument/publishDiagnostics" {
			var p map[string]any
			if json.Unmarshal(*req.Params, &p) == nil {
				diags <- p
			}
		}
		return nil, nil
	})
	stream := jsonrpc2.NewBufferedStream(struct {
		io.Reader
		io.WriteCloser
	}{outR, inW}, jsonrpc2.VSCodeObjectCodec{})
	conn := jsonrpc2.NewConn(context.Background(), stream, handler)
	t.Cleanup(func() { conn.Close() })
	return conn, diags, status
}

// TestLspTestFile checks, through the command, that a hooks.test.json is
// checked by hookctl test's own parser, and the exit statuses the protocol
// asks for: 0 after shutdown and exit, 1 for exit alone.
func TestLspTestFile(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	conn, diags, status := lspSession(t)
	if err := conn.Call(ctx, "initialize", map[string]any{"capabilities": map[string]any{}}, nil); err != nil {
		t.Fatal(err)
	}
	uri := "file://" + filepath.ToSlash(filepath.Join(t.TempDir(), ".agents", "hooks.test.json"))
	text := `{"tests": [{"name": "gate", "evnt": "PreToolUse"}]}`
	if err := conn.Notify(ctx, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "json", "version": 1, "text": text}}); err != nil {
		t.Fatal(err)
	}
	select {
	case p := <-diags:
		ds, _ := p["diagnostics"].([]any)
		found := false
		for _, d := range ds {
			d := d.(map[string]any)
			msg, _ := d["message"].(string)
			start := d["range"].(map[string]any)["start"].(map[string]any)
			if strings.Contains(msg, `unknown key "evnt"`) && strings.Contains(msg, `"event"`) && start["character"] == float64(strings.Index(text, `"evnt"`)) {
				found = true
			}
		}
		if !found {
			t.Errorf("no diagnostic for the unknown key at its place: %v", p)
		}
	case <-ctx.Done():
		t.Fatal("no diagnostics")
	}
	if err := conn.Call(ctx, "shutdown", nil, nil); err != nil {
		t.Fatal(err)
	}
	conn.Notify(ctx, "exit", nil)
	if code := <-status; code != exitOK {
		t.Errorf("exit status %d after shutdown and exit, want 0", code)
	}

	conn, _, status = lspSession(t)
	if err := conn.Call(ctx, "initialize", map[string]any{"capabilities": map[string]any{}}, nil); err != nil {
		t.Fatal(err)
	}
	conn.Notify(ctx, "exit", nil)
	if code := <-status; code != 1 {
		t.Errorf("exit status %d after exit without shutdown, want 1", code)
	}
}

// TestLspProtocolErrorExits: a message the server cannot frame (a broken
// header, a Content-Length over the 64 MiB limit) ends the connection, and
// the exit status says it failed, so the editor sees a crash rather than a
// clean exit.
func TestLspProtocolErrorExits(t *testing.T) {
	for name, in := range map[string]string{
		"header without a colon": "Content-Length 12\r\n\r\n{}",
		"over the limit":         "Content-Length: 67108865\r\n\r\n{}",
		"no length":              "Content-Type: x\r\n\r\n{}",
	} {
		var out, errOut bytes.Buffer
		code := run([]string{"hookctl", "lsp"}, streams{strings.NewReader(in), &out, &errOut})
		// The line hookctl prints, not the JSON-RPC library's log line
		// ("protocol error"), which it may write after the server ends.
		if code != 1 || !strings.Contains(errOut.String(), "hookctl: "+lsp.ErrProtocol.Error()+": ") {
			t.Errorf("%s: exit %d, stderr %q; want 1 and the protocol error", name, code, errOut.String())
		}
	}
	// The end of stdin between messages is no failure.
	var out, errOut bytes.Buffer
	if code := run([]string{"hookctl", "lsp"}, streams{strings.NewReader(""), &out, &errOut}); code != 0 {
		t.Errorf("end of stdin: exit %d, stderr %q", code, errOut.String())
	}
}
