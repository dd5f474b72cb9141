package export

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookctl/hookctl/runtime/adapter"
	"github.com/hookctl/hookctl/scaffold"
	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/scope"
)

// Request is one run of hookctl export: the hooks of a workspace wired
// into, or taken out of, one agent's workspace settings.
type Request struct {
	// To is the agent whose settings change.
	To schema.Agent
	// Dir is the workspace's root as the user named it: the files are
	// shown under it.
	Dir string
	// Remove takes out what export added instead of adding it.
	Remove bool
	// OnError is the failure policy written into the commands, "" for
	// none (OnErrors).
	OnError string
	// ReplaceImported takes out of the settings the hooks the
	// workspace's hooks.json holds as imported, instead of leaving their
	// events unwired.
	ReplaceImported bool
	// Home is the user's home folder, "" when unknown; Getenv reads the
	// environment, for where the record of what export created is kept.
	Home   string
	Getenv func(string) string
}

// Job is a Request opened on its workspace: the settings file it changes,
// checked to lie inside the workspace, and the events to wire.
type Job struct {
	Request
	// Events are the events the workspace's enabled hooks use; none (and
	// not Remove) means there is nothing to export.
	Events []schema.Event
	// Path is the settings file; Shown is the same under Dir, and
	// HooksFile the workspace's hooks.json under Dir.
	Path, Shown, HooksFile string

	root   string
	bounds scaffold.Bounds
	mem    *Memory
}

// Open reads the workspace's hooks.json for the events to wire (unless
// the request removes) and checks that the settings file leads nowhere
// out of the workspace. Its errors say what is wrong and where.
func (q Request) Open() (*Job, error) {
	dir, err := filepath.Abs(q.Dir)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("%s: no such folder", q.Dir)
	}
	j := &Job{Request: q, root: dir, HooksFile: filepath.Join(q.Dir, ".agents", "hooks.json")}
	if !q.Remove {
		if j.Events, err = WorkspaceEvents(scope.WorkspaceFile(dir), j.HooksFile); err != nil {
			return nil, err
		}
		if len(j.Events) == 0 {
			return j, nil
		}
	}
	j.Path = filepath.Join(dir, SettingsFile(q.To))
	j.Shown = filepath.Join(q.Dir, SettingsFile(q.To))
	if j.bounds, err = scaffold.NewBounds(scaffold.Workspace, dir, q.Home); err != nil {
		return nil, err
	}
	real, err := j.bounds.Check(j.Path)
	if err != nil {
		var oe *scaffold.OutsideError
		if errors.As(err, &oe) && !oe.User {
			return nil, fmt.Errorf("refusing to write %s: it leads out of the workspace %s, to %s; export writes only inside the workspace", j.Shown, oe.Root, oe.Real)
		}
		return nil, err
	}
	// The record of what export created in the file: read under the lock
	// once the file is locked, written after the file.
	j.mem = Remember(q.Getenv, real)
	return j, nil
}

// Nothing reports whether there is nothing to export: the workspace has
// no enabled hook.
func (j *Job) Nothing() bool { return !j.Remove && len(j.Events) == 0 }

// Preview computes the change without a lock, for a diff: the settings
// as they are (nil when missing) and the result.
func (j *Job) Preview() ([]byte, *Result, error) {
	old, err := scaffold.ReadRegular(j.Path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, err
	}
	r, err := j.change(old)
	return old, r, err
}

// Begin locks the settings file's folder, as init and import lock theirs.
func (j *Job) Begin(ctx context.Context) (*scaffold.Tx, error) {
	return j.bounds.Begin(ctx, filepath.Dir(j.Path))
}

// Change reads the settings under tx's lock and computes the change.
func (j *Job) Change(tx *scaffold.Tx) ([]byte, *Result, error) {
	old, err := tx.ReadFile(j.Path)
	if err != nil {
		return nil, nil, err
	}
	r, err := j.change(old)
	return old, r, err
}

// Write writes r over old in tx, undoing the transaction's writes when it
// fails, and commits it.
func (j *Job) Write(tx *scaffold.Tx, old []byte, r *Result) error {
	if err := tx.Write(scaffold.Edit{Path: j.Path, Old: old, New: r.New, Perm: 0o644}); err != nil {
		return scaffold.Rollback(tx, err)
	}
	tx.Commit()
	return nil
}

// Remember keeps, once r is written, what export created for a later
// removal, or forgets it after a removal.
func (j *Job) Remember(r *Result) error { return j.mem.After(j.To, j.Remove, r) }

// Unrecorded says, for a removal without a record that takes entries
// out, why the event lists and the hooks object left empty go too; ""
// otherwise.
func (j *Job) Unrecorded(r *Result) string {
	if j.Remove && j.mem.Record == nil && len(r.Removed) > 0 {
		return j.mem.Unrecorded
	}
	return ""
}

// change loads the record and computes the result of the request over
// old; a mistake in the settings is named with its file, line and column.
func (j *Job) change(old []byte) (*Result, error) {
	j.mem.Load()
	var r *Result
	var err error
	if j.Remove {
		r, err = Remove(j.To, old, j.mem.Record)
	} else {
		var imported []Imported
		imported, err = FindImported(j.To, j.Path, old, scope.WorkspaceFile(j.root), j.root, adapter.Literal)
		if err == nil {
			r, err = AddWith(j.To, old, j.Events, AddOptions{OnError: j.OnError, Imported: imported, ReplaceImported: j.ReplaceImported})
		}
	}
	var ee *Error
	if errors.As(err, &ee) {
		if ee.Line > 0 {
			return nil, fmt.Errorf("%s:%d:%d: %s", j.Shown, ee.Line, ee.Col, ee.Msg)
		}
		return nil, fmt.Errorf("%s: %s", j.Shown, ee.Msg)
	}
	return r, err
}

// Summary says in one line what r changes, or changed once written.
func (j *Job) Summary(r *Result, written bool) string {
	var parts []string
	verb := "adds"
	if written {
		verb = "added"
	}
	if len(r.Added) > 0 {
		parts = append(parts, fmt.Sprintf("%s %s", verb, strings.Join(r.Added, ", ")))
	}
	if len(r.Updated) > 0 {
		parts = append(parts, fmt.Sprintf("%s the failure policy of %s", map[bool]string{true: "changed", false: "changes"}[written], strings.Join(r.Updated, ", ")))
	}
	if len(r.Present) > 0 {
		parts = append(parts, fmt.Sprintf("%s already there", strings.Join(r.Present, ", ")))
	}
	if len(r.Replaced) > 0 {
		var at []string
		for _, im := range r.Replaced {
			at = append(at, fmt.Sprintf("%s at line %d", im.Event, im.Line))
		}
		parts = append(parts, fmt.Sprintf("%s the imported %s", map[bool]string{true: "took out", false: "takes out"}[written], strings.Join(at, ", ")))
	}
	if len(r.Skipped) > 0 {
		parts = append(parts, fmt.Sprintf("%s not wired (the settings run its hooks already)", strings.Join(r.Skipped, ", ")))
	}
	if j.Remove {
		verb = "removes"
		if written {
			verb = "removed"
		}
		if len(r.Removed) > 0 {
			parts = append(parts, fmt.Sprintf("%s the entries of %s", verb, strings.Join(r.Removed, ", ")))
		} else {
			parts = append(parts, "no entry of hookctl export's is there")
		}
	}
	return strings.Join(parts, "; ")
}
