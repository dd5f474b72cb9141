package scope

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// How a command finds its workspace when it is given none (lint without a
// path, list, doctor, run without a payload naming one, test, trust, init,
// import, export, log): as git finds its repository (git's setup.c,
// setup_git_directory_gently_1, git 2.13 and later):
//
//   - from the current folder upward, the nearest folder that holds a
//     folder .agents (the workspace's hooks.json lives in it, or will);
//   - else the nearest folder that holds a git repository (.git, a folder
//     with HEAD, objects and refs, or a file "gitdir: ..."): the git top
//     level;
//   - else the current folder itself.
//
// The walk is git's: it goes up the folder's real path (links resolved,
// as getcwd names it); it does not go up into a folder listed in
// GIT_CEILING_DIRECTORIES, nor across a file system boundary unless
// GIT_DISCOVERY_ACROSS_FILESYSTEM is true; a folder it cannot look into
// holds nothing, and the walk goes on above it. One rule is hookctl's
// own: the home folder counts as a ceiling, as if it were listed in
// GIT_CEILING_DIRECTORIES. The user's hooks live in ~/.gemini/config, and
// a .agents folder at home (other tools keep theirs there) is no
// workspace: a project below it that has no .agents of its own must not
// take the home folder's. In the home folder itself, it is the workspace
// when nothing above says otherwise, as any folder is.
//
// Another rule is git's safe.directory (git 2.35.2 and later,
// ensure_valid_ownership): a folder found by the search, its .agents or
// its .git, owned by another user is refused with an *OtherOwnerError, not
// taken. Anyone may plant a .agents in a shared folder above yours (/tmp,
// a mount), and its hooks would run, its files be written, in your name.
// A workspace named on the command line is not searched, and is taken
// whoever owns it. git's safe.directory settings are not read: name the
// workspace to use one that is another user's.
//
// A .agents that is a link to a folder marks its folder as a real one
// does: the agent follows it too. The workspace is the folder that holds
// the link, never where it leads; what a command writes there is checked
// as ever, and never written through a link that leads out of it.

// Mark says what made a folder the workspace.
type Mark uint8

// The marks, from the strongest.
const (
	// ByAgents: the folder holds a .agents folder.
	ByAgents Mark = iota
	// ByGit: the folder is the top level of a git repository, and no
	// folder from the current one up to it holds .agents.
	ByGit
	// ByCurrent: nothing marks a workspace; the current folder is taken.
	ByCurrent
	// ByName: the command was given the workspace (--workspace DIR, a
	// PATH); nothing was searched.
	ByName
)

func (m Mark) String() string {
	switch m {
	case ByAgents:
		return "holds .agents"
	case ByGit:
		return "git top level"
	case ByName:
		return "named"
	}
	return "current folder"
}

// Found is the workspace Find chose.
type Found struct {
	// Root is the workspace's folder, absolute and clean: the folder the
	// search started from, as it was named, when it is that one; else the
	// folder found, by its real path.
	Root string
	// By says what marked it.
	By Mark
	// Looked are the paths whose presence decided, in the order they were
	// looked at: each folder's .agents, and its .git until a repository was
	// found. Trust keeps them, so that a new .agents or .git on the way
	// withdraws it.
	Looked []string

	// from is the folder the search started from, as named; real is its
	// real path.
	from, real string
}

// Rel names path, a path in or about the workspace, as a person in the
// folder the search started from would: relative to it
// ("../.agents/hooks.json"), or as it is when it cannot be.
func (f Found) Rel(path string) string {
	base := f.from
	if f.Root != f.from {
		base = f.real // the kernel takes ".." on the real path
	}
	if base == "" {
		return path
	}
	r, err := filepath.Rel(base, path)
	if err != nil {
		return path
	}
	return r
}

// Shown names the workspace's folder as a person in the folder the search
// started from would: "." when it is that folder, ".." for the one above.
func (f Found) Shown() string { return f.Rel(f.Root) }

// Here finds the workspace of a command run in the current folder.
func Here() (Found, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return Found{}, fmt.Errorf("cannot tell the current folder: %v", err)
	}
	return Find(cwd)
}

// Choose returns the workspace of a command run in the current folder:
// dir, made absolute, when the command was given one; else the one Here
// finds.
func Choose(dir string) (Found, error) {
	if dir == "" {
		return Here()
	}
	cwd, err := os.Getwd()
	if err != nil {
		return Found{}, fmt.Errorf("cannot tell the current folder: %v", err)
	}
	root := filepath.Clean(dir)
	if !filepath.IsAbs(root) {
		root = filepath.Join(cwd, root)
	}
	return Found{Root: root, By: ByName, from: cwd, real: cwd}, nil
}

