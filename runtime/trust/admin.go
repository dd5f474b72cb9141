package trust

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"text/tabwriter"
	"time"

	"github.com/hookctl/hookctl/schema"
)

// TakeDir finds the workspace rooted at dir, a folder, and reads it: its
// key in the store and its snapshot. The errors say what to name instead.
func TakeDir(dir string) (string, *Snapshot, error) {
	info, err := os.Stat(dir)
	if err != nil {
		return "", nil, pathErr(dir, err)
	}
	if !info.IsDir() {
		hint := ""
		if filepath.Base(dir) == "hooks.json" {
			hint = fmt.Sprintf(": name the workspace's root, the folder that holds .agents (hookctl trust %s)", filepath.Dir(filepath.Dir(dir)))
		}
		return "", nil, fmt.Errorf("%s is not a folder%s", dir, hint)
	}
	root, err := Key(dir)
	if err != nil {
		return "", nil, pathErr(dir, err)
	}
	snap, err := Take(root)
	if errors.Is(err, ErrNoHooks) {
		return "", nil, fmt.Errorf("%s has no %s: there is nothing to trust", root, HooksFile)
	}
	if err != nil {
		return "", nil, unwrapPathErr(err)
	}
	return root, snap, nil
}

// Grant records in the store at path that the workspace root, read as
// snap, was trusted at the time given. It holds the store's lock and reads
// the store again under it: another trust may have saved meanwhile.
func Grant(path, root string, snap *Snapshot, at time.Time) error {
	unlock, err := Lock(path)
	if err != nil {
		return err
	}
	defer unlock()
	store, err := Open(path)
	if err != nil {
		return err
	}
	store.Workspaces[root] = NewRecord(snap, at)
	return store.Save()
}

// Revoke takes the workspace at dir out of the store at path, and returns
// its key and whether it was trusted. A workspace deleted since it was
// trusted is revoked by the path it had.
func Revoke(path, dir string) (root string, was bool, err error) {
	root, err = Key(dir)
	if err != nil {
		abs, aerr := filepath.Abs(dir)
		if aerr != nil {
			return "", false, fmt.Errorf("%s: %v", dir, aerr)
		}
		root = abs
	}
	unlock, err := Lock(path)
	if err != nil {
		return root, false, err
	}
	defer unlock()
	store, err := Open(path)
	if err != nil {
		return root, false, err
	}
	if store.Workspaces[root] == nil {
		return root, false, nil
	}
	delete(store.Workspaces, root)
	return root, true, store.Save()
}

// Now says in a few words whether the workspace root is still as rec
// trusted it: "matches", "gone: no .agents/hooks.json", "unreadable: ..."
// or the summary of what changed ("changed FILE, added FILE").
func Now(root string, rec *Record) string {
	snap, err := Take(root)
	switch {
	case errors.Is(err, ErrNoHooks):
		return "gone: no " + HooksFile
	case err != nil:
		return "unreadable: " + schema.Visible(unwrapPathErr(err).Error())
	}
	if d := Compare(rec, snap); !d.Same() {
		return d.Summary()
	}
	return "matches"
}

// WriteList writes the trusted workspaces by path, each with when it was
// trusted and whether it still matches (Now), as hookctl trust --list
// shows them; or that none is.
func (s *Store) WriteList(w io.Writer) error {
	if len(s.Workspaces) == 0 {
		_, err := fmt.Fprintln(w, "No workspace is trusted.")
		return err
	}
	roots := make([]string, 0, len(s.Workspaces))
	for r := range s.Workspaces {
		roots = append(roots, r)
	}
	sort.Strings(roots)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "WORKSPACE\tTRUSTED\tNOW")
	for _, r := range roots {
		rec := s.Workspaces[r]
		fmt.Fprintf(tw, "%s\t%s\t%s\n", schema.Visible(r), schema.FormatTime(rec.TrustedAt), Now(r, rec))
	}
	return tw.Flush()
}

// pathErr words an error about path, naming the path once.
func pathErr(path string, err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %v", pe.Path, pe.Err)
	}
	return fmt.Errorf("%s: %v", path, err)
}

// unwrapPathErr words an error that may be about a path, naming the path
// once.
func unwrapPathErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %v", pe.Path, pe.Err)
	}
	return err
}
