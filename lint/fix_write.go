package lint

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/hookctl/hookctl/schema"
)

// Write writes the fixed text of the file in its place, atomically,
// beneath its workspace (or its own folder): never through a symbolic
// link that leads out of it, and never over a file that changed since it
// was read.
func (ff FixedFile) Write() error {
	path := ff.Target.Path
	name := ff.Target.Name
	if name == "" {
		name = path
	}
	top := ff.Target.Root
	if top == "" {
		top = filepath.Dir(path)
	}
	real, err := realPath(path)
	if err != nil {
		return err
	}
	topReal, err := realPath(top)
	if err != nil {
		return err
	}
	rel, err := filepath.Rel(topReal, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return fmt.Errorf("%s leads to %s, outside %s: lint --fix writes only inside the workspace; fix it there by hand", name, real, top)
	}
	info, err := os.Stat(real)
	if err != nil {
		return err
	}
	root, err := os.OpenRoot(topReal)
	if err != nil {
		return err
	}
	defer root.Close()
	err = schema.WriteFileAtomicIn(root, rel, ff.After, info.Mode().Perm(), func() error {
		if !unchangedIn(root, rel, ff.Before) {
			return fmt.Errorf("%s changed while it was being fixed: run hookctl lint --fix again", name)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", name, err)
	}
	return nil
}

// unchangedIn reports whether the file at rel beneath root still holds
// before. It reads no more than before's length, and a file swapped for a
// FIFO or a device neither blocks nor is read: either has changed.
func unchangedIn(root *os.Root, rel string, before []byte) bool {
	f, err := root.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	now, err := schema.ReadOpen(f, rel, int64(len(before)))
	return err == nil && bytes.Equal(now, before)
}

// realPath is path made absolute, through every symbolic link.
func realPath(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}
