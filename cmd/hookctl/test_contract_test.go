package main

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/schema"
)

// TestContractPayloadsAreRunTools checks that the payload the contract
// check sends for each sample call is the one hookctl run --tool NAME
// --args ARGS builds, the conversation's random id aside: one code builds
// both.
func TestContractPayloadsAreRunTools(t *testing.T) {
	ws := t.TempDir()
	home, _ := os.UserHomeDir()
	id := regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	for _, tool := range append(schema.ToolNames(), runtime.BrowserSamples...) {
		for _, e := range []schema.Event{schema.PreToolUse, schema.PostToolUse} {
			args := string(runtime.SampleArgs(tool, ws))
			want, err := runtime.NewPayload(e, tool, args, ws, home)
			if err != nil {
				t.Fatal(err)
			}
			var out, errOut strings.Builder
			code := run([]string{"hookctl", "run", string(e), "--tool", tool, "--args", args, "--workspace", ws, "--print-payload"},
				streams{strings.NewReader(""), &out, &errOut})
			got := strings.TrimSpace(out.String())
			if code != 0 || id.ReplaceAllString(got, "ID") != id.ReplaceAllString(string(want), "ID") {
				t.Errorf("%s %s: hookctl run --print-payload (exit %d, %s) prints\n%s\nthe contract check sends\n%s", e, tool, code, errOut.String(), got, want)
			}
		}
	}
}
