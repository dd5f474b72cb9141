package scaffold

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/hookctl/hookctl/runtime/hooktest"
	"github.com/hookctl/hookctl/runtime/tracelog"
	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/scope"
)

// TestFile is a hooks.test.json that hookctl test --add-from-log adds the
// case of a recorded run to. The file keeps every other byte, and is
// written atomically, under the lock init and import take on its folder,
// through the workspace's bounds (no symbolic link leads the write out of
// it), and only if nothing changed it meanwhile.
type TestFile struct {
	// Name is the file as the user named it; Path its absolute path;
	// Root the workspace it belongs to (hooktest.WorkspaceOf).
	Name, Path, Root string
	// BeforeWrite, when set, is called between the reading of the file
	// and the writing of its new content: tests change the file there.
	BeforeWrite func(path string)
}

// OpenTestFile is the test file name, as the user named it.
func OpenTestFile(name string) (*TestFile, error) {
	abs, err := filepath.Abs(name)
	if err != nil {
		return nil, err
	}
	return &TestFile{Name: name, Path: abs, Root: hooktest.WorkspaceOf(abs, filepath.Dir(abs))}, nil
}

// Begin checks that the file lies inside its workspace and locks its
// folder.
func (t *TestFile) Begin(ctx context.Context) (*Tx, error) {
	bounds, err := NewBounds(Workspace, t.Root, "")
	if err != nil {
		return nil, err
	}
	if _, err := bounds.Check(t.Path); err != nil {
		return nil, err
	}
	return bounds.Begin(ctx, filepath.Dir(t.Path))
}

// AddRecord adds to the file, in tx, the case of the recorded run r
// (hooktest.CaseFromRecord), named by hooktest.CaseName, and commits tx.
// added is false, and nothing is written, when the file holds a case of
// that name already; warnings say where the case may not be the run.
func (t *TestFile) AddRecord(tx *Tx, r *tracelog.Record) (c schema.TestCase, added bool, warnings []string, err error) {
	old, err := hooktest.ReadForEdit(t.Name, t.Path, tx.ReadFile)
	if err != nil {
		return c, false, nil, err
	}
	c, warnings, err = hooktest.CaseFromRecord(r, scope.WorkspaceFile(t.Root))
	if err != nil {
		return c, false, nil, fmt.Errorf("record %s: %s", r.ID, schema.Visible(err.Error()))
	}
	c.Name = hooktest.CaseName(r, c.Event)
	src := old
	if src == nil {
		src = []byte("{}\n")
	}
	out, added, err := AddTestCase(src, c)
	if err != nil {
		return c, false, nil, fmt.Errorf("%s: %v; fix it, then add the case again", t.Name, err)
	}
	if !added {
		return c, false, warnings, nil
	}
	if t.BeforeWrite != nil {
		t.BeforeWrite(t.Path)
	}
	if err := tx.Write(Edit{Path: t.Path, Old: old, New: out, Perm: 0o644}); err != nil {
		return c, false, nil, err
	}
	tx.Commit()
	return c, true, warnings, nil
}
