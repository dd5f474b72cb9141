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

// TestProcessFilesNotLookedUp: a file of the process that opens it names
// hookctl's own files in hookctl's process, so Resolve stops there, a link
// of the workspace into it is refused without a look, and descriptor
// reads its number.
func TestProcessFilesNotLookedUp(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("no /proc/self/fd here")
	}
	dir := t.TempDir()
	for p, want := range map[string]string{
		"/dev/stdin":                      "/dev/stdin",
		"/dev/fd/3":                       "/dev/fd/3",
		"/proc/self/fd/0":                 "/proc/self/fd/0",
		"/proc/thread-self/cwd/x":         "/proc/thread-self/cwd/x",
		"/proc/1/root/etc/passwd":         "/proc/1/root/etc/passwd",
		"/proc/mounts":                    "/proc/self/mounts", // a link to self/mounts
		dir + "/../" + filepath.Base(dir): dir,
	} {
		if got := Resolve(p); got != want {
			t.Errorf("Resolve(%s) = %s, want %s", p, got, want)
		}
	}
	link := filepath.Join(dir, "gate.sh")
	if err := os.Symlink("/dev/stdin", link); err != nil {
		t.Fatal(err)
	}
	if got := Resolve(link); got != "/dev/stdin" {
		t.Errorf("Resolve(a link to /dev/stdin) = %s", got)
	}
	if why := NotAFile(link); !strings.Contains(why, "a link into /dev") {
		t.Errorf("NotAFile(a link to /dev/stdin) = %q", why)
	}
	for p, want := range map[string]int{"/dev/stdin": 0, "/dev/stdout": 1, "/dev/fd/7": 7, "/proc/self/fd/12": 12, "/proc/thread-self/fd/3": 3, "/proc/42/fd/0": -1, "/dev//fd/./5": 5} {
		if fd, ok := descriptor(p); !ok || fd != want {
			t.Errorf("descriptor(%s) = %d, %v; want %d", p, fd, ok, want)
		}
	}
	for _, p := range []string{"/dev/fd", "/dev/fd/x", "/proc/self/cwd", "/dev/null", "dev/stdin", "/proc/self/fd/99999999999"} {
		if fd, ok := descriptor(p); ok {
			t.Errorf("descriptor(%s) = %d, want none", p, fd)
		}
	}
}
