//go:build unix && !linux

package runtime

import (
	"errors"
	"os/exec"
	"syscall"
)

// Elsewhere than Linux a handler's family is its process group: there is
// no child subreaper to bring orphans back, and no /proc to find a process
// that left the group, so such a process (coreutils timeout, setsid)
// outlives the handler.

// family is a handler's process group.
type family struct {
	pgid int
}

func becomeSubreaper() error {
	return errors.New("a child subreaper needs Linux")
}

// startFamily starts the handler's shell.
func startFamily(cmd *exec.Cmd) (*family, error) {
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &family{pgid: cmd.Process.Pid}, nil
}

func (f *family) shellReaped() {}

// signal sends sig to the group.
func (f *family) signal(sig syscall.Signal) {
	_ = syscall.Kill(-f.pgid, sig)
}

// alive reports whether any process of the group is left.
func (f *family) alive() bool {
	return syscall.Kill(-f.pgid, 0) == nil
}

// finish kills whatever is left of the group.
func (f *family) finish() {
	_ = syscall.Kill(-f.pgid, syscall.SIGKILL)
}
