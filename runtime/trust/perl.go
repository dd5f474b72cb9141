package trust

import (
	"fmt"
	"strings"

	"github.com/hookctl/hookctl/internal/lazyre"
	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/shellcmd"
)

// What a Perl script loads, read as perl 5.36 loads it (perlfunc's
// require, use and do; perlrun; lib.pm):
//
//   - use Module, no Module, require Module and the modules of use parent
//     and use base are Module/Name.pmc, then Module/Name.pm, in each folder
//     of @INC in order; the folders of -I (on the command line or the #!
//     line, which perl reads however the script was started) and of use lib
//     come first, relative to the folder perl runs in, and the rest are the
//     system's (no "." since Perl 5.26);
//   - require "file" and do "file" take a path beginning with ./ or ../ (or
//     /) as it is, from the folder perl runs in, and look any other up in
//     @INC;
//   - -M and -m on the command line load a module before the script.
//
// What names a file by a value known only when the script runs (require
// $x, do $file, an interpolated string, use lib with a variable), code run
// from a string (eval "..."), a change to @INC or %INC, and the modules
// that load others by name (Module::Load, Module::Runtime, Class::Load)
// are named at their line.

// perlINC is the workspace's share of a perl process's @INC: the folders
// -I and use lib put first, as absolute paths. It is one for the process:
// a module's use lib adds to the script's.
type perlINC struct{ dirs []string }

var (
	perlUseLib  = lazyre.New(`\b(?:use|no)\s+lib\b`)
	perlUse     = lazyre.New(`(?:^|[^\w$@%&:>-])(use|no)\s+([A-Za-z_]\w*(?:::\w+)*)`)
	perlRequire = lazyre.New(`(?:^|[^\w$@%&:>-])(require|do)\b\s*`)
	perlDynamic = lazyre.New(`(?:^|[^\w$@%&:>-])eval\b\s*(?:[^\s{]|$)|[@%]INC\b|\$INC\s*[{\[]|\b(?:Module::Load|Module::Runtime|Class::Load|UNIVERSAL::require|Module::Pluggable)\b`)
	perlModule  = lazyre.New(`^[A-Za-z_]\w*(?:::\w+)*`)
)

// perlSwitches are perl's switches (perlrun).
var perlSwitches = interpSwitches{from: fromDir, interp: "perl", next: "IMmeE", rest: "dxCil0DF", flags: "wWXTtsanpcUSuv",
	loads: "Mm", named: "dx", namedWhy: "loads a debugger or runs from a later #! line"}

// perl covers what the Perl script at real loads, run from the folder cwd
// by call (nil for a module another script loads).
func (c *coverage) perl(cmd *Command, content []byte, real, cwd, name string, call *shellcmd.Call, depth int) {
	dirs, pre := c.switches(cmd, perlSwitches, call, content, cwd, name)
	inc := &perlINC{dirs: dirs}
	for _, m := range pre {
		// -MName=imports, -M-Name (no Name)
		c.perlModule(cmd, inc, cwd, strings.TrimPrefix(strings.SplitN(m, "=", 2)[0], "-"), "-M", depth)
	}
	c.perlRead(cmd, content, real, cwd, name, inc, depth)
}

// perlRead covers what one Perl file loads, with inc the workspace's
// folders of @INC so far.
func (c *coverage) perlRead(cmd *Command, content []byte, real, cwd, name string, inc *perlINC, depth int) {
	var gaps []string
	gap := func(n int, why string) { gaps = append(gaps, loadGap(name, n, why)) }
	lines := codeLines(content, false)
	for li := 0; li < len(lines); li++ {
		l := lines[li]
		t := l.text
		if m := perlUseLib().FindStringIndex(t); m != nil {
			// use lib LIST; the list may run over lines.
			list := t[m[1]:]
			for !strings.Contains(list, ";") && li+1 < len(lines) {
				li++
				list += " " + lines[li].text
			}
			list, _, _ = strings.Cut(list, ";")
			dirs, ok := perlList(list)
			if !ok {
				gap(l.n, "adds to @INC a folder known only when the script runs (use lib with a variable or an expression)")
				continue
			}
			for _, d := range dirs {
				if p, ok := fromDir(cwd, d); ok {
					inc.dirs = append([]string{p}, inc.dirs...)
				} else {
					gap(l.n, "adds "+schema.Visible(d)+" to @INC in a folder known only when the script runs")
				}
			}
			continue
		}
		if perlStarts().MatchString(t) {
			gaps = append(gaps, startGap(name, l.n, perlStartWords))
		}
		if perlDynamic().MatchString(t) {
			gap(l.n, "runs code from a string, changes @INC, or loads modules by names known only when it runs (eval, @INC, Module::Load)")
		}
		for _, m := range perlUse().FindAllStringSubmatchIndex(t, -1) {
			mod := t[m[4]:m[5]]
			switch mod {
			case "lib":
				continue
			case "parent", "base":
				rest, _, _ := strings.Cut(t[m[5]:], ";")
				if strings.Contains(rest, "-norequire") {
					continue
				}
				names, ok := perlList(rest)
				if !ok {
					gap(l.n, "use "+mod+" loads a class named only when the script runs")
					continue
				}
				for _, n := range names {
					c.perlModule(cmd, inc, cwd, n, name, depth)
				}
			}
			c.perlModule(cmd, inc, cwd, mod, name, depth)
		}
		for _, m := range perlRequire().FindAllStringSubmatchIndex(t, -1) {
			kw, rest := t[m[2]:m[3]], t[m[1]:]
			rest = strings.TrimPrefix(rest, "(")
			rest = strings.TrimLeft(rest, " \t")
			switch {
			case kw == "do" && (strings.HasPrefix(rest, "{") || rest == "" || strings.HasPrefix(rest, "=>")):
				// a block, or the word as a hash key
			case kw == "require" && (rest == "" || rest[0] >= '0' && rest[0] <= '9' || rest[0] == 'v' && len(rest) > 1 && rest[1] >= '0' && rest[1] <= '9'):
				// require 5.010, require v5.36: a version
			case kw == "require" && perlModule().MatchString(rest) && !strings.HasPrefix(strings.TrimLeft(rest[len(perlModule().FindString(rest)):], " \t"), "("):
				c.perlModule(cmd, inc, cwd, perlModule().FindString(rest), name, depth)
			default:
				lit, _, ok := quotedAt(rest, 0, []string{"$", "@"})
				if !ok {
					gap(l.n, kw+" loads a file named only when the script runs")
					continue
				}
				c.perlFile(cmd, inc, cwd, lit, name, depth)
			}
		}
	}
	addGaps(cmd, gaps)
}

