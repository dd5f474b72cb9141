package lint

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/hookctl/hookctl/schema"
)

// Output is where lint --output writes: a file beneath the current
// folder, opened as an os.Root so that no link among its folders leads
// out, and written by renaming a new file over it, which replaces a link
// at its name instead of writing through it. A CI job's workspace is the
// pull request's: a link there must not turn the findings into a write
// over the job's own files (hookctl itself, say). The findings are
// printed into Buf, and Write writes them.
type Output struct {
	Buf  bytes.Buffer
	root *os.Root
	name string
}

// OpenOutput checks path before anything is linted: inside cwd, the
// current folder, and not a folder itself. Close releases it.
func OpenOutput(cwd, path string) (*Output, error) {
	rel := path
	if filepath.IsAbs(path) {
		var err error
		if rel, err = filepath.Rel(cwd, path); err != nil {
			rel = path
		}
	}
	if !filepath.IsLocal(rel) {
		return nil, fmt.Errorf("%s is outside the current folder %s: lint writes its findings only inside it", path, cwd)
	}
	root, err := os.OpenRoot(cwd)
	if err != nil {
		return nil, err
	}
	if dir := filepath.Dir(rel); dir != "." {
		if _, err := root.Stat(dir); err != nil {
			root.Close()
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return nil, fmt.Errorf("the folder of %s cannot be reached inside the current folder %s (%v): lint writes its findings only inside it", path, cwd, err)
		}
	}
	if info, err := root.Lstat(rel); err == nil && info.IsDir() {
		root.Close()
		return nil, fmt.Errorf("%s is a folder", path)
	}
	return &Output{root: root, name: filepath.Clean(rel)}, nil
}

// Write writes what Buf holds to the file, whole or not at all.
func (o *Output) Write() error {
	return schema.WriteFileAtomicIn(o.root, o.name, o.Buf.Bytes(), 0o644, nil)
}

// Close releases the current folder.
func (o *Output) Close() error { return o.root.Close() }
