package shellcmd

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestNotAFileLinkThroughProcFd: a script linked to /proc/self/fd/N is
// whatever file descriptor N of the process that opens it is (a handler's
// stdin is its payload), so it is refused even where the descriptor of
// hookctl's own process is a pipe, whose link names no file.
func TestNotAFileLinkThroughProcFd(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("no /proc/self/fd here")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	dir := t.TempDir()
	script := filepath.Join(dir, "check.sh")
	if err := os.Symlink("/proc/self/fd/"+strconv.Itoa(int(r.Fd())), script); err != nil {
		t.Fatal(err)
	}
	if why := NotAFile(script); !strings.Contains(why, "/proc") {
		t.Errorf("NotAFile(link to a pipe's /proc/self/fd) = %q, want a link into /proc", why)
	}
	// Through a folder: fd/ linked, the descriptor named below it.
	fds := filepath.Join(dir, "fds")
	if err := os.Symlink("/proc/self/fd", fds); err != nil {
		t.Fatal(err)
	}
	if why := NotAFile(filepath.Join(fds, "0")); why == "" {
		t.Errorf("NotAFile(a folder link into /proc/self/fd, then 0) = %q, want it refused", why)
	}
	plain := filepath.Join(dir, "plain.sh")
	if err := os.WriteFile(plain, []byte("true\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if why := NotAFile(plain); why != "" {
		t.Errorf("NotAFile(a regular file) = %q", why)
	}
}
