package shellcmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/internal/testenv"
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
			if testenv.Want(t, sh, "the cases it runs") == "" {
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

// TestSourcedFileMayCd: a hooks.json command's sourced file is not read
// when the command is, and it may cd, so what the command runs by a
// relative path after it is a gap, not the file of the command's folder;
// the shell indeed runs another one.
func TestSourcedFileMayCd(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"lib.sh":   "cd sub\n",
		"x.sh":     "#!/bin/sh\necho MARK:x.sh\n",
		"sub/x.sh": "#!/bin/sh\necho MARK:sub/x.sh\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	const command = ". ./lib.sh && ./x.sh"
	if ran, out := markRan(dir, dir, command); ran != filepath.Join(dir, "sub/x.sh") {
		t.Fatalf("the shell ran %q, want sub/x.sh:\n%s", ran, out)
	}
	refs, gaps := Parse(command, dir, "").Refs()
	for _, r := range refs {
		if strings.HasSuffix(r.Path, "x.sh") {
			t.Errorf("read as running %s", r.Path)
		}
	}
	if len(gaps) != 1 || !strings.Contains(gaps[0].Why, "runs ./x.sh after a cd") {
		t.Errorf("gaps %+v, want ./x.sh named", gaps)
	}
}
