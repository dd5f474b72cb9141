package trust

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/hookctl/hookctl/schema"
)

// Change is one file that differs between a record and a snapshot.
type Change struct {
	Path string
	// Kind is "added", "removed" or "changed".
	Kind string
	// Old and New are the file as trusted and as it is now.
	Old *RecordFile
	New *File
}

// Diff is what changed in a workspace since it was trusted.
type Diff struct {
	// Record is what was trusted, nil when the workspace never was.
	Record *Record
	// Snapshot is the workspace now.
	Snapshot *Snapshot
	// Changes are the files added, removed or changed, in the snapshot's
	// order, removed files last.
	Changes []Change
}

// Compare returns what changed between what was trusted and the workspace
// now. A file counts as added when the record did not cover it, or when it
// was missing then and is there now; removed when the commands no longer
// name it, or it has gone.
func Compare(rec *Record, snap *Snapshot) *Diff {
	d := &Diff{Record: rec, Snapshot: snap}
	old := map[string]*RecordFile{}
	if rec != nil {
		for i := range rec.Files {
			old[rec.Files[i].Path] = &rec.Files[i]
		}
	}
	seen := map[string]bool{}
	for i := range snap.Files {
		f := &snap.Files[i]
		seen[f.Path] = true
		o := old[f.Path]
		switch {
		case o == nil && f.State == Missing:
			// Named but not there, now as before: nothing to show. A file
			// an interpreter would take only if it existed is not worth a
			// line either: a record made before it was looked for differs
			// in its fingerprint alone, which Summary words.
			if rec != nil && !f.Alternative {
				d.Changes = append(d.Changes, Change{Path: f.Path, Kind: "added", New: f})
			}
		case o == nil, o.State != Present && f.State == Present:
			d.Changes = append(d.Changes, Change{Path: f.Path, Kind: "added", Old: o, New: f})
		case o.State == Present && f.State != Present:
			d.Changes = append(d.Changes, Change{Path: f.Path, Kind: "removed", Old: o, New: f})
		case o.State != f.State || o.SHA256 != f.SHA256:
			d.Changes = append(d.Changes, Change{Path: f.Path, Kind: "changed", Old: o, New: f})
		}
	}
	if rec != nil {
		for i := range rec.Files {
			o := &rec.Files[i]
			if !seen[o.Path] {
				d.Changes = append(d.Changes, Change{Path: o.Path, Kind: "removed", Old: o})
			}
		}
	}
	return d
}

// Same reports whether the workspace is exactly as trusted.
func (d *Diff) Same() bool { return d.Record != nil && d.Record.Fingerprint == d.Snapshot.Fingerprint }

// Summary names the changed files in one line: "changed .agents/hooks.json,
// added .agents/hooks/x.sh". The paths are the workspace's: they are made
// visible here (\x1b), so that no caller can print an escape sequence a
// file name carries.
func (d *Diff) Summary() string {
	var parts []string
	for _, c := range d.Changes {
		parts = append(parts, c.Kind+" "+schema.Visible(c.Path)+describeState(c))
	}
	if len(parts) == 0 && !d.Same() {
		return "trusted by an earlier hookctl, which covered fewer of the files hooks can run; review and trust it again"
	}
	return strings.Join(parts, ", ")
}

func describeState(c Change) string {
	if c.New == nil {
		return " (no longer named)"
	}
	switch c.New.State {
	case Missing:
		if c.Kind == "removed" {
			return " (deleted)"
		}
		return " (named, not there)"
	case NotFile:
		return " (now not a regular file)"
	case Unreadable:
		return " (now unreadable)"
	}
	return ""
}

