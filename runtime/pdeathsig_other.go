//go:build unix && !linux

package runtime

import "syscall"

// orphanSignal does nothing where the system has no parent-death signal.
func orphanSignal(*syscall.SysProcAttr) {}