// Find returns the workspace of a command that runs in dir, an absolute
// path, and is given none (see above).
func Find(dir string) (Found, error) {
	if !filepath.IsAbs(dir) {
		return Found{}, fmt.Errorf("cannot find the workspace of %q: not an absolute path", dir)
	}
	start := filepath.Clean(dir)
	real, err := filepath.EvalSymlinks(start)
	if err != nil {
		real = start
	}
	f := Found{from: start, real: real}
	shown := func(d string) string {
		if d == real {
			return start
		}
		return d
	}
	ceiling := ceilingOf(real)
	across := gitBool(os.Getenv("GIT_DISCOVERY_ACROSS_FILESYSTEM"))
	dev, devOK := device(real)
	git := ""
	for d := real; ; {
		agents := filepath.Join(d, AgentsDir)
		f.Looked = append(f.Looked, agents)
		if info, err := os.Stat(agents); err == nil && info.IsDir() {
			f.Root, f.By = shown(d), ByAgents
			return f, checkOwners(f, d, agents)
		}
		if git == "" {
			dotGit := filepath.Join(d, ".git")
			f.Looked = append(f.Looked, dotGit)
			if isRepository(dotGit) {
				git = d
			}
		}
		parent := filepath.Dir(d)
		if parent == d || ceiling != "" && len(parent) <= len(ceiling) {
			break
		}
		if !across && devOK {
			if pdev, ok := device(parent); !ok || pdev != dev {
				break
			}
		}
		d = parent
	}
	if git != "" {
		f.Root, f.By = shown(git), ByGit
		return f, checkOwners(f, git, filepath.Join(git, ".git"))
	}
	f.Root, f.By = start, ByCurrent
	return f, nil
}

// OtherOwnerError is a workspace the search found that another user owns
// (the folder, or its mark: .agents, .git, or what it links to).
type OtherOwnerError struct {
	// Found is the workspace the search would have taken.
	Found Found
	// Path is the file another user owns; UID is that user.
	Path string
	UID  uint32
}

func (e *OtherOwnerError) Error() string {
	who := fmt.Sprintf("user %d", e.UID)
	if u, err := user.LookupId(fmt.Sprint(e.UID)); err == nil {
		who = fmt.Sprintf("%s (user %d)", strconv.Quote(u.Username), e.UID)
	}
	return fmt.Sprintf("the workspace found from here is %s (it %s), but %s is owned by %s, not by you: "+
		"hookctl does not take a workspace another user could have planted, as git refuses a repository another user owns; "+
		"name the workspace on the command line to use it anyway, or remove %s",
		strconv.Quote(e.Found.Root), e.Found.By, strconv.Quote(e.Path), who, strconv.Quote(e.Path))
}

// checkOwners returns an *OtherOwnerError when the folder dir, or its mark
// (the link and what it leads to), is another user's.
func checkOwners(f Found, dir, mark string) error {
	for _, p := range []struct {
		path  string
		lstat bool
	}{{dir, false}, {mark, true}, {mark, false}} {
		if uid, ok := owner(p.path, p.lstat); ok && !ownedByMe(uid) {
			return &OtherOwnerError{Found: f, Path: p.path, UID: uid}
		}
	}
	return nil
}

// ceilingOf returns the nearest folder above dir that the search must not
// go up into: the longest of GIT_CEILING_DIRECTORIES and the home folder
// that is a proper ancestor of dir, "" for none. As git does, entries that
// are not absolute are left out, and those after an empty entry are taken
// as written, without resolving their links.
func ceilingOf(dir string) string {
	var dirs []string
	resolve := true
	for _, c := range filepath.SplitList(os.Getenv("GIT_CEILING_DIRECTORIES")) {
		if c == "" {
			resolve = false
			continue
		}
		if !filepath.IsAbs(c) {
			continue
		}
		dirs = append(dirs, cleanReal(c, resolve))
	}
	if home := os.Getenv("HOME"); filepath.IsAbs(home) {
		dirs = append(dirs, cleanReal(home, true))
	}
	best := ""
	for _, c := range dirs {
		prefix := c
		if !strings.HasSuffix(prefix, string(filepath.Separator)) {
			prefix += string(filepath.Separator)
		}
		if strings.HasPrefix(dir, prefix) && len(c) > len(best) {
			best = c
		}
	}
	return best
}

func cleanReal(p string, resolve bool) string {
	p = filepath.Clean(p)
	if resolve {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return r
		}
	}
	return p
}

// gitBool reads a boolean as git reads GIT_DISCOVERY_ACROSS_FILESYSTEM.
func gitBool(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// isRepository reports whether a .git entry is a repository as git takes
// one: a folder with HEAD, objects and refs, or a file that starts
// "gitdir: " (a worktree's, a submodule's).
func isRepository(dotGit string) bool {
	info, err := os.Stat(dotGit)
	switch {
	case err != nil:
		return false
	case info.IsDir():
		for _, name := range []string{"HEAD", "objects", "refs"} {
			if _, err := os.Stat(filepath.Join(dotGit, name)); err != nil {
				return false
			}
		}
		return true
	case !info.Mode().IsRegular():
		return false // a FIFO would block the read
	}
	// Without blocking, should a FIFO have taken the file's place since.
	fh, err := os.OpenFile(dotGit, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return false
	}
	defer fh.Close()
	if info, err := fh.Stat(); err != nil || !info.Mode().IsRegular() {
		return false
	}
	head := make([]byte, len("gitdir: "))
	if _, err := io.ReadFull(fh, head); err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return false
	}
	return bytes.Equal(head, []byte("gitdir: "))
}
