package main

import (
	"fmt"
	"strings"

	"github.com/hookctl/hookctl/scaffold"
	"github.com/hookctl/hookctl/schema"
)

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
	tx.FinishUnfinished()
}
