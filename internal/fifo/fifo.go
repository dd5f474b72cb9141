// Package fifo makes named pipes (FIFOs), for the tests of code that must
// refuse to read or write one: a workspace can hold a FIFO where a file
// is expected, and reading it would block.
package fifo

import "errors"

// ErrUnsupported is Make's error where the file system holds no named
// pipes (Windows keeps its named pipes apart, under \\.\pipe\): a test of
// what a FIFO in a workspace does has nothing to test there.
var ErrUnsupported = errors.New("this system's file system has no named pipes (FIFOs)")
