package schema

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/hookctl/hookctl/schema/scope"
)

// A repository is cloned as it is committed, its symbolic links with it,
// and a link's target is any path its author chose: a .agents/hooks.json
// committed as a link to ../../../.netrc would show, in lint's snippet
// and message, the secrets of whoever lints the clone (a CI machine, in
// its public log). So hookctl never reads a workspace's file through a
// link that leads out of the repository it lives in: its boundary is the
// top level of the git repository that holds the file (the nearest
// folder above it with a .git), or, outside any, the root of the
// workspace that holds it (the nearest folder above it with a .agents).
// Links within the boundary are followed: a monorepo's package may link
// its .agents/hooks.json to ../../shared/hooks.json, which a clone brings
// along. The files of the user's own scope (~/.gemini/config, often links
// into a dotfiles folder) and the files of no repository and no
// workspace are the user's, and followed wherever they lead; so are the
// marks of the home folder itself, which no clone is.

// OutsideLinkError is a file of a repository that hookctl does not read:
// a symbolic link on its way (the file itself or a folder) leads out of
// the repository.
type OutsideLinkError struct {
	// Path is the file as named.
	Path string
	// Link is the link that leads out, Target what it holds.
	Link, Target string
	// Real is where the path leads.
	Real string
	// Root is the boundary: the repository's top level (Git set), else
	// the workspace's root.
	Root string
	Git  bool
}

func (e *OutsideLinkError) Error() string { return Visible(e.Path) + " " + e.Reason() }

// Reason says what is wrong without the path, for messages that name it.
func (e *OutsideLinkError) Reason() string {
	what := "workspace"
	if e.Git {
		what = "repository"
	}
	var b strings.Builder
	switch abs, err := filepath.Abs(e.Path); {
	case e.Link == "":
		b.WriteString("goes through a symbolic link,")
	case err == nil && abs == e.Link:
		b.WriteString("is a symbolic link to " + Visible(e.Target) + ",")
	default:
		b.WriteString("goes through " + Visible(e.Link) + ", a symbolic link to " + Visible(e.Target) + ",")
	}
	b.WriteString(" which leads out of the " + what + " " + Visible(e.Root) + ", to " + Visible(e.Real) +
		": hookctl does not read a " + what + "'s file through it, as a clone could point it at any file of yours;" +
		" put a file of the " + what + "'s own in its place, or name " + Visible(e.Real) + " when you mean it")
	return b.String()
}

// Boundary returns the folder that the links of the file at path (an
// absolute, clean path) may not lead out of: the top level of the git
// repository that holds it (git set), else the root of the workspace
// that holds it; "" for a file of the user's own scope, of the home
// folder itself, or of no repository and no workspace. A folder with a
// .git or a .agents that a link of an outer repository or workspace leads
// to out of it is no boundary of its own: a clone's sub linked to a
// repository of yours beside it (or to a home folder under git) would
// otherwise make that repository the boundary, and its files the clone's;
// the outer one is the boundary, which the link then leads out of.
func Boundary(path string) (root string, git bool) {
	home, _ := os.UserHomeDir()
	if home != "" {
		home = filepath.Clean(home)
		if Within(scope.UserDir(home), path) {
			return "", false
		}
	}
	root, git = nearestBoundary(path, home)
	for d := root; d != ""; {
		outer, outerGit := nearestBoundary(d, home)
		if outer == "" {
			break
		}
		realOuter, err1 := filepath.EvalSymlinks(outer)
		realD, err2 := filepath.EvalSymlinks(d)
		if err1 == nil && err2 == nil && !Within(realOuter, realD) {
			root, git = outer, outerGit
		}
		d = outer
	}
	return root, git
}

// nearestBoundary returns the nearest folder above path with a .git, else
// the nearest with a .agents, as the text names them: the walk stops at
// the home folder, and passes it by when it is named another way.
func nearestBoundary(path, home string) (root string, git bool) {
	agents := ""
	for d := filepath.Dir(path); ; {
		if d == home {
			break
		}
		// The marks of the home folder named another way are none.
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil && !isHome(d, home) {
			return d, true
		}
		if agents == "" {
			if _, err := os.Lstat(filepath.Join(d, scope.AgentsDir)); err == nil && !isHome(d, home) {
				agents = d
			}
		}
		up := filepath.Dir(d)
		if up == d {
			break
		}
		d = up
	}
	return agents, false
}

// isHome reports whether the folder d is the home folder, named another
// way (HOME through a link, /home linked to /var/home, the path named by
// its real path, a link to it): a home folder kept under git is no
// repository of a workspace in it, nor of a link to it.
func isHome(d, home string) bool {
	if home == "" {
		return false
	}
	rh := realHome(home)
	if rh == "" || filepath.Base(d) != filepath.Base(rh) && filepath.Base(d) != filepath.Base(home) {
		// Not the home folder, unless a link of that other name leads to it.
		if info, err := os.Lstat(d); err != nil || info.Mode()&os.ModeSymlink == 0 {
			return false
		}
	}
	rd, err := filepath.EvalSymlinks(d)
	return err == nil && rd == rh
}

