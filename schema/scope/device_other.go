//go:build !unix

package scope

// device is unknown here: the search never stops at a file system
// boundary.
func device(string) (uint64, bool) { return 0, false }

// owner is unknown here: every file counts as the current user's.
func owner(string, bool) (uint32, bool) { return 0, false }

func ownedByMe(uint32) bool { return true }
