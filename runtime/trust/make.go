package trust

import (
	"path/filepath"
	"strings"

	"github.com/hookctl/hookctl/internal/lazyre"
	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/shellcmd"
)

// What a makefile loads, read as GNU make 4.3 reads it (GNU make manual,
// "Including Other Makefiles"): include, -include and sinclude name files
// from the folder make runs in, then its -I folders (and the system's
// include folders). Make is named as a whole wherever a command runs it
// (its recipes are shell code it builds as it runs, and it remakes the
// files it includes when a rule says how): covering its makefiles makes a
// change to them withdraw the trust. An include of a name built from a
// variable, a wildcard or a function, and a load of a compiled object, are
// named at their line.

var makeInclude = lazyre.New(`^[ \t]*(-?include|sinclude|load|-load)[ \t]+(.*)$`)

// make covers the files a makefile includes, make running in cwd (the
// folder -C leads to).
func (c *coverage) make(cmd *Command, content []byte, cwd, name string, call *shellcmd.Call, depth int) {
	if call != nil {
		if d, ok := shellcmd.MakeFolder(call); ok {
			cwd = d
		} else {
			cwd = ""
		}
	}
	var gaps []string
	lines := strings.Split(string(content), "\n")
	for i := 0; i < len(lines); i++ {
		at, line := i+1, lines[i]
		for strings.HasSuffix(line, "\\") && i+1 < len(lines) {
			i++
			line = line[:len(line)-1] + " " + lines[i]
		}
		m := makeInclude().FindStringSubmatch(line)
		if m == nil || strings.HasPrefix(line, "\t") {
			continue
		}
		if strings.HasSuffix(m[1], "load") {
			gaps = append(gaps, loadGap(name, at, "loads a compiled object into make"))
			continue
		}
		files, _, _ := strings.Cut(m[2], "#")
		for _, f := range strings.Fields(files) {
			if strings.ContainsAny(f, "$*?[%") {
				gaps = append(gaps, loadGap(name, at, "includes a makefile named by a variable, a wildcard or a function"))
				continue
			}
			p, ok := fromDir(cwd, f)
			if !ok {
				gaps = append(gaps, loadGap(name, at, "includes "+schema.Visible(f)+" from a folder known only when the command runs"))
				continue
			}
			cands := []string{p}
			if !filepath.IsAbs(f) && call != nil {
				for _, d := range shellcmd.MakeIncludeDirs(call) {
					cands = append(cands, filepath.Join(d, f))
				}
			}
			for i, cand := range cands {
				fl, real := c.coverPath(cmd, cand, "makefile included by "+name, i > 0)
				if fl != nil && fl.State == Present {
					c.follow(cmd, shellcmd.LangMake, fl, real, cwd, "", shellcmd.Start{}, nil, depth+1)
					break
				}
			}
		}
	}
	addGaps(cmd, gaps)
}
