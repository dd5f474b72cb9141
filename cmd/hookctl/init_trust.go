package main

import (
	"errors"
	"time"

	"github.com/hookctl/hookctl/runtime/trust"
	"github.com/hookctl/hookctl/scaffold"
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
	return t, nil
}

// renewAfter trusts the workspace as it now is.
func (t *initTrust) renewAfter(now time.Time) error {
	unlock, err := trust.Lock(t.store)
	if err != nil {
		return err
	}
	defer unlock()
	s, err := trust.Open(t.store)
	if err != nil {
		return err
	}
	snap, err := trust.Take(t.root)
	if err != nil {
		return err
	}
	s.Workspaces[t.root] = trust.NewRecord(snap, now)
	return s.Save()
}
