//go:build windows

package tracelog

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/windows"

	"github.com/hookctl/hookctl/internal/filelock"
)

// AppendLine is Append for a line already encoded, its newline included.
// Writers take turns under a lock of FILE.lock (filelock): each writes its
// line with one WriteFile to the file opened for appending, on a line of
// its own, and cuts the file back to where the line started when only
// part of it went in. The log is not rotated: Windows refuses to rename a
// file another process holds open, as every writer may.
func (l *Log) AppendLine(line []byte) error {
	if l.Path == os.DevNull {
		return nil
	}
	if l.Within != "" {
		// A log a command names: never through a link (confined).
		if _, _, err := l.confined(); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(filepath.Dir(l.Path), 0o700); err != nil {
		return fmt.Errorf("cannot create the log's folder %s: %v", filepath.Dir(l.Path), folderError(err, filepath.Dir(l.Path)))
	}
	if lock, err := os.OpenFile(l.Path+".lock", os.O_RDWR|os.O_CREATE, 0o600); err == nil {
		if filelock.Lock(lock) == nil {
			defer filelock.Unlock(lock)
		}
		defer lock.Close()
	}
	f, err := os.OpenFile(l.Path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("cannot open the log %s: %v", l.Path, pathReason(l.Path, unwrapPath(err)))
	}
	defer f.Close()
	at, err := position(f)
	if err != nil {
		return fmt.Errorf("cannot write the log %s: %v", l.Path, err)
	}
	if at.off > 0 {
		last := make([]byte, 1)
		if n, _ := f.ReadAt(last, at.off-1); n == 1 && last[0] != '\n' {
			line = append([]byte{'\n'}, line...)
		}
	}
	var n uint32
	err = windows.WriteFile(windows.Handle(f.Fd()), line, &n, nil)
	if int(n) == len(line) {
		return nil
	}
	if err == nil {
		err = fmt.Errorf("only %d of %d bytes were written (is the disk full?)", n, len(line))
	}
	if n > 0 {
		if terr := f.Truncate(at.off); terr != nil {
			return fmt.Errorf("cannot write the log %s: %v, and the part written could not be taken back: %v", l.Path, err, terr)
		}
	}
	return fmt.Errorf("cannot write the log %s: %v", l.Path, err)
}

// openRead opens a log file for reading, refusing anything but a regular
// file.
func openRead(path string) (*os.File, Position, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, Position{}, err
		}
		return nil, Position{}, fmt.Errorf("cannot read the log %s: %s", path, pathReason(path, unwrapPath(err)))
	}
	at, err := position(f)
	if err != nil {
		f.Close()
		return nil, Position{}, fmt.Errorf("cannot read the log %s: %v", path, err)
	}
	return f, at, nil
}

// statLog says which file is at path now, and its size, as a Position at
// its end.
func statLog(path string) (Position, error) {
	f, err := os.Open(path)
	if err != nil {
		return Position{}, err
	}
	defer f.Close()
	return position(f)
}

// position is where f ends, with the volume and file index that name the
// file whatever its path (Windows' device and inode).
func position(f *os.File) (Position, error) {
	var info windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(windows.Handle(f.Fd()), &info); err != nil {
		return Position{}, err
	}
	if info.FileAttributes&(windows.FILE_ATTRIBUTE_DIRECTORY|windows.FILE_ATTRIBUTE_DEVICE) != 0 {
		return Position{}, errors.New("it is not a regular file")
	}
	return Position{
		dev: uint64(info.VolumeSerialNumber),
		ino: uint64(info.FileIndexHigh)<<32 | uint64(info.FileIndexLow),
		off: int64(info.FileSizeHigh)<<32 | int64(info.FileSizeLow),
	}, nil
}
