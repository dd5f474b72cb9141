//go:build !unix

package fifo

// Make returns ErrUnsupported: see there.
func Make(string, uint32) error { return ErrUnsupported }
