package main

import (
	"os"
	"runtime/debug"

	"github.com/hookctl/hookctl/schema"
)

// heapBudget is the memory, besides four bytes a byte of the files read,
// that lint keeps its Go heap to.
const heapBudget = 16 << 20

// budgetMemory tells the Go runtime to collect garbage before the heap
// grows past heapBudget and four times the size of the files at paths
// (each counted up to schema.MaxFileSize, what is read of it). Unbounded,
// the collector lets the heap grow to twice what is live: linting the
// largest files the bound on values lets through peaked at 0.9 to 0.97 of
// the goal of four times the file and 30 MB, and keeps to 0.7 of it within
// this budget. It is a soft limit: a file that needs more still gets it,
// the collector then working harder. It is set only in hookctl's own
// process (a test's binary holds more than one command's memory), and
// never over a GOMEMLIMIT the user set.
func budgetMemory(paths []string) {
	if !ownsItsChildren || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	var size int64
	for _, p := range paths {
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			size += min(fi.Size(), schema.MaxFileSize)
		}
	}
	debug.SetMemoryLimit(heapBudget + 4*size)
}
