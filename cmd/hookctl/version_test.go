package main

import (
	"bytes"
	"cmp"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/internal/testenv"
)

// TestVersionOfABuild builds hookctl as the README says, from a clone,
// and checks that --version names the commit (whether the tree had
// changes is TestVersionLine's). In a git worktree the go
// command records no commit, so the test can run only in a clone (as CI's
// is).
func TestVersionOfABuild(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds hookctl")
	}
	testenv.Need(t, "git")
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("not in a git checkout: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "hookctl")
	build := exec.Command("go", "build", "-buildvcs=true", "-o", bin, ".")
	build.Env = append(os.Environ(), "GOFLAGS=")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if string(out) == "hookctl devel (commit unknown) "+goVersion(t, bin)+"\n" {
		t.Skip("the go command recorded no commit: this checkout is a git worktree, not a clone")
	}
	re := regexp.MustCompile(`^hookctl devel \(commit ([0-9a-f]{12}), \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ(, modified)?\) go1\.\d+\S*\n$`)
	m := re.FindStringSubmatch(string(out))
	if m == nil {
		t.Fatalf("hookctl --version printed %q", out)
	}
	if !strings.HasPrefix(string(head), m[1]) {
		t.Errorf("hookctl --version names commit %s; HEAD is %s", m[1], head)
	}
}

func goVersion(t *testing.T, bin string) string {
	bi, err := exec.Command("go", "version", bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(bi))
	return f[len(f)-1]
}

// TestVersionFlagWithoutCommands: hookctl --version, in each spelling the
// CLI library accepts, prints the line the CLI library prints, with or
// without a release's stamps, though it no longer builds the commands to
// print it.
func TestVersionFlagWithoutCommands(t *testing.T) {
	defer func(v, c, d string) { version, commit, date = v, c, d }(version, commit, date)
	for _, stamps := range [][3]string{{}, {"v1.2.3", "0123456789abcdef0123456789abcdef01234567", "2026-12-02T10:00:00Z"}} {
		version, commit, date = stamps[0], stamps[1], stamps[2]
		for _, flag := range []string{"--version", "-version", "-v", "--v"} {
			var fast, lib bytes.Buffer
			if code := run([]string{"hookctl", flag}, streams{strings.NewReader(""), &fast, io.Discard}); code != exitOK {
				t.Errorf("hookctl %s: exit status %d", flag, code)
			}
			if err := newApp(newFactory(streams{strings.NewReader(""), &lib, io.Discard})).Run([]string{"hookctl", flag}); err != nil {
				t.Fatalf("the CLI library's hookctl %s: %v", flag, err)
			}
			if fast.String() != lib.String() || !strings.HasPrefix(fast.String(), "hookctl "+cmp.Or(version, "devel")) {
				t.Errorf("hookctl %s printed %q, the CLI library %q", flag, fast.String(), lib.String())
			}
		}
	}
}
