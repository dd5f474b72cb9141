//go:build unix

package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An editor's text of a hooks.json reached through a link out of its
// repository is not linted: the one finding is outside-link's, as hookctl
// lint gives, and no other rule looks at the text or its scripts.
func TestLintSourceOfALinkOut(t *testing.T) {
	top, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	repo, outside := filepath.Join(top, "repo"), filepath.Join(top, "outside")
	for _, d := range []string{filepath.Join(repo, ".git"), filepath.Join(repo, ".agents"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	secret := "machine github.com login me password s3cr3t-token"
	if err := os.WriteFile(filepath.Join(outside, "netrc"), []byte(secret), 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(repo, ".agents", "hooks.json")
	if err := os.Symlink("../../outside/netrc", path); err != nil {
		t.Fatal(err)
	}
	findings, _, err := LintSourceRequest(SourceRequest{Target: Target{Path: path, Name: ".agents/hooks.json"}, Src: []byte(secret)})
	if err != nil {
		t.Fatal(err)
	}
	want := ".agents/hooks.json:1:1: error: .agents/hooks.json is a symbolic link to ../../outside/netrc, which leads out of the repository " + repo +
		", to " + filepath.Join(outside, "netrc") + ": hookctl does not read a repository's file through it, as a clone could point it at any file of yours; put a file of the repository's own in its place, or name " +
		filepath.Join(outside, "netrc") + " when you mean it [outside-link]\n"
	if got := formatFindings(findings); got != want {
		t.Errorf("got:\n%swant:\n%s", got, want)
	}
	if got := formatFindings(findings); strings.Contains(got, "s3cr3t") {
		t.Errorf("the text is shown:\n%s", got)
	}
}
