package shellcmd

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/hookctl/hookctl/schema"
)

// maxLinks is how many symbolic links Resolve follows, as Linux's
// MAXSYMLINKS does, before it gives up on a loop.
const maxLinks = 40

// Resolve returns the file the kernel reaches for the absolute path p:
// each component in order, a symbolic link replaced by its target before
// the next component is read, and ".." taken from where the links led, not
// from the text. So "/w/.agents/../gate.sh", with .agents a link to
// sub/agents, is /w/sub/gate.sh, the file a handler running in .agents
// executes; filepath.Clean would say /w/gate.sh. From the first component
// that does not exist the rest is joined as written. A relative p is
// returned cleaned, as is a path whose links loop.
func Resolve(p string) string {
	real, _ := resolveVia(p)
	return real
}

// resolveVia is Resolve, also returning the folder of kernelTrees that a
// link on the way led into, "" for none.
func resolveVia(p string) (real, kernel string) {
	if !filepath.IsAbs(p) {
		return filepath.Clean(p), ""
	}
	return resolve("/", strings.Split(p, "/"), p, &kernel), kernel
}

// Resolver is Resolve with the folders it resolved remembered, for the
// many paths of one workspace that share them. It does not notice links
// changed after it resolved them: use one per reading of a workspace.
type Resolver struct{ dirs map[string]string }

// Resolve is Resolve, reading each folder once.
func (r *Resolver) Resolve(p string) string {
	if !filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	i := strings.LastIndexByte(p, '/')
	dir, base := p[:i], p[i+1:]
	if dir == "" || base == "" || base == "." || base == ".." {
		return Resolve(p)
	}
	rd, ok := r.dirs[dir]
	if !ok {
		rd = Resolve(dir)
		if r.dirs == nil {
			r.dirs = map[string]string{}
		}
		r.dirs[dir] = rd
	}
	return resolve(rd, []string{base}, p, nil)
}

// resolve follows pending from the resolved folder; p is the path asked
// for, returned cleaned when its links loop. kernel, when set, is given
// the folder of kernelTrees a link led into on the way, "" for none.
func resolve(resolved string, pending []string, p string, kernel *string) string {
	links := 0
	for len(pending) > 0 {
		c := pending[0]
		pending = pending[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			resolved = filepath.Dir(resolved)
			continue
		}
		next := filepath.Join(resolved, c)
		if kernel != nil && links > 0 && *kernel == "" {
			*kernel = kernelTree(next)
		}
		if schema.ProcessFile(next) != "" {
			// /proc/self, /dev/stdin: followed here, they would lead to
			// this process's files, not the handler's. Kept as written,
			// for the readers to refuse.
			return filepath.Join(append([]string{next}, pending...)...)
		}
		info, err := os.Lstat(next)
		if err != nil {
			return filepath.Join(append([]string{next}, pending...)...)
		}
		if info.Mode()&os.ModeSymlink == 0 {
			resolved = next
			continue
		}
		links++
		target, err := os.Readlink(next)
		if err != nil || links > maxLinks {
			return filepath.Clean(p)
		}
		if filepath.IsAbs(target) {
			resolved = "/"
		}
		pending = append(strings.Split(target, "/"), pending...)
	}
	return resolved
}
