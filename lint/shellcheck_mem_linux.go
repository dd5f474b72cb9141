package lint

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"time"
)

// scCommand starts ShellCheck under an address-space limit (RLIMIT_AS) set
// before it starts, through /bin/sh's ulimit -v: GHC's runtime, which
// ShellCheck is built with, reserves 1 TB of address space at start and
// commits its heap inside it, so a limit set after the start (prlimit)
// makes its next commit fail ("Unable to commit", an abort), whatever the
// limit; one set before makes it reserve two thirds of the limit for its
// heap, and end with "out of memory" (status 251) at that bound. The
// runtime refuses to start under 72 MiB, hence the floor. The limit backs
// scWatch, which holds the resident size to the bound itself.
func scCommand(ctx context.Context, bin string, args []string, limit int64) *exec.Cmd {
	as := max(limit*3/2, 96<<20)
	// A hard limit below it leaves the watch alone to keep the bound.
	script := "ulimit -v " + strconv.FormatInt(as>>10, 10) + ` 2>/dev/null; exec "$0" "$@"`
	return exec.CommandContext(ctx, "/bin/sh", append([]string{"-c", script, bin}, args...)...)
}

// scPoll is how often scWatch reads a ShellCheck's resident size.
const scPoll = 2 * time.Millisecond

// scHeadroom is the share of the bound a ShellCheck's resident size may
// reach before it is stopped: its collector copies what is live at once
// (a jump of several megabytes between two reads), and a loaded machine
// runs the watch late.
const scHeadroom = 0.75

// scWatch calls kill once the resident size of the process pid passes
// scHeadroom of limit, reading /proc/PID/statm every scPoll; stop ends
// the watch.
func scWatch(pid int, limit int64, kill func()) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		path := "/proc/" + strconv.Itoa(pid) + "/statm"
		page := int64(os.Getpagesize())
		tick := time.NewTicker(scPoll)
		defer tick.Stop()
		buf := make([]byte, 128)
		stopAt := int64(float64(limit) * scHeadroom)
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			if rss := statmResident(path, buf) * page; rss > stopAt {
				kill()
				return
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

// statmResident reads the resident pages from a /proc/PID/statm, its
// second number; 0 when it cannot be read.
func statmResident(path string, buf []byte) int64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	n, _ := f.Read(buf)
	f.Close()
	fields := bytes.Fields(buf[:n])
	if len(fields) < 2 {
		return 0
	}
	pages, _ := strconv.ParseInt(string(fields[1]), 10, 64)
	return pages
}
