//go:build unix

package runtime

import (
	"syscall"
	"testing"
)

// TestWrapperExit: a wrapper exits with its command's status, or the
// adapter's when the command never ran; a command killed by a signal
// makes the wrapper die of it, and where the signal does not end the
// wrapper (SIGWINCH's default is to be ignored), the status is 128 + the
// signal, as a shell's.
func TestWrapperExit(t *testing.T) {
	if got := WrapperExit(nil, 3); got != 3 {
		t.Errorf("no command ran, status 3: got %d", got)
	}
	if got := WrapperExit(&Wrapped{Exit: 7}, 7); got != 7 {
		t.Errorf("the command exited 7: got %d", got)
	}
	if got := WrapperExit(&Wrapped{Exit: 0}, 1); got != 1 {
		t.Errorf("the command exited 0, the answer failed (1): got %d", got)
	}
	if got := WrapperExit(&Wrapped{Signal: syscall.SIGWINCH}, 0); got != 128+int(syscall.SIGWINCH) {
		t.Errorf("killed by SIGWINCH: got %d, want %d", got, 128+int(syscall.SIGWINCH))
	}
}
