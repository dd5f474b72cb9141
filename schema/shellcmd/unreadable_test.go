package shellcmd

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestUnreadableCode: code that does not parse still runs up to the line
// the parser stopped at, in dash and bash alike, so those lines' calls are
// read and the rest is a gap of code at its line; a line that does not
// parse runs nothing before its error.
func TestUnreadableCode(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "ran")
	cases := []struct {
		code      string
		runs      []string // the programs read
		gapAt     string   // the text the gap starts with
		shellRuns bool     // whether the shells run the first line
	}{
		{"touch " + marker + "\necho \"$(", []string{"touch"}, `echo "$(`, true},
		{"touch " + marker + "; echo \"$(", nil, "touch", false},
		{"if true; then\n  touch " + marker + "\nfi\nfor x in; do", []string{"true", "touch"}, "for x in", true},
		{"touch " + marker + "\n\n)", []string{"touch"}, ")", true},
	}
	for _, c := range cases {
		p := Parse(c.code, dir, "")
		if p.Err == nil {
			t.Fatalf("%q parses", c.code)
		}
		var got []string
		for _, call := range p.Calls {
			got = append(got, call.Args[0].Text)
		}
		if !slices.Equal(got, c.runs) {
			t.Errorf("%q: calls %q, want %q", c.code, got, c.runs)
		}
		if len(p.Gaps) != 1 || !p.Gaps[0].Code || !strings.HasPrefix(p.Gaps[0].Word.Text, c.gapAt) || c.code[p.Gaps[0].Word.From:p.Gaps[0].Word.To] != p.Gaps[0].Word.Text {
			t.Errorf("%q: gaps %+v, want one of code at %q", c.code, p.Gaps, c.gapAt)
		}
		for _, sh := range []string{"dash", "bash"} {
			if _, err := exec.LookPath(sh); err != nil {
				continue
			}
			exec.Command("rm", "-f", marker).Run()
			exec.Command(sh, "-c", c.code).Run()
			_, err := exec.Command("test", "-e", marker).CombinedOutput()
			if ran := err == nil; ran != c.shellRuns {
				t.Errorf("%s -c %q: ran the first line %v, want %v", sh, c.code, ran, c.shellRuns)
			}
		}
	}
}
