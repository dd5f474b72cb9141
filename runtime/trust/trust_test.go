package trust

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// workspace writes a workspace with one hooks.json naming a script and a
// missing one.
func workspace(t *testing.T) string {
	t.Helper()
	root, err := Key(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	write(t, root, HooksFile, `{"gate":{"PreToolUse":[{"hooks":[{"command":"./hooks/gate.sh"},{"command":"python3 hooks/later.py"}]}]},"stop":{"Stop":[{"command":"/usr/bin/true ../../outside.sh"}]}}`)
	write(t, root, ".agents/hooks/gate.sh", "#!/bin/sh\necho '{\"decision\":\"allow\"}'\n")
	return root
}

func write(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
		t.Fatal(err)
	}
}

func take(t *testing.T, root string) *Snapshot {
	t.Helper()
	s, err := Take(root)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSnapshotCovers(t *testing.T) {
	root := workspace(t)
	s := take(t, root)
	var got []string
	for _, f := range s.Files {
		got = append(got, f.Path+" "+string(f.State))
	}
	want := []string{".agents/hooks.json file", ".agents/hooks/gate.sh file", ".agents/hooks/later.py missing"}
	if !slices.Equal(got, want) {
		t.Fatalf("files = %q, want %q", got, want)
	}
	if len(s.Commands) != 3 || !slices.Equal(s.Commands[2].Outside, sorted(filepath.Join(filepath.Dir(root), "outside.sh"), "/usr/bin/true")) {
		t.Fatalf("commands = %+v", s.Commands)
	}
}

// Every change to what runs changes the fingerprint; a change to nothing
// that runs does not.
func TestFingerprint(t *testing.T) {
	root := workspace(t)
	base := take(t, root).Fingerprint
	if !strings.HasPrefix(base, "sha256:") || len(base) != 7+64 {
		t.Fatalf("fingerprint %q", base)
	}
	now := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(root, ".agents/hooks/gate.sh"), now, now); err != nil {
		t.Fatal(err)
	}
	write(t, root, "README.md", "unrelated")
	if got := take(t, root).Fingerprint; got != base {
		t.Fatal("a new time stamp or an unrelated file changed the fingerprint")
	}
	for _, change := range []struct {
		name string
		do   func()
		undo func()
	}{
		{"script edited", func() { write(t, root, ".agents/hooks/gate.sh", "#!/bin/sh\ncurl x | sh\n") },
			func() { write(t, root, ".agents/hooks/gate.sh", "#!/bin/sh\necho '{\"decision\":\"allow\"}'\n") }},
		{"missing script created", func() { write(t, root, ".agents/hooks/later.py", "print()") },
			func() { os.Remove(filepath.Join(root, ".agents/hooks/later.py")) }},
		{"script deleted", func() { os.Rename(filepath.Join(root, ".agents/hooks/gate.sh"), filepath.Join(root, "gate.bak")) },
			func() { os.Rename(filepath.Join(root, "gate.bak"), filepath.Join(root, ".agents/hooks/gate.sh")) }},
		{"script swapped for a folder", func() {
			os.Rename(filepath.Join(root, ".agents/hooks/gate.sh"), filepath.Join(root, "gate.bak"))
			os.Mkdir(filepath.Join(root, ".agents/hooks/gate.sh"), 0o755)
		}, func() {
			os.Remove(filepath.Join(root, ".agents/hooks/gate.sh"))
			os.Rename(filepath.Join(root, "gate.bak"), filepath.Join(root, ".agents/hooks/gate.sh"))
		}},
		{"hooks.json reformatted", func() {
			b, _ := os.ReadFile(filepath.Join(root, HooksFile))
			write(t, root, HooksFile, string(b)+"\n")
		}, func() {
			b, _ := os.ReadFile(filepath.Join(root, HooksFile))
			write(t, root, HooksFile, strings.TrimSuffix(string(b), "\n"))
		}},
	} {
		change.do()
		if got := take(t, root).Fingerprint; got == base {
			t.Errorf("%s: the fingerprint did not change", change.name)
		}
		change.undo()
		if got := take(t, root).Fingerprint; got != base {
			t.Fatalf("%s: undoing it did not restore the fingerprint", change.name)
		}
	}
}

func TestCheckAndCompare(t *testing.T) {
	root := workspace(t)
	st := &Store{Path: filepath.Join(t.TempDir(), "trust.json"), Workspaces: map[string]*Record{}}
	snap := take(t, root)
	if ok, why := st.Check(snap); ok || why != "never trusted" {
		t.Fatalf("Check before trust = %v, %q", ok, why)
	}
	st.Workspaces[root] = NewRecord(snap, time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC))
	if ok, why := st.Check(take(t, root)); !ok {
		t.Fatalf("Check after trust = false, %q", why)
	}
	write(t, root, ".agents/hooks/gate.sh", "#!/bin/sh\necho '{\"decision\":\"deny\"}'\n")
	write(t, root, ".agents/hooks/later.py", "print()\n")
	snap = take(t, root)
	ok, why := st.Check(snap)
	if want := "changed since trusted on 2026-12-02T12:00:00Z: changed .agents/hooks/gate.sh, added .agents/hooks/later.py"; ok || why != want {
		t.Fatalf("Check = %v, %q, want false, %q", ok, why, want)
	}
	var b bytes.Buffer
	if err := Compare(st.Workspaces[root], snap).Write(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"changed  .agents/hooks/gate.sh\n",
		"added    .agents/hooks/later.py\n",
		"-echo '{\"decision\":\"allow\"}'\n+echo '{\"decision\":\"deny\"}'\n",
		"+++ now/.agents/hooks/later.py\n@@ -0,0 +1,1 @@\n+print()\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("diff lacks %q:\n%s", want, b.String())
		}
	}
}

func TestStoreFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cfg", "hookctl")
	path := filepath.Join(dir, "trust.json")
	root := workspace(t)
	st, err := Open(path)
	if err != nil || len(st.Workspaces) != 0 {
		t.Fatalf("Open(missing) = %v, %v", st, err)
	}
	st.Workspaces[root] = NewRecord(take(t, root), time.Now())
	if err := st.Save(); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]os.FileMode{path: 0o600, dir: 0o700} {
		info, err := os.Stat(p)
		if err != nil || info.Mode().Perm() != want {
			t.Errorf("%s: mode %v, %v; want %04o", p, info.Mode().Perm(), err, want)
		}
	}
	again, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if ok, why := again.Check(take(t, root)); !ok {
		t.Fatalf("reopened store does not trust the workspace: %s", why)
	}
	// The kept copy of the script, read back, shows its change as a diff.
	write(t, root, ".agents/hooks/gate.sh", "#!/bin/sh\nexit 2\n")
	rec := again.Workspaces[root]
	again.Fill(rec)
	var b bytes.Buffer
	Compare(rec, take(t, root)).Write(&b)
	if !strings.Contains(b.String(), "-echo '{\"decision\":\"allow\"}'\n+exit 2\n") {
		t.Errorf("diff after reopening the store:\n%s", b.String())
	}
	// A copy tampered with is not shown as what was trusted.
	os.WriteFile(filepath.Join(dir, "trusted", rec.Files[1].SHA256), []byte("#!/bin/sh\nexit 2\n"), 0o600)
	again2, _ := Open(path)
	again2.Fill(again2.Workspaces[root])
	if c := again2.Workspaces[root].Files[1].Content; c != nil {
		t.Errorf("a tampered copy was read as the trusted content: %q", *c)
	}
	// A store left readable by others is made private when next saved.
	os.Chmod(path, 0o644)
	if err := again.Save(); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 {
		t.Errorf("mode after saving = %04o, want 0600", info.Mode().Perm())
	}
}

func TestStoreRefuses(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"empty":      "",
		"not JSON":   "{",
		"array":      "[]",
		"no version": `{"workspaces":{}}`,
		"newer":      `{"version":2,"workspaces":{}}`,
		"unknown":    `{"version":1,"workspaces":{},"x":1}`,
		"relative":   `{"version":1,"workspaces":{"w":{"fingerprint":"sha256:` + strings.Repeat("0", 64) + `","files":[{"path":"a","state":"file"}]}}}`,
		"bad print":  `{"version":1,"workspaces":{"/w":{"fingerprint":"x","files":[{"path":"a","state":"file"}]}}}`,
		"null":       `{"version":1,"workspaces":{"/w":null}}`,
		"wrong type": `{"version":1,"workspaces":{"/w":{"fingerprint":1}}}`,
	} {
		p := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".json")
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := Open(p)
		var ce *CorruptError
		if !errors.As(err, &ce) {
			t.Errorf("%s: Open = %v, want a CorruptError", name, err)
			continue
		}
		if !strings.Contains(err.Error(), "delete it and trust your workspaces again") {
			t.Errorf("%s: %v does not say how to fix it", name, err)
		}
	}
	p := filepath.Join(dir, "open.json")
	os.WriteFile(p, []byte(`{"version":1,"workspaces":{}}`), 0o600)
	os.Chmod(p, 0o620)
	var ue *UnsafeError
	if _, err := Open(p); !errors.As(err, &ue) || !strings.Contains(err.Error(), "chmod go-w") {
		t.Errorf("group-writable store: Open = %v, want an UnsafeError", err)
	}
}

// The kept contents stay within their bounds, the oldest records losing
// theirs first.
func TestStoreBounds(t *testing.T) {
	st := &Store{Path: filepath.Join(t.TempDir(), "trust.json"), Workspaces: map[string]*Record{}}
	big := strings.Repeat("x", MaxKeptFile)
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 12 {
		snap := &Snapshot{Fingerprint: "sha256:" + strings.Repeat("0", 64)}
		for j := range 5 {
			snap.Files = append(snap.Files, hashBytes(string(rune('a'+j)), []byte(big)))
		}
		st.Workspaces["/w"+string(rune('a'+i))] = NewRecord(snap, start.Add(time.Duration(i)*time.Hour))
	}
	if n := st.Workspaces["/wa"].kept(); n > MaxKeptWorkspace {
		t.Fatalf("one record keeps %d bytes, over %d", n, MaxKeptWorkspace)
	}
	if err := st.Save(); err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, r := range st.Workspaces {
		total += r.kept()
	}
	if total > MaxKeptStore {
		t.Fatalf("the store keeps %d bytes, over %d", total, MaxKeptStore)
	}
	if st.Workspaces["/wa"].kept() != 0 || st.Workspaces["/wl"].kept() == 0 {
		t.Fatal("the oldest record should lose its copies first, the newest keep them")
	}
	// trust.json holds hashes only; the copies are files of their own,
	// one per content, within the bound.
	if info, _ := os.Stat(st.Path); info.Size() > 64<<10 {
		t.Fatalf("trust.json is %d bytes", info.Size())
	}
	ents, _ := os.ReadDir(filepath.Join(filepath.Dir(st.Path), "trusted"))
	if len(ents) != 1 {
		t.Fatalf("%d copies kept, want 1: every file here has the same content", len(ents))
	}
}

func sorted(s ...string) []string { slices.Sort(s); return s }
