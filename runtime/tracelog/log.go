package tracelog

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/hookctl/hookctl/schema"
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
	// Within, when set, is the workspace folder (absolute) of a log that
	// a command names (trace --log, run --log, HOOKCTL_LOG), which a
	// workspace's command may have chosen: the file itself is never
	// opened through a symbolic link, and one named inside Within only
	// through folders that stay inside it (see confined.go).
	Within string
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
	dir, err := schema.StateDir(getenv)
	if err != nil {
		return "", fmt.Errorf("cannot tell where the log goes: %v; set %s to a file", err, EnvLog)
	}
	return filepath.Join(dir, "runs.jsonl"), nil
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
// whole or not at all (see AppendLine). A path that is not a regular file
// (a FIFO, a device, a folder) is refused: writing there could block the
// handler.
func (l *Log) Append(r *Record) error {
	line, err := r.Line()
	if err != nil {
		return fmt.Errorf("cannot encode the record: %v", err)
	}
	return l.AppendLine(line)
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
