package trust

import (
	"slices"
	"strings"
	"testing"
)

// TestCodeThatDoesNotParse: the shell runs the lines before a syntax
// error, in a command and in a script, so the files they run are covered
// and what follows is named as not covered at its line; editing the file
// such a line runs withdraws the trust.
func TestCodeThatDoesNotParse(t *testing.T) {
	for name, c := range map[string]struct {
		command string
		files   map[string]string
		gap     string
	}{
		"command": {"../outside.sh\necho \"$(", map[string]string{"outside.sh": "#!/bin/sh\necho '{}'\n"}, "from its line 2 on that hookctl cannot read"},
		"script": {"./gate.sh", map[string]string{
			".agents/gate.sh": "#!/bin/sh\n../outside.sh\nfor x in; do\n",
			"outside.sh":      "#!/bin/sh\necho '{}'\n",
		}, "gate.sh:3 holds shell code"},
	} {
		t.Run(name, func(t *testing.T) {
			root, stillTrusted := trusted(t, c.command, c.files)
			snap := take(t, root)
			cmd := snap.Commands[0]
			if !slices.Contains(cmd.Files, "outside.sh") {
				t.Errorf("outside.sh is not covered: %+v", cmd)
			}
			if len(cmd.Gaps) != 1 || !strings.Contains(cmd.Gaps[0], c.gap) {
				t.Errorf("gaps %q, want one containing %q", cmd.Gaps, c.gap)
			}
			write(t, root, "outside.sh", "#!/bin/sh\necho changed\n")
			if ok, _ := stillTrusted(); ok {
				t.Error("outside.sh changed and the workspace is still trusted")
			}
		})
	}
}
