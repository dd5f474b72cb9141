package schema

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

const linkSecret = "machine github.com login me password s3cr3t-token"

// linkTree makes the files and links of a test under a fresh folder, with
// HOME in it: a name ending in / is a folder, "-> TARGET" a link, any
// other a file holding the secret; D/ in a link's target is the folder.
// It returns the folder.
func linkTree(t *testing.T, entries ...string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links")
	}
	// Real, as the messages name where links lead (macOS's /var is one).
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", filepath.Join(dir, "home"))
	for _, e := range entries {
		name, target, isLink := strings.Cut(e, " -> ")
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		switch {
		case isLink:
			err = os.Symlink(strings.ReplaceAll(target, "D/", dir+"/"), p)
		case strings.HasSuffix(name, "/"):
			err = os.MkdirAll(p, 0o755)
		default:
			err = os.WriteFile(p, []byte(linkSecret), 0o600)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestLinkOutOfRepositoryIsNotRead checks that a file of a repository or
// a workspace reached through a link out of it is refused before it is
// opened, with the link, what it holds, the boundary and where it leads
// named, and that every reader says so in the same words.
func TestLinkOutOfRepositoryIsNotRead(t *testing.T) {
	for _, tc := range []struct {
		name    string
		entries []string
		path    string
		want    string
	}{{
		name:    "hooks.json linked out of a repository",
		entries: []string{"outside/netrc", "repo/.git/", "repo/.agents/hooks.json -> ../../outside/netrc"},
		path:    "repo/.agents/hooks.json",
		want:    "is a symbolic link to ../../outside/netrc, which leads out of the repository D/repo, to D/outside/netrc: hookctl does not read a repository's file through it, as a clone could point it at any file of yours; put a file of the repository's own in its place, or name D/outside/netrc when you mean it",
	}, {
		name:    "a folder on the way linked out",
		entries: []string{"outside/hooks.json", "repo/.git/", "repo/.agents -> ../outside"},
		path:    "repo/.agents/hooks.json",
		want:    "goes through D/repo/.agents, a symbolic link to ../outside, which leads out of the repository D/repo, to D/outside/hooks.json: hookctl does not read a repository's file through it, as a clone could point it at any file of yours; put a file of the repository's own in its place, or name D/outside/hooks.json when you mean it",
	}, {
		name:    "an absolute link",
		entries: []string{"outside/netrc", "repo/.git/", "repo/.agents/hooks.test.json -> D/outside/netrc"},
		path:    "repo/.agents/hooks.test.json",
		want:    "is a symbolic link to D/outside/netrc, which leads out of the repository D/repo, to D/outside/netrc: hookctl does not read a repository's file through it, as a clone could point it at any file of yours; put a file of the repository's own in its place, or name D/outside/netrc when you mean it",
	}, {
		name:    ".. taken from where a link led",
		entries: []string{"outside/deep/", "outside/netrc", "repo/.git/", "repo/.agents/hooks/", "repo/.agents/hooks/deep -> ../../../outside/deep"},
		path:    "repo/.agents/hooks/deep/../netrc",
		want:    "goes through D/repo/.agents/hooks/deep, a symbolic link to ../../../outside/deep, which leads out of the repository D/repo, to D/outside/netrc: hookctl does not read a repository's file through it, as a clone could point it at any file of yours; put a file of the repository's own in its place, or name D/outside/netrc when you mean it",
	}, {
		name:    "out of a workspace outside git",
		entries: []string{"outside/netrc", "ws/.agents/hook.sh -> ../../outside/netrc"},
		path:    "ws/.agents/hook.sh",
		want:    "is a symbolic link to ../../outside/netrc, which leads out of the workspace D/ws, to D/outside/netrc: hookctl does not read a workspace's file through it, as a clone could point it at any file of yours; put a file of the workspace's own in its place, or name D/outside/netrc when you mean it",
	}, {
		name:    "out of a package into the home folder",
		entries: []string{"home/.netrc", "repo/.git", "repo/pkg/a/.agents/hooks.json -> ../../../../home/.netrc"},
		path:    "repo/pkg/a/.agents/hooks.json",
		want:    "is a symbolic link to ../../../../home/.netrc, which leads out of the repository D/repo, to D/home/.netrc: hookctl does not read a repository's file through it, as a clone could point it at any file of yours; put a file of the repository's own in its place, or name D/home/.netrc when you mean it",
	}, {
		name:    "a folder linked to a repository beside it",
		entries: []string{"mine/.git/", "mine/netrc", "repo/.git/", "repo/sub -> ../mine"},
		path:    "repo/sub/netrc",
		want:    "goes through D/repo/sub, a symbolic link to ../mine, which leads out of the repository D/repo, to D/mine/netrc: hookctl does not read a repository's file through it, as a clone could point it at any file of yours; put a file of the repository's own in its place, or name D/mine/netrc when you mean it",
	}, {
		name:    "a folder linked to a home folder under git",
		entries: []string{"home/.git/", "home/.netrc", "repo/.git/", "repo/sub -> D/home"},
		path:    "repo/sub/.netrc",
		want:    "goes through D/repo/sub, a symbolic link to D/home, which leads out of the repository D/repo, to D/home/.netrc: hookctl does not read a repository's file through it, as a clone could point it at any file of yours; put a file of the repository's own in its place, or name D/home/.netrc when you mean it",
	}, {
		name:    "a folder linked to a repository inside a linked folder",
		entries: []string{"mine/.git/", "mine/lib/.git", "mine/lib/netrc", "repo/.git/", "repo/sub -> ../mine"},
		path:    "repo/sub/lib/netrc",
		want:    "goes through D/repo/sub, a symbolic link to ../mine, which leads out of the repository D/repo, to D/mine/lib/netrc: hookctl does not read a repository's file through it, as a clone could point it at any file of yours; put a file of the repository's own in its place, or name D/mine/lib/netrc when you mean it",
	}, {
		name:    "a workspace in a home folder under git, HOME named through a link",
		entries: []string{"realhome/.git/", "realhome/.netrc", "realhome/dl/ws/.agents/hooks.json -> ../../../.netrc", "home -> D/realhome"},
		path:    "realhome/dl/ws/.agents/hooks.json",
		want:    "is a symbolic link to ../../../.netrc, which leads out of the workspace D/realhome/dl/ws, to D/realhome/.netrc: hookctl does not read a workspace's file through it, as a clone could point it at any file of yours; put a file of the workspace's own in its place, or name D/realhome/.netrc when you mean it",
	}, {
		name:    ".. after a link, the text cleaned in the home folder",
		entries: []string{"secret/netrc", "repo/.git/", "repo/.agents/d1/d2/d3/", "repo/.agents/L -> d1/d2/d3", "repo/.agents/home/x -> D/secret/netrc"},
		path:    "repo/.agents/L/../../../home/x",
		want:    "goes through D/repo/.agents/home/x, a symbolic link to D/secret/netrc, which leads out of the repository D/repo, to D/secret/netrc: hookctl does not read a repository's file through it, as a clone could point it at any file of yours; put a file of the repository's own in its place, or name D/secret/netrc when you mean it",
	}, {
		name:    ".. after a link, named from the home folder",
		entries: []string{"home/", "secret/netrc", "repo/.git/", "repo/.agents/d1/d2/d3/", "repo/.agents/L -> d1/d2/d3", "repo/.agents/home/x -> D/secret/netrc"},
		path:    "home/../repo/.agents/L/../../../home/x",
		want:    "goes through D/repo/.agents/home/x, a symbolic link to D/secret/netrc, which leads out of the repository D/repo, to D/secret/netrc: hookctl does not read a repository's file through it, as a clone could point it at any file of yours; put a file of the repository's own in its place, or name D/secret/netrc when you mean it",
	}, {
		name:    "a folder linked to a workspace beside it",
		entries: []string{"mine/.agents/", "mine/netrc", "ws/.agents/", "ws/sub -> ../mine"},
		path:    "ws/sub/netrc",
		want:    "goes through D/ws/sub, a symbolic link to ../mine, which leads out of the workspace D/ws, to D/mine/netrc: hookctl does not read a workspace's file through it, as a clone could point it at any file of yours; put a file of the workspace's own in its place, or name D/mine/netrc when you mean it",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := linkTree(t, tc.entries...)
			p := dir + "/" + tc.path // as named, its ".." kept
			want := strings.ReplaceAll(tc.want, "D/", dir+"/")
			b, err := ReadFile(p, MaxFileSize)
			var ol *OutsideLinkError
			if !errors.As(err, &ol) {
				t.Fatalf("ReadFile: %q, %v; want an OutsideLinkError", b, err)
			}
			if got := ReadReason(err); got != want {
				t.Errorf("ReadReason:\n got %s\nwant %s", got, want)
			}
			if got := err.Error(); got != p+" "+want {
				t.Errorf("Error: %s", got)
			}
			if _, _, err := OpenRegular(p); !errors.As(err, &ol) {
				t.Errorf("OpenRegular: %v", err)
			}
			if _, err := Load(p); !errors.As(err, &ol) || strings.Contains(err.Error(), "s3cr3t") {
				t.Errorf("Load: %v", err)
			}
			if LeadsOut(p) == nil {
				t.Errorf("LeadsOut(%s) = nil", p)
			}
			// Windows's reading, where ".." is taken from the text (as
			// Windows takes it) and the link is not named.
			if !strings.Contains(tc.path, "..") {
				if r := leadsOutResolved(p); r == nil || r.Real != ol.Real || r.Root != ol.Root {
					t.Errorf("leadsOutResolved = %+v, want Real %s, Root %s", r, ol.Real, ol.Root)
				} else if got, want := r.Reason(), strings.Replace(want, want[:strings.Index(want, " which leads")], "goes through a symbolic link,", 1); got != want {
					t.Errorf("leadsOutResolved's Reason:\n got %s\nwant %s", got, want)
				}
			}
		})
	}
}

// TestLinkWithinRepositoryIsRead checks the links that are followed: those
// that stay in the repository (a monorepo's package sharing one
// hooks.json), the user's own files wherever they lead (dotfiles), and the
// files of no repository and no workspace.
func TestLinkWithinRepositoryIsRead(t *testing.T) {
	for _, tc := range []struct {
		name    string
		entries []string
		path    string
	}{
		{"a monorepo's package", []string{"repo/.git/", "repo/shared/hooks.json", "repo/pkg/a/.agents/hooks.json -> ../../../shared/hooks.json"}, "repo/pkg/a/.agents/hooks.json"},
		{"a folder within the workspace", []string{"ws/shared/hooks/s.sh", "ws/.agents/", "ws/.agents/hooks -> ../shared/hooks"}, "ws/.agents/hooks/s.sh"},
		{"out and back in", []string{"outside/", "repo/.git/", "repo/hooks.json", "repo/.agents/", "repo/.agents/up -> ../../outside", "repo/.agents/hooks.json -> up/../repo/hooks.json"}, "repo/.agents/hooks.json"},
		{"the user's own", []string{"dotfiles/gemini/hooks.json", "home/.gemini/config/hooks.json -> ../../../dotfiles/gemini/hooks.json"}, "home/.gemini/config/hooks.json"},
		{"the home folder's own", []string{"home/.git/", "dotfiles/netrc", "home/.netrc -> ../dotfiles/netrc"}, "home/.netrc"},
		{"no repository, no workspace", []string{"outside/netrc", "plain/netrc -> ../outside/netrc"}, "plain/netrc"},
		{"a nested repository linked within", []string{"repo/.git/", "repo/vendor/lib/.git", "repo/vendor/lib/hooks.json", "repo/lib -> vendor/lib"}, "repo/lib/hooks.json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := linkTree(t, tc.entries...)
			p := filepath.Join(dir, tc.path)
			if b, err := ReadFile(p, MaxFileSize); err != nil || string(b) != linkSecret {
				t.Errorf("ReadFile: %q, %v", b, err)
			}
			if ol := LeadsOut(p); ol != nil {
				t.Errorf("LeadsOut: %v", ol)
			}
			if ol := leadsOutResolved(p); ol != nil {
				t.Errorf("leadsOutResolved: %v", ol)
			}
		})
	}
}

// TestLinkOutNamesVisible checks that the paths a refusal names reach the
// terminal without their escape sequences.
func TestLinkOutNamesVisible(t *testing.T) {
	dir := linkTree(t, "out\x1b[2Jside/netrc", "repo/.git/", "repo/.agents/hooks.json -> ../../out\x1b[2Jside/netrc")
	err := LeadsOut(filepath.Join(dir, "repo/.agents/hooks.json"))
	if err == nil {
		t.Fatal("LeadsOut = nil")
	}
	if msg := err.Error(); strings.Contains(msg, "\x1b") || !strings.Contains(msg, `out\x1b[2Jside/netrc`) {
		t.Errorf("Error: %q", msg)
	}
}
