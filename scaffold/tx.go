package scaffold

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/hookctl/hookctl/internal/filelock"
	"github.com/hookctl/hookctl/schema"
)

// MaxEditSize bounds a file that init or import reads to edit: far beyond
// any hooks.json a person writes, and short of what would exhaust memory.
const MaxEditSize = 64 << 20

// lockWait is how long Begin waits for another hookctl to finish editing
// the same folder before it gives up.
const lockWait = 60 * time.Second

// Tx is a set of writes done all or nothing. Between Begin and Close it
// holds a lock on each folder it edits, so that two hookctl init or import
// at once never lose each other's hook; each write is refused when the file
// is not what was read (another program saved it meanwhile), and a failed
// step undoes every write before it.
//
// The lock is an advisory lock of the folder (filelock.TryLockDir), not of
// the file: an atomic write replaces the file's inode, so a lock on the
// file would lock the old one while the next process locks the new, and a
// lock file beside it would be one more file in the user's repository.
type Tx struct {
	bounds Bounds
	// root is the workspace (resolved), or the file system's root for the
	// user's scope: every write goes through it, so that a link swapped in
	// after Bounds.Check still cannot lead out.
	root    *os.Root
	rootDir string
	locks   []*os.File
	// lockedNames are the folders locked, beneath the root; made are
	// the folders the Tx made.
	lockedNames []string
	made        []string
	// unlock releases the lock of each folder in locks.
	unlock []func()
	// undo undoes the writes done, in the order they were done; kept are
	// the second names of the files replaced, which undo renames back.
	undo      []func() error
	kept      []string
	committed bool
	// journal records the writes on disk, for the next Tx to undo when
	// this one is killed before it is done.
	journal *journal
	// Recovered names the files a Tx killed before it was done had
	// written, which Begin put back as they were.
	Recovered []string
	// Follow, set before Commit, keeps the journal after the commit until
	// Done: the caller has work that goes with the writes (init renews the
	// workspace's trust over them). Unfinished is, when a Tx that had set
	// it was killed between its Commit and its Done, what it wrote: the
	// caller does what that Tx left undone.
	Follow     bool
	Unfinished *Unfinished

	// fault, when set, is called just before each file is put in place,
	// and its error fails that write: tests inject faults with it.
	fault func(path string) error
}

// Begin opens the bounds for writing and locks each of folders, in order,
// creating those that do not exist (a rollback removes them again).
// Processes that lock the same folders in the same order wait for each
// other; ctx ends the wait (its error is returned as it is).
func (b Bounds) Begin(ctx context.Context, folders ...string) (*Tx, error) {
	t := &Tx{bounds: b, rootDir: b.real}
	if !b.Confined() {
		t.rootDir = string(filepath.Separator)
	}
	var err error
	if t.root, err = os.OpenRoot(t.rootDir); err != nil {
		return nil, fmt.Errorf("cannot open %s: %v", t.rootDir, unwrapPath(err))
	}
	for i, dir := range folders {
		if err := t.lock(ctx, dir); err != nil {
			t.Close()
			return nil, err
		}
		// Under the lock, what a Tx killed here left is put right first
		// (the folders this one locks are left, even empty).
		real := filepath.Join(t.rootDir, t.lockedNames[i])
		undone, unfinished := recoverJournal(real, t.isLocked)
		t.Recovered = append(t.Recovered, undone...)
		if unfinished != nil {
			t.Unfinished = unfinished
		}
		if i == 0 {
			t.journal = &journal{path: journalPath(real), Root: t.rootDir, Folder: real}
		}
	}
	// The folders made to be locked are this Tx's to remove, if it is
	// killed too (a folder just made held no journal to keep).
	for _, n := range t.made {
		t.journal.add(journalStep{Name: n, Dir: true})
	}
	return t, nil
}

// Begin opens the bounds of the answers' scope and locks the folder of its
// hooks.json, and .vscode with VSCode: what NewPlan reads and Apply writes.
func Begin(ctx context.Context, opts Options) (*Tx, error) {
	b, err := NewBounds(opts.Scope, opts.Dir, opts.Home)
	if err != nil {
		return nil, err
	}
	config := ConfigPath(opts.Scope, opts.Dir, opts.Home)
	files := []string{config}
	folders := []string{filepath.Dir(config)}
	if opts.VSCode && opts.Scope == Workspace {
		files = append(files, filepath.Join(opts.Dir, ".vscode", "settings.json"))
		folders = append(folders, filepath.Join(opts.Dir, ".vscode"))
	}
	// The files first, so that a refusal names the file.
	for _, f := range files {
		if _, err := b.Check(f); err != nil {
			return nil, err
		}
	}
	return b.Begin(ctx, folders...)
}

