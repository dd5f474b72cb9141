//go:build unix

package agy

import (
	"os/exec"
	"syscall"
)

// killGroupOnCancel starts cmd in a process group of its own, and has the
// end of its context kill the whole group: what it started goes with it.
func killGroupOnCancel(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
