//go:build unix

package scope

import (
	"os"
	"strconv"
	"syscall"
)

// device returns the file system a folder is on.
func device(dir string) (uint64, bool) {
	var st syscall.Stat_t
	if err := syscall.Stat(dir, &st); err != nil {
		return 0, false
	}
	return uint64(st.Dev), true
}

// owner returns the user that owns path (the link's own owner when lstat
// is set).
func owner(path string, lstat bool) (uint32, bool) {
	var st syscall.Stat_t
	stat := syscall.Stat
	if lstat {
		stat = syscall.Lstat
	}
	if err := stat(path, &st); err != nil {
		return 0, false
	}
	return st.Uid, true
}

// ownedByMe reports whether uid is the current user's: the effective
// user's, or, when that is root, the one sudo ran for (git's
// is_path_owned_by_current_uid takes SUDO_UID so).
func ownedByMe(uid uint32) bool {
	euid := syscall.Geteuid()
	if uint32(euid) == uid {
		return true
	}
	if euid == 0 {
		if s, err := strconv.ParseUint(os.Getenv("SUDO_UID"), 10, 32); err == nil && uint32(s) == uid {
			return true
		}
	}
	return false
}
