package tracelog

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// EnvLog names the environment variable that says where the log is,
// instead of the default, for every command that writes or reads it.
const EnvLog = "HOOKCTL_LOG"

// EnvTest names the environment variable that hookctl test sets to 1 for
// every handler it runs. hookctl trace and hookctl run record nothing
// then, so that test cases and contract checks never fill the log of real
// runs.
const EnvTest = "HOOKCTL_TEST"

// Testing reports whether getenv says the run is one of hookctl test's, in
// which nothing is recorded.
func Testing(getenv func(string) string) bool { return getenv(EnvTest) == "1" }

// RotateSize is the size at which the log is renamed to FILE.1 and a new
// one started.
const RotateSize = 10 << 20

// Log is a log file.
type Log struct {
	// Path is the file. os.DevNull means no log: appends write nothing
	// and reads find nothing.
	Path string
	// RotateAt is the size at which the file is rotated; 0 means
	// RotateSize.
	RotateAt int64
}

// Default returns the log named by HOOKCTL_LOG, else the default one (see
// DefaultPath).
func Default() (*Log, error) {
	p, err := DefaultPath(os.Getenv)
	if err != nil {
		return nil, err
	}
	return &Log{Path: p}, nil
}

// DefaultPath returns where the log is: $HOOKCTL_LOG when set, else
// $XDG_STATE_HOME/hookctl/runs.jsonl, else
// $HOME/.local/state/hookctl/runs.jsonl. A relative XDG_STATE_HOME is
// ignored, as the XDG base directory specification asks.
func DefaultPath(getenv func(string) string) (string, error) {
	if p := getenv(EnvLog); p != "" {
		return p, nil
	}
	if d := getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "hookctl", "runs.jsonl"), nil
	}
	home := getenv("HOME")
	if home == "" {
		return "", fmt.Errorf("cannot tell where the log goes: HOME is not set; set %s to a file", EnvLog)
	}
	return filepath.Join(home, ".local", "state", "hookctl", "runs.jsonl"), nil
}

// Rotated is the older file the log keeps after a rotation.
func (l *Log) Rotated() string { return l.Path + ".1" }

func (l *Log) rotateAt() int64 {
	if l.RotateAt > 0 {
		return l.RotateAt
	}
	return RotateSize
}

// Append writes the record as one line at the end of the log, creating
// the file (mode 0600) and its folders (0700) when needed, and rotating
// it first when the line would take it past its size. The line is written
// with a single write(2) to the file opened with O_APPEND, so concurrent
// appends, from any number of processes, never interleave. A path that is
// not a regular file (a FIFO, a device, a folder) is refused: writing
// there could block the handler.
func (l *Log) Append(r *Record) error {
	line, err := r.Line()
	if err != nil {
		return fmt.Errorf("cannot encode the record: %v", err)
	}
	return l.AppendLine(line)
}

// AppendLine is Append for a line already encoded, its newline included.
func (l *Log) AppendLine(line []byte) error {
	if l.Path == os.DevNull {
		return nil
	}
	for attempt := 0; ; attempt++ {
		fd, st, err := l.openAppend()
		if err != nil {
			return err
		}
		if attempt < 2 && st.Size > 0 && st.Size+int64(len(line)) > l.rotateAt() {
			moved, err := l.rotate(st)
			if err == nil && moved {
				syscall.Close(fd)
				continue
			}
			// A rotation that cannot happen (a folder where the lock file
			// cannot be created) must not cost the record: it goes on the
			// end of the file as it is.
		}
		err = writeAll(fd, line)
		if cerr := syscall.Close(fd); err == nil && cerr != nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("cannot write the log %s: %v", l.Path, err)
		}
		return nil
	}
}

// openAppend opens the log for appending, creating it and its folder when
// missing. O_NONBLOCK keeps a FIFO from blocking the open; fstat then
// refuses anything but a regular file.
func (l *Log) openAppend() (int, *syscall.Stat_t, error) {
	const flags = syscall.O_WRONLY | syscall.O_APPEND | syscall.O_CREAT | syscall.O_CLOEXEC | syscall.O_NONBLOCK
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
// The check and the rename happen under an exclusive flock(2) of
// FILE.lock, so of the writers that find the file full at once, one
// renames it and the others see that it was. It reports whether the file
// at the path is now another one than st.
func (l *Log) rotate(st *syscall.Stat_t) (bool, error) {
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

// unwrapPath returns the reason an *fs.PathError gives, without the path.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// folderError is what went wrong making the folder dir: the reason alone
// when it is about dir itself, else with the path it is about (a parent
// that is a file, or that cannot be written).
func folderError(err error, dir string) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path != dir {
		return fmt.Errorf("%s: %v", pe.Path, pe.Err)
	}
	return unwrapPath(err)
}

// pathReason says why path could not be opened: for ENOTDIR, which of its
// folders is not one.
func pathReason(path string, err error) string {
	if errors.Is(err, syscall.ENOTDIR) {
		for d := filepath.Dir(path); d != filepath.Dir(d); d = filepath.Dir(d) {
			if info, serr := os.Stat(d); serr == nil && !info.IsDir() {
				return d + " is not a folder"
			}
		}
	}
	return err.Error()
}
