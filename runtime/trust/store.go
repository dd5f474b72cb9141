package trust

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/hookctl/hookctl/internal/filelock"
	"github.com/hookctl/hookctl/schema"
)

// Bounds of the file contents a store keeps for diffs. Past them a
// record keeps hashes only, and a diff names the changed file without
// showing its lines.
const (
	// MaxKeptWorkspace bounds the content one workspace's record keeps.
	MaxKeptWorkspace = 256 << 10
	// MaxKeptStore bounds the content the whole store keeps; the oldest
	// records lose their copies first.
	MaxKeptStore = 2 << 20
)

// storeVersion is the version of the store's format this package writes.
const storeVersion = 1

// Store is the trust store: the workspaces the user trusted, by absolute
// real path.
type Store struct {
	// Path is the store's file.
	Path string
	// Workspaces are the trusted workspaces by key (see Key).
	Workspaces map[string]*Record
}

// Record is what was trusted in one workspace.
type Record struct {
	// Fingerprint is the snapshot's fingerprint when it was trusted.
	Fingerprint string `json:"fingerprint"`
	// TrustedAt is when.
	TrustedAt time.Time `json:"trustedAt"`
	// Files are the files the fingerprint covered.
	Files []RecordFile `json:"files"`
	// Probed are the paths the snapshot asked the file system about and
	// its answers, so that a check finding them all unchanged takes the
	// record's verdict without reading the scripts again (see Probe). A
	// record without them, made by an earlier hookctl, is checked in full.
	// They are kept beside the store, one file per workspace, which an
	// earlier hookctl does not read (its trust.json is the one it knows):
	// Store.LoadProbed reads them, Save writes those that are set.
	Probed *Probed `json:"-"`
	// probedRead is set once LoadProbed has looked for them.
	probedRead bool
}

// RecordFile is one trusted file.
type RecordFile struct {
	Path   string `json:"path"`
	State  State  `json:"state"`
	SHA256 string `json:"sha256,omitempty"`
	Size   int64  `json:"size,omitempty"`
	// Stat is the file's StatID when it was hashed: a check rehashes only
	// files whose StatID differs from it.
	Stat *StatID `json:"stat,omitempty"`
	// Kept is set when the store keeps a copy of the file's text, within
	// its bounds, for later diffs: binary and large files are not kept.
	Kept bool `json:"kept,omitempty"`
	// Content is the kept text once read with Store.Fill, or of a record
	// not saved yet.
	Content *string `json:"-"`
}

// file is the store's file format.
type file struct {
	Version    int                `json:"version"`
	Workspaces map[string]*Record `json:"workspaces"`
}

// DefaultPath returns the store's file: $XDG_CONFIG_HOME/hookctl/trust.json,
// else ~/.config/hookctl/trust.json.
func DefaultPath() (string, error) {
	if d := os.Getenv("XDG_CONFIG_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "hookctl", "trust.json"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("cannot find the trust store: %v; set XDG_CONFIG_HOME or HOME", err)
	}
	return filepath.Join(home, ".config", "hookctl", "trust.json"), nil
}

// CorruptError is a store file that cannot be understood. Nothing in it is
// trusted, and nothing overwrites it until the user has looked at it.
type CorruptError struct {
	Path string
	Msg  string
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("the trust store %s cannot be read: %s; fix it, or delete it and trust your workspaces again with 'hookctl trust DIR'", e.Path, e.Msg)
}

// UnsafeError is a store that someone other than the user could have
// written: trusting what it says would let them choose what runs.
type UnsafeError struct {
	Path string
	Msg  string
}

func (e *UnsafeError) Error() string { return e.Msg }

// Open reads the store at path. A store that does not exist is empty. A
// store that is not valid JSON, or not in this format, is a *CorruptError;
// one writable by others or owned by another user is an *UnsafeError.
func Open(path string) (*Store, error) {
	s := &Store{Path: path, Workspaces: map[string]*Record{}}
	b, err := readStore(path, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, &CorruptError{Path: path, Msg: "the file is empty"}
	}
	var f file
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil || dec.More() {
		// The position-aware parser says where, for a file that is not
		// JSON; it reads the file only then, as every hookctl run reads
		// the store.
		root, _, serr := schema.ParseJSON(b)
		switch {
		case serr != nil:
			return nil, &CorruptError{Path: path, Msg: fmt.Sprintf("line %d, column %d: %s", serr.Pos.Line, serr.Pos.Col, serr.Msg)}
		case root.Kind != schema.Object:
			return nil, &CorruptError{Path: path, Msg: "it is not a JSON object"}
		case err == nil:
			return nil, &CorruptError{Path: path, Msg: "it holds more than one JSON value"}
		}
		return nil, &CorruptError{Path: path, Msg: err.Error()}
	}
	switch {
	case f.Version > storeVersion:
		return nil, &CorruptError{Path: path, Msg: fmt.Sprintf("it is version %d, written by a newer hookctl than this one (which reads version %d)", f.Version, storeVersion)}
	case f.Version != storeVersion:
		return nil, &CorruptError{Path: path, Msg: fmt.Sprintf(`"version" must be %d`, storeVersion)}
	}
	for k, r := range f.Workspaces {
		if r == nil || !filepath.IsAbs(k) || len(r.Fingerprint) != len("sha256:")+64 || len(r.Files) == 0 {
			return nil, &CorruptError{Path: path, Msg: fmt.Sprintf("the entry of %q is incomplete", k)}
		}
		s.Workspaces[k] = r
	}
	return s, nil
}

