package shellcmd

import (
	"path/filepath"
	"strings"

	"github.com/hookctl/hookctl/schema"
)

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

// resolve follows pending from the resolved folder (see
// schema.FollowLinks); p is the path asked for, returned cleaned when its
// links loop. kernel, when set, is given the folder of kernelTrees a link
// led into on the way, "" for none. It stops at /proc/self, /dev/stdin and
// the other files of the process itself: followed here, they would lead to
// this process's files, not the handler's; they are kept as written, for
// the readers to refuse.
func resolve(resolved string, pending []string, p string, kernel *string) string {
	real, ok := schema.FollowLinks(resolved, pending, func(next string, links int) bool {
		if kernel != nil && links > 0 && *kernel == "" {
			*kernel = kernelTree(next)
		}
		return schema.ProcessFile(next) != ""
	})
	if !ok {
		return filepath.Clean(p)
	}
	return real
}
