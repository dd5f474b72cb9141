//go:build windows

package trust

import "io/fs"

// modeBits is false: Windows says who may write a file in its access
// control list, and Go's mode bits only mirror the read-only attribute.
// The store lives in the user's profile folder, which Windows keeps
// private to the user; hookctl does not read the list itself.
const modeBits = false

// statID is nil: Go does not give a file's index and change time on
// Windows, so every file is hashed again at each check.
func statID(fs.FileInfo) *StatID { return nil }

// ownerUID: Windows files have an owner SID, not a uid.
func ownerUID(fs.FileInfo) (int, bool) { return 0, false }
