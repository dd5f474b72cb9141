package main

import (
	"fmt"
	"path/filepath"

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
// event and payload, expecting what was answered (scaffold.TestFile).
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
	l, err := tracelog.Default()
	if err != nil {
		return usageErrorf("%v", err)
	}
	r, err := findRecord(l, id)
	if err != nil {
		return err
	}
	tf, err := scaffold.OpenTestFile(file)
	if err != nil {
		return usageErrorf("%v", err)
	}
	tf.BeforeWrite = beforeWrite
	ctx, stop := stopOnSignal()
	defer stop()
	tx, err := beginEdit(s, ctx, filepath.Dir(file), &exitError{code: exitInterrupted, msg: "stopped: nothing was written"}, tf.Begin)
	if err != nil {
		return err
	}
	defer tx.Close()
	c, added, warnings, err := tf.AddRecord(tx, r)
	if err != nil {
		return usageErrorf("%v", err)
	}
	if !added {
		fmt.Fprintf(s.out, "%s already holds the case %q: nothing to add\n", file, schema.Visible(c.Name))
		return nil
	}
	for _, w := range warnings {
		fmt.Fprintf(s.err, "hookctl: note: %s\n", schema.Visible(w))
	}
	fmt.Fprintf(s.out, "added the case %q to %s; hookctl test runs it\n", schema.Visible(c.Name), file)
	return nil
}
