package trust

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/hookctl/hookctl/internal/lazyre"
	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/shellcmd"
)

// What a Ruby script loads, read as ruby 3.1 loads it (Kernel#require,
// #require_relative, #load, #autoload; ruby(1)):
//
//   - require_relative "x" is x.rb (or x.so) beside the file, its links
//     resolved;
//   - require "./x" and "../x" are x.rb or x.so from the folder ruby runs
//     in; require "x" is looked up in $LOAD_PATH, whose workspace folders
//     are those of -I (on the command line or the #! line, which ruby reads
//     however the script was started), relative to that folder; -r loads a
//     library first, as require does;
//   - load "x" takes the name as it is: from the folder ruby runs in for
//     ./ and ../, else from $LOAD_PATH, then that folder.
//
// A name built when the script runs ("#{dir}/x", require x), code run
// from a string (eval, instance_eval, class_eval), a change to $LOAD_PATH
// and Bundler (which loads the gems a project's Gemfile names) are named
// at their line. -C, which changes the folder, is named too.

// rubyFrom returns p from the folder dir as ruby expands it
// (File.expand_path: ".." taken off the text, before any link), false
// when the folder is not known.
func rubyFrom(dir, p string) (string, bool) {
	if filepath.IsAbs(p) {
		return filepath.Clean(p), true
	}
	if dir == "" {
		return "", false
	}
	return filepath.Join(dir, p), true
}

// rubyPath is the workspace's share of a ruby process's $LOAD_PATH.
type rubyPath struct{ dirs []string }

var (
	rubyLoad    = lazyre.New(`(?:^|[^\w.:@$]|\bKernel\.)(require_relative|require|load|autoload)\b\s*`)
	rubyDynamic = lazyre.New(`(?:^|[^\w.:@$])(?:eval|instance_eval|class_eval|module_eval)\b\s*(?:[^\s{d]|$|d[^o])|\$LOAD_PATH\b|\$:|\$LOADED_FEATURES\b|\bBundler\b|:(?:require_relative|require|load|autoload)\b|['"]bundler/(?:setup|inline)['"]`)
)

// rubySwitches are ruby's switches (ruby(1)).
var rubySwitches = interpSwitches{from: rubyFrom, interp: "ruby", next: "IrCEe", rest: "xK0FWTi", flags: "wvcnpsSyUdlah",
	loads: "r", named: "Cx", namedWhy: "changes the folder or runs from a later #! line"}

// ruby covers what the Ruby script at real loads, run from the folder cwd
// by call (nil for a file another script loads).
func (c *coverage) ruby(cmd *Command, content []byte, real, cwd, name string, call *shellcmd.Call, depth int) {
	dirs, libs := c.switches(cmd, rubySwitches, call, content, cwd, name)
	lp := &rubyPath{dirs: dirs}
	for _, l := range libs {
		c.rubyRequire(cmd, lp, cwd, l, "-r", depth)
	}
	c.rubyRead(cmd, content, real, cwd, name, lp, depth)
}

