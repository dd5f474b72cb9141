package scaffold

import (
	"errors"
	"fmt"
	"time"

	"github.com/hookctl/hookctl/runtime/trust"
	"github.com/hookctl/hookctl/schema/shellcmd"
)

// Trust is what init does about workspace trust (trust.Renewal): a
// workspace whose hooks are all init's own (a new hooks.json) or were
// trusted already gets its trust renewed over the new hook, so the hook
// runs at once; a workspace with hooks the user never trusted stays
// untrusted, since renewing would trust them unseen.
type Trust struct {
	*trust.Renewal
	Renew bool
	// Untrusted says why the workspace is not trusted, when it is not.
	Untrusted string
	// Before is whether the user had trusted the workspace, as it was,
	// before init: only then may init run anything in it.
	Before bool
	// NotCovered, once the trust is renewed, is what the trust cannot
	// cover of the new hook (trust.Snapshot.NotCovered), which nobody
	// reviewed: init names it.
	NotCovered []string
}

// CheckTrust decides, before anything is written, whether the trust is to
// be renewed after; nil for a hook outside a workspace.
func CheckTrust(o Options, x *Existing) (*Trust, error) {
	if o.Scope != Workspace {
		return nil, nil
	}
	r, err := trust.NewRenewal(o.Dir)
	if err != nil {
		return nil, err
	}
	t := &Trust{Renewal: r, Renew: true}
	if x.Config == nil {
		// A new or empty hooks.json: every hook in it will be init's.
		return t, nil
	}
	ok, why, err := r.Trusted()
	if errors.Is(err, trust.ErrNoHooks) {
		return t, nil
	}
	if err != nil {
		return nil, err
	}
	t.Renew, t.Untrusted, t.Before = ok, why, ok
	return t, nil
}

// RenewOver trusts the workspace with the hook init wrote: exactly the
// bytes it wrote, plus what was trusted before. The returned text says
// which file keeps the workspace untrusted, "" when the trust was renewed.
func (t *Trust) RenewOver(now time.Time, p *Plan) (string, error) {
	why, snap, err := t.Over(now, map[string][]byte{p.Config: p.ConfigOut, p.Script: p.ScriptOut})
	if snap != nil {
		t.NotCovered = snap.NotCovered(p.Name)
	}
	return why, err
}

// Commit commits tx, whose writes are p's, and renews the trust t
// decided on (nil: none) still under the lock, so that what is trusted is
// what init wrote. The journal stays until the trust is renewed: killed
// between the two, the next init renews it (trust.RenewUnfinished). When
// the renewal finds a file it may not trust, t.Renew turns false and
// t.Untrusted says why; when it fails, the error says the hook is written
// and how to trust it.
func Commit(tx *Tx, p *Plan, t *Trust, now time.Time) error {
	renew := t != nil && t.Renew
	tx.Follow = renew
	tx.Commit()
	if renew {
		why, err := t.RenewOver(now, p)
		if err != nil {
			return fmt.Errorf("the hook is written, but trusting the workspace failed: %v; run hookctl trust %s", err, shellcmd.Quote(t.Root))
		}
		if why != "" {
			t.Renew, t.Untrusted = false, why
		}
	}
	tx.Done()
	return nil
}

// FinishUnfinished renews the trust that an init killed after its writes
// did not, once a Tx has begun, and tells the Tx it is done.
func (tx *Tx) FinishUnfinished() {
	if u := tx.Unfinished; u != nil {
		trust.RenewUnfinished(u.Root, u.Files, MaxEditSize)
		tx.Finished()
	}
}
