//go:build unix

package tracelog

import (
	"syscall"
	"testing"
)

// The signals of Unix alone keep their names too.
func TestUnixSignalNames(t *testing.T) {
	for sig, want := range map[syscall.Signal]string{syscall.SIGUSR1: "SIGUSR1", syscall.SIGUSR2: "SIGUSR2", syscall.SIGXCPU: "SIGXCPU", syscall.SIGSYS: "SIGSYS"} {
		n := SignalName(sig)
		if back, ok := SignalNumber(n); n != want || !ok || back != sig {
			t.Errorf("%d -> %q -> %d, want %q", sig, n, back, want)
		}
	}
}
