//go:build darwin || freebsd || netbsd

package trust

import "syscall"

func mtimespec(st *syscall.Stat_t) syscall.Timespec { return st.Mtimespec }
func ctimespec(st *syscall.Stat_t) syscall.Timespec { return st.Ctimespec }