// realHomes holds the home folder's real path, by HOME.
var realHomes sync.Map

// realHome returns the real path of the home folder home, "" when it
// cannot be followed.
func realHome(home string) string {
	if r, ok := realHomes.Load(home); ok {
		return r.(string)
	}
	r, err := filepath.EvalSymlinks(home)
	if err != nil {
		return "" // not kept: it may be made later
	}
	realHomes.Store(home, r)
	return r
}

// LeadsOut refuses with an *OutsideLinkError a path that a link leads out
// of its Boundary; nil for any other. Open asks it of every path; a reader
// that resolves a path's links before it reads (to name the file once,
// whatever links lead to it) asks it of the path as named. The path is
// followed as the kernel follows it, ".." taken from where the links led;
// one that cannot be followed (a loop, a component that is not a folder)
// is left to the open to refuse.
func LeadsOut(path string) *OutsideLinkError {
	if path == "" {
		return nil
	}
	if runtime.GOOS == "windows" {
		return leadsOutResolved(path)
	}
	raw := path
	if !filepath.IsAbs(raw) {
		wd, err := os.Getwd()
		if err != nil {
			return nil
		}
		raw = wd + "/" + raw
	}
	clean := filepath.Clean(raw)
	root, git := Boundary(clean)
	// A ".." after a link is taken from where the link led, so the text
	// cleaned may name another place than the path leads to
	// (repo/.agents/L/../../../home/x is ~/x to the text, and where L
	// leads to the kernel): each folder the path names before a ".."
	// bounds it too, once its links lead it elsewhere than the text.
	if parts := strings.Split(raw, "/"); slices.Contains(parts, "..") {
		if real, ok := FollowLinks("/", parts, nil); ok && real != clean {
			seen := map[string]bool{root: true, "": true}
			for i, c := range parts {
				if c != ".." {
					continue
				}
				r, g := Boundary(filepath.Join(strings.Join(parts[:i], "/"), "_"))
				if seen[r] {
					continue
				}
				seen[r] = true
				if ol := leadsOutOf(path, raw, r, g); ol != nil {
					return ol
				}
			}
		}
	}
	return leadsOutOf(path, raw, root, git)
}

// leadsOutResolved is LeadsOut where the path cannot be followed link
// by link as the kernel of Linux or macOS follows it (Windows, where a
// clone made with core.symlinks has links, and junctions are links too):
// the path and its boundary resolved by filepath.EvalSymlinks, which
// takes each ".." from where the links led; the link is not named. A path
// that cannot be resolved is left to the open to refuse.
func leadsOutResolved(path string) *OutsideLinkError {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil
	}
	root, git := Boundary(abs)
	if root == "" {
		return nil
	}
	realRoot, err1 := filepath.EvalSymlinks(root)
	real, err2 := filepath.EvalSymlinks(abs)
	if err1 != nil || err2 != nil || Within(realRoot, real) {
		return nil
	}
	return &OutsideLinkError{Path: path, Real: real, Root: root, Git: git}
}

// leadsOutOf is LeadsOut for the boundary root of the path named path,
// raw when absolute.
func leadsOutOf(path, raw, root string, git bool) *OutsideLinkError {
	if root == "" {
		return nil
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil
	}
	// The link that leads out is the last one met inside the boundary
	// before the first place outside it, once the path is in.
	var in bool
	var link, target, outLink, outTarget string
	real, ok := FollowLinks("/", strings.Split(raw, "/"), func(next string, _ int) bool {
		if !Within(realRoot, next) {
			if in && outLink == "" {
				outLink, outTarget = link, target
			}
			return false
		}
		in = true
		if info, err := os.Lstat(next); err == nil && info.Mode()&os.ModeSymlink != 0 {
			link, target = next, ""
			if t, err := os.Readlink(next); err == nil {
				target = t
			}
		}
		return false
	})
	if !ok || Within(realRoot, real) {
		return nil
	}
	if outLink == "" {
		outLink, outTarget = link, target
	}
	if outLink != "" {
		// Named from the boundary as the path names it.
		if r, err := filepath.Rel(realRoot, outLink); err == nil {
			outLink = filepath.Join(root, r)
		}
	}
	return &OutsideLinkError{Path: path, Link: outLink, Target: outTarget, Real: real, Root: root, Git: git}
}

// Within reports whether path lies in the folder root (or is it), both
// absolute and clean, as the text names them.
func Within(root, path string) bool {
	return path == root || strings.HasPrefix(path, root+string(filepath.Separator)) || root == string(filepath.Separator)
}
