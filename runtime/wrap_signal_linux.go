package runtime

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// defaultAction sets a signal's disposition to SIG_DFL with rt_sigaction(2)
// directly: os/signal can only hand a signal back to the Go runtime, whose
// handler ignores a SIGPIPE or SIGUSR1 sent by kill and turns a SIGSEGV or
// SIGABRT into a crash report, where the child's death must be repeated
// exactly. The kernel's struct sigaction is at most four words here; all
// zero is SIG_DFL with no flags and an empty mask.
func defaultAction(sig syscall.Signal) error {
	var act [4]uintptr
	_, _, errno := syscall.RawSyscall6(syscall.SYS_RT_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(&act[0])), 0, 8, 0, 0)
	if errno != 0 {
		return errno
	}
	return nil
}

// getTermios is the ioctl(2) request that reads a terminal's settings.
const getTermios = unix.TCGETS