// Write prints the changes: one line per file, then a unified diff of each
// text file whose trusted content the store kept.
func (d *Diff) Write(w io.Writer) error {
	var b bytes.Buffer
	for _, c := range d.Changes {
		fmt.Fprintf(&b, "%-8s %s%s\n", c.Kind, schema.Visible(c.Path), describeState(c))
	}
	for _, c := range d.Changes {
		old, oldOK := oldContent(c)
		cur, curOK := newContent(c)
		switch {
		case c.New != nil && c.New.State == Present && !curOK,
			c.Old != nil && c.Old.State == Present && !oldOK && c.Kind != "added":
			fmt.Fprintf(&b, "\n%s: %s\n", schema.Visible(c.Path), whyNoDiff(c, oldOK, curOK))
			continue
		}
		if !oldOK && !curOK {
			continue
		}
		if u := diff.Diff("trusted/"+c.Path, old, "now/"+c.Path, cur); len(u) > 0 {
			// The lines are the workspace's: escape sequences in a script
			// are shown, never interpreted.
			b.WriteByte('\n')
			for _, line := range strings.SplitAfter(string(u), "\n") {
				nl := strings.HasSuffix(line, "\n")
				b.WriteString(schema.VisibleLine(strings.TrimSuffix(line, "\n")))
				if nl {
					b.WriteByte('\n')
				}
			}
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

func oldContent(c Change) ([]byte, bool) {
	if c.Old == nil || c.Old.State != Present {
		return nil, true // nothing was there: every line is new
	}
	if c.Old.Content == nil {
		return nil, false
	}
	return []byte(*c.Old.Content), true
}

func newContent(c Change) ([]byte, bool) {
	if c.New == nil || c.New.State != Present {
		return nil, true
	}
	if c.New.Content == nil || !isText(c.New.Content) {
		return nil, false
	}
	return c.New.Content, true
}

func whyNoDiff(c Change, oldOK, curOK bool) string {
	switch {
	case !curOK && c.New != nil && c.New.Content == nil:
		return fmt.Sprintf("%d bytes now, too large to show (sha256 %s)", c.New.Size, short(c.New.SHA256))
	case !curOK:
		return fmt.Sprintf("binary now (sha256 %s)", short(c.New.SHA256))
	default:
		return fmt.Sprintf("its trusted content was not kept (binary, or past the store's bounds); sha256 was %s", short(c.Old.SHA256))
	}
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// Verify decides whether the workspace at root, whose hooks.json is cfg,
// may run: Check of its snapshot, taken reading only the files that
// changed since the store's record (by their StatID), or, when every path
// the record's snapshot asked the file system about answers as it did, the
// record's own verdict without a snapshot. It is what every hookctl run
// does before a trusted workspace's hooks run.
func (s *Store) Verify(root string, cfg *schema.Config) (bool, string) {
	ok, why, _ := s.VerifyProbed(root, cfg)
	return ok, why
}

// VerifyProbed is Verify, and returns the snapshot the check took: nil
// when the record's probes decided (see Probe). A snapshot with ok true is
// a workspace as trusted whose probes are missing or stale, which ProbedOf
// can record afresh from it.
func (s *Store) VerifyProbed(root string, cfg *schema.Config) (ok bool, why string, snap *Snapshot) {
	rec := s.Workspaces[root]
	if rec == nil {
		return false, "never trusted", nil
	}
	s.LoadProbed(root)
	if rec.Unchanged(cfg) {
		// Every path the trusted snapshot asked about answers as it did:
		// a snapshot now would be that one (see Probe).
		return true, "", nil
	}
	snap = snapshot(root, cfg, rec)
	ok, why = s.Check(snap)
	return ok, why, snap
}

// Check decides whether snap may run under the store's record of its
// workspace, and when not, says why in a few words.
func (s *Store) Check(snap *Snapshot) (bool, string) {
	if snap.Refused != "" {
		return false, "it cannot be trusted: " + snap.Refused
	}
	rec := s.Workspaces[snap.Root]
	if rec == nil {
		return false, "never trusted"
	}
	d := Compare(rec, snap)
	if d.Same() {
		return true, ""
	}
	return false, "changed since trusted on " + rec.TrustedAt.UTC().Format(time.RFC3339) + ": " + d.Summary()
}
