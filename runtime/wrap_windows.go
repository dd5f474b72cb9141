//go:build windows

package runtime

import (
	"fmt"
	"io"
	"syscall"
	"time"
)

// RunWrapped starts nothing: hookctl trace and adapt refuse on Windows
// before they get here (CannotRunHandlers says why). It says so on errOut
// and returns the status of a usage mistake.
func RunWrapped(_ []string, _ io.Reader, _, errOut io.Writer, lim WrapLimits) *Wrapped {
	fmt.Fprintf(errOut, "hookctl: %s: %s\n", lim.Name, errWindows)
	return &Wrapped{Start: time.Now(), Exit: 2, StartErr: errWindows.Error()}
}

// Reraise does nothing: no signal ends a process on Windows.
func Reraise(syscall.Signal) {}
