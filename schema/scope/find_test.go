package scope

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// tree makes the folders and files named (a name ending in / is a folder)
// under a new folder, which it returns with its links resolved, and
// bounds every search at it.
func tree(t *testing.T, names ...string) string {
	t.Helper()
	top, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_CEILING_DIRECTORIES", top)
	t.Setenv("HOME", filepath.Join(top, "nohome"))
	for _, n := range names {
		p := filepath.Join(top, filepath.FromSlash(n))
		if n[len(n)-1] == '/' {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return top
}

// repo makes dir a git repository as git init leaves it, as far as
// finding it goes.
func repo(t *testing.T, dir string) {
	t.Helper()
	for _, d := range []string{"objects", "refs"} {
		if err := os.MkdirAll(filepath.Join(dir, ".git", d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func find(t *testing.T, dir string) Found {
	t.Helper()
	f, err := Find(dir)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestFindTheNearestAgentsFolder(t *testing.T) {
	top := tree(t, "proj/.agents/hooks.json", "proj/scripts/deep/", "proj/only/.agents/", "proj/only/x/")
	for _, c := range []struct{ from, want string }{
		{"proj", "proj"},
		{"proj/scripts", "proj"},
		{"proj/scripts/deep", "proj"},
		// a .agents folder without a hooks.json marks a workspace too
		{"proj/only/x", "proj/only"},
		{"proj/.agents", "proj"},
	} {
		f := find(t, filepath.Join(top, c.from))
		if f.Root != filepath.Join(top, c.want) || f.By != ByAgents {
			t.Errorf("from %s: %s (%s), want %s", c.from, f.Root, f.By, c.want)
		}
	}
}

func TestFindTheGitTopLevel(t *testing.T) {
	top := tree(t, "repo/src/pkg/", "wt/src/", "notrepo/.git/", "notrepo/sub/")
	repo(t, filepath.Join(top, "repo"))
	// A worktree's or a submodule's .git is a file naming the repository.
	if err := os.WriteFile(filepath.Join(top, "wt", ".git"), []byte("gitdir: /elsewhere/.git/worktrees/wt\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		from, want string
		by         Mark
	}{
		{"repo/src/pkg", "repo", ByGit},
		{"repo", "repo", ByGit},
		{"wt/src", "wt", ByGit},
		// an empty .git folder is no repository, for git either
		{"notrepo/sub", "notrepo/sub", ByCurrent},
	} {
		f := find(t, filepath.Join(top, c.from))
		if f.Root != filepath.Join(top, c.want) || f.By != c.by {
			t.Errorf("from %s: %s (%s), want %s (%s)", c.from, f.Root, f.By, c.want, c.by)
		}
	}
}

func TestFindAgentsBeforeTheGitTopLevel(t *testing.T) {
	// .agents below the top level, and above it (a repository nested in
	// a workspace, as a submodule is): the nearest .agents wins.
	top := tree(t, "mono/.agents/hooks.json", "mono/vendor/lib/src/", "mono/apps/web/.agents/", "mono/apps/web/src/")
	repo(t, filepath.Join(top, "mono"))
	repo(t, filepath.Join(top, "mono", "vendor", "lib"))
	for _, c := range []struct{ from, want string }{
		{"mono/apps/web/src", "mono/apps/web"},
		{"mono/vendor/lib/src", "mono"},
	} {
		f := find(t, filepath.Join(top, c.from))
		if f.Root != filepath.Join(top, c.want) || f.By != ByAgents {
			t.Errorf("from %s: %s (%s), want %s", c.from, f.Root, f.By, c.want)
		}
	}
}

func TestFindTheCurrentFolderWhenNothingMarksOne(t *testing.T) {
	top := tree(t, "a/b/c/")
	from := filepath.Join(top, "a", "b", "c")
	f := find(t, from)
	if f.Root != from || f.By != ByCurrent {
		t.Fatalf("%s (%s), want the folder itself", f.Root, f.By)
	}
	// Every folder up to the ceiling was looked at, .agents then .git.
	var want []string
	for _, d := range []string{"a/b/c", "a/b", "a"} {
		want = append(want, filepath.Join(top, d, ".agents"), filepath.Join(top, d, ".git"))
	}
	if !slices.Equal(f.Looked, want) {
		t.Errorf("looked at\n%q\nwant\n%q", f.Looked, want)
	}
}

func TestFindStopsAtTheCeilings(t *testing.T) {
	top := tree(t, ".agents/", "ceil/proj/sub/", "home/.agents/hooks.json", "home/proj/sub/", "home/repo/x/")
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Join(top, "ceil"))
	from := filepath.Join(top, "ceil", "proj", "sub")
	if f := find(t, from); f.Root != from || f.By != ByCurrent {
		t.Errorf("GIT_CEILING_DIRECTORIES: found %s (%s) above the ceiling", f.Root, f.By)
	}
	// The ceiling's own folder is searched when the search starts there.
	t.Setenv("GIT_CEILING_DIRECTORIES", "relative/is/ignored"+string(os.PathListSeparator)+filepath.Join(top, "ceil", "proj"))
	if f := find(t, filepath.Join(top, "ceil", "proj")); f.Root != top || f.By != ByAgents {
		t.Errorf("from the ceiling itself: %s (%s), want %s", f.Root, f.By, top)
	}

	// The home folder is a ceiling: its .agents is no project's.
	home := filepath.Join(top, "home")
	t.Setenv("HOME", home)
	t.Setenv("GIT_CEILING_DIRECTORIES", top)
	from = filepath.Join(home, "proj", "sub")
	if f := find(t, from); f.Root != from || f.By != ByCurrent {
		t.Errorf("below home: %s (%s), want the current folder", f.Root, f.By)
	}
	repo(t, filepath.Join(home, "repo"))
	if f := find(t, filepath.Join(home, "repo", "x")); f.Root != filepath.Join(home, "repo") || f.By != ByGit {
		t.Errorf("a repository below home: %s (%s)", f.Root, f.By)
	}
	// In the home folder itself, its .agents is the current folder's.
	if f := find(t, home); f.Root != home || f.By != ByAgents {
		t.Errorf("in home: %s (%s)", f.Root, f.By)
	}
}

func TestFindThroughLinks(t *testing.T) {
	top := tree(t, "real/proj/sub/", "shared/", "target/", "fileagents/sub/", "dangling/sub/")
	if err := os.Symlink(filepath.Join(top, "shared"), filepath.Join(top, "real", "proj", ".agents")); err != nil {
		t.Fatal(err)
	}
	// A .agents that is a link to a folder marks its folder, not the
	// link's target.
	f := find(t, filepath.Join(top, "real", "proj", "sub"))
	if f.Root != filepath.Join(top, "real", "proj") || f.By != ByAgents {
		t.Errorf("a linked .agents: %s (%s)", f.Root, f.By)
	}
	// A .agents that is a file, or a link that leads nowhere, marks
	// nothing.
	if err := os.WriteFile(filepath.Join(top, "fileagents", ".agents"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(top, "nowhere"), filepath.Join(top, "dangling", ".agents")); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"fileagents/sub", "dangling/sub"} {
		from := filepath.Join(top, d)
		if f := find(t, from); f.Root != from || f.By != ByCurrent {
			t.Errorf("from %s: %s (%s), want the current folder", d, f.Root, f.By)
		}
	}

	// Started from a folder reached through a link, the search goes up
	// its real path, as git's does, and names what it finds from there.
	link := filepath.Join(top, "target", "link")
	if err := os.Symlink(filepath.Join(top, "real", "proj", "sub"), link); err != nil {
		t.Fatal(err)
	}
	f = find(t, link)
	if f.Root != filepath.Join(top, "real", "proj") {
		t.Errorf("through a link: %s, want the real path's workspace", f.Root)
	}
	if got := f.Rel(WorkspaceFile(f.Root)); got != filepath.Join("..", ".agents", "hooks.json") {
		t.Errorf("Rel = %s", got)
	}
	if f.Shown() != ".." {
		t.Errorf("Shown = %s", f.Shown())
	}
	// Found where it started, the folder keeps the name it was given.
	f = find(t, filepath.Join(top, "target", "link", ".."))
	if f.Root != filepath.Join(top, "target") {
		t.Errorf("cleaned as text first: %s", f.Root)
	}
	if err := os.Symlink(filepath.Join(top, "real", "proj"), filepath.Join(top, "target", "plink")); err != nil {
		t.Fatal(err)
	}
	f = find(t, filepath.Join(top, "target", "plink"))
	if f.Root != filepath.Join(top, "target", "plink") || f.Rel(WorkspaceFile(f.Root)) != filepath.Join(".agents", "hooks.json") || f.Shown() != "." {
		t.Errorf("found where it started: %s, %s", f.Root, f.Rel(WorkspaceFile(f.Root)))
	}
}

func TestFindGoesOnPastAFolderItCannotLookInto(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root looks into every folder")
	}
	top := tree(t, "proj/.agents/", "proj/locked/sub/")
	locked := filepath.Join(top, "proj", "locked")
	// Nothing in it can be looked at: it holds nothing, and the search
	// goes on above it, as git's does.
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(locked, 0o755) })
	if f := find(t, filepath.Join(locked, "sub")); f.Root != filepath.Join(top, "proj") {
		t.Errorf("%s (%s)", f.Root, f.By)
	}
}

func TestScopeNames(t *testing.T) {
	for _, c := range []struct {
		s    Scope
		name string
	}{{User, "user"}, {Workspace, "workspace"}, {Named, "config"}} {
		if c.s.String() != c.name {
			t.Errorf("%d is %q, want %q", c.s, c.s, c.name)
		}
	}
	if s, err := Parse("user"); err != nil || s != User {
		t.Error(s, err)
	}
	if _, err := Parse("config"); err == nil {
		t.Error("config is no scope a person picks")
	}
	home := "/home/u"
	if s, root := Of("/home/u/.gemini/config/hooks.json", home); s != User || root != "" {
		t.Error(s, root)
	}
	if s, root := Of("/w/.agents/hooks.json", home); s != Workspace || root != "/w" {
		t.Error(s, root)
	}
	if s, root := Of("/w/other.json", home); s != Workspace || root != "" {
		t.Error(s, root)
	}
}
