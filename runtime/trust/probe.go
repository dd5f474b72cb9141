package trust

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"time"

	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/shellcmd"
)

// What a snapshot finds (the files covered, their states and hashes, what
// the scripts source, import and require, the gaps) is a function of
// hooks.json's bytes and of what the file system answered the paths it
// asked about: a folder listed, a path resolved, a file's stat, a file
// read. A file's content is identified by its StatID, as hashing already
// takes it (an equal StatID stands for an unchanged file); a folder's
// StatID changes whenever an entry is added to it, removed or renamed.
//
// So the record keeps, beside the fingerprint, every path asked about and
// its answer (Probe): when hooks.json is byte for byte the one trusted and
// every path answers as it did, a new snapshot would read the same bytes
// and find the same files, so its fingerprint would be the one trusted,
// and hookctl run takes the record's verdict without reading or parsing
// any script again. One answer that differs, and the check takes the
// snapshot in full, as without the probes.

// probeVersion names what a snapshot asks the file system about and how
// it reads the answers; it changes with any change to what trust covers
// or follows, so that a record made by another hookctl is checked in full.
const probeVersion = 20

// Probed is what a record keeps of the paths its snapshot asked about.
type Probed struct {
	// Version is the probeVersion of the hookctl that recorded them.
	Version int `json:"version"`
	// At is when they were asked.
	At time.Time `json:"at"`
	// Paths are the paths asked about, sorted, with their answers.
	Paths []Probe `json:"paths"`
}

// Probe is one path a snapshot asked the file system about, and its
// answer: where the path resolves to (its links followed as the kernel
// follows them) and what lies there.
type Probe struct {
	Path string `json:"p"`
	// Real is the path resolved, when it is not Path itself.
	Real string `json:"r,omitempty"`
	// Kind is "missing", "file", "dir", "other" (a FIFO, a device, a
	// socket), "process" (a file of the process that opens it, never
	// asked: schema.ProcessFile) or "error" (it could not be asked).
	Kind string `json:"k"`
	// Stat is the StatID of what lies there, for any kind but missing
	// and error.
	Stat *StatID `json:"s,omitempty"`
}

// probe notes that the snapshot asks the file system about p.
func (c *coverage) probe(p string) {
	c.probed[p] = true
}

// observe asks the file system about p as a snapshot does.
func observe(res *shellcmd.Resolver, p string) Probe {
	pr := Probe{Path: p}
	real := res.Resolve(p)
	if real != p {
		pr.Real = real
	}
	if schema.ProcessFile(real) != "" {
		// What lies there is hookctl's own: never asked.
		pr.Kind = "process"
		return pr
	}
	info, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		pr.Kind = "missing"
		return pr
	case err != nil:
		pr.Kind = "error"
		return pr
	case info.IsDir():
		pr.Kind = "dir"
	case info.Mode().IsRegular():
		pr.Kind = "file"
	default:
		pr.Kind = "other"
	}
	if pr.Stat = statID(info); pr.Stat == nil {
		pr.Kind = "error" // no identity to compare: never taken as unchanged
	}
	return pr
}

func observeAll(paths []string) []Probe {
	var res shellcmd.Resolver
	out := make([]Probe, len(paths))
	for i, p := range paths {
		out[i] = observe(&res, p)
	}
	return out
}

func sameProbe(a, b Probe) bool {
	return a.Path == b.Path && a.Real == b.Real && a.Kind == b.Kind &&
		(a.Stat == nil) == (b.Stat == nil) && (a.Stat == nil || *a.Stat == *b.Stat)
}

