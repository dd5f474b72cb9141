//go:build unix

package runtime

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// alive reports whether the process exists and is not a zombie waiting to
// be reaped by whatever adopted it. A process whose first thread exited
// while others run shows as a zombie, and is alive: each thread is looked
// at.
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	dir := fmt.Sprintf("/proc/%d/task/", pid)
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return !os.IsNotExist(err)
	}
	for _, task := range tasks {
		stat, err := os.ReadFile(dir + task.Name() + "/stat")
		if err != nil {
			continue // a thread that has just exited
		}
		// The state follows the command name in parentheses.
		if i := bytes.LastIndexByte(stat, ')'); i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z' && stat[i+2] != 'X' {
			return true
		}
	}
	return false
}

// pidsIn reads the pids a handler wrote to a file, one a line.
func pidsIn(t *testing.T, path string) []int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the handler wrote no pids: %v", err)
	}
	var pids []int
	for _, f := range strings.Fields(string(b)) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("bad pid %q in %s", f, path)
		}
		pids = append(pids, pid)
	}
	if len(pids) == 0 {
		t.Fatalf("no pids in %s", path)
	}
	return pids
}

// assertGone fails unless every process is gone, allowing a moment for the
// kernel to deliver the last SIGKILL.
func assertGone(t *testing.T, pids []int) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for _, pid := range pids {
		for alive(pid) {
			if time.Now().After(deadline) {
				_ = syscall.Kill(pid, syscall.SIGKILL)
				t.Fatalf("process %d was left behind", pid)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}
