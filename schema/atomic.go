package schema

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, cause(err))
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("cannot write %s: %w", path, cause(err))
	}
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return fmt.Errorf("cannot write %s: %w", path, cause(err))
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("cannot write %s: %w", path, cause(err))
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, cause(err))
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, cause(err))
	}
	return nil
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
	return err
}
