package main

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hookctl/hookctl/runtime/trust"
	"github.com/hookctl/hookctl/scaffold"
	"github.com/hookctl/hookctl/schema"
)

// initTrust is what init does about workspace trust (trust.Renewal): a
// workspace whose hooks are all init's own (a new hooks.json) or were
// trusted already gets its trust renewed over the new hook, so the hook
// runs at once; a workspace with hooks the user never trusted stays
// untrusted, since renewing would trust them unseen.
type initTrust struct {
	*trust.Renewal
	root      string
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
	r, err := trust.NewRenewal(opts.Dir)
	if err != nil {
		return nil, err
	}
	t := &initTrust{Renewal: r, root: r.Root, renew: true}
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
	t.renew, t.untrusted, t.before = ok, why, ok
	return t, nil
}

// renewAfter trusts the workspace with the hook init wrote: exactly the
// bytes it wrote, plus what was trusted before. The returned text says
// which file keeps the workspace untrusted, "" when the trust was renewed.
func (t *initTrust) renewAfter(now time.Time, plan *scaffold.Plan) (string, error) {
	return t.Over(now, map[string][]byte{plan.Config: plan.ConfigOut, plan.Script: plan.ScriptOut})
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
		trust.RenewUnfinished(u.Root, u.Files, scaffold.MaxEditSize)
		tx.Finished()
	}
}