// perlList reads a literal list of strings (use lib "a", 'b'; qw(a b)):
// false when it holds anything else.
func perlList(s string) ([]string, bool) {
	s = strings.TrimSpace(s)
	var out []string
	for s != "" {
		switch {
		case strings.HasPrefix(s, "qw"):
			s = strings.TrimLeft(s[2:], " \t")
			if s == "" {
				return nil, false
			}
			closeBy := map[byte]byte{'(': ')', '[': ']', '{': '}', '<': '>'}
			open := s[0]
			cl, ok := closeBy[open]
			if !ok {
				cl = open
			}
			end := strings.IndexByte(s[1:], cl)
			if end < 0 {
				return nil, false
			}
			out = append(out, strings.Fields(s[1:1+end])...)
			s = s[2+end:]
		default:
			lit, end, ok := quotedAt(s, 0, []string{"$", "@"})
			if !ok {
				return nil, false
			}
			out = append(out, lit)
			s = s[end:]
		}
		s = strings.TrimSpace(s)
		if strings.HasPrefix(s, ",") || strings.HasPrefix(s, "=>") {
			s = strings.TrimSpace(strings.TrimLeft(s, ",=>"))
			continue
		}
		if s != "" {
			return nil, false
		}
	}
	return out, true
}

// perlModule covers the files a module name stands for in the workspace's
// folders of @INC: Name.pmc, then Name.pm.
func (c *coverage) perlModule(cmd *Command, inc *perlINC, cwd, mod, by string, depth int) {
	rel := strings.ReplaceAll(mod, "::", "/") + ".pm"
	var cands []string
	for _, d := range inc.dirs {
		cands = append(cands, d+"/"+rel+"c", d+"/"+rel)
	}
	c.perlFollow(cmd, inc, cwd, cands, "module loaded by "+by, depth)
}

// perlFile covers the file of require "file" or do "file": a path from
// the folder perl runs in when it begins with ./, ../ or /, else looked
// up in @INC.
func (c *coverage) perlFile(cmd *Command, inc *perlINC, cwd, file, by string, depth int) {
	if strings.HasPrefix(file, "./") || strings.HasPrefix(file, "../") || strings.HasPrefix(file, "/") {
		p, ok := fromDir(cwd, file)
		if !ok {
			addGaps(cmd, []string{fmt.Sprintf("%s loads %s in a folder known only when the command runs: what it loads that way is not fingerprinted", by, schema.Visible(file))})
			return
		}
		f, real := c.coverPath(cmd, p, "file loaded by "+by, false)
		if f != nil && f.State == Present {
			c.perlFollowFile(cmd, inc, cwd, f, real, depth)
		}
		return
	}
	var cands []string
	for _, d := range inc.dirs {
		if strings.HasSuffix(file, ".pm") {
			cands = append(cands, d+"/"+file+"c")
		}
		cands = append(cands, d+"/"+file)
	}
	c.perlFollow(cmd, inc, cwd, cands, "file loaded by "+by, depth)
}

// perlFollow covers the candidates of one load and reads the one perl
// takes.
func (c *coverage) perlFollow(cmd *Command, inc *perlINC, cwd string, cands []string, why string, depth int) {
	if f, real := c.coverCandidates(cmd, cands, why); f != nil {
		c.perlFollowFile(cmd, inc, cwd, f, real, depth)
	}
}

// perlFollowFile reads a Perl file a script loads, once per folder.
func (c *coverage) perlFollowFile(cmd *Command, inc *perlINC, cwd string, f *File, real string, depth int) {
	if depth+1 >= maxFollow {
		return
	}
	if !c.once(fmt.Sprintf("perl\x00%s\x00%s\x00%q", real, cwd, inc.dirs)) {
		return
	}
	c.perlRead(cmd, c.content(f, real), real, cwd, schema.Visible(f.Path), inc, depth+1)
}
