package trust

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/shellcmd"
)

// Unsafe is a file that group or others can write, or the folder it lies
// in when others can write that without the sticky bit.
type Unsafe struct {
	// Path is the file, or the folder, as the chmod that fixes it names it.
	Path string
	// Shown is how a list names a file: as the snapshot names it.
	Shown string
	// Mode is the permission bits of the file or folder.
	Mode fs.FileMode
	// Folder is whether Path is the folder, the file itself being safe.
	Folder bool
}

// UnsafeFiles lists what must not be trusted, each once, in the order
// found: files that group or others can write, or that lie in a folder
// others can write without the sticky bit. hookctl run would refuse them
// anyway (the same check, runtime.UnsafeFile, on the same files: those
// the snapshot covers, and those the commands name, in the workspace or
// outside it), and anyone on the machine could change them after the user
// looked.
func UnsafeFiles(snap *Snapshot) []Unsafe {
	var out []Unsafe
	seen := map[string]bool{}
	add := func(p, shown string) {
		info, err := os.Stat(p)
		if err != nil || !info.Mode().IsRegular() || seen[p] || runtime.UnsafeFile(p, info) == nil {
			return
		}
		seen[p] = true
		if info.Mode().Perm()&0o022 == 0 {
			// The file is safe; the folder it lies in is not.
			dir, mode, _ := schema.UnsafeFolder(p)
			if !seen[dir] {
				seen[dir] = true
				out = append(out, Unsafe{Path: dir, Shown: dir, Mode: mode, Folder: true})
			}
			return
		}
		out = append(out, Unsafe{Path: p, Shown: shown, Mode: info.Mode().Perm()})
	}
	for _, f := range snap.Files {
		if f.State == Present {
			add(shellcmd.Resolve(filepath.Join(snap.Root, filepath.FromSlash(f.Path))), f.Path)
		}
	}
	dir := filepath.Join(snap.Root, ".agents")
	for _, c := range snap.Commands {
		for _, p := range runtime.UnsafeFiles(c.Command, dir, snap.Root) {
			add(p, p)
		}
	}
	return out
}

// RefuseUnsafe is the refusal to trust a snapshot with unsafe files
// (UnsafeFiles), nil when it has none. It names them (or their folder)
// all at once, with the one chmod that fixes them.
func RefuseUnsafe(snap *Snapshot) error {
	unsafe := UnsafeFiles(snap)
	if len(unsafe) == 0 {
		return nil
	}
	var lines, paths []string
	for _, u := range unsafe {
		if u.Folder {
			lines = append(lines, fmt.Sprintf("  %s/ (a folder others can write, mode %04o)", schema.Visible(u.Path), u.Mode))
		} else {
			lines = append(lines, fmt.Sprintf("  %s (mode %04o)", schema.Visible(u.Shown), u.Mode))
		}
		paths = append(paths, shellcmd.Quote(u.Path))
	}
	return fmt.Errorf("refusing to trust %s: anyone on this machine could change these files after you looked, since group or others can write them (or the folder they are in):\n%s\nRun: chmod go-w %s",
		schema.Visible(snap.Root), strings.Join(lines, "\n"), strings.Join(paths, " "))
}