// isLocked reports whether the real path is a folder the Tx holds locked.
func (t *Tx) isLocked(real string) bool {
	for _, n := range t.lockedNames {
		if filepath.Join(t.rootDir, n) == real {
			return true
		}
	}
	return false
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

func (t *Tx) lock(ctx context.Context, dir string) error {
	name, err := t.target(dir)
	if err != nil {
		return err
	}
	deadline := time.Now().Add(lockWait)
	for {
		if err := t.mkdirAll(dir, name); err != nil {
			return err
		}
		f, err := t.root.Open(name)
		if err != nil {
			return fmt.Errorf("cannot open %s to lock it: %v", dir, unwrapPath(err))
		}
		release, err := lockDir(ctx, f, deadline)
		if err != nil {
			f.Close()
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("cannot lock %s: %v", dir, err)
		}
		// A process that rolled back while this one waited may have
		// removed the folder: then the lock is on a folder no one uses,
		// and it is taken again on the new one.
		held, err1 := f.Stat()
		now, err2 := t.root.Lstat(name)
		if err1 == nil && err2 == nil && os.SameFile(held, now) {
			t.locks = append(t.locks, f)
			t.lockedNames = append(t.lockedNames, name)
			t.unlock = append(t.unlock, release)
			return nil
		}
		release()
		f.Close()
		if time.Now().After(deadline) {
			return fmt.Errorf("cannot lock %s: it keeps being removed", dir)
		}
	}
}

// lockDir takes an exclusive lock on the folder open as f, waiting until
// deadline or the end of ctx; the returned function releases it.
func lockDir(ctx context.Context, f *os.File, deadline time.Time) (func(), error) {
	wait := time.Millisecond
	for {
		release, err := filelock.TryLockDir(f)
		if err == nil {
			return release, nil
		}
		if !errors.Is(err, filelock.ErrLocked) {
			return nil, err
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("another program has held its lock for %v (a hookctl init or import that is stuck?): try again once it is done", lockWait)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(wait):
		}
		wait = min(2*wait, 50*time.Millisecond)
	}
}

// mkdirAll creates the folder named beneath the root and the folders above
// it that are missing; the rollback removes those it created.
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
		t.journal.add(journalStep{Name: n, Dir: true})
		err := t.root.Mkdir(n, 0o755)
		if errors.Is(err, fs.ErrExist) {
			continue // another process made it: not this one's to remove
		}
		if err != nil {
			return fmt.Errorf("cannot create %s: %v", dir, unwrapPath(err))
		}
		t.made = append(t.made, n)
		t.undo = append(t.undo, func() error {
			err := t.root.Remove(n)
			if err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTEMPTY) && !errors.Is(err, syscall.EEXIST) {
				return err
			}
			return nil
		})
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
	var pf *schema.ProcessFileError
	if errors.As(err, &pf) {
		return nil, fmt.Errorf("cannot read %s: it %s", path, pf.Reason())
	}
	var ol *schema.OutsideLinkError
	if errors.As(err, &ol) {
		return nil, fmt.Errorf("cannot read %s: it %s", path, ol.Reason())
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", path, unwrapPath(err))
	}
	defer f.Close()
	src, err := schema.ReadOpen(f, path, MaxEditSize)
	var nr *schema.NotRegularError
	var tl *schema.TooLargeError
	switch {
	case errors.As(err, &nr):
		return nil, &NotRegularError{Path: path, Mode: nr.Mode}
	case errors.As(err, &tl):
		return nil, fmt.Errorf("cannot read %s: it is larger than %d MiB", path, MaxEditSize>>20)
	case err != nil:
		return nil, fmt.Errorf("cannot read %s: %w", path, unwrapPath(err))
	}
	return src, nil
}

// ReadRegular reads a file a workspace controls: a regular file of at
// most MaxEditSize bytes, opened so that a FIFO in its place cannot hang the
// read (a *NotRegularError). A file that does not exist is an error that
// matches fs.ErrNotExist.
func ReadRegular(path string) ([]byte, error) {
	return readEditable(path, func() (*os.File, error) { return schema.Open(path) })
}

// NotRegularError is a file that is not read because it is not a regular
// file: a folder, a FIFO, a device.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("cannot read %s: it is %s, not a regular file", e.Path, describeMode(e.Mode))
}

// What says what the file is instead: "a folder", "a named pipe (FIFO)"...
func (e *NotRegularError) What() string { return describeMode(e.Mode) }

func describeMode(m fs.FileMode) string { return schema.FileKind(m) }

// Edit is one file to write.
type Edit struct {
	Path string
	// Old is what the file held when it was read, nil when it did not
	// exist: the write is refused when the file holds anything else by
	// then.
	Old []byte
	// New is the content to write.
	New []byte
	// Perm is the mode of a new file; an existing one keeps its own.
	Perm fs.FileMode
	// Exec makes the file executable (0755), new or not.
	Exec bool
}

// ChangedError is a write refused because the file changed on disk since
// it was read.
type ChangedError struct{ Path string }

func (e *ChangedError) Error() string {
	return fmt.Sprintf("%s changed on disk while hookctl was editing it (another program saved it): "+
		"it was left as that program wrote it, and nothing else was written; run the command again", e.Path)
}

