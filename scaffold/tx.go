package scaffold

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/hookctl/hookctl/schema"
)

// MaxEditSize bounds a file that init or import reads to edit: far beyond
// any hooks.json a person writes, and short of what would exhaust memory.
const MaxEditSize = 64 << 20

// Tx is a set of writes that stay in their bounds.
type Tx struct {
	bounds Bounds
	// root is the workspace (resolved), or the file system's root for the
	// user's scope: every write goes through it, so that a link swapped in
	// after Bounds.Check still cannot lead out.
	root    *os.Root
	rootDir string

	// fault, when set, is called just before each file is put in place,
	// and its error fails that write: tests inject faults with it.
	fault func(path string) error
}

// Begin opens the bounds for writing, checking each of folders against
// them.
func (b Bounds) Begin(folders ...string) (*Tx, error) {
	t := &Tx{bounds: b, rootDir: b.real}
	if !b.Confined() {
		t.rootDir = string(filepath.Separator)
	}
	var err error
	if t.root, err = os.OpenRoot(t.rootDir); err != nil {
		return nil, fmt.Errorf("cannot open %s: %v", t.rootDir, unwrapPath(err))
	}
	for _, dir := range folders {
		if _, err := t.target(dir); err != nil {
			t.Close()
			return nil, err
		}
	}
	return t, nil
}

// Begin opens the bounds of the answers' scope for what Apply writes: the
// folder of its hooks.json, and .vscode with VSCode.
func Begin(opts Options) (*Tx, error) {
	b, err := NewBounds(opts.Scope, opts.Dir, opts.Home)
	if err != nil {
		return nil, err
	}
	config := ConfigPath(opts.Scope, opts.Dir, opts.Home)
	// The file first, so that a refusal names it.
	if _, err := b.Check(config); err != nil {
		return nil, err
	}
	folders := []string{filepath.Dir(config)}
	if opts.VSCode && opts.Scope == Workspace {
		folders = append(folders, filepath.Join(opts.Dir, ".vscode"))
	}
	return b.Begin(folders...)
}

// rel is a real path's name beneath the root.
func (t *Tx) rel(real string) (string, error) {
	r, err := filepath.Rel(t.rootDir, real)
	if err != nil || !within(t.rootDir, real) {
		return "", fmt.Errorf("%s is outside %s", real, t.rootDir)
	}
	return r, nil
}

// target checks path against the bounds and returns its name beneath the
// root.
func (t *Tx) target(path string) (string, error) {
	real, err := t.bounds.Check(path)
	if err != nil {
		return "", err
	}
	return t.rel(real)
}

// mkdirAll creates the folder named beneath the root and the folders above
// it that are missing.
func (t *Tx) mkdirAll(dir, name string) error {
	var missing []string
	for n := name; n != "." && n != string(filepath.Separator); n = filepath.Dir(n) {
		if _, err := t.root.Lstat(n); err == nil {
			break
		}
		missing = append(missing, n)
	}
	for i := len(missing) - 1; i >= 0; i-- {
		n := missing[i]
		err := t.root.Mkdir(n, 0o755)
		if errors.Is(err, fs.ErrExist) {
			continue // another process made it: not this one's to remove
		}
		if err != nil {
			return fmt.Errorf("cannot create %s: %v", dir, unwrapPath(err))
		}
	}
	return nil
}

// ReadFile reads a file to edit, through the bounds: a regular file of at
// most MaxEditSize bytes. It returns nil and no error when the file does
// not exist.
func (t *Tx) ReadFile(path string) ([]byte, error) {
	name, err := t.target(path)
	if err != nil {
		return nil, err
	}
	src, err := readEditable(path, func() (*os.File, error) {
		return t.root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return src, err
}

// Load reads a hooks.json to edit through the bounds, as LoadExisting.
func (t *Tx) Load(path string) (*Existing, error) {
	src, err := t.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseExisting(path, src)
}

// readEditable reads the file that open opens, refusing one that is not a
// regular file or is larger than MaxEditSize. Its fs.ErrNotExist is
// returned as it is.
func readEditable(path string, open func() (*os.File, error)) ([]byte, error) {
	// Opened without blocking, so that a FIFO in its place cannot hang
	// the read; it is refused below.
	f, err := open()
	if errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", path, unwrapPath(err))
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", path, unwrapPath(err))
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("cannot edit %s: it is %s, not a regular file", path, describeMode(fi.Mode()))
	}
	src, err := io.ReadAll(io.LimitReader(f, MaxEditSize+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", path, unwrapPath(err))
	}
	if len(src) > MaxEditSize {
		return nil, fmt.Errorf("cannot edit %s: it is larger than %d MiB", path, MaxEditSize>>20)
	}
	return src, nil
}

func describeMode(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}

// Edit is one file to write.
type Edit struct {
	Path string
	// Old is what the file held when it was read, nil when it did not
	// exist.
	Old []byte
	// New is the content to write.
	New []byte
	// Perm is the mode of a new file; an existing one keeps its own.
	Perm fs.FileMode
	// Exec makes the file executable (0755), new or not.
	Exec bool
}

// Write puts e.New in place atomically, through the bounds, creating the
// folders it needs.
func (t *Tx) Write(e Edit) error {
	name, err := t.target(e.Path)
	if err != nil {
		return err
	}
	if err := t.mkdirAll(filepath.Dir(e.Path), filepath.Dir(name)); err != nil {
		return err
	}
	perm := e.Perm
	if fi, err := t.root.Lstat(name); err == nil && e.Old != nil {
		perm = fi.Mode().Perm()
	}
	if e.Exec {
		perm = 0o755
	}
	err = schema.WriteFileAtomicIn(t.root, name, e.New, perm, func() error {
		if t.fault != nil {
			return t.fault(e.Path)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("cannot write %s: %v", e.Path, cause(err))
	}
	return nil
}

// Close releases the bounds.
func (t *Tx) Close() error {
	if t.root != nil {
		return t.root.Close()
	}
	return nil
}

// cause is the reason an error of the file system gives, without the path
// it names, which may be a temporary file's.
func cause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
