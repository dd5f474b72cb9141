package trust

import (
	"path/filepath"
	"sync"
	"time"

	"github.com/hookctl/hookctl/runtime"
)

// probesRefresh is how long a check waits before it records again the
// probes of a trusted workspace it found stale.
const probesRefresh = time.Minute

// StoreOnce returns a function that opens the trust store at its default
// path the first time it is called and returns the same store, or error,
// after: the commands that check several files open it once.
func StoreOnce() func() (*Store, error) {
	return sync.OnceValues(func() (*Store, error) {
		p, err := DefaultPath()
		if err != nil {
			return nil, err
		}
		return Open(p)
	})
}

// Checker decides, for hookctl run and the other commands that load a
// workspace's hooks (runtime.Options.Trusted), whether a workspace file may
// run: it must match what the user trusted, in the store open returns. A
// store that cannot be read trusts nothing, and says why.
func Checker(open func() (*Store, error)) func(*runtime.Source) (bool, string) {
	return func(src *runtime.Source) (bool, string) {
		store, openErr := open()
		if openErr != nil {
			return false, openErr.Error()
		}
		root, err := Key(filepath.Dir(filepath.Dir(src.Path)))
		if err != nil {
			return false, err.Error()
		}
		if src.Config == nil {
			// A trusted workspace whose file cannot be read reports the
			// failure (a gate fails closed); a workspace never trusted
			// cannot make every tool call fail by shipping a broken file.
			if store.Workspaces[root] != nil {
				return true, ""
			}
			if src.Err != nil {
				return false, "never trusted, and " + src.Err.Error()
			}
			return false, "never trusted"
		}
		ok, why, snap := store.VerifyProbed(root, src.Config)
		if rec := store.Workspaces[root]; ok && snap != nil && store.Path != "" &&
			(rec.Probed == nil || time.Since(rec.Probed.At) > probesRefresh) {
			// As trusted, but checked in full: a file touched, Python's
			// __pycache__ written by the first run, a record of an
			// earlier hookctl. Recording the answers afresh from the
			// check's own snapshot (which costs this run one more) spares
			// the next runs the full check; failing to changes nothing. A workspace whose hooks
			// change a folder the check lists on every run is refreshed
			// once a minute at most, not on every run.
			AddProbes(store.Path, root, snap)
		}
		return ok, why
	}
}

// NeverTrusted says, before the workspace file at path is read, whether
// its workspace has no trust record at all in the store open returns
// (runtime.Options.NeverTrusted): run then leaves the file unread, as its
// hooks would not run whatever it holds. A store that cannot be read says
// no, so that Checker reports why.
func NeverTrusted(open func() (*Store, error)) func(path string) bool {
	return func(path string) bool {
		store, err := open()
		if err != nil {
			return false
		}
		root, err := Key(filepath.Dir(filepath.Dir(path)))
		return err == nil && store.Workspaces[root] == nil
	}
}

// AddProbes gives the record of a workspace whose files are as trusted
// what the check of every hookctl run needs to skip reading its scripts
// again (Record.Probed), when the record has none (trusted by an earlier
// hookctl) or its are stale (a file touched, a checkout of the same
// content). What is trusted does not change, and a store that cannot be
// written, or that another hookctl holds, is left as it is: the probes
// only spare time.
func AddProbes(path, root string, snap *Snapshot) {
	stale := func(rec *Record) bool {
		return rec != nil && rec.Fingerprint == snap.Fingerprint && !rec.Unchanged(snap.Config)
	}
	store, err := Open(path)
	if err != nil {
		return
	}
	if store.LoadProbed(root); !stale(store.Workspaces[root]) {
		return
	}
	// Another hookctl holding the store (a trust under way, another run
	// recording the same probes) is not waited for: the probes only spare
	// time, and run is on the agent's path.
	unlock, err := TryLock(path)
	if err != nil {
		return
	}
	defer unlock()
	if store, err = Open(path); err != nil {
		return
	}
	if store.LoadProbed(root); !stale(store.Workspaces[root]) {
		return
	}
	rec := store.Workspaces[root]
	if rec.Probed = ProbedOf(snap, rec); rec.Probed == nil {
		// The workspace changed while it was probed: no answers, but
		// the time of the attempt, so that run does not retry at once.
		rec.Probed = &Probed{At: time.Now().UTC().Truncate(time.Second)}
	}
	_ = store.Save()
}
