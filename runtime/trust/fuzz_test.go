package trust

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzOpen reads any store file: it is read, or refused with a
// CorruptError that says how to fix it; it never panics, and what it reads
// can be written and read back.
func FuzzOpen(f *testing.F) {
	print := "sha256:" + strings.Repeat("ab", 32)
	for _, s := range []string{
		`{"version":1,"workspaces":{}}`,
		`{"version":1,"workspaces":{"/w":{"fingerprint":"` + print + `","trustedAt":"2026-12-02T12:00:00Z","files":[{"path":".agents/hooks.json","state":"file","sha256":"` + strings.Repeat("ab", 32) + `","size":12,"content":"{\"a\":{}}\n"}]}}}`,
		`{"version":1,"workspaces":{"/w":{"fingerprint":"` + print + `","trustedAt":"x","files":[]}}}`,
		`{"version":1,"workspaces":{"/w":{"fingerprint":"` + print + `","files":[{"path":"a","state":"missing","content":null}]}}}`,
		`{"version":1.5}`, `{"version":1,"workspaces":[]}`, `{"version":1,"version":1}`, "\xef\xbb\xbf{}", `{"version":1,"workspaces":{"":{}}}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, content string) {
		dir := t.TempDir()
		p := filepath.Join(dir, "trust.json")
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		st, err := Open(p)
		if err != nil {
			var ce *CorruptError
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), "delete it") {
				t.Fatalf("Open(%q) = %v, want a CorruptError that says how to fix it", content, err)
			}
			return
		}
		if err := st.Save(); err != nil {
			t.Fatalf("Save after Open(%q): %v", content, err)
		}
		again, err := Open(p)
		if err != nil || len(again.Workspaces) != len(st.Workspaces) {
			t.Fatalf("reading back what Open(%q) read: %v", content, err)
		}
	})
}

// FuzzNamed reads any command: the files it names are absolute, clean and
// free of NUL bytes.
func FuzzNamed(f *testing.F) {
	for _, s := range []string{
		"./hooks/guard.sh", "python3 hooks/lint.py --fix", `sh -c 'sh -c "./a.sh"'`, `"$HOOKCTL_WORKSPACE/x.sh"`,
		"a | b && ./c.sh; $(./d.sh) `./e.sh`", "x=1 ./y.sh > out 2>&1 < in", `./a\ b.sh`, "((", "${HOOKCTL_WORKSPACE:-/x}/y.sh",
		"cat <<EOF\n./x.sh\nEOF", "if true; then ./a.sh; fi", "f() { ./b.sh; }; f",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, command string) {
		for _, p := range Named(command, "/w/.agents", "/w") {
			if !filepath.IsAbs(p) || filepath.Clean(p) != p || strings.ContainsRune(p, 0) {
				t.Fatalf("Named(%q) gave %q", command, p)
			}
		}
	})
}
