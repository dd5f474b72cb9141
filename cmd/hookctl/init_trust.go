package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookctl/hookctl/runtime/trust"
	"github.com/hookctl/hookctl/scaffold"
	"github.com/hookctl/hookctl/schema"
)

// initTrust is what init does about workspace trust: a workspace whose hooks
// are all init's own (a new hooks.json) or were trusted already gets its
// trust renewed over the new hook, so the hook runs at once; a workspace
// with hooks the user never trusted stays untrusted, since renewing would
// trust them unseen.
type initTrust struct {
	root      string
	store     string
	renew     bool
	untrusted string // why the workspace is not trusted, when it is not
	// before is whether the user had trusted the workspace, as it was,
	// before init: only then may init run anything in it.
	before bool
}

// checkTrustBefore decides, before anything is written, whether the trust
// is to be renewed after.
func checkTrustBefore(opts initOptions, x *scaffold.Existing) (*initTrust, error) {
	if opts.Scope != scaffold.Workspace {
		return nil, nil
	}
	store, err := trust.DefaultPath()
	if err != nil {
		return nil, err
	}
	root, err := trust.Key(opts.Dir)
	if err != nil {
		return nil, err
	}
	t := &initTrust{root: root, store: store}
	if x.Config == nil {
		// A new or empty hooks.json: every hook in it will be init's.
		t.renew = true
		return t, nil
	}
	snap, err := trust.Take(root)
	if errors.Is(err, trust.ErrNoHooks) {
		t.renew = true
		return t, nil
	}
	if err != nil {
		return nil, err
	}
	s, err := trust.Open(store)
	if err != nil {
		return nil, err
	}
	t.renew, t.untrusted = s.Check(snap)
	t.before = t.renew
	return t, nil
}

// renewAfter trusts the workspace with the hook init wrote: exactly the
// bytes it wrote, plus what was trusted before. A file that changed while
// init ran, or one never trusted, keeps the workspace untrusted; the
// returned text says which, "" when the trust was renewed.
func (t *initTrust) renewAfter(now time.Time, plan *scaffold.Plan) (string, error) {
	written := map[string][]byte{}
	for path, b := range map[string][]byte{plan.Config: plan.ConfigOut, plan.Script: plan.ScriptOut} {
		if rel, ok := t.rel(path); ok && b != nil {
			written[rel] = b
		}
	}
	return t.renewOver(now, written)
}

// afterBegin finishes what an edit killed before it was done left, once a
// Tx has begun (init, import and test --add-from-log all lock the folder
// of hooks.json): it says which files Begin put back as they were, and
// renews the trust that an init killed after its writes did not.
func afterBegin(s streams, tx *scaffold.Tx) {
	if len(tx.Recovered) > 0 {
		names := make([]string, len(tx.Recovered))
		for i, n := range tx.Recovered {
			names[i] = schema.Visible(n)
		}
		fmt.Fprintf(s.err, "hookctl: an edit stopped before it was done had written %s: put back as it was\n", strings.Join(names, ", "))
	}
	if u := tx.Unfinished; u != nil {
		renewUnfinished(u.Root, u.Files)
		tx.Finished()
	}
}

// renewUnfinished does the renewal that an init killed after its writes
// did not: files are the files it wrote in the workspace ws (real paths)
// with the SHA-256 of what it wrote, which its journal kept. They are
// trusted only as they were written, on top of what was trusted before,
// as that init would have done; a file changed since keeps the workspace
// as it is.
func renewUnfinished(ws string, files map[string]string) {
	store, err := trust.DefaultPath()
	if err != nil {
		return
	}
	root, err := trust.Key(ws)
	if err != nil {
		return
	}
	t := &initTrust{root: root, store: store}
	written := map[string][]byte{}
	for real, want := range files {
		b, err := schema.ReadFile(real, scaffold.MaxEditSize)
		if sum := sha256.Sum256(b); err != nil || hex.EncodeToString(sum[:]) != want {
			return
		}
		if rel, ok := t.rel(real); ok {
			written[rel] = b
		}
	}
	_, _ = t.renewOver(time.Now(), written)
}

// renewOver trusts the workspace with the files written (relative names,
// as the trust store names them), on top of what was trusted before.
func (t *initTrust) renewOver(now time.Time, written map[string][]byte) (string, error) {
	unlock, err := trust.Lock(t.store)
	if err != nil {
		return "", err
	}
	defer unlock()
	s, err := trust.Open(t.store)
	if err != nil {
		return "", err
	}
	snap, err := trust.Take(t.root)
	if err != nil {
		return "", err
	}
	rec, why := trust.RecordWritten(s.Workspaces[t.root], snap, written, now)
	if rec == nil {
		return why, nil
	}
	s.Workspaces[t.root] = rec
	return "", s.Save()
}

// rel names a file init wrote as the trust store does: relative to the
// workspace's real root, with forward slashes.
func (t *initTrust) rel(path string) (string, bool) {
	dir, err := filepath.EvalSymlinks(filepath.Dir(path))
	if err != nil {
		return "", false
	}
	r, err := filepath.Rel(t.root, filepath.Join(dir, filepath.Base(path)))
	if err != nil || strings.HasPrefix(r, "..") {
		return "", false
	}
	return filepath.ToSlash(r), true
}