// rubyRead covers what one Ruby file loads, with lp the workspace's
// folders of $LOAD_PATH.
func (c *coverage) rubyRead(cmd *Command, content []byte, real, cwd, name string, lp *rubyPath, depth int) {
	var gaps []string
	gap := func(n int, why string) { gaps = append(gaps, loadGap(name, n, why)) }
	for _, l := range codeLines(content, true) {
		t := l.text
		if rubyStarts().MatchString(t) {
			gaps = append(gaps, startGap(name, l.n, rubyStartWords))
		}
		if rubyDynamic().MatchString(t) {
			gap(l.n, "runs code from a string, changes $LOAD_PATH or loads the project's gems (eval, $LOAD_PATH, Bundler)")
		}
		for _, m := range rubyLoad().FindAllStringSubmatchIndex(t, -1) {
			kw, rest := t[m[2]:m[3]], t[m[1]:]
			if strings.HasSuffix(strings.TrimRight(t[:m[2]], " \t"), "def") {
				continue // a method of that name
			}
			rest = strings.TrimLeft(strings.TrimPrefix(rest, "("), " \t")
			if kw == "autoload" {
				// autoload :Name, "file"
				_, after, ok := strings.Cut(rest, ",")
				if !ok {
					gap(l.n, "autoload loads a file named only when the script runs")
					continue
				}
				rest = strings.TrimLeft(after, " \t")
				kw = "require"
			}
			if rest == "" || rest[0] == '=' || rest[0] == ')' {
				continue // a method or variable of that name
			}
			lit, _, ok := quotedAt(rest, 0, []string{"#{"})
			if !ok {
				gap(l.n, kw+" loads a file named only when the script runs")
				continue
			}
			switch kw {
			case "require_relative":
				c.rubyFiles(cmd, lp, cwd, rubyExts(filepath.Join(filepath.Dir(real), lit)), "file required by "+name, depth)
			case "require":
				c.rubyRequire(cmd, lp, cwd, lit, name, depth)
			case "load":
				c.rubyLoadFile(cmd, lp, cwd, lit, name, depth)
			}
		}
	}
	addGaps(cmd, gaps)
}

// rubyExts returns the files require takes for a name: the name itself
// when it has ruby's extension, else name.rb, then name.so.
func rubyExts(p string) []string {
	switch path.Ext(p) {
	case ".rb", ".so":
		return []string{p}
	}
	return []string{p + ".rb", p + ".so", p}
}

// rubyRequire covers the file of require NAME.
func (c *coverage) rubyRequire(cmd *Command, lp *rubyPath, cwd, lib, by string, depth int) {
	if strings.HasPrefix(lib, "./") || strings.HasPrefix(lib, "../") || strings.HasPrefix(lib, "/") {
		p, ok := rubyFrom(cwd, lib)
		if !ok {
			addGaps(cmd, []string{fmt.Sprintf("%s requires %s in a folder known only when the command runs: what it loads that way is not fingerprinted", by, schema.Visible(lib))})
			return
		}
		c.rubyFiles(cmd, lp, cwd, rubyExts(p), "file required by "+by, depth)
		return
	}
	var cands []string
	for _, d := range lp.dirs {
		cands = append(cands, rubyExts(filepath.Join(d, lib))...)
	}
	c.rubyFiles(cmd, lp, cwd, cands, "file required by "+by, depth)
}

// rubyLoadFile covers the file of load NAME: the name as it is, from the
// folder ruby runs in for ./ and ../, else in $LOAD_PATH, then there.
func (c *coverage) rubyLoadFile(cmd *Command, lp *rubyPath, cwd, file, by string, depth int) {
	var cands []string
	if !strings.HasPrefix(file, "./") && !strings.HasPrefix(file, "../") && !strings.HasPrefix(file, "/") {
		for _, d := range lp.dirs {
			cands = append(cands, filepath.Join(d, file))
		}
	}
	p, ok := rubyFrom(cwd, file)
	if !ok {
		addGaps(cmd, []string{fmt.Sprintf("%s loads %s in a folder known only when the command runs: what it loads that way is not fingerprinted", by, schema.Visible(file))})
		return
	}
	c.rubyFiles(cmd, lp, cwd, append(cands, p), "file loaded by "+by, depth)
}

// rubyFiles covers the candidates of one load and reads the one ruby
// takes, once per folder.
func (c *coverage) rubyFiles(cmd *Command, lp *rubyPath, cwd string, cands []string, why string, depth int) {
	f, real := c.coverCandidates(cmd, cands, why)
	if f == nil || depth+1 >= maxFollow {
		return
	}
	if strings.HasSuffix(real, ".so") {
		addGaps(cmd, []string{schema.Visible(f.Path) + " is a compiled extension: what it loads or runs is not read"})
		return
	}
	if !c.once(fmt.Sprintf("ruby\x00%s\x00%s\x00%q", real, cwd, lp.dirs)) {
		return
	}
	c.rubyRead(cmd, c.content(f, real), real, cwd, schema.Visible(f.Path), lp, depth+1)
}
