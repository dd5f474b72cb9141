//go:build windows

package main

import (
	"fmt"
	"os/exec"
	"syscall"
	"time"

	"github.com/hookctl/hookctl/runtime"
)

// runWrapped starts nothing: traceMain and adaptMain refuse on Windows
// before they get here (runtime.CannotRunHandlers says why).
func runWrapped(_ []string, s streams, lim wrapLimits) *wrapped {
	err := runtime.CannotRunHandlers()
	fmt.Fprintf(s.err, "hookctl: %s: %s\n", lim.name, err)
	return &wrapped{start: time.Now(), exit: exitUsage, startErr: err.Error()}
}

// reraise does nothing: no signal ends a process on Windows.
func reraise(syscall.Signal) {}

// killGroupOnCancel leaves exec's own Cancel, which kills the process
// alone: Windows has no process group to kill.
func killGroupOnCancel(*exec.Cmd) {}
