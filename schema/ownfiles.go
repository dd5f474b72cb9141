package schema

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
)

// ProcessFileError is a path hookctl does not read: it is, or a link on
// the way to it leads to, a file the kernel makes of the process that
// opens it: /proc/self, /proc/thread-self and /proc/PID (its environment,
// its memory, its command line), /dev/fd, /dev/stdin, /dev/stdout and
// /dev/stderr (its open files). Read on a workspace's behalf, such a file
// is hookctl's own (a hooks.json linked to /proc/self/environ would show
// hookctl's environment, tokens included, in lint's snippet), never the
// workspace's.
type ProcessFileError struct {
	Path string
	// Via is the place in one of those folders the path reached.
	Via string
}

func (e *ProcessFileError) Error() string { return e.Path + " " + e.Reason() }

// Reason says what is wrong without the path, for messages that name it.
func (e *ProcessFileError) Reason() string {
	return "leads into " + e.Via + ", whose files are those of the process that reads them (its environment, memory and open files): hookctl does not read it"
}

// processFolders are the folders whose files are those of the process that
// opens them (with /proc/PID and /proc/PID/task/TID).
var processFolders = []string{"/proc/self", "/proc/thread-self", "/dev/fd", "/dev/stdin", "/dev/stdout", "/dev/stderr"}

// ProcessFile returns the folder of the process's own files (/proc/self,
// /proc/PID, /dev/fd, /dev/stdin...) that the cleaned absolute path p lies
// in, "" when none: whoever follows links on a workspace's behalf stops
// there, since what they lead to depends on the process that follows them.
func ProcessFile(p string) string {
	for _, d := range processFolders {
		if p == d || strings.HasPrefix(p, d+"/") {
			return d
		}
	}
	if rest, ok := strings.CutPrefix(p, "/proc/"); ok {
		pid, _, _ := strings.Cut(rest, "/")
		if pid != "" && strings.Trim(pid, "0123456789") == "" {
			return "/proc/" + pid
		}
	}
	return ""
}

// checkProcessFile follows path as the kernel would, one component at a
// time, every link replaced by its target, and refuses it with a
// *ProcessFileError when it reaches one of processFolders on the way:
// following the links by hand sees /proc/self before the kernel turns it
// into this process's own /proc/PID, and /dev/stdin before it becomes
// whatever file hookctl's stdin is. A path that cannot be followed (a
// loop, a component that is not a folder) is left to the open to refuse.
func checkProcessFile(path string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil
	}
	via := ""
	FollowLinks("/", strings.Split(abs, "/"), func(next string, _ int) bool {
		via = ProcessFile(next)
		return via != ""
	})
	if via != "" {
		return &ProcessFileError{Path: path, Via: via}
	}
	return nil
}

// Open opens path for reading without blocking (a FIFO swapped in after a
// check cannot hang the caller), after refusing with a *ProcessFileError a
// path that leads to the files of the process itself, and with an
// *OutsideLinkError a file of a repository whose link leads out of it
// (see Boundary). OpenRegular and
// ReadFile open through it; so does every reader of a file a workspace
// controls that needs its own checks of what it opened.
func Open(path string) (*os.File, error) {
	if err := checkProcessFile(path); err != nil {
		return nil, err
	}
	if err := LeadsOut(path); err != nil {
		return nil, err
	}
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
