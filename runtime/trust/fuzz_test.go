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
