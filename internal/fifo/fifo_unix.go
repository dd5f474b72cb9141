//go:build unix

package fifo

import "syscall"

// Make makes a named pipe at path with the permissions perm.
func Make(path string, perm uint32) error { return syscall.Mkfifo(path, perm) }
