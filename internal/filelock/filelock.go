// Package filelock holds the advisory locks that keep two hookctl
// processes from changing the same file or folder at once: flock(2) on
// Unix, LockFileEx on Windows. A lock belongs to the open file it was taken
// on and goes with it when the file is closed or the process ends, so a
// crash never leaves one behind.
package filelock

import (
	"errors"
	"os"
)

// ErrLocked is TryLock's error when another open file holds the lock.
var ErrLocked = errors.New("another process holds the lock")

// Lock takes an exclusive lock on f, waiting as long as another holds it.
func Lock(f *os.File) error { return lock(f, true) }

// TryLock takes an exclusive lock on f without waiting: ErrLocked when
// another holds it.
func TryLock(f *os.File) error { return lock(f, false) }

// Unlock releases the lock on f; closing f releases it too.
func Unlock(f *os.File) error { return unlock(f) }

// TryLockDir is TryLock for the folder open as dir, for edits that
// replace the folder's files (an atomic write puts a new file in place,
// so a lock on the file would lock the old one while the next process
// locks the new). The returned function releases it.
//
// On Unix the lock is on the folder itself. Windows cannot lock a
// folder's bytes: there the lock is on a file of the user's cache
// folder (hookctl\locks under %LocalAppData%) named by the folder's
// volume and file index, so that every path to the same folder takes the
// same lock, and nothing is added to the folder.
func TryLockDir(dir *os.File) (release func(), err error) { return tryLockDir(dir) }
