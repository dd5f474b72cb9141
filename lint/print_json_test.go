package lint

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/hookctl/hookctl/schema"
)

// TestJSONPrinterStreams: the findings encoded one at a time make the same
// bytes as the whole array encoded at once, for none, one and many
// findings, with fixes and text that an HTML-escaping encoder would change.
func TestJSONPrinterStreams(t *testing.T) {
	pos := func(l, c int) schema.Pos { return schema.Pos{Offset: l*100 + c, Line: l, Col: c} }
	var many []Finding
	for i := range 40 {
		f := Finding{File: ".agents/hooks.json", Rule: "timeout-value", Severity: Severity(i % 3),
			Message: fmt.Sprintf("<b>&%d</b> \"q\" \u2028 é\t\x01", i), Span: schema.Span{Start: pos(i+1, 2), End: pos(i+1, 9)}}
		if i%2 == 0 {
			f.Suggestion = "use <10>"
			f.Fix = &Fix{Description: "set & go", Edits: []Edit{{Span: f.Span, Text: "\"10\" <x>"}}}
		}
		many = append(many, f)
	}
	for _, findings := range [][]Finding{nil, many[:1], many} {
		var got bytes.Buffer
		if err := (JSONPrinter{}).Print(&got, &Result{Findings: findings}); err != nil {
			t.Fatal(err)
		}
		want := wholeJSON(t, findings)
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%d findings:\n%s\nwant\n%s", len(findings), got.Bytes(), want)
		}
	}
}

// wholeJSON encodes the findings as one value, as the printer once did.
func wholeJSON(t *testing.T, findings []Finding) []byte {
	out := make([]jsonFinding, 0, len(findings))
	for _, f := range findings {
		out = append(out, toJSON(f))
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
