//go:build unix

package tracelog

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"github.com/hookctl/hookctl/internal/filelock"
)

// AppendLine is Append for a line already encoded, its newline included.
// Writers, in any number of processes, take turns under an exclusive
// flock(2) of FILE.lock: each writes its line with a single write(2) to
// the file opened with O_APPEND, and when the disk is full, or the file
// at a limit on its size, and only part of the line went in, it cuts the
// file back to where the line started, so that no part of a record is
// left for the next one to be glued to. A line also starts on a line of
// its own when the file does not end with a newline (a record cut by a
// crash). Without the lock (a folder where the lock file cannot be
// created) the line is still written, and a part of it cannot be cut back.
func (l *Log) AppendLine(line []byte) error {
	if l.Path == os.DevNull {
		return nil
	}
	var unlock func()
	defer func() {
		if unlock != nil {
			unlock()
		}
	}()
	for attempt := 0; ; attempt++ {
		fd, st, err := l.openAppend()
		if err != nil {
			return err
		}
		if unlock == nil && attempt == 0 {
			// Taken once the folder exists, which openAppend makes.
			unlock = l.lock()
			if unlock != nil && !samePath(l.Path, st) {
				// Rotated between the open and the lock: the file to
				// write is the new one.
				syscall.Close(fd)
				continue
			}
		}
		if unlock != nil {
			// Under the lock the size is where this line starts.
			if err := syscall.Fstat(fd, st); err != nil {
				syscall.Close(fd)
				return fmt.Errorf("cannot write the log %s: %v", l.Path, err)
			}
		}
		if attempt < 2 && st.Size > 0 && st.Size+int64(len(line)) > l.rotateAt() {
			moved, err := l.rotate(st, unlock != nil)
			if err == nil && moved {
				syscall.Close(fd)
				continue
			}
			// A rotation that cannot happen (a folder where the lock file
			// cannot be created) must not cost the record: it goes on the
			// end of the file as it is.
		}
		err = l.write(fd, st.Size, line, unlock != nil)
		if cerr := syscall.Close(fd); err == nil && cerr != nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("cannot write the log %s: %v", l.Path, err)
		}
		return nil
	}
}

// write writes line at the end of the file fd, whose size is size, on a
// line of its own. When only part of it is written and the writers' lock
// is held (held), the file is cut back to size.
func (l *Log) write(fd int, size int64, line []byte, held bool) error {
	if size > 0 {
		last := make([]byte, 1)
		if n, _ := syscall.Pread(fd, last, size-1); n == 1 && last[0] != '\n' {
			line = append([]byte{'\n'}, line...)
		}
	}
	n, err := writeOnce(fd, line)
	if n == len(line) {
		return nil
	}
	if err == nil {
		err = fmt.Errorf("only %d of %d bytes were written (is the disk full?)", n, len(line))
	}
	if n > 0 && held {
		if terr := syscall.Ftruncate(fd, size); terr != nil {
			return fmt.Errorf("%v, and the part written could not be taken back: %v", err, terr)
		}
		return fmt.Errorf("%v: the record was not written", err)
	}
	return err
}

// lock takes the writers' exclusive lock, FILE.lock, and returns what
// releases it; nil when it cannot be had.
func (l *Log) lock() func() {
	flags := syscall.O_RDWR | syscall.O_CREAT | syscall.O_CLOEXEC
	if l.Within != "" {
		flags |= syscall.O_NOFOLLOW // a log a command names: no link
	}
	fd, err := open(l.Path+".lock", flags, 0o600)
	if err != nil {
		return nil
	}
	f := os.NewFile(uintptr(fd), l.Path+".lock")
	if filelock.Lock(f) != nil {
		f.Close()
		return nil
	}
	return func() {
		_ = filelock.Unlock(f)
		f.Close()
	}
}

// samePath reports whether the file at path is the one st describes.
func samePath(path string, st *syscall.Stat_t) bool {
	var now syscall.Stat_t
	return syscall.Stat(path, &now) == nil && now.Dev == st.Dev && now.Ino == st.Ino
}

// openAppend opens the log for appending, creating it and its folder when
// missing, for reading too: a line starts on a line of its own when the
// file's last byte is not a newline. O_NONBLOCK keeps a FIFO from blocking
// the open; fstat then refuses anything but a regular file.
func (l *Log) openAppend() (int, *syscall.Stat_t, error) {
	const flags = syscall.O_RDWR | syscall.O_APPEND | syscall.O_CREAT | syscall.O_CLOEXEC | syscall.O_NONBLOCK
	if l.Within != "" {
		fd, err := l.openConfined(flags)
		if err != nil {
			return -1, nil, err
		}
		return l.checkRegular(fd)
	}
	fd, err := open(l.Path, flags, 0o600)
	if errors.Is(err, syscall.ENOENT) {
		if merr := os.MkdirAll(filepath.Dir(l.Path), 0o700); merr != nil {
			return -1, nil, fmt.Errorf("cannot create the log's folder %s: %v", filepath.Dir(l.Path), folderError(merr, filepath.Dir(l.Path)))
		}
		fd, err = open(l.Path, flags, 0o600)
	}
	if err != nil {
		if errors.Is(err, syscall.ENXIO) {
			return -1, nil, fmt.Errorf("cannot write the log %s: it is not a regular file", l.Path)
		}
		return -1, nil, fmt.Errorf("cannot open the log %s: %v", l.Path, pathReason(l.Path, err))
	}
	return l.checkRegular(fd)
}

// checkRegular returns the stat of the log opened on fd, closing it and
// refusing anything but a regular file.
func (l *Log) checkRegular(fd int) (int, *syscall.Stat_t, error) {
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		syscall.Close(fd)
		return -1, nil, fmt.Errorf("cannot open the log %s: %v", l.Path, err)
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		syscall.Close(fd)
		return -1, nil, fmt.Errorf("cannot write the log %s: it is not a regular file", l.Path)
	}
	return fd, &st, nil
}

// rotate renames the log to FILE.1 when the file at the path is still the
// one the caller opened (st) and still too large to take another line.
// The check and the rename happen under the writers' lock (held when the
// caller holds it; else taken here), so of the writers that find the file
// full at once, one renames it and the others see that it was. It reports
// whether the file at the path is now another one than st.
func (l *Log) rotate(st *syscall.Stat_t, held bool) (bool, error) {
	if !held {
		unlock := l.lock()
		if unlock == nil {
			return false, errors.New("the lock cannot be had")
		}
		defer unlock()
	}
	var now syscall.Stat_t
	if err := syscall.Stat(l.Path, &now); err != nil {
		// Gone: the next open creates a new one.
		return true, nil
	}
	if now.Dev != st.Dev || now.Ino != st.Ino {
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

// writeOnce writes b with one write(2), retried only when a signal
// interrupted it before anything was written, and returns how much of b
// went in: a second write for the rest could be interleaved with another
// process's line.
func writeOnce(fd int, b []byte) (int, error) {
	for {
		n, err := syscall.Write(fd, b)
		if err == syscall.EINTR {
			continue
		}
		return max(n, 0), err
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
