//go:build unix

package tracelog

import "syscall"

const canLimitFileSize = true

// limitFileSize makes this process unable to make a file larger than
// limit bytes, as on a disk that is full at limit.
func limitFileSize(limit uint64) error {
	return syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: limit, Max: limit})
}
