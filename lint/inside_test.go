package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestInsideWhatDoesNotRun: the mistakes inside a disabled hook, an
// unknown event and a dropped handler are found in the same run, each at
// its place, and what they mean to the agent is said as it is: inside an
// event the agent skips, nothing but that it is skipped.
func TestInsideWhatDoesNotRun(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "err", "one-run.json"))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Impact{}
	for _, f := range lintInWorkspace(t, newWorkspace(t), src) {
		got[fmt.Sprintf("%d:%d %s", f.Span.Start.Line, f.Span.Start.Col, f.Rule)] = f.Impact
	}
	for at, want := range map[string]Impact{
		"4:89 timeout-value":    FileDropped, // in a hook whose "enabled" is a string: the agent still reads it
		"4:33 matcher-no-tool":  Ignored,
		"7:33 foreign-tool":     Ignored, // "PretoolUse" is read as PreToolUse
		"7:73 unknown-field":    Ignored,
		"8:22 missing-command":  Ignored, // inside "PreInvocaton", checked as PreInvocation
		"11:90 timeout-value":   Ignored, // inside "BeforeTool", checked as PreToolUse
		"14:64 timeout-value":   Ignored, // a string, but under a key the agent skips unread
		"17:44 missing-command": Ignored, // in a handler already dropped for its type
		"17:59 timeout-value":   Ignored, // the agent reads the 0, of a handler it skips for its type
	} {
		if i, ok := got[at]; !ok || i != want {
			t.Errorf("%s: impact %q (found %v), want %q", at, i, ok, want)
		}
	}
}
