package lsp

import (
	"strconv"

	"github.com/hookctl/hookctl/schema"
)

// A document's diagnostics are the one large message the server sends
// after every change: on a 1,000-hook file, hundreds of diagnostics. They
// are encoded here by hand, into the whole JSON-RPC notification, rather
// than by encoding/json through jsonrpc2, which reflects over every field
// and then checks and compacts the same bytes once per layer (the
// parameters, the request, the message, the stream): four passes over
// the largest message, on the path from a keystroke to its diagnostics.
// The output is what encoding/json writes for the same values (a test
// holds it to that), without its escaping of <, > and &, which JSON does
// not need.

// appendPublish appends the textDocument/publishDiagnostics notification
// of p.
func appendPublish(b []byte, p publishDiagnosticsParams) []byte {
	b = append(b, `{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":`...)
	b = schema.AppendJSONString(b, p.URI)
	if p.Version != nil {
		b = append(b, `,"version":`...)
		b = strconv.AppendInt(b, int64(*p.Version), 10)
	}
	b = append(b, `,"diagnostics":[`...)
	for i, d := range p.Diagnostics {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendDiagnostic(b, d)
	}
	return append(b, "]}}"...)
}

func appendDiagnostic(b []byte, d Diagnostic) []byte {
	b = append(b, `{"range":`...)
	b = appendRange(b, d.Range)
	if d.Severity != 0 {
		b = append(b, `,"severity":`...)
		b = strconv.AppendInt(b, int64(d.Severity), 10)
	}
	if d.Code != "" {
		b = append(b, `,"code":`...)
		b = schema.AppendJSONString(b, d.Code)
	}
	if d.CodeDescription != nil {
		b = append(b, `,"codeDescription":{"href":`...)
		b = schema.AppendJSONString(b, d.CodeDescription.Href)
		b = append(b, '}')
	}
	if d.Source != "" {
		b = append(b, `,"source":`...)
		b = schema.AppendJSONString(b, d.Source)
	}
	b = append(b, `,"message":`...)
	b = schema.AppendJSONString(b, d.Message)
	if len(d.Data) > 0 {
		// Data is encoded by the server itself (diagnosticData), compact.
		b = append(b, `,"data":`...)
		b = append(b, d.Data...)
	}
	return append(b, '}')
}

func appendRange(b []byte, r Range) []byte {
	b = append(b, `{"start":`...)
	b = appendPosition(b, r.Start)
	b = append(b, `,"end":`...)
	b = appendPosition(b, r.End)
	return append(b, '}')
}

func appendPosition(b []byte, p Position) []byte {
	b = append(b, `{"line":`...)
	b = strconv.AppendUint(b, uint64(p.Line), 10)
	b = append(b, `,"character":`...)
	b = strconv.AppendUint(b, uint64(p.Character), 10)
	return append(b, '}')
}
