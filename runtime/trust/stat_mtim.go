//go:build linux || openbsd || dragonfly || solaris || illumos

package trust

import "syscall"

func mtimespec(st *syscall.Stat_t) syscall.Timespec { return st.Mtim }
func ctimespec(st *syscall.Stat_t) syscall.Timespec { return st.Ctim }
