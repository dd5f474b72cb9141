package runtime

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// defaultAction sets a signal's disposition to SIG_DFL with sigaction(2)
// directly: os/signal can only hand a signal back to the Go runtime, whose
// handler ignores a SIGPIPE or SIGUSR1 sent by kill and turns a SIGSEGV or
// SIGABRT into a crash report, where the child's death must be repeated
// exactly. Darwin's struct __sigaction is a handler, a trampoline, a mask
// and flags; all zero is SIG_DFL.
func defaultAction(sig syscall.Signal) error {
	var act [3]uintptr
	_, _, errno := syscall.Syscall(syscall.SYS_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(&act[0])), 0)
	if errno != 0 {
		return errno
	}
	return nil
}

// getTermios is the ioctl(2) request that reads a terminal's settings.
const getTermios = unix.TIOCGETA
