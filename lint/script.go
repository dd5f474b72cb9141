package lint

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/hookctl/hookctl/schema"
)

// handlerScript is the file one handler's command executes.
type handlerScript struct {
	handler handlerRef
	ref     scriptRef
	// path is the file's path on disk: relative paths resolve against the
	// folder that holds hooks.json, where handlers run.
	path string
	span schema.Span
}

// scripts returns the file each handler with a plain command executes.
// Commands that are inline shell are left alone rather than guessed at.
func (f *File) scripts() []handlerScript {
	if f.scriptsDone {
		return f.scriptList
	}
	f.scriptsDone = true
	out := []handlerScript{}
	for _, h := range f.allHandlers() {
		c := f.command(h)
		if c == nil || c.argv == nil {
			continue
		}
		ref, ok := c.script()
		if !ok || isWindowsPath(ref.word.text) {
			continue
		}
		p := ref.word.text
		if !filepath.IsAbs(p) {
			p = filepath.Join(f.Dir(), p)
		}
		out = append(out, handlerScript{handler: h, ref: ref, path: p, span: f.strSpan(h.Command, ref.word.from, ref.word.to)})
	}
	f.scriptList = out
	return out
}

func isWindowsPath(p string) bool {
	return len(p) >= 2 && p[1] == ':' || strings.ContainsAny(p, `\%`)
}

// statScript returns what the disk says about a script, through the run's
// cache.
func (f *File) statScript(s handlerScript) (os.FileInfo, error) { return f.fs.stat(s.path) }
