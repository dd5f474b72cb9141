//go:build windows

package tracelog

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/windows"
)

// appendFile is the log opened for appending. Go opens it with
// FILE_APPEND_DATA alone, so each write lands at the end of the file
// whatever other processes wrote meanwhile.
type appendFile struct {
	f  *os.File
	at Position
}

func (f *appendFile) size() int64 { return f.at.off }

// write writes b with one call; a short write is an error rather than a
// second write, which another process's line could come between.
func (f *appendFile) write(b []byte) error {
	var n uint32
	if err := windows.WriteFile(windows.Handle(f.f.Fd()), b, &n, nil); err != nil {
		return err
	}
	if int(n) != len(b) {
		return fmt.Errorf("only %d of %d bytes were written (is the disk full?)", n, len(b))
	}
	return nil
}

func (f *appendFile) close() error { return f.f.Close() }

// openAppend opens the log for appending, creating it and its folder when
// missing, and refuses anything but a regular file.
func (l *Log) openAppend() (*appendFile, error) {
	const flags = os.O_WRONLY | os.O_APPEND | os.O_CREATE
	f, err := os.OpenFile(l.Path, flags, 0o600)
	if errors.Is(err, fs.ErrNotExist) {
		if merr := os.MkdirAll(filepath.Dir(l.Path), 0o700); merr != nil {
			return nil, fmt.Errorf("cannot create the log's folder %s: %v", filepath.Dir(l.Path), folderError(merr, filepath.Dir(l.Path)))
		}
		f, err = os.OpenFile(l.Path, flags, 0o600)
	}
	if err != nil {
		return nil, fmt.Errorf("cannot open the log %s: %v", l.Path, pathReason(l.Path, unwrapPath(err)))
	}
	at, err := position(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("cannot write the log %s: %v", l.Path, err)
	}
	return &appendFile{f: f, at: at}, nil
}

// rotate reports that the log was not rotated: Windows refuses to rename a
// file that another process holds open, as every writer of the log may,
// so the log grows past RotateSize there.
func (l *Log) rotate(*appendFile) (bool, error) { return false, nil }

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
