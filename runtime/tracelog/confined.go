package tracelog

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// A log that a command names (Log.Within: trace --log, run --log,
// HOOKCTL_LOG) may have been chosen by a workspace's command, and a clone
// can plant a link where it goes after the workspace was trusted: it is
// never written through a link that leads out of the workspace. The file
// itself is never a link; one named inside the workspace is refused when a
// folder on its way is a link that leads out of it.

// confined says where a log Within names lies: rel, its path from the
// workspace's real folder (links of its folders followed), when inside is
// set; an error that refuses it when a folder on its way leads out of the
// workspace or the file itself is a link.
func (l *Log) confined() (rel string, inside bool, err error) {
	abs, err := filepath.Abs(l.Path)
	if err != nil {
		return "", false, fmt.Errorf("cannot open the log %s: %v", l.Path, err)
	}
	r, err := filepath.Rel(l.Within, abs)
	if err != nil || r == "." || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) || filepath.IsAbs(r) {
		// Named outside the workspace, as the command shows it: only the
		// file itself is never a link.
		if info, err := os.Lstat(abs); err == nil && info.Mode()&fs.ModeSymlink != 0 {
			return "", false, l.linkError()
		}
		return "", false, nil
	}
	rel, why := l.resolveInside(r)
	if why != "" {
		return "", false, fmt.Errorf("refusing to write the log %s: %s, so the record could land outside the workspace %s; name a log inside it, or remove the link", l.Path, why, l.Within)
	}
	if info, err := os.Lstat(filepath.Join(l.Within, r)); err == nil && info.Mode()&fs.ModeSymlink != 0 {
		return "", false, l.linkError()
	}
	return rel, true, nil
}

// linkError refuses a log that is a link.
func (l *Log) linkError() error {
	return fmt.Errorf("refusing to write the log %s: it is a symbolic link, which hookctl does not follow for a log a command names; remove it, or name the file it leads to", l.Path)
}

// resolveInside returns rel (relative to Within, as named) relative to
// the workspace's real folder, its folders' links followed, and says
// which folder on its way is a link that leads out of the workspace, ""
// when none is. The folders not there yet are kept as named: they are
// made inside.
func (l *Log) resolveInside(rel string) (string, string) {
	within, err := filepath.EvalSymlinks(l.Within)
	if err != nil {
		return "", "the workspace folder " + l.Within + " cannot be resolved"
	}
	d := l.Within
	for _, part := range strings.Split(filepath.Dir(rel), string(filepath.Separator)) {
		if part == "." || part == "" {
			continue
		}
		next := filepath.Join(d, part)
		info, err := os.Lstat(next)
		if err != nil {
			break // made inside, by MkdirAll in the workspace's folder
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			real, err := filepath.EvalSymlinks(next)
			if err != nil {
				return "", fmt.Sprintf("its folder %s is a symbolic link that leads nowhere", next)
			}
			if r, err := filepath.Rel(within, real); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
				return "", fmt.Sprintf("its folder %s is a symbolic link to %s", next, real)
			}
		}
		d = next
	}
	realDir, err := filepath.EvalSymlinks(d)
	if err != nil {
		return "", "its folder " + d + " cannot be resolved"
	}
	r, err := filepath.Rel(within, realDir)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", fmt.Sprintf("its folder %s leads to %s", d, realDir)
	}
	rest, _ := filepath.Rel(d, filepath.Join(l.Within, rel))
	return filepath.Join(r, rest), ""
}
