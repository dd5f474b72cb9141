//go:build unix

package runtime

import (
	"os"
	"os/exec"
	"syscall"
	"unsafe"
)

// ownGroup starts the shell in a process group of its own, the start of
// its family; on Linux the shell is also killed if hookctl dies.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	orphanSignal(cmd.SysProcAttr)
}

// KillGroupOnCancel starts cmd, a program hookctl runs for itself (the
// agent, for doctor), in a process group of its own as a handler's shell
// is, and has the end of its context kill the whole group: what it
// started goes with it.
func KillGroupOnCancel(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}

// pending returns how many bytes wait in the pipe f, 0 when unknown.
func pending(f *os.File) int {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0
	}
	var n int32
	_ = rc.Control(func(fd uintptr) {
		_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, fionread, uintptr(unsafe.Pointer(&n)))
		if errno != 0 {
			n = 0
		}
	})
	return int(n)
}

// CannotRunHandlers says why this system cannot run a hook's handler, nil
// where it can.
func CannotRunHandlers() error { return nil }
