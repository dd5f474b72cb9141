//go:build unix

package trust

import (
	"io/fs"
	"syscall"
)

// modeBits says that a file's mode bits are the system's word on who may
// write it.
const modeBits = true

func statID(info fs.FileInfo) *StatID {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	return &StatID{Dev: uint64(st.Dev), Ino: uint64(st.Ino), Size: st.Size,
		Mtime: timespecNano(mtimespec(st)), Ctime: timespecNano(ctimespec(st))}
}

func timespecNano(ts syscall.Timespec) int64 { return ts.Sec*1e9 + int64(ts.Nsec) }

// ownerUID is the user that owns the file.
func ownerUID(info fs.FileInfo) (int, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}
