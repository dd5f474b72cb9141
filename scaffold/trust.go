package scaffold

import (
	"errors"
	"time"

	"github.com/hookctl/hookctl/runtime/trust"
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
	return t.Over(now, map[string][]byte{p.Config: p.ConfigOut, p.Script: p.ScriptOut})
}

// FinishUnfinished renews the trust that an init killed after its writes
// did not, once a Tx has begun, and tells the Tx it is done.
func (tx *Tx) FinishUnfinished() {
	if u := tx.Unfinished; u != nil {
		trust.RenewUnfinished(u.Root, u.Files, MaxEditSize)
		tx.Finished()
	}
}
