package main

import (
	"maps"
	"slices"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/hookctl/hookctl/schema/shellcmd"
)

// TestTrustReadsHookctlsOwnFlags: trust reads a handler's "hookctl run"
// and "hookctl test" (and "hookctl adapt", once it exists) with the flags
// schema/shellcmd knows, to find the hooks.json files they run; those must
// be the commands' own flags, each taking a value where the command's
// does, or a new flag's value would be read as a file.
func TestTrustReadsHookctlsOwnFlags(t *testing.T) {
	app := newApp(newFactory(streams{}))
	for _, verb := range []string{"run", "test", "adapt"} {
		var cmd *cli.Command
		for _, c := range app.Commands {
			if c.Name == verb {
				cmd = c
			}
		}
		if cmd == nil {
			if verb == "adapt" {
				continue // not there yet
			}
			t.Fatalf("no hookctl %s", verb)
		}
		want := map[string]bool{}
		for _, f := range append(slices.Clone(cmd.Flags), cli.HelpFlag) {
			_, isBool := f.(*cli.BoolFlag)
			for _, n := range f.Names() {
				want[n] = !isBool
			}
		}
		if got := shellcmd.HookctlFlags(verb); !maps.Equal(got, want) {
			t.Errorf("hookctl %s: trust reads the flags %v, the command has %v", verb, got, want)
		}
	}
}
