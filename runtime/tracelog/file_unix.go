//go:build unix

package tracelog

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// appendFile is the log opened for appending: a descriptor written with
// write(2) itself, so that a line is one write, never two that another
// process's line could come between.
type appendFile struct {
	fd int
	st syscall.Stat_t
}

func (f *appendFile) size() int64 { return f.st.Size }

func (f *appendFile) write(b []byte) error { return writeAll(f.fd, b) }

func (f *appendFile) close() error { return syscall.Close(f.fd) }

// openAppend opens the log for appending, creating it and its folder when
// missing. O_NONBLOCK keeps a FIFO from blocking the open; fstat then
// refuses anything but a regular file.
func (l *Log) openAppend() (*appendFile, error) {
	const flags = syscall.O_WRONLY | syscall.O_APPEND | syscall.O_CREAT | syscall.O_CLOEXEC | syscall.O_NONBLOCK
	fd, err := open(l.Path, flags, 0o600)
	if errors.Is(err, syscall.ENOENT) {
		if merr := os.MkdirAll(filepath.Dir(l.Path), 0o700); merr != nil {
			return nil, fmt.Errorf("cannot create the log's folder %s: %v", filepath.Dir(l.Path), folderError(merr, filepath.Dir(l.Path)))
		}
		fd, err = open(l.Path, flags, 0o600)
	}
	if err != nil {
		if errors.Is(err, syscall.ENXIO) {
			return nil, fmt.Errorf("cannot write the log %s: it is not a regular file", l.Path)
		}
		return nil, fmt.Errorf("cannot open the log %s: %v", l.Path, pathReason(l.Path, err))
	}
	f := &appendFile{fd: fd}
	if err := syscall.Fstat(fd, &f.st); err != nil {
		syscall.Close(fd)
		return nil, fmt.Errorf("cannot open the log %s: %v", l.Path, err)
	}
	if f.st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		syscall.Close(fd)
		return nil, fmt.Errorf("cannot write the log %s: it is not a regular file", l.Path)
	}
	return f, nil
}

// rotate renames the log to FILE.1 when the file at the path is still the
// one the caller opened (f) and still too large to take another line.
// The check and the rename happen under an exclusive flock(2) of
// FILE.lock, so of the writers that find the file full at once, one
// renames it and the others see that it was. It reports whether the file
// at the path is now another one than f.
func (l *Log) rotate(f *appendFile) (bool, error) {
	lock, err := open(l.Path+".lock", syscall.O_RDWR|syscall.O_CREAT|syscall.O_CLOEXEC, 0o600)
	if err != nil {
		return false, err
	}
	defer syscall.Close(lock)
	for {
		err = syscall.Flock(lock, syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return false, err
	}
	defer syscall.Flock(lock, syscall.LOCK_UN)
	var now syscall.Stat_t
	if err := syscall.Stat(l.Path, &now); err != nil {
		// Gone: the next open creates a new one.
		return true, nil
	}
	if now.Dev != f.st.Dev || now.Ino != f.st.Ino {
		return true, nil
	}
	if err := os.Rename(l.Path, l.Rotated()); err != nil {
		return false, err
	}
	return true, nil
}

// open is syscall.Open, retried when a signal interrupts it.
func open(path string, flags int, perm uint32) (int, error) {
	for {
		fd, err := syscall.Open(path, flags, perm)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

// writeAll writes b with one write(2); a short write is an error rather
// than a second write, which another process's line could come between.
func writeAll(fd int, b []byte) error {
	for {
		n, err := syscall.Write(fd, b)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		if n != len(b) {
			return fmt.Errorf("only %d of %d bytes were written (is the disk full?)", n, len(b))
		}
		return nil
	}
}

// openRead opens a log file for reading. O_NONBLOCK keeps a FIFO from
// blocking the open, and anything but a regular file is refused.
func openRead(path string) (*os.File, Position, error) {
	fd, err := open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	if err != nil {
		if errors.Is(err, syscall.ENOENT) {
			return nil, Position{}, &os.PathError{Op: "open", Path: path, Err: err}
		}
		return nil, Position{}, fmt.Errorf("cannot read the log %s: %s", path, pathReason(path, err))
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		syscall.Close(fd)
		return nil, Position{}, &os.PathError{Op: "stat", Path: path, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		syscall.Close(fd)
		return nil, Position{}, fmt.Errorf("cannot read the log %s: it is not a regular file", path)
	}
	return os.NewFile(uintptr(fd), path), Position{dev: uint64(st.Dev), ino: uint64(st.Ino), off: st.Size}, nil
}

// statLog says which file is at path now, and its size, as a Position at
// its end.
func statLog(path string) (Position, error) {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		return Position{}, err
	}
	return Position{dev: uint64(st.Dev), ino: uint64(st.Ino), off: st.Size}, nil
}
