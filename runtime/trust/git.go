package trust

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/shellcmd"
)

// gitRepo covers where a call of git looks for its repository from the
// folder it starts in (shellcmd.Repo), up to the workspace root: in each
// folder, git takes a .git entry, else the folder itself as a bare
// repository when it holds HEAD, objects/ and refs/. A clone or a pull
// never writes a .git (git refuses the name), but it can bring the files
// of a bare repository, whose config git then reads and which may run
// programs (core.fsmonitor on git status). So each folder's HEAD is
// covered (missing, it is not shown; creating it withdraws the trust),
// and where HEAD, objects/ and refs/ are there, or a .git file names a
// folder of the workspace, git's reading is named: it returns what to
// say, "" when nothing is.
func (c *coverage) gitRepo(cmd *Command, r shellcmd.Repo) string {
	start := c.resolver.Resolve(r.Dir)
	if !c.inside(start) {
		return "" // nothing a clone brings
	}
	where := func(p string) string {
		if rel, ok := c.rel(p); ok {
			return schema.Visible(rel)
		}
		return schema.Visible(p)
	}
	why := "git is run in " + where(start)
	for x := start; ; x = filepath.Dir(x) {
		dotgit := filepath.Join(x, ".git")
		c.probe(dotgit)
		if info, err := os.Lstat(dotgit); err == nil {
			// The repository of a .git git wrote itself; a .git file's
			// gitdir: may name a folder of the workspace, though.
			if info.Mode().IsRegular() {
				c.probe(dotgit)
				b, _ := schema.ReadFile(dotgit, 4096)
				if dir, ok := bytes.CutPrefix(bytes.TrimSpace(b), []byte("gitdir:")); ok {
					d := strings.TrimSpace(string(dir))
					if !filepath.IsAbs(d) {
						d = filepath.Join(x, d)
					}
					if real := c.resolver.Resolve(d); c.inside(real) && !strings.Contains("/"+filepath.ToSlash(real)+"/", "/.git/") {
						c.probe(d)
						return fmt.Sprintf("%s, where %s names the repository %s (gitdir:), whose config (core.fsmonitor, aliases, hooks) may run programs, and what they run is not known", why, where(dotgit), where(real))
					}
				}
			}
			return ""
		}
		head := filepath.Join(x, "HEAD")
		f, _ := c.coverPath(cmd, head, "where git looks for a repository, by "+cmd.Hook, true)
		if f != nil && f.State != Missing {
			objects, refs := filepath.Join(x, "objects"), filepath.Join(x, "refs")
			o, _ := c.coverPath(cmd, objects, "where git looks for a repository, by "+cmd.Hook, true)
			rf, _ := c.coverPath(cmd, refs, "where git looks for a repository, by "+cmd.Hook, true)
			if o != nil && o.State == NotFile && rf != nil && rf.State == NotFile {
				return fmt.Sprintf("%s, and %s holds a repository (HEAD, objects/, refs/) that git takes for its own: its config (core.fsmonitor, aliases, hooks) may run programs, and what they run is not known", why, where(x))
			}
		}
		if x == c.root || x == filepath.Dir(x) {
			return ""
		}
	}
}
