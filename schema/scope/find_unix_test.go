//go:build unix

package scope

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

func TestFindHostileEntries(t *testing.T) {
	top := tree(t, "fifo/sub/")
	// A .git that is a FIFO is no repository, and is never opened: the
	// search would hang.
	if err := syscall.Mkfifo(filepath.Join(top, "fifo", ".git"), 0o644); err != nil {
		t.Fatal(err)
	}
	from := filepath.Join(top, "fifo", "sub")
	if f := find(t, from); f.Root != from || f.By != ByCurrent {
		t.Errorf("%s (%s)", f.Root, f.By)
	}
	if _, err := Find("relative/dir"); err == nil {
		t.Error("a relative folder was searched")
	}
}

// A .agents or a repository above the current folder that another user
// owns (planted in a shared folder) is refused, as git refuses such a
// repository, and named; one sudo's user owns is the user's own; a
// workspace named on the command line is taken whoever owns it.
func TestFindRefusesAWorkspaceAnotherUserOwns(t *testing.T) {
	if syscall.Geteuid() != 0 {
		t.Skip("giving a file to another user takes root")
	}
	const nobody = 65534
	t.Setenv("SUDO_UID", "")
	top := tree(t, "shared/.agents/hooks.json", "shared/x/", "gitshared/x/")
	agents := filepath.Join(top, "shared", ".agents")
	if err := os.Chown(agents, nobody, nobody); err != nil {
		t.Fatal(err)
	}
	from := filepath.Join(top, "shared", "x")
	_, err := Find(from)
	var oe *OtherOwnerError
	if !errors.As(err, &oe) || oe.Path != agents || oe.UID != nobody || oe.Found.Root != filepath.Join(top, "shared") {
		t.Fatalf("a .agents another user owns: %v", err)
	}
	if !strings.Contains(err.Error(), "not by you") || !strings.Contains(err.Error(), strconv.Quote(agents)) {
		t.Errorf("the error does not name the file and its owner: %v", err)
	}

	// A link of the user's own to another user's folder is refused too.
	if err := os.Remove(filepath.Join(agents, "hooks.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(agents, filepath.Join(top, "theirs")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(top, "theirs"), agents); err != nil {
		t.Fatal(err)
	}
	if _, err := Find(from); !errors.As(err, &oe) || oe.Path != agents {
		t.Errorf("a link to another user's .agents: %v", err)
	}

	repo(t, filepath.Join(top, "gitshared"))
	if err := os.Chown(filepath.Join(top, "gitshared", ".git"), nobody, nobody); err != nil {
		t.Fatal(err)
	}
	if _, err := Find(filepath.Join(top, "gitshared", "x")); !errors.As(err, &oe) || oe.Path != filepath.Join(top, "gitshared", ".git") {
		t.Errorf("a repository another user owns: %v", err)
	}

	t.Setenv("SUDO_UID", strconv.Itoa(nobody))
	if f := find(t, from); f.Root != filepath.Join(top, "shared") || f.By != ByAgents {
		t.Errorf("under sudo for its owner: %s (%s)", f.Root, f.By)
	}
	t.Setenv("SUDO_UID", "")
	t.Chdir(from)
	if f, err := Choose(filepath.Join(top, "shared")); err != nil || f.By != ByName {
		t.Errorf("named: %v %v", f, err)
	}
}
