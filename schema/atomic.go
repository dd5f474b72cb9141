package schema

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// WriteFileAtomic writes data to path through a temporary file in the same
// folder and a rename, so that a reader (the agent, an editor) never sees
// half a file and a failed write leaves the old file whole. An existing file
// keeps its permissions; a new one gets perm.
func WriteFileAtomic(path string, data []byte, perm fs.FileMode) error {
	if fi, err := os.Stat(path); err == nil {
		if !fi.Mode().IsRegular() {
			return fmt.Errorf("cannot write %s: it is not a regular file", path)
		}
		perm = fi.Mode().Perm()
	}
	// Write through a symbolic link to its target, as editors do, so the
	// link survives.
	if target, err := filepath.EvalSymlinks(path); err == nil {
		path = target
	}
	root, err := os.OpenRoot(filepath.Dir(path))
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, cause(err))
	}
	defer root.Close()
	if err := WriteFileAtomicIn(root, filepath.Base(path), data, perm, nil); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, cause(err))
	}
	return nil
}

// WriteFileAtomicIn writes data to name beneath root as WriteFileAtomic
// does, the temporary file beside it, and gives the file perm. Every step
// stays beneath root: a symbolic link that leads out of it, even one swapped
// in while the file is written, fails the write. ready, when not nil, is
// called once the new content is on disk, just before the rename that puts
// it in place; an error from it cancels the write and is returned as it is.
// The other errors are the file system's, naming the temporary file; a
// *ModeError is a file put in place whose mode could not be set.
//
// The temporary file is never executable: a write killed before its rename
// must not leave a file that runs (a workspace's trust counts every
// executable in .agents as code). An executable file gets its execute bits
// once it is in place, through the file still open, so that a file that
// runs is only ever the one named.
func WriteFileAtomicIn(root *os.Root, name string, data []byte, perm fs.FileMode, ready func() error) error {
	tmpName, tmp, err := createTemp(root, name)
	if err != nil {
		return err
	}
	renamed := false
	defer func() {
		tmp.Close()
		if !renamed {
			_ = root.Remove(tmpName)
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	// Through the open file, not the name, so the mode lands on this file.
	if err := tmp.Chmod(perm &^ 0o111); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if ready != nil {
		if err := ready(); err != nil {
			return err
		}
	}
	if err := root.Rename(tmpName, name); err != nil {
		return err
	}
	renamed = true
	if perm&0o111 != 0 {
		if err := tmp.Chmod(perm); err != nil {
			return &ModeError{Name: name, Err: err}
		}
	}
	return tmp.Close()
}

// ModeError is a file put in place whose mode could not be set.
type ModeError struct {
	Name string
	Err  error
}

func (e *ModeError) Error() string {
	return fmt.Sprintf("%s was written, but its mode could not be set: %v", e.Name, e.Err)
}

func (e *ModeError) Unwrap() error { return e.Err }

// isTempSuffix reports whether s is what createTemp puts after a file's
// name: ".tmp" and a random 32-bit number in base 36.
func isTempSuffix(s string) bool {
	n, ok := strings.CutPrefix(s, ".tmp")
	return ok && len(n) >= 1 && len(n) <= 7 && strings.Trim(n, "0123456789abcdefghijklmnopqrstuvwxyz") == ""
}

// RemoveLeftovers removes, beneath root, the temporary files that writes
// of name killed before their rename left beside it: exactly the names
// createTemp makes for it (.NAME.tmpXXXX), and only regular files. It is
// for a writer that holds the lock every writer of name takes, at its
// next write: a write under way would lose its file.
func RemoveLeftovers(root *os.Root, name string) {
	dir, base := filepath.Split(name)
	if dir == "" {
		dir = "."
	}
	d, err := root.Open(dir)
	if err != nil {
		return
	}
	entries, err := d.ReadDir(-1)
	d.Close()
	if err != nil {
		return
	}
	prefix := "." + base
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if ok && isTempSuffix(rest) && e.Type().IsRegular() {
			_ = root.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// createTemp creates a new file beside name, beneath root, that no other
// writer can be using.
func createTemp(root *os.Root, name string) (string, *os.File, error) {
	dir, base := filepath.Split(name)
	for range 100 {
		tmpName := filepath.Join(dir, "."+base+".tmp"+strconv.FormatUint(uint64(rand.Uint32()), 36))
		f, err := root.OpenFile(tmpName, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return tmpName, f, err
	}
	return "", nil, fmt.Errorf("cannot create a temporary file beside %s", name)
}

// cause strips the path an *fs.PathError names (the temporary file's), so
// that messages name the file the user asked for.
func cause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		if errors.Is(pe.Err, fs.ErrNotExist) {
			return errors.New("its folder does not exist")
		}
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
