package main

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

// TestBudgetMemory: in hookctl's own process, lint's heap limit is the
// budget plus four times the files (a folder and a missing path count
// nothing); a GOMEMLIMIT the user set, or a process that runs more than
// one command (a test's), keeps its limit.
func TestBudgetMemory(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(before); ownsItsChildren = false })
	dir := t.TempDir()
	file := filepath.Join(dir, "hooks.json")
	if err := os.WriteFile(file, make([]byte, 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	paths := []string{file, file, dir, filepath.Join(dir, "missing")}

	budgetMemory(paths)
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("a test's process: limit %d, want it left at %d", got, before)
	}
	ownsItsChildren = true
	t.Setenv("GOMEMLIMIT", "1GiB")
	budgetMemory(paths)
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("with GOMEMLIMIT set: limit %d, want it left at %d", got, before)
	}
	os.Unsetenv("GOMEMLIMIT")
	budgetMemory(paths)
	if got, want := debug.SetMemoryLimit(-1), int64(heapBudget+8000); got != want {
		t.Errorf("limit %d, want %d", got, want)
	}
}
