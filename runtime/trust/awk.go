package trust

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hookctl/hookctl/internal/lazyre"
	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/shellcmd"
)

// What an awk program loads, read as gawk 5.2 loads it (The GNU Awk User's
// Guide, "Including Other Files", "AWKPATH"): @include "name" is looked
// up in AWKPATH, "." (the folder awk runs in, not the including file's)
// first, as name and then name.awk; a name with a slash is taken from the
// folder awk runs in. Each file is read once. @load loads an extension,
// compiled code, which is named. mawk and POSIX awk have no @include
// (mawk refuses it): reading it as gawk covers what either may load.

var (
	awkInclude = lazyre.New(`(?m)^[ \t]*@include[ \t]*`)
	awkLoad    = lazyre.New(`(?m)^[ \t]*@load\b`)
)

// awk covers what the awk program text loads, run from the folder cwd.
func (c *coverage) awk(cmd *Command, content []byte, cwd, name string, depth int) {
	textStarting(cmd, awkCode(content), awkStarts, name, awkStartWords)
	lines := lineCounter{b: content}
	var gaps []string
	for _, m := range awkLoad().FindAllIndex(content, -1) {
		gaps = append(gaps, loadGap(name, lines.at(m[0]), "loads a gawk extension (@load), compiled code that is not read"))
	}
	lines = lineCounter{b: content}
	for _, m := range awkInclude().FindAllIndex(content, -1) {
		n := lines.at(m[0])
		rest, _, _ := strings.Cut(string(content[m[1]:]), "\n")
		lit, _, ok := quotedAt(rest, 0, nil)
		if !ok || strings.HasPrefix(rest, "'") {
			gaps = append(gaps, loadGap(name, n, "@include names a file that is not read here"))
			continue
		}
		p, ok := fromDir(cwd, lit)
		if !ok {
			gaps = append(gaps, loadGap(name, n, "includes "+schema.Visible(lit)+" from a folder known only when the command runs"))
			continue
		}
		cands := []string{p, p + ".awk"}
		for _, p := range cands {
			f, real := c.coverPath(cmd, p, "file included by "+name, true)
			c.follow(cmd, shellcmd.LangAwk, f, real, cwd, "", shellcmd.Start{}, nil, depth+1)
		}
	}
	addGaps(cmd, gaps)
}

// awkInline covers what the program text of each awk among calls
// includes: that text is the command's own, but the files it names are
// looked for in the folder the call runs in.
func (c *coverage) awkInline(cmd *Command, calls []*shellcmd.Call, depth int) {
	if depth >= maxFollow {
		return
	}
	for _, call := range calls {
		for _, w := range shellcmd.AwkCode(call) {
			if !w.Lit {
				continue // a gap of the command's already
			}
			c.awk(cmd, []byte(w.Text), call.Dir, fmt.Sprintf("the program of %s", schema.Visible(filepath.Base(call.Args[0].Text))), depth)
		}
	}
}
