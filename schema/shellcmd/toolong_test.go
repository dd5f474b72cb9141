package shellcmd

import (
	"errors"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// TestCommandTooLong: a command of MaxCommand bytes is read; one byte more
// is not parsed, is a TooLongError and a gap of code, and on Linux the
// kernel refuses to start /bin/sh -c with it, as it starts the shorter one.
func TestCommandTooLong(t *testing.T) {
	at := func(n int) string { return `echo "` + strings.Repeat("a", n-len(`echo ""`)) + `"` }
	ok := Parse(at(MaxCommand), "/w", "")
	if ok.Err != nil || len(ok.Calls) != 1 || len(ok.Gaps) != 0 {
		t.Fatalf("%d bytes: err %v, %d calls, gaps %+v", MaxCommand, ok.Err, len(ok.Calls), ok.Gaps)
	}
	long := Parse(at(MaxCommand+1), "/w", "")
	var tl *TooLongError
	if !errors.As(long.Err, &tl) || tl.Len != MaxCommand+1 || len(long.Calls) != 0 {
		t.Fatalf("%d bytes: err %v, %d calls", MaxCommand+1, long.Err, len(long.Calls))
	}
	if len(long.Gaps) != 1 || !long.Gaps[0].Code || !strings.Contains(long.Gaps[0].Why, "longer than the 131071 bytes hookctl reads") {
		t.Errorf("gaps %+v, want one of code", long.Gaps)
	}
	if simple := Parse(strings.Repeat("a", MaxCommand+1), "/w", ""); simple.Err == nil || len(simple.Calls) != 0 {
		t.Errorf("a long command of plain words is read: %v", simple.Err)
	}
	if runtime.GOOS != "linux" {
		return
	}
	if err := exec.Command("/bin/sh", "-c", at(MaxCommand)).Run(); err != nil {
		t.Errorf("the kernel refused a command of %d bytes: %v", MaxCommand, err)
	}
	if err := exec.Command("/bin/sh", "-c", at(MaxCommand+1)).Run(); !errors.Is(err, syscall.E2BIG) {
		t.Errorf("a command of %d bytes: %v, want E2BIG from the kernel", MaxCommand+1, err)
	}
}
