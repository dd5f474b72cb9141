package schema

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestProcessFilesAreNotRead checks that no file of the process that reads
// it is read, however a workspace's links lead there: hookctl's
// environment, memory and open files are not the workspace's to show.
func TestProcessFilesAreNotRead(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc/self is Linux's")
	}
	dir := t.TempDir()
	// A file hookctl has open, which /dev/fd/N would hand to a reader.
	secret := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(secret, []byte(`{"token": "not for the workspace"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	open, err := os.Open(secret)
	if err != nil {
		t.Fatal(err)
	}
	defer open.Close()
	fd := strconv.Itoa(int(open.Fd()))
	pid := strconv.Itoa(os.Getpid())
	for _, tc := range []struct {
		name, target, path, via string
	}{
		{"environ", "/proc/self/environ", "", "/proc/self"},
		{"the thread's", "/proc/thread-self/environ", "", "/proc/thread-self"},
		{"by pid", "/proc/" + pid + "/environ", "", "/proc/" + pid},
		{"another process's", "/proc/1/cmdline", "", "/proc/1"},
		{"an open file", "/dev/fd/" + fd, "", "/dev/fd"},
		{"an open file by /proc", "/proc/self/fd/" + fd, "", "/proc/self"},
		{"stdin", "/dev/stdin", "", "/dev/stdin"},
		{"a relative link", "../../../../../../../../../../../../proc/self/environ", "", "/proc/self"},
		{"a folder linked", "/proc/self", "environ", "/proc/self"},
		{"/proc/net, itself a link to self/net", "/proc/net", "dev", "/proc/self"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			link := filepath.Join(dir, strings.NewReplacer(" ", "-", "/", "-", ",", "").Replace(tc.name))
			if err := os.Symlink(tc.target, link); err != nil {
				t.Fatal(err)
			}
			// A link to the link, and the path named through it.
			chain := link + ".chain"
			if err := os.Symlink(filepath.Base(link), chain); err != nil {
				t.Fatal(err)
			}
			for _, p := range []string{link, chain} {
				p = filepath.Join(p, tc.path)
				var pf *ProcessFileError
				b, err := ReadFile(p, MaxFileSize)
				if !errors.As(err, &pf) || pf.Via != tc.via || pf.Path != p {
					t.Errorf("ReadFile(%s): %q, %v; want a ProcessFileError via %s", p, b, err, tc.via)
				}
				if f, _, err := OpenRegular(p); !errors.As(err, &pf) {
					f.Close()
					t.Errorf("OpenRegular(%s): %v; want a ProcessFileError", p, err)
				}
				if _, err := Load(p); !errors.As(err, &pf) || err.Error() != p+" leads into "+tc.via+", whose files are those of the process that reads them (its environment, memory and open files): hookctl does not read it" {
					t.Errorf("Load(%s): %v", p, err)
				}
				if r := ReadReason(err); !strings.HasPrefix(r, "leads into "+tc.via+", ") {
					t.Errorf("ReadReason: %q", r)
				}
			}
		})
	}
	// Named as they are, not through a link, they are not read either.
	var pf *ProcessFileError
	if _, err := ReadFile("/proc/self/environ", MaxFileSize); !errors.As(err, &pf) {
		t.Errorf("/proc/self/environ: %v", err)
	}
	// The rest of /proc, and files beside the process's own, are files
	// like others (within the bounds).
	link := filepath.Join(dir, "cpuinfo")
	if err := os.Symlink("/proc/cpuinfo", link); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(link, MaxFileSize); err != nil || len(b) == 0 {
		t.Errorf("/proc/cpuinfo: %d bytes, %v", len(b), err)
	}
	for _, p := range []string{"/proc/selfish", "/proc/12a", "/dev/fdx", "/dev/stdin2"} {
		if v := ProcessFile(p); v != "" {
			t.Errorf("ProcessFile(%s) = %q, want none", p, v)
		}
	}
}
