//go:build !unix

package tracelog

import "errors"

const canLimitFileSize = false

// limitFileSize: only Unix limits the size of the files a process makes.
func limitFileSize(uint64) error {
	return errors.New("no limit on the size of a process's files here (RLIMIT_FSIZE is Unix's)")
}
