package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hookctl/hookctl/runtime/hooktest"
	"github.com/hookctl/hookctl/runtime/tracelog"
	"github.com/hookctl/hookctl/scaffold"
	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/scope"
)

// beforeWrite, when set, is called between the reading of the test file
// and the writing of its new content: tests change the file there.
var beforeWrite func(path string)

// testAddFromLog adds to a test file the case of the recorded run id: its
// event and payload, expecting what was answered. The file keeps every
// other byte, and is written atomically, under the lock init and import
// take on its folder, through the workspace's bounds (no symbolic link
// leads the write out of it), and only if nothing changed it meanwhile.
func testAddFromLog(s streams, id string, files []string) error {
	if len(files) > 1 {
		return usageErrorf("--add-from-log adds to one test file, not %d", len(files))
	}
	var file string
	if len(files) == 1 {
		file = hooktest.Resolve(files[0])
	} else {
		found, err := scope.Here()
		if err != nil {
			return usageErrorf("%v", err)
		}
		file = found.Rel(filepath.Join(found.Root, filepath.FromSlash(hooktest.DefaultFile)))
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return usageErrorf("%v", err)
	}
	root := hooktest.WorkspaceOf(abs, filepath.Dir(abs))
	l, err := tracelog.Default()
	if err != nil {
		return usageErrorf("%v", err)
	}
	r, err := findRecord(l, id)
	if err != nil {
		return err
	}
	bounds, err := scaffold.NewBounds(scaffold.Workspace, root, "")
	if err != nil {
		return usageErrorf("%v", err)
	}
	if _, err := bounds.Check(abs); err != nil {
		return usageErrorf("%v", err)
	}
	ctx, stop := stopOnSignal()
	defer stop()
	tx, err := bounds.Begin(ctx, filepath.Dir(abs))
	if ctx.Err() != nil {
		return &exitError{code: exitInterrupted, msg: "stopped: nothing was written"}
	}
	if err != nil {
		return usageErrorf("%v", err)
	}
	defer tx.Close()
	afterBegin(s, tx)
	old, err := hooktest.ReadForEdit(file, abs, tx.ReadFile)
	if err != nil {
		return usageErrorf("%v", err)
	}
	c, warnings, err := hooktest.CaseFromRecord(r, scope.WorkspaceFile(root))
	if err != nil {
		return usageErrorf("record %s: %s", r.ID, schema.Visible(err.Error()))
	}
	c.Name = caseName(r, c)
	src := old
	if src == nil {
		src = []byte("{}\n")
	}
	out, added, err := scaffold.AddTestCase(src, c)
	if err != nil {
		return usageErrorf("%s: %v; fix it, then add the case again", file, err)
	}
	if !added {
		fmt.Fprintf(s.out, "%s already holds the case %q: nothing to add\n", file, schema.Visible(c.Name))
		return nil
	}
	if beforeWrite != nil {
		beforeWrite(abs)
	}
	if err := tx.Write(scaffold.Edit{Path: abs, Old: old, New: out, Perm: 0o644}); err != nil {
		return usageErrorf("%v", err)
	}
	tx.Commit()
	for _, w := range warnings {
		fmt.Fprintf(s.err, "hookctl: note: %s\n", schema.Visible(w))
	}
	fmt.Fprintf(s.out, "added the case %q to %s; hookctl test runs it\n", schema.Visible(c.Name), file)
	return nil
}

// caseName names the case of a recorded run: who ran, for what, and
// which record it is.
func caseName(r *tracelog.Record, c schema.TestCase) string {
	what := string(c.Event)
	if r.Tool != "" {
		what += " " + r.Tool
	}
	who := r.Hook
	if r.Kind == tracelog.KindRun {
		who, _ = r.Ran()
		who = strings.TrimPrefix(who, "run: ")
	}
	if who == "" {
		who = "a handler"
	}
	return fmt.Sprintf("%s: %s, as recorded %s (%s)", who, what, schema.FormatTime(r.Time), tracelog.ShortID(r.ID))
}
