package shellcmd

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/hookctl/hookctl/schema"
)

// kernelTrees are the folders whose files the kernel makes as they are
// read (a process's memory, its environment, a device): what they hold is
// nobody's script, and reading them may never end.
var kernelTrees = []string{"/proc", "/sys", "/dev"}

// NotAFile says why the file at the absolute path p, resolved as the
// kernel resolves it, is no script a handler can run: a named pipe, a
// socket or a device (reading it blocks, or never ends), or a file of
// /proc, /sys or /dev reached through a link. It is "" for a regular file,
// a folder, or nothing there. A link that leads through one of those
// folders is refused wherever it ends (/proc/self/fd/0 is the stdin of the
// process that opens it, which need not be hookctl's). lint, trust and run
// all ask it, so what one refuses the others refuse too.
func NotAFile(p string) string {
	real, via := resolveVia(p)
	if via == "" {
		via = kernelTree(real)
	}
	linked := "is a link into " + via + ", whose files the kernel makes as they are read, not a file"
	if via != "" && schema.ProcessFile(real) != "" {
		// Resolving stopped at a file of the process itself: what it is
		// here says nothing of what it is to a handler.
		return linked
	}
	info, err := os.Stat(real)
	if err == nil && info.IsDir() {
		return ""
	}
	if err == nil && !info.Mode().IsRegular() {
		return "is " + schema.FileKind(info.Mode()) + ", not a file"
	}
	if via != "" {
		return linked
	}
	return ""
}

// kernelTree returns the folder of kernelTrees that p lies in, or "".
func kernelTree(p string) string {
	for _, t := range kernelTrees {
		if strings.HasPrefix(p, t+"/") {
			return t
		}
	}
	return ""
}

// NotFiles returns each file the refs run that NotAFile refuses, with
// why, once each, in the order they stand: the file a ref runs and the
// ones an interpreter would take in its place. A path the command itself
// writes in /proc, /sys or /dev (bash /dev/stdin) is what it says it is,
// and left alone.
func NotFiles(refs []Ref) []NotFile {
	var out []NotFile
	seen := map[string]bool{}
	for _, r := range refs {
		if !r.Role.Runs() {
			continue
		}
		for _, p := range append([]string{r.Path}, r.Alternatives...) {
			if seen[p] || kernelTree(filepath.Clean(p)) != "" {
				continue
			}
			seen[p] = true
			if why := NotAFile(p); why != "" {
				out = append(out, NotFile{Ref: r, Path: p, Why: why})
			}
		}
	}
	return out
}

// NotFile is a file a command names that is not one: Path (as in Ref) is
// it, Why says what it is.
type NotFile struct {
	Ref  Ref
	Path string
	Why  string
}