// Write puts e.New in place atomically, through the bounds, creating the
// folders it needs, and remembers how to undo it.
func (t *Tx) Write(e Edit) (err error) {
	name, err := t.target(e.Path)
	if err != nil {
		return err
	}
	if err := t.mkdirAll(filepath.Dir(e.Path), filepath.Dir(name)); err != nil {
		return err
	}
	perm, oldPerm := e.Perm, fs.FileMode(0)
	if fi, err := t.root.Lstat(name); err == nil {
		oldPerm = fi.Mode().Perm()
		if e.Old != nil {
			perm = oldPerm
		}
	}
	if e.Exec {
		perm = 0o755
	}
	same := func() error {
		now, err := readEditable(e.Path, func() (*os.File, error) {
			return t.root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
		})
		switch {
		case errors.Is(err, fs.ErrNotExist) && e.Old == nil:
			return nil
		case err == nil && e.Old != nil && bytes.Equal(now, e.Old):
			return nil
		}
		// Written, removed, or replaced by something else: a link, a
		// folder, a FIFO.
		return &ChangedError{Path: e.Path}
	}
	// What writes of this file killed before their rename left.
	schema.RemoveLeftovers(t.root, name)
	if err := same(); err != nil {
		return err
	}
	// The file replaced is kept under a second name, a hard link to it
	// that needs no room on the disk, so that undoing the write is a
	// rename that a full disk cannot fail, and the original comes back
	// whole: its inode, mode and owner. Not an executable one: its second
	// name would be an executable that a kill could leave in the folder,
	// new code to the workspace's trust; its content is kept in the
	// journal instead, and rewritten to undo it.
	step := journalStep{Name: name, SHA256: sum(e.New), New: e.Old == nil}
	kept := ""
	if e.Old != nil {
		if oldPerm&0o111 == 0 {
			kept = filepath.Join(filepath.Dir(name), "."+filepath.Base(name)+".undo"+strconv.FormatUint(uint64(rand.Uint32()), 36))
			step.Kept = kept
		} else {
			step.Old, step.Mode = e.Old, oldPerm
		}
	}
	// Recorded before it is done, so that a kill at any point after
	// leaves what the next Tx can undo.
	t.journal.add(step)
	if kept != "" && t.root.Link(name, kept) != nil {
		kept = "" // no hard links here: the content is rewritten instead
	}
	err = schema.WriteFileAtomicIn(t.root, name, e.New, perm, func() error {
		if t.fault != nil {
			if err := t.fault(e.Path); err != nil {
				return err
			}
		}
		return same()
	})
	var me *schema.ModeError
	if err != nil && kept != "" && !errors.As(err, &me) {
		_ = t.root.Remove(kept)
	}
	var ce *ChangedError
	if errors.As(err, &ce) {
		return err
	}
	if err != nil && !errors.As(err, &me) {
		return fmt.Errorf("cannot write %s: %v", e.Path, cause(err))
	}
	// In place (perhaps without its mode): undone with the rest.
	defer func() {
		if me != nil {
			err = fmt.Errorf("cannot write %s: %v", e.Path, me)
		}
	}()
	old := e.Old
	switch {
	case old == nil:
		t.undo = append(t.undo, func() error { return t.root.Remove(name) })
	case kept != "":
		t.undo = append(t.undo, func() error { return t.root.Rename(kept, name) })
		t.kept = append(t.kept, kept)
	default:
		t.undo = append(t.undo, func() error { return schema.WriteFileAtomicIn(t.root, name, old, oldPerm, nil) })
	}
	return nil
}

// Rollback undoes the writes, last first, and says which could not be
// undone.
func (t *Tx) Rollback() error {
	var failed []string
	for i := len(t.undo) - 1; i >= 0; i-- {
		if err := t.undo[i](); err != nil {
			failed = append(failed, cause(err).Error())
		}
	}
	t.undo, t.kept = nil, nil
	if len(failed) > 0 {
		// The journal stays, for the next Tx to try again.
		return fmt.Errorf("undoing the writes failed too: %s", strings.Join(failed, "; "))
	}
	t.journal.done()
	return nil
}

// Commit keeps the writes: Close no longer undoes them.
func (t *Tx) Commit() {
	t.committed = true
	t.undo = nil
	t.journal.commit(t.Follow)
	for _, k := range t.kept {
		_ = t.root.Remove(k)
	}
	t.kept = nil
	if !t.Follow {
		t.journal.done()
	}
}

// Done says that the caller's work after a Commit with Follow is done:
// the journal goes.
func (t *Tx) Done() { t.journal.done() }

// Finished says that the caller has done what Unfinished says was left
// undone: the journal that said so goes (unless this Tx has written its
// own over it).
func (t *Tx) Finished() {
	if t.Unfinished == nil {
		return
	}
	t.Unfinished = nil
	if t.journal != nil && t.journal.path != "" && len(t.journal.Steps) == 0 {
		_ = os.Remove(t.journal.path)
	}
}

// Close undoes the writes unless they were committed, and releases the
// locks.
func (t *Tx) Close() error {
	var err error
	if !t.committed {
		err = t.Rollback()
	}
	for i, f := range t.locks {
		t.unlock[i]()
		f.Close()
	}
	t.locks, t.unlock = nil, nil
	if t.root != nil {
		t.root.Close()
	}
	return err
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
