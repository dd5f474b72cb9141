package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookctl/hookctl/schema"
)

// Renewal is the trust of a workspace renewed over files a tool writes
// into it (hookctl init), in the default store: exactly the bytes written,
// on top of what was trusted before. A workspace with hooks the user never
// trusted stays untrusted, since renewing would trust them unseen.
type Renewal struct {
	// Root is the workspace's real root, as the store names it.
	Root  string
	store string
}

// NewRenewal prepares the renewal of the workspace at dir.
func NewRenewal(dir string) (*Renewal, error) {
	store, err := DefaultPath()
	if err != nil {
		return nil, err
	}
	root, err := Key(dir)
	if err != nil {
		return nil, err
	}
	return &Renewal{Root: root, store: store}, nil
}

// Trusted says, before anything is written, whether the workspace is
// trusted as it is, and when not, why; ErrNoHooks when it has no
// hooks.json, whose hooks will then all be the tool's.
func (r *Renewal) Trusted() (bool, string, error) {
	snap, err := Take(r.Root)
	if err != nil {
		return false, "", err
	}
	s, err := Open(r.store)
	if err != nil {
		return false, "", err
	}
	ok, why := s.Check(snap)
	return ok, why, nil
}

// Over trusts the workspace with the files written (each path as it was
// written, to its bytes; a nil content or a path outside the workspace is
// left out), on top of what was trusted before. A file that changed while
// the tool ran, or one never trusted, keeps the workspace untrusted: the
// text returned says which, "" when the trust was renewed, and then the
// snapshot is what is now trusted.
func (r *Renewal) Over(now time.Time, written map[string][]byte) (string, *Snapshot, error) {
	rels := map[string][]byte{}
	for path, b := range written {
		if rel, ok := r.rel(path); ok && b != nil {
			rels[rel] = b
		}
	}
	unlock, err := Lock(r.store)
	if err != nil {
		return "", nil, err
	}
	defer unlock()
	s, err := Open(r.store)
	if err != nil {
		return "", nil, err
	}
	snap, err := Take(r.Root)
	if err != nil {
		return "", nil, err
	}
	rec, why := RecordWritten(s.Workspaces[r.Root], snap, rels, now)
	if rec == nil {
		return why, nil, nil
	}
	s.Workspaces[r.Root] = rec
	if err := s.Save(); err != nil {
		return "", nil, err
	}
	return "", snap, nil
}

// RenewUnfinished does the renewal that a tool killed after its writes
// did not: files are the files it wrote in the workspace ws (real paths)
// with the SHA-256 of what it wrote, which its journal kept, each read up
// to limit bytes. They are trusted only as they were written, on top of
// what was trusted before, as that tool would have done; a file changed
// since keeps the workspace as it is.
func RenewUnfinished(ws string, files map[string]string, limit int64) {
	r, err := NewRenewal(ws)
	if err != nil {
		return
	}
	written := map[string][]byte{}
	for real, want := range files {
		b, err := schema.ReadFile(real, limit)
		if sum := sha256.Sum256(b); err != nil || hex.EncodeToString(sum[:]) != want {
			return
		}
		if b == nil {
			b = []byte{} // written empty, which Over keeps
		}
		written[real] = b
	}
	_, _, _ = r.Over(time.Now(), written)
}

// rel names a file written as the trust store does: relative to the
// workspace's real root, with forward slashes.
func (r *Renewal) rel(path string) (string, bool) {
	dir, err := filepath.EvalSymlinks(filepath.Dir(path))
	if err != nil {
		return "", false
	}
	rel, err := filepath.Rel(r.Root, filepath.Join(dir, filepath.Base(path)))
	if err != nil || strings.HasPrefix(rel, "..") {
		return "", false
	}
	return filepath.ToSlash(rel), true
}
