package lint

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestMaxListed: past MaxListed findings of one rule in one file, one
// summary counts the rest, spanning them all, as severe as they are, with
// no fix; other rules are listed in full, and the JSON stays valid.
func TestMaxListed(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	// n+1 handlers of one hook, each on its own line, hold 3n+8 values,
	// under schema.MaxValues.
	const n = MaxListed + 300
	var src strings.Builder
	src.WriteString(`{"g": {"Stop": [` + "\n")
	for range n {
		src.WriteString(`  {"command": "./missing.sh"},` + "\n")
	}
	src.WriteString(`  {"command": "./missing.sh"}` + "\n]}}\n")
	path := filepath.Join(ws, ".agents", "hooks.json")
	fs := LintSource(Target{Path: path, Name: ".agents/hooks.json", Scope: Workspace, Root: ws}, []byte(src.String()))
	var mine []Finding
	for _, f := range fs {
		if f.Rule == "script-not-found" {
			mine = append(mine, f)
		}
	}
	if len(mine) != MaxListed+1 {
		t.Fatalf("%d script-not-found findings, want %d and a summary", len(mine), MaxListed)
	}
	sum := mine[MaxListed]
	want := fmt.Sprintf("%d more findings of script-not-found from here to %d:%d are not listed one by one", n+1-MaxListed, n+2, sum.Span.End.Col)
	if !strings.HasPrefix(sum.Message, want) {
		t.Errorf("summary %q, want it to start %q", sum.Message, want)
	}
	if sum.Span.Start.Line != MaxListed+2 || sum.Span.End.Line != n+2 || sum.Severity != mine[0].Severity || sum.Fix != nil || sum.Impact != mine[0].Impact {
		t.Errorf("summary %+v, want lines %d to %d, as the others", sum, MaxListed+2, n+2)
	}
	checkFindings(t, []byte(src.String()), fs)
	var b bytes.Buffer
	if err := (JSONPrinter{}).Print(&b, &Result{Findings: fs}); err != nil || !json.Valid(b.Bytes()) {
		t.Errorf("JSON: %v", err)
	}
}
