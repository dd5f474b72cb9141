//go:build windows

package filelock

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/windows"
)

// whole is the range every lock covers: all the bytes a file can have,
// whatever its size now.
const whole = ^uint32(0)

func lock(f *os.File, wait bool) error {
	flags := uint32(windows.LOCKFILE_EXCLUSIVE_LOCK)
	if !wait {
		flags |= windows.LOCKFILE_FAIL_IMMEDIATELY
	}
	err := windows.LockFileEx(windows.Handle(f.Fd()), flags, 0, whole, whole, new(windows.Overlapped))
	switch {
	case err == nil:
		return nil
	case errors.Is(err, windows.ERROR_LOCK_VIOLATION):
		return ErrLocked
	}
	return &os.PathError{Op: "LockFileEx", Path: f.Name(), Err: err}
}

func unlock(f *os.File) error {
	if err := windows.UnlockFileEx(windows.Handle(f.Fd()), 0, whole, whole, new(windows.Overlapped)); err != nil {
		return &os.PathError{Op: "UnlockFileEx", Path: f.Name(), Err: err}
	}
	return nil
}

func tryLockDir(dir *os.File) (func(), error) {
	var info windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(windows.Handle(dir.Fd()), &info); err != nil {
		return nil, &os.PathError{Op: "GetFileInformationByHandle", Path: dir.Name(), Err: err}
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return nil, fmt.Errorf("cannot find a folder for the lock of %s: %v", dir.Name(), err)
	}
	locks := filepath.Join(cache, "hookctl", "locks")
	if err := os.MkdirAll(locks, 0o700); err != nil {
		return nil, err
	}
	name := fmt.Sprintf("%08x-%08x%08x.lock", info.VolumeSerialNumber, info.FileIndexHigh, info.FileIndexLow)
	f, err := os.OpenFile(filepath.Join(locks, name), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := TryLock(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { _ = Unlock(f); f.Close() }, nil
}
