//go:build unix

package tracelog

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// openConfined opens a log that a command names (Log.Within) for
// appending, never through a link that leads out of the workspace (see
// confined): outside the workspace with O_NOFOLLOW, inside it from the
// workspace's folder down (os.Root, which no link swapped in meanwhile
// leads out of). Its folders are made when missing.
func (l *Log) openConfined(flags int) (int, error) {
	rel, inside, err := l.confined()
	if err != nil {
		return -1, err
	}
	if !inside {
		abs, _ := filepath.Abs(l.Path)
		fd, err := open(abs, flags|syscall.O_NOFOLLOW, 0o600)
		if errors.Is(err, syscall.ENOENT) {
			if merr := os.MkdirAll(filepath.Dir(abs), 0o700); merr != nil {
				return -1, fmt.Errorf("cannot create the log's folder %s: %v", filepath.Dir(l.Path), folderError(merr, filepath.Dir(abs)))
			}
			fd, err = open(abs, flags|syscall.O_NOFOLLOW, 0o600)
		}
		if err != nil {
			return -1, l.openError(err)
		}
		return fd, nil
	}
	within, _ := filepath.EvalSymlinks(l.Within)
	root, err := os.OpenRoot(within)
	if err != nil {
		return -1, fmt.Errorf("cannot open the log %s: %v", l.Path, unwrapPath(err))
	}
	defer root.Close()
	if info, err := root.Lstat(rel); err == nil && info.Mode()&fs.ModeSymlink != 0 {
		return -1, l.linkError()
	}
	f, err := root.OpenFile(rel, flags, 0o600)
	if errors.Is(err, fs.ErrNotExist) {
		if merr := root.MkdirAll(filepath.Dir(rel), 0o700); merr != nil {
			return -1, fmt.Errorf("cannot create the log's folder %s: %v", filepath.Dir(l.Path), unwrapPath(merr))
		}
		f, err = root.OpenFile(rel, flags, 0o600)
	}
	if err != nil {
		return -1, l.openError(unwrapPath(err))
	}
	defer f.Close()
	// The descriptor outlives the file: the append writes it with one
	// write(2), as for any log.
	fd, err := syscall.Dup(int(f.Fd()))
	if err != nil {
		return -1, fmt.Errorf("cannot open the log %s: %v", l.Path, err)
	}
	syscall.CloseOnExec(fd)
	return fd, nil
}

// openError says why the log could not be opened, in words for a link.
func (l *Log) openError(err error) error {
	if errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EMLINK) {
		return l.linkError()
	}
	if errors.Is(err, syscall.ENXIO) {
		return fmt.Errorf("cannot write the log %s: it is not a regular file", l.Path)
	}
	return fmt.Errorf("cannot open the log %s: %v", l.Path, pathReason(l.Path, err))
}
