package schema

import (
	"os"
	"path/filepath"
	"strings"
)

// MaxLinks is how many symbolic links a path may cross before following it
// gives up on a loop, as Linux's MAXSYMLINKS.
const MaxLinks = 40

// FollowLinks follows pending, the components of a path, from the folder
// resolved (a real path) as the kernel does: each component in order, a
// symbolic link replaced by its target before the next component is read,
// and ".." taken from where the links led, not from the text. at, when not
// nil, is told each place reached before it is looked at, with the number
// of links crossed so far; when it returns true, following stops there and
// the rest is joined to it as written, as it is from the first component
// that does not exist. ok is false when the links loop or cannot be read.
func FollowLinks(resolved string, pending []string, at func(next string, links int) bool) (real string, ok bool) {
	links := 0
	for len(pending) > 0 {
		c := pending[0]
		pending = pending[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			resolved = filepath.Dir(resolved)
			continue
		}
		next := filepath.Join(resolved, c)
		if at != nil && at(next, links) {
			return filepath.Join(append([]string{next}, pending...)...), true
		}
		info, err := os.Lstat(next)
		if err != nil {
			return filepath.Join(append([]string{next}, pending...)...), true
		}
		if info.Mode()&os.ModeSymlink == 0 {
			resolved = next
			continue
		}
		links++
		target, err := os.Readlink(next)
		if err != nil || links > MaxLinks {
			return "", false
		}
		if filepath.IsAbs(target) {
			resolved = "/"
		}
		pending = append(strings.Split(target, "/"), pending...)
	}
	return resolved, true
}