// ProbedOf returns what rec, made of snap or matching it, keeps of the paths snap
// asked about, or nil when snap cannot be trusted or the workspace changed
// while it was taken. The answers are taken after the snapshot, and the
// snapshot is taken again and the answers asked again: equal answers on
// both sides of a snapshot that finds the same fingerprint are the state
// that fingerprint was taken of (a StatID's change time never goes back).
func ProbedOf(snap *Snapshot, rec *Record) *Probed {
	if snap.Config == nil || snap.Refused != "" || snap.probed == nil || snap.Root == "" {
		return nil
	}
	before := observeAll(snap.probed)
	again := snapshot(snap.Root, snap.Config, rec)
	if again.Fingerprint != snap.Fingerprint || again.Refused != "" || !slices.Equal(again.probed, snap.probed) {
		return nil
	}
	after := observeAll(again.probed)
	if !slices.EqualFunc(before, after, sameProbe) {
		return nil
	}
	return &Probed{Version: probeVersion, At: time.Now().UTC().Truncate(time.Second), Paths: after}
}

// Unchanged reports whether the workspace at root, whose hooks.json is
// cfg, is as the record's probes found it: hooks.json the same bytes and
// every path asked about answering as it did. False says nothing: the
// check must then take the snapshot.
func (r *Record) Unchanged(cfg *schema.Config) bool {
	p := r.Probed
	if p == nil || p.Version != probeVersion || len(p.Paths) == 0 || len(r.Files) == 0 || cfg == nil {
		return false
	}
	if h := r.Files[0]; h.Path != HooksFile || h.State != Present {
		return false
	}
	sum := sha256.Sum256(cfg.Src)
	if hex.EncodeToString(sum[:]) != r.Files[0].SHA256 {
		return false
	}
	var res shellcmd.Resolver
	for _, want := range p.Paths {
		if !sameProbe(observe(&res, want.Path), want) {
			return false
		}
	}
	return true
}

// probedDir is the folder of the records' probes, beside the store, one
// file per workspace named by the SHA-256 of its key.
func (s *Store) probedDir() string { return filepath.Join(filepath.Dir(s.Path), "probed") }

func (s *Store) probedPath(root string) string {
	sum := sha256.Sum256([]byte(root))
	return filepath.Join(s.probedDir(), hex.EncodeToString(sum[:])+".json")
}

// probedFile is the format of a record's probes on disk: they stand for
// the record of Root whose fingerprint is Fingerprint, and for no other.
type probedFile struct {
	Root        string `json:"root"`
	Fingerprint string `json:"fingerprint"`
	Probed
}

// maxProbedFile bounds the probes file read: MaxFiles files and their
// candidates, a few hundred bytes each.
const maxProbedFile = 8 << 20

// LoadProbed reads the probes of root's record into its Probed, once. A
// file that is missing, not the user's alone (the same checks as the
// store's), not understood, or made for another record leaves Probed nil:
// the check is then the full one.
func (s *Store) LoadProbed(root string) {
	rec := s.Workspaces[root]
	if rec == nil || rec.Probed != nil || rec.probedRead || s.Path == "" {
		return
	}
	rec.probedRead = true
	p := s.probedPath(root)
	b, err := readStore(p, maxProbedFile)
	if err != nil {
		return
	}
	var f probedFile
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if dec.Decode(&f) != nil || f.Root != root || f.Fingerprint != rec.Fingerprint {
		return
	}
	rec.Probed = &f.Probed
}

// saveProbed writes the probes of every record that holds them, and
// removes the files of workspaces no longer trusted. Probes only spare
// time: what cannot be written is left out.
func (s *Store) saveProbed() {
	keep := map[string]bool{}
	for root, rec := range s.Workspaces {
		p := s.probedPath(root)
		keep[filepath.Base(p)] = true
		if rec.Probed == nil {
			continue
		}
		b, err := json.Marshal(probedFile{Root: root, Fingerprint: rec.Fingerprint, Probed: *rec.Probed})
		if err != nil || os.MkdirAll(s.probedDir(), 0o700) != nil {
			continue
		}
		_ = schema.WriteFileAtomic(p, append(b, '\n'), 0o600)
	}
	removeExcept(s.probedDir(), keep)
}
