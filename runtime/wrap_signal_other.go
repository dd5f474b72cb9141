//go:build unix && !linux && !darwin

package runtime

import (
	"errors"
	"syscall"

	"golang.org/x/sys/unix"
)

// defaultAction is not available here: a child's death by a signal ends
// trace with the status 128 + the signal's number, as a shell reports it.
func defaultAction(syscall.Signal) error {
	return errors.New("cannot restore a signal's default action on this system")
}

// getTermios is the ioctl(2) request that reads a terminal's settings.
const getTermios = unix.TIOCGETA
