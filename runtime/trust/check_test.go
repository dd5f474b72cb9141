//go:build unix

package trust

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/schema"
)

// checkSource is the source hookctl run hands the checker for the
// workspace's hooks.json.
func checkSource(t *testing.T, root string) *runtime.Source {
	t.Helper()
	path := filepath.Join(root, HooksFile)
	cfg, err := schema.Load(path)
	return &runtime.Source{Path: path, Exists: true, Config: cfg, Err: err}
}

// TestCheckerFollowsTheStore: a workspace runs only as granted; a change
// withdraws it, a revoke ends it, and each step reads as the list says.
func TestCheckerFollowsTheStore(t *testing.T) {
	root := workspace(t)
	store := filepath.Join(t.TempDir(), "trust.json")
	open := func() (*Store, error) { return Open(store) }
	hooks := filepath.Join(root, HooksFile)

	if ok, why := Checker(open)(checkSource(t, root)); ok || why != "never trusted" {
		t.Fatalf("before trust: %v, %q", ok, why)
	}
	if !NeverTrusted(open)(hooks) {
		t.Error("NeverTrusted is false before trust")
	}
	if err := Grant(store, root, take(t, root), time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	if ok, why := Checker(open)(checkSource(t, root)); !ok || why != "" {
		t.Fatalf("after trust: %v, %q", ok, why)
	}
	s, _ := Open(store)
	if NeverTrusted(open)(hooks) || Now(root, s.Workspaces[root]) != "matches" {
		t.Errorf("after trust: never trusted %v, now %q", NeverTrusted(open)(hooks), Now(root, s.Workspaces[root]))
	}

	write(t, root, ".agents/hooks/gate.sh", "#!/bin/sh\nexit 2\n")
	ok, why := Checker(open)(checkSource(t, root))
	if want := "changed since trusted on 2026-01-02T03:04:05Z: changed .agents/hooks/gate.sh"; ok || why != want {
		t.Errorf("after a change: %v, %q; want %q", ok, why, want)
	}
	if now := Now(root, s.Workspaces[root]); now != "changed .agents/hooks/gate.sh" {
		t.Errorf("Now = %q", now)
	}

	for i, want := range []bool{true, false} {
		got, was, err := Revoke(store, root)
		if err != nil || got != root || was != want {
			t.Errorf("revoke %d: %q, %v, %v; want %v", i, got, was, err, want)
		}
	}
	if ok, _ := Checker(open)(checkSource(t, root)); ok {
		t.Error("trusted after revoke")
	}
}

// TestCheckerRecordsStaleProbes: a workspace as trusted whose record has
// no probes (trusted by an earlier hookctl) gets them from the first
// check, and is trusted all along.
func TestCheckerRecordsStaleProbes(t *testing.T) {
	root := workspace(t)
	store := filepath.Join(t.TempDir(), "trust.json")
	if err := Grant(store, root, take(t, root), time.Now()); err != nil {
		t.Fatal(err)
	}
	s, err := Open(store)
	if err != nil {
		t.Fatal(err)
	}
	s.Workspaces[root].Probed = nil
	if err := s.Save(); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(s.probedDir())
	open := func() (*Store, error) { return Open(store) }
	if ok, why := Checker(open)(checkSource(t, root)); !ok {
		t.Fatalf("not trusted: %s", why)
	}
	s, _ = Open(store)
	if s.LoadProbed(root); s.Workspaces[root].Probed == nil || !s.Workspaces[root].Unchanged(checkSource(t, root).Config) {
		t.Errorf("probes after the check: %+v", s.Workspaces[root].Probed)
	}
}

// TestUnsafeFilesNamesFileOrFolder names a file others can write by its
// name in the workspace, and a safe file's folder others can write.
func TestUnsafeFilesNamesFileOrFolder(t *testing.T) {
	root := workspace(t)
	gate := filepath.Join(root, ".agents/hooks/gate.sh")
	if got := UnsafeFiles(take(t, root)); len(got) != 0 {
		t.Fatalf("safe workspace: %+v", got)
	}
	os.Chmod(gate, 0o777)
	got := UnsafeFiles(take(t, root))
	if len(got) != 1 || got[0] != (Unsafe{Path: gate, Shown: ".agents/hooks/gate.sh", Mode: 0o777}) {
		t.Errorf("file others can write: %+v", got)
	}
	os.Chmod(gate, 0o755)
	dir := filepath.Dir(gate)
	os.Chmod(dir, 0o777)
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	got = UnsafeFiles(take(t, root))
	if len(got) != 1 || got[0].Path != dir || !got[0].Folder || got[0].Mode.Perm() != 0o777 {
		t.Errorf("folder others can write: %+v", got)
	}
}

// TestRenewalOverWhatWasWritten trusts a new workspace with the files a
// tool wrote, exactly as written, and refuses a file that is not.
func TestRenewalOverWhatWasWritten(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	root := workspace(t)
	write(t, root, HooksFile, `{"gate":{"PreToolUse":[{"command":"./hooks/gate.sh"}]}}`)
	r, err := NewRenewal(root)
	if err != nil {
		t.Fatal(err)
	}
	if ok, why, err := r.Trusted(); ok || why != "never trusted" || err != nil {
		t.Fatalf("Trusted before: %v, %q, %v", ok, why, err)
	}
	read := func(rel string) []byte {
		b, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	hooks, gate := filepath.Join(root, HooksFile), filepath.Join(root, ".agents/hooks/gate.sh")
	why, _, err := r.Over(time.Now(), map[string][]byte{hooks: read(HooksFile), gate: []byte("#!/bin/sh\nnot this\n")})
	if err != nil || why != ".agents/hooks/gate.sh is not what was just written" {
		t.Errorf("Over a file not as written: %q, %v", why, err)
	}
	if why, _, err := r.Over(time.Now(), map[string][]byte{hooks: read(HooksFile), gate: read(".agents/hooks/gate.sh"), "": nil}); why != "" || err != nil {
		t.Fatalf("Over as written: %q, %v", why, err)
	}
	if ok, why, err := r.Trusted(); !ok || err != nil {
		t.Errorf("Trusted after: %v, %q, %v", ok, why, err)
	}
}

// TestTakeDirSaysWhatToName: a hooks.json named instead of its workspace,
// and a folder without one.
func TestTakeDirSaysWhatToName(t *testing.T) {
	root := workspace(t)
	hooks := filepath.Join(root, HooksFile)
	if _, _, err := TakeDir(hooks); err == nil || err.Error() != hooks+" is not a folder: name the workspace's root, the folder that holds .agents (hookctl trust "+root+")" {
		t.Errorf("TakeDir(hooks.json): %v", err)
	}
	empty, _ := Key(t.TempDir())
	if _, _, err := TakeDir(empty); err == nil || err.Error() != empty+" has no .agents/hooks.json: there is nothing to trust" {
		t.Errorf("TakeDir(empty): %v", err)
	}
	if got, snap, err := TakeDir(root); err != nil || got != root || snap.Root != root {
		t.Errorf("TakeDir(root) = %q, %v", got, err)
	}
	if _, _, err := TakeDir(filepath.Join(root, "nothing")); err == nil || !strings.HasSuffix(err.Error(), "nothing: no such file or directory") {
		t.Errorf("TakeDir(missing): %v", err)
	}
}
