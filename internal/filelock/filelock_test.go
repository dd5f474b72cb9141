package filelock

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/hookctl/hookctl/internal/testenv"
)

func open(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// Two opens of one file exclude each other, as two processes do: the
// lock belongs to the open file, and closing it lets the next one in.
func TestTryLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "store.lock")
	a, b := open(t, path), open(t, path)
	if err := TryLock(a); err != nil {
		t.Fatal(err)
	}
	if err := TryLock(b); !errors.Is(err, ErrLocked) {
		t.Fatalf("a second lock: %v, want ErrLocked", err)
	}
	if err := Unlock(a); err != nil {
		t.Fatal(err)
	}
	if err := TryLock(b); err != nil {
		t.Fatalf("after Unlock: %v", err)
	}
	b.Close()
	if err := Lock(a); err != nil {
		t.Fatalf("after the holder closed its file: %v", err)
	}
}

// Lock waits for the holder.
func TestLockWaits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "store.lock")
	a, b := open(t, path), open(t, path)
	if err := Lock(a); err != nil {
		t.Fatal(err)
	}
	got := make(chan error)
	go func() { got <- Lock(b) }()
	select {
	case err := <-got:
		t.Fatalf("Lock did not wait for the holder: %v", err)
	default:
	}
	if err := Unlock(a); err != nil {
		t.Fatal(err)
	}
	if err := <-got; err != nil {
		t.Fatal(err)
	}
}

// Folders: two opens of one folder, by two paths to it, exclude each
// other.
func TestTryLockDir(t *testing.T) {
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	if err := os.Mkdir(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	a, err := os.Open(ws)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := os.Open(filepath.Join(ws, "..", "ws"))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	release, err := TryLockDir(a)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := TryLockDir(b); !errors.Is(err, ErrLocked) {
		t.Fatalf("a second lock of the folder: %v, want ErrLocked", err)
	}
	release()
	release, err = TryLockDir(b)
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	release()
	entries, err := os.ReadDir(ws)
	if err != nil || len(entries) != 0 {
		t.Errorf("the lock left files in the folder: %v %v", entries, err)
	}
}

// Another program that takes the same lock, util-linux's flock(1), sees
// hookctl's.
func TestLockSeenByFlock(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("flock(1) is util-linux's")
	}
	flock := testenv.Need(t, "flock")
	path := filepath.Join(t.TempDir(), "store.lock")
	f := open(t, path)
	if err := Lock(f); err != nil {
		t.Fatal(err)
	}
	err := exec.Command(flock, "--nonblock", path, "true").Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("flock --nonblock while hookctl holds the lock: %v, want exit 1", err)
	}
	if err := Unlock(f); err != nil {
		t.Fatal(err)
	}
	if err := exec.Command(flock, "--nonblock", path, "true").Run(); err != nil {
		t.Fatalf("flock --nonblock after Unlock: %v", err)
	}
}