// readStore reads the store's file after checking that only its owner, the
// user, can change it or the folder that holds it; max, when above 0, is
// the most bytes read, a larger file an error. It is opened without
// blocking, so that a FIFO in its place is refused rather than waited on
// by every hookctl run.
func readStore(path string, max int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, &CorruptError{Path: path, Msg: "it is not a regular file"}
	}
	if err := ownedAndPrivate(path, info); err != nil {
		return nil, err
	}
	if dinfo, err := os.Stat(filepath.Dir(path)); err == nil {
		if err := ownedAndPrivate(filepath.Dir(path), dinfo); err != nil {
			return nil, err
		}
	}
	var r io.Reader = f
	if max > 0 {
		if info.Size() > max {
			return nil, &CorruptError{Path: path, Msg: fmt.Sprintf("it holds more than %d bytes", max)}
		}
		r = io.LimitReader(f, max+1)
	}
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(r); err != nil {
		return nil, err
	}
	if max > 0 && int64(buf.Len()) > max {
		return nil, &CorruptError{Path: path, Msg: fmt.Sprintf("it holds more than %d bytes", max)}
	}
	return buf.Bytes(), nil
}

func ownedAndPrivate(path string, info fs.FileInfo) error {
	if uid, ok := ownerUID(info); ok && uid != os.Getuid() {
		return &UnsafeError{Path: path, Msg: fmt.Sprintf("the trust store %s belongs to another user (uid %d), so nothing it says is trusted; remove it, or give it to yourself", path, uid)}
	}
	if modeBits && info.Mode().Perm()&0o022 != 0 {
		return &UnsafeError{Path: path, Msg: fmt.Sprintf("the trust store %s is writable by group or others (mode %04o), so anyone on this machine could trust a workspace for you; run chmod go-w %s", path, info.Mode().Perm(), path)}
	}
	return nil
}

// blobDir is the folder of the kept copies, each named by its SHA-256, so
// that trust.json itself, which every hookctl run reads, stays small.
func (s *Store) blobDir() string { return filepath.Join(filepath.Dir(s.Path), "trusted") }

// Fill reads the kept copies of a record's files into their Content. A
// copy that is missing or does not match its hash is left out: the diff
// then names the file without showing its lines.
func (s *Store) Fill(r *Record) {
	for i := range r.Files {
		f := &r.Files[i]
		if !f.Kept || f.Content != nil || !validHash(f.SHA256) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(s.blobDir(), f.SHA256))
		if err != nil {
			continue
		}
		if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) == f.SHA256 {
			c := string(b)
			f.Content = &c
		}
	}
}

func validHash(h string) bool {
	if len(h) != 64 {
		return false
	}
	_, err := hex.DecodeString(h)
	return err == nil
}

// Save writes the store atomically, mode 0600 in a folder of mode 0700,
// with the kept copies trimmed to MaxKeptStore. The caller holds the
// store's lock (Lock, or TryLock).
func (s *Store) Save() error {
	dir := filepath.Dir(s.Path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("cannot create the trust store's folder: %v", err)
	}
	s.trim()
	if err := s.writeBlobs(); err != nil {
		return err
	}
	b, err := json.MarshalIndent(file{Version: storeVersion, Workspaces: s.Workspaces}, "", "  ")
	if err != nil {
		return err
	}
	// An existing file keeps its mode through WriteFileAtomic: a store
	// left readable by others is made private first.
	if info, err := os.Lstat(s.Path); err == nil && info.Mode().IsRegular() && info.Mode().Perm() != 0o600 {
		_ = os.Chmod(s.Path, 0o600)
	}
	// Save runs under the store's lock (Lock): what writes killed before
	// their rename left beside the store can go.
	if root, err := os.OpenRoot(dir); err == nil {
		schema.RemoveLeftovers(root, filepath.Base(s.Path))
		root.Close()
	}
	if err := schema.WriteFileAtomic(s.Path, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("cannot write the trust store: %v", err)
	}
	s.collect()
	s.saveProbed()
	return nil
}

// writeBlobs writes the kept copies that are not on disk yet. A kept
// file whose copy is neither in memory nor on disk is kept no more.
func (s *Store) writeBlobs() error {
	for _, r := range s.Workspaces {
		for i := range r.Files {
			f := &r.Files[i]
			if !f.Kept {
				continue
			}
			p := filepath.Join(s.blobDir(), f.SHA256)
			if !validHash(f.SHA256) {
				f.Kept = false
				continue
			}
			if _, err := os.Stat(p); err == nil {
				continue
			}
			if f.Content == nil {
				f.Kept = false
				continue
			}
			if err := os.MkdirAll(s.blobDir(), 0o700); err != nil {
				return fmt.Errorf("cannot create the trust store's folder: %v", err)
			}
			if err := schema.WriteFileAtomic(p, []byte(*f.Content), 0o600); err != nil {
				return fmt.Errorf("cannot write the trust store: %v", err)
			}
		}
	}
	return nil
}

