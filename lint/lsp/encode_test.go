package lsp

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/sourcegraph/jsonrpc2"
)

// reference encodes the notification's parameters with encoding/json,
// without escaping <, > and &, inside the JSON-RPC envelope.
func reference(t testing.TB, p publishDiagnosticsParams) []byte {
	t.Helper()
	var params bytes.Buffer
	enc := json.NewEncoder(&params)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(p); err != nil {
		t.Fatal(err)
	}
	return []byte(`{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":` + strings.TrimSuffix(params.String(), "\n") + "}")
}

// TestAppendPublish: the hand-written notification is byte for byte what
// encoding/json writes through jsonrpc2, for every field and every kind of
// character a message can hold.
func TestAppendPublish(t *testing.T) {
	v := int32(7)
	for _, p := range []publishDiagnosticsParams{
		{URI: "file:///w/.agents/hooks.json", Diagnostics: []Diagnostic{}},
		{URI: "file:///w/.agents/hooks.json", Version: &v, Diagnostics: []Diagnostic{
			{Range: Range{Start: Position{1, 2}, End: Position{3, 4000000000}}, Severity: 1, Code: "script-not-found",
				CodeDescription: &codeDescription{Href: "https://example.com/rules.md#script-not-found"}, Source: "hookctl",
				Message: `"./x.sh" <does not> exist & \ is a backslash`, Data: json.RawMessage(`{"impact":"runs-wrongly"}`)},
			{Message: "tab\tnewline\ncr\rnul\x00esc\x1bdel\x7f bell\a ff\f bs\b"},
			{Message: "é — 日本 😀 \u2028\u2029 \ufeff"},
			{Message: "bad \xff\xfe utf-8 \xe2\x82 end"},
			{Severity: 3, Source: "hookctl test", Message: ""},
		}},
	} {
		got := appendPublish(nil, p)
		want := reference(t, p)
		if !bytes.Equal(got, want) {
			t.Errorf("got\n%s\nwant\n%s", got, want)
		}
		// jsonrpc2 reads it as the notification it is.
		var req jsonrpc2.Request
		if err := json.Unmarshal(got, &req); err != nil || req.Method != "textDocument/publishDiagnostics" || !req.Notif {
			t.Errorf("jsonrpc2 reads %s as %+v, %v", got, req, err)
		}
	}
}

// BenchmarkPublish1000 times encoding the diagnostics of the generated
// 1,000-hook file, by hand and through encoding/json as jsonrpc2 does.
func BenchmarkPublish(b *testing.B) {
	p := publishDiagnosticsParams{URI: "file:///w/.agents/hooks.json"}
	for i := range 2000 {
		p.Diagnostics = append(p.Diagnostics, Diagnostic{Range: Range{Start: Position{uint32(i), 10}, End: Position{uint32(i), 40}}, Severity: 1,
			Code: "script-not-found", CodeDescription: &codeDescription{Href: "https://github.com/hookctl/hookctl/blob/main/docs/rules.md#script-not-found"},
			Source: "hookctl", Message: "./hooks/gate-17.sh does not exist in .agents/, where handlers run: did you mean ./hooks/gate-71.sh?",
			Data: json.RawMessage(`{"impact":"runs-wrongly"}`)})
	}
	b.Run("hand", func(b *testing.B) {
		var buf []byte
		for b.Loop() {
			buf = appendPublish(buf[:0], p)
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		for b.Loop() {
			params, _ := json.Marshal(p)
			raw := json.RawMessage(params)
			req := &jsonrpc2.Request{Method: "textDocument/publishDiagnostics", Notif: true, Params: &raw}
			msg, _ := json.Marshal(req)
			_, _ = json.Marshal(json.RawMessage(msg))
		}
	})
}
