//go:build unix && !linux

package runtime

// noSubreaper does nothing: there is no child subreaper but on Linux.
func noSubreaper() {}