// collect removes the copies no record keeps any more.
func (s *Store) collect() {
	used := map[string]bool{}
	for _, r := range s.Workspaces {
		for _, f := range r.Files {
			if f.Kept {
				used[f.SHA256] = true
			}
		}
	}
	removeExcept(s.blobDir(), used)
}

// removeExcept removes the files of dir whose names keep does not hold.
func removeExcept(dir string, keep map[string]bool) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if !keep[e.Name()] {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// trim drops kept contents, the oldest records' first, until the store
// holds no more than MaxKeptStore of them.
func (s *Store) trim() {
	keys := make([]string, 0, len(s.Workspaces))
	total := 0
	for k, r := range s.Workspaces {
		keys = append(keys, k)
		total += r.kept()
	}
	slices.SortFunc(keys, func(a, b string) int { return s.Workspaces[a].TrustedAt.Compare(s.Workspaces[b].TrustedAt) })
	for _, k := range keys {
		if total <= MaxKeptStore {
			return
		}
		r := s.Workspaces[k]
		total -= r.kept()
		for i := range r.Files {
			r.Files[i].Kept, r.Files[i].Content = false, nil
		}
	}
}

func (r *Record) kept() int {
	n := 0
	for _, f := range r.Files {
		if f.Kept {
			n += int(f.Size)
		}
	}
	return n
}

// Lock takes the store's lock, so that two hookctl trust at once do not
// lose each other's change; the returned function releases it.
func Lock(path string) (func(), error) { return lock(path, filelock.Lock) }

// TryLock is Lock without waiting: it fails at once when another hookctl
// holds the lock, for work that may be left undone (hookctl run, which
// must not wait on a trust under way, records probes only then).
func TryLock(path string) (func(), error) { return lock(path, filelock.TryLock) }

func lock(path string, take func(*os.File) error) (func(), error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("cannot create the trust store's folder: %v", err)
	}
	f, err := os.OpenFile(path+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("cannot lock the trust store: %v", err)
	}
	if err := take(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("cannot lock the trust store: %v", err)
	}
	return func() { _ = filelock.Unlock(f); f.Close() }, nil
}

// NewRecord is the record of trusting snap at the time given, keeping the
// text of its files within MaxKeptWorkspace, hooks.json first.
func NewRecord(snap *Snapshot, at time.Time) *Record {
	r := &Record{Fingerprint: snap.Fingerprint, TrustedAt: at.UTC().Truncate(time.Second)}
	budget := MaxKeptWorkspace
	for _, f := range snap.Files {
		rf := RecordFile{Path: f.Path, State: f.State, SHA256: f.SHA256, Size: f.Size, Stat: f.Stat}
		if f.Content != nil && len(f.Content) <= budget && isText(f.Content) {
			c := string(f.Content)
			rf.Content, rf.Kept = &c, true
			budget -= len(f.Content)
		}
		r.Files = append(r.Files, rf)
	}
	r.Probed = ProbedOf(snap, r)
	return r
}

// isText reports whether b reads as text: valid UTF-8 without NUL bytes.
func isText(b []byte) bool {
	return utf8.Valid(b) && bytes.IndexByte(b, 0) < 0
}

// RecordWritten returns the record that trusts snap, a workspace that a
// tool has just written files into, when every file snap covers is either
// one of those files exactly as written (written maps a path, as in
// File.Path, to its bytes) or as prev trusted it; else nil and the first
// file that is neither, in a few words. So a file that changed while the
// tool ran, or one the user never saw, is never trusted in passing.
func RecordWritten(prev *Record, snap *Snapshot, written map[string][]byte, at time.Time) (*Record, string) {
	if snap.Refused != "" {
		return nil, snap.Refused
	}
	old := map[string]*RecordFile{}
	if prev != nil {
		for i := range prev.Files {
			old[prev.Files[i].Path] = &prev.Files[i]
		}
	}
	for _, f := range snap.Files {
		if b, ok := written[f.Path]; ok {
			sum := sha256.Sum256(b)
			if f.State != Present || f.SHA256 != hex.EncodeToString(sum[:]) {
				return nil, schema.Visible(f.Path) + " is not what was just written"
			}
			continue
		}
		o := old[f.Path]
		switch {
		case o == nil && f.State == Missing && f.Alternative:
			// A file node or Python would run instead if it existed: not
			// there, it runs nothing.
		case o == nil:
			return nil, schema.Visible(f.Path) + " was never trusted"
		case o.State != f.State || o.SHA256 != f.SHA256:
			return nil, schema.Visible(f.Path) + " changed since the workspace was trusted"
		}
	}
	return NewRecord(snap, at), ""
}
