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
