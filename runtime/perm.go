package runtime

import (
	"fmt"
	"io/fs"
	"os"

	"github.com/hookctl/hookctl/schema/shellcmd"
)

// A file that group or others can write lets anyone on the machine choose
// what the agent executes, so such a hooks.json is not read and such a
// script is not run. Folders are left to the system's own rules: /tmp is
// world-writable by design, and its sticky bit keeps files there their
// owner's.

// unsafeFile returns why the file whose info is given must not be used,
// or nil.
func unsafeFile(path string, info fs.FileInfo) error {
	m := info.Mode().Perm()
	if m&0o022 == 0 {
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

// unsafeScript checks the files a handler's command names (as
// schema/shellcmd reads it, the way trust does) and returns why one of
// them must not run, or nil.
func unsafeScript(command, dir, workspace string) error {
	refs, _ := shellcmd.Parse(command, dir, workspace).Refs()
	for _, r := range refs {
		p := shellcmd.Resolve(r.Path)
		info, err := os.Stat(p)
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		if err := unsafeFile(p, info); err != nil {
			return fmt.Errorf("refusing to run it: %v", err)
		}
	}
	return nil
}

// fileKind names the kind of a file that is not a regular one.
func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}
