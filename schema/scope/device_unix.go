//go:build unix

package scope

import "syscall"

// device returns the file system a folder is on.
func device(dir string) (uint64, bool) {
	var st syscall.Stat_t
	if err := syscall.Stat(dir, &st); err != nil {
		return 0, false
	}
	return uint64(st.Dev), true
}
