package schema

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// MaxFileSize bounds every hooks.json, test file and script hookctl reads
// from a workspace: 16 MiB, hundreds of times the largest real one. A
// workspace controls these files, and a link to /proc/self/pagemap or
// /dev/zero must not make hookctl read for ever.
const MaxFileSize = 16 << 20

// TooLargeError is a file larger than the bound it was read with.
type TooLargeError struct {
	Path  string
	Limit int64
}

func (e *TooLargeError) Error() string { return e.Path + " " + e.Reason() }

// Reason says what is wrong without the path, for messages that name it.
func (e *TooLargeError) Reason() string {
	return fmt.Sprintf("is larger than %s, more than any hooks file or script needs, so it is not read", humanSize(e.Limit))
}

// NotRegularError is a path that is not a regular file (a folder, a FIFO,
// a device, a socket), which hookctl never reads: a FIFO would block the
// read, a device never end.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string { return e.Path + " " + e.Reason() }

// Reason says what is wrong without the path, for messages that name it.
func (e *NotRegularError) Reason() string {
	return fmt.Sprintf("is %s, not a regular file, so it is not read", FileKind(e.Mode))
}

// ReadReason says why a file could not be read, without its path: "is
// larger than 16 MiB, ...", "permission denied".
func ReadReason(err error) string {
	var tl *TooLargeError
	var nr *NotRegularError
	var pf *ProcessFileError
	var ol *OutsideLinkError
	var pe *fs.PathError
	switch {
	case errors.As(err, &ol):
		return ol.Reason()
	case errors.As(err, &tl):
		return tl.Reason()
	case errors.As(err, &pf):
		return pf.Reason()
	case errors.As(err, &nr):
		return nr.Reason()
	case errors.As(err, &pe):
		return "cannot be read: " + pe.Err.Error()
	}
	return "cannot be read: " + err.Error()
}

// FileKind names the kind of a file that is not a regular one.
func FileKind(m fs.FileMode) string {
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
	return "not a regular file"
}

func humanSize(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	if n >= 1<<10 && n%(1<<10) == 0 {
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// OpenRegular opens the regular file at path (links followed) for reading,
// without blocking on a FIFO swapped in after a check: what is not a
// regular file is a *NotRegularError, and is closed again at once; a path
// that leads to the files of the process itself (/proc/self, /dev/stdin)
// is a *ProcessFileError, not opened. Every file a workspace controls is
// read through it, or through ReadFile.
func OpenRegular(path string) (*os.File, fs.FileInfo, error) {
	f, err := Open(path)
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, nil, &NotRegularError{Path: path, Mode: info.Mode()}
	}
	return f, info, nil
}

// ReadFile reads the regular file at path (links followed) when it holds
// at most limit bytes. It opens without blocking, so a FIFO swapped in
// after a check cannot hang the caller, and reads at most limit+1 bytes,
// whatever the file says its size is (files in /proc say 0). Its errors
// are *NotRegularError, *TooLargeError, *ProcessFileError,
// *OutsideLinkError, or those of os.Open.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadOpen(f, path, limit)
}

// ReadOpen is ReadFile for a file already opened (without blocking, as
// through an os.Root); path names it in errors.
func ReadOpen(f *os.File, path string, limit int64) ([]byte, error) {
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, &NotRegularError{Path: path, Mode: info.Mode()}
	}
	size := info.Size()
	if size > limit {
		return nil, &TooLargeError{Path: path, Limit: limit}
	}
	// Reads go in whole chunks: some files in /proc accept only reads of
	// a multiple of 8 bytes.
	const chunk = 64 << 10
	// Room for the file and one more chunk, the read that finds its end:
	// a file that does not grow is read without copying.
	buf := make([]byte, 0, min(size, limit)+chunk)
	for {
		if cap(buf)-len(buf) < chunk {
			buf = append(buf[:cap(buf)], make([]byte, chunk)...)[:len(buf)]
		}
		n, err := f.Read(buf[len(buf) : len(buf)+chunk])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > limit {
			return nil, &TooLargeError{Path: path, Limit: limit}
		}
		if errors.Is(err, io.EOF) || n == 0 && err == nil {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// CopyBounded copies r to w until EOF, or until more than limit bytes
// came, which is a *TooLargeError naming path. It reads in whole 64 KiB
// chunks, as ReadFile does, for the files of /proc that refuse other
// sizes.
func CopyBounded(w io.Writer, r io.Reader, path string, limit int64) (int64, error) {
	buf := make([]byte, 64<<10)
	var n int64
	for {
		m, err := r.Read(buf)
		if m > 0 {
			n += int64(m)
			if n > limit {
				return n, &TooLargeError{Path: path, Limit: limit}
			}
			if _, werr := w.Write(buf[:m]); werr != nil {
				return n, werr
			}
		}
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}
