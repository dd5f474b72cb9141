package scaffold

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"unicode"

	"github.com/hookctl/hookctl/schema"
)

// Resolve returns where a write to path lands: the path the kernel reaches
// with every symbolic link on the way followed, the file's own and those of
// the folders above it, and the part that does not exist yet kept as
// named. A link that points nowhere is followed to where its target would
// be created.
func Resolve(path string) (string, error) {
	real, _, err := resolve(path)
	return real, err
}

// hop is a symbolic link crossed while resolving: where it stands (a real
// path) and what it holds.
type hop struct{ link, target string }

func resolve(path string) (string, []hop, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", nil, err
	}
	todo := strings.Split(abs, string(filepath.Separator))
	cur := string(filepath.Separator)
	var hops []hop
	for len(todo) > 0 {
		c := todo[0]
		todo = todo[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, c)
		fi, err := os.Lstat(next)
		if errors.Is(err, fs.ErrNotExist) {
			// The rest is to be created: no link there to follow. A ".."
			// below a folder that does not exist fails in the kernel too.
			for _, r := range todo {
				if r == ".." {
					return "", hops, &fs.PathError{Op: "open", Path: path, Err: syscall.ENOENT}
				}
			}
			return filepath.Join(append([]string{next}, todo...)...), hops, nil
		}
		if errors.Is(err, syscall.ENOTDIR) {
			return "", hops, fmt.Errorf("%s is not a folder", cur)
		}
		if err != nil {
			return "", hops, err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			cur = next
			continue
		}
		if len(hops) == schema.MaxLinks {
			return "", hops, &fs.PathError{Op: "open", Path: path, Err: syscall.ELOOP}
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", hops, err
		}
		hops = append(hops, hop{link: next, target: target})
		if filepath.IsAbs(target) {
			cur = string(filepath.Separator)
		}
		todo = append(strings.Split(target, string(filepath.Separator)), todo...)
	}
	return cur, hops, nil
}

// Bounds are where init and import may write. A workspace's files stay in
// the workspace: a symbolic link (of the file or of a folder on its way)
// that leads out of it is refused, and so is the user's own hooks.json
// wherever it is, since hooks written there run in every workspace without
// being trusted. The user's scope is the user's own: there links are
// followed wherever they lead.
type Bounds struct {
	// Root is the workspace's folder, "" for the user's scope.
	Root string
	real string // Root resolved
	user string // the user's hooks.json, resolved
}

// NewBounds returns the bounds of a scope's writes.
func NewBounds(scope, dir, home string) (Bounds, error) {
	if scope == User {
		return Bounds{}, nil
	}
	b := Bounds{Root: dir}
	var err error
	if b.real, err = filepath.EvalSymlinks(dir); err != nil {
		return b, fmt.Errorf("cannot resolve the workspace %s: %v", dir, unwrapPath(err))
	}
	if home != "" {
		if b.user, err = Resolve(ConfigPath(User, "", home)); err != nil {
			b.user = ""
		}
	}
	return b, nil
}

// Confined reports whether the writes are held to a workspace.
func (b Bounds) Confined() bool { return b.Root != "" }

// Check returns where a write to path lands (see Resolve), or an
// *OutsideError when that is out of bounds.
func (b Bounds) Check(path string) (string, error) {
	real, hops, err := resolve(path)
	if err != nil {
		return "", fmt.Errorf("cannot write %s: %v", path, unwrapPath(err))
	}
	if !b.Confined() {
		return real, nil
	}
	if b.user != "" && real == b.user {
		return "", &OutsideError{Path: path, Real: real, Root: b.Root, User: true}
	}
	if within(b.real, real) {
		return real, nil
	}
	e := &OutsideError{Path: path, Real: real, Root: b.Root}
	// Name the link that crosses out: the last one that stands in the
	// workspace and leads out of it.
	for _, h := range hops {
		if r, err := Resolve(h.link); err == nil && within(b.real, h.link) && !within(b.real, r) {
			e.Link, e.Target = h.link, h.target
		}
	}
	return "", e
}

func within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// OutsideError is a workspace's write that would land out of the
// workspace, or in the user's own hooks.json.
type OutsideError struct {
	// Path is the file as named; Real where the write would land.
	Path, Real string
	// Root is the workspace.
	Root string
	// Link is the symbolic link that leads out, and Target what it holds;
	// empty when no one link does (the workspace itself is the user's
	// configuration folder).
	Link, Target string
	// User is set when Real is the user's own hooks.json.
	User bool
}

func (e *OutsideError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "refusing to write %s: ", shown(e.Path))
	if e.User {
		fmt.Fprintf(&b, "it leads to %s, your own hooks.json, whose hooks run in every workspace without being trusted; "+
			"use --scope user to add to it, or make the workspace's file a file of its own", shown(e.Real))
		return b.String()
	}
	switch {
	case e.Link != "" && e.Link == e.Path:
		fmt.Fprintf(&b, "it is a symbolic link to %s, ", shown(e.Target))
	case e.Link != "":
		fmt.Fprintf(&b, "%s is a symbolic link to %s, ", shown(e.Link), shown(e.Target))
	}
	fmt.Fprintf(&b, "outside the workspace %s (the write would land in %s); "+
		"a workspace's files stay in it: replace the link with a file or folder of its own, or use --scope user to add to your own hooks", shown(e.Root), shown(e.Real))
	return b.String()
}

// shown is a path for a message: quoted when it holds what a terminal
// would act on (an escape sequence in a link's target) or cannot show.
func shown(path string) string {
	for _, r := range path {
		if !unicode.IsPrint(r) {
			return strconv.Quote(path)
		}
	}
	return path
}
