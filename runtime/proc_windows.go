//go:build windows

package runtime

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// errWindows is why hookctl runs no handler on Windows. The agent starts
// a hook's command there otherwise than on Linux and macOS: it splits the
// command at blanks and starts the first word with the rest as its
// arguments, quotes and all, with no shell (reported for agy 1.1.8 and
// 1.1.x; docs/agent.md cites the reports). hookctl would have to do the
// same, and to stop what a handler starts with a job object instead of a
// process group, before it could say what the agent does.
var errWindows = errors.New("hookctl runs no hook handler on Windows: the agent there starts a hook's command without a shell, split at blanks, which hookctl does not reproduce yet (docs/agent.md, \"Windows\"); lint, schema, lsp, init, import, export, list and doctor work, and run, test, trace and adapt work under WSL")

// CannotRunHandlers says why this system cannot run a hook's handler, nil
// where it can.
func CannotRunHandlers() error { return errWindows }

// ownGroup does nothing: Windows has no process groups to start.
func ownGroup(*exec.Cmd) {}

// KillGroupOnCancel leaves exec's own Cancel, which kills the process
// alone: Windows has no process group to kill.
func KillGroupOnCancel(*exec.Cmd) {}

// pending is 0: no handler runs here.
func pending(*os.File) int { return 0 }

// family is empty: no handler runs here, so none has a family.
type family struct{}

// startFamily refuses to start a handler.
func startFamily(*exec.Cmd) (*family, error) { return nil, errWindows }

func (f *family) shellReaped()          {}
func (f *family) signal(syscall.Signal) {}
func (f *family) alive() bool           { return false }
func (f *family) finish()               {}
