package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hookctl/hookctl/scaffold"
	"github.com/hookctl/hookctl/schema"
)

// waitNotice is how long a wait for another hookctl's lock goes unsaid.
var waitNotice = time.Second

// beginEdit begins an edit of the files in folder with begin (init,
// import, export and test --add-from-log all lock the folder of the file
// they change): it says on stderr when it waits for another hookctl's
// lock, returns stopped when a signal ends the wait, and once the edit
// has begun finishes what an edit killed before it was done left.
func beginEdit(s streams, ctx context.Context, folder string, stopped error, begin func(context.Context) (*scaffold.Tx, error)) (*scaffold.Tx, error) {
	waited := noticeWait(s, folder)
	tx, err := begin(ctx)
	waited()
	if ctx.Err() != nil {
		if tx != nil {
			tx.Close()
		}
		return nil, stopped
	}
	if err != nil {
		return nil, usageErrorf("%v", err)
	}
	afterBegin(s, tx)
	return tx, nil
}

// noticeWait says on stderr, once waitNotice has gone by, that hookctl
// waits for another one's lock on folder, so that a wait is not taken for
// a hang; the returned function ends it. The folder's name may hold escape
// sequences: it is shown made visible.
func noticeWait(s streams, folder string) func() {
	t := time.AfterFunc(waitNotice, func() {
		fmt.Fprintf(s.err, "hookctl: waiting for another hookctl to finish editing %s (Ctrl-C stops, writing nothing)\n", schema.Visible(folder))
	})
	return func() { t.Stop() }
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
	tx.FinishUnfinished()
}
