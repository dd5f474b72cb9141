package runtime

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/shellcmd"
)

// A file that group or others can write lets anyone on the machine choose
// what the agent executes, so such a hooks.json is not read and such a
// script is not run. So does a file in a folder that others can write
// without the sticky bit, at any depth: anyone may rename the file (or a
// folder on its way) and put their own in its place, between the check
// and the start. A folder only its group can write is left alone: under
// a umask of 002 every folder is, and its group is most often the user's
// own; /tmp is world-writable by design, and its sticky bit keeps files
// there their owner's.

// UnsafeFile returns why the file whose info is given must not be used,
// or nil: group or others can write it, or others can replace it (see
// schema.UnsafeFolder). It is the one check of run, which neither reads nor runs
// such a file, and of trust, which does not trust it.
func UnsafeFile(path string, info fs.FileInfo) error {
	m := info.Mode().Perm()
	if m&0o022 == 0 {
		if dir, mode, unsafe := schema.UnsafeFolder(path); unsafe {
			return fmt.Errorf("%s is in the folder %s, which others can write (mode %04o, no sticky bit), so anyone on this machine could replace what the agent runs; run chmod o-w %s", path, dir, mode, dir)
		}
		return nil
	}
	who := "its group"
	switch {
	case m&0o022 == 0o022:
		who = "group and others"
	case m&0o002 != 0:
		who = "others"
	}
	return fmt.Errorf("%s is writable by %s (mode %04o), so anyone on this machine could change what the agent runs; run chmod go-w %s", path, who, m, path)
}

// UnsafeFiles returns the files a handler's command names (as
// schema/shellcmd reads it, the way trust does), links resolved, that
// UnsafeFile refuses, each once, in the order they stand.
func UnsafeFiles(command, dir, workspace string) []string {
	refs, _ := shellcmd.Parse(command, dir, workspace).Refs()
	return unsafeFilesOf(refs)
}

// unsafeFilesOf is UnsafeFiles of the files a command names.
func unsafeFilesOf(refs []shellcmd.Ref) []string {
	var out []string
	for _, r := range refs {
		p := shellcmd.Resolve(r.Path)
		info, err := os.Stat(p)
		if err != nil || !info.Mode().IsRegular() || UnsafeFile(p, info) == nil || slices.Contains(out, p) {
			continue
		}
		out = append(out, p)
	}
	return out
}

// unsafeScript returns why a handler's command must not run (a NUL in it,
// or one of the files it names unsafe), or nil.
func unsafeScript(command, dir, workspace string) error {
	if strings.ContainsRune(command, 0) {
		// The kernel takes no NUL in an argument: exec would fail with a
		// bare "invalid argument".
		return errors.New(`cannot run it: its command holds a NUL character (\u0000), which no command can carry; remove it (hookctl lint reports where)`)
	}
	// A FIFO would hold the handler until its timeout, a file of /proc
	// feed it the kernel's bytes: it is not started.
	refs, _ := shellcmd.Parse(command, dir, workspace).Refs()
	if nf := shellcmd.NotFiles(refs); len(nf) > 0 {
		return fmt.Errorf("cannot run it: %s %s", filepath.Clean(nf[0].Path), nf[0].Why)
	}
	for _, p := range unsafeFilesOf(refs) {
		if info, err := os.Stat(p); err == nil {
			if err := UnsafeFile(p, info); err != nil {
				return fmt.Errorf("refusing to run it: %v", err)
			}
		}
	}
	return nil
}
