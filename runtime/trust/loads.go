package trust

import (
	"bytes"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/shellcmd"
)

// What the readers of Perl, Ruby, PHP, awk and make share: the options of
// the call that runs a script, the switches of its #! line, the lines of
// its code, and the literal strings it names files with.

// callOptions returns the words of the call that runs a script between the
// interpreter and the script (its options), nil for a file another file
// loads.
func callOptions(call *shellcmd.Call) []shellcmd.Word {
	if call == nil {
		return nil
	}
	prog, script := shellcmd.ProgramOf(call.Args)
	if prog < 0 {
		return nil
	}
	end := len(call.Args)
	if script > prog {
		end = script
	}
	return call.Args[prog+1 : end]
}

// hashbangSwitches returns the words after the interpreter's name on a
// script's #! line when that line names it (perl and ruby read their
// switches there however the script was started: "#!/usr/bin/perl -w
// -I../lib", "#!/usr/bin/env ruby -r./x").
func hashbangSwitches(content []byte, interp string) []string {
	line, _, _ := bytes.Cut(content, []byte("\n"))
	line = bytes.TrimLeft(line, " \t")
	if !bytes.HasPrefix(line, []byte("#!")) {
		return nil
	}
	words := strings.Fields(string(line[2:]))
	for i, w := range words {
		if strings.Contains(w, interp) {
			return words[i+1:]
		}
	}
	return nil
}

// interpSwitches says how perl or ruby reads a script's switches: the
// interpreter's name (as its #! line names it), which switches take a
// value (next: the rest of the word or the next word; rest: the rest of
// the word), which are flags that load nothing, which load a module or a
// library first (perl's -M, ruby's -r), and which change what runs in a
// way not read here (named).
type interpSwitches struct {
	// from joins a folder to the one the interpreter runs in, as it does.
	from                     func(dir, p string) (string, bool)
	interp                   string
	next, rest, flags, loads string
	named, namedWhy          string
}

// switches reads the switches of the call that runs a script and of its
// #! line, which perl and ruby read however the script was started: the
// folders of -I, from the folder cwd, and the modules or libraries the
// script loads first. What it cannot read is named at the script's line 1.
func (c *coverage) switches(cmd *Command, sw interpSwitches, call *shellcmd.Call, content []byte, cwd, name string) (dirs, loads []string) {
	var opts []string
	for _, w := range callOptions(call) {
		opts = append(opts, w.Text)
	}
	var gaps []string
	for _, from := range []struct {
		words []string
		where string
	}{{opts, "its command"}, {hashbangSwitches(content, sw.interp), "its #! line"}} {
		vals, unknown := switchValues(from.words, sw.next, sw.rest, sw.flags)
		for _, v := range vals {
			opt, val := v[0], v[2:]
			switch {
			case opt == 'I':
				if p, ok := sw.from(cwd, val); ok {
					dirs = append(dirs, p)
				} else {
					gaps = append(gaps, loadGap(name, 1, "is run with -I "+schema.Visible(val)+" in a folder known only when the command runs"))
				}
			case strings.IndexByte(sw.loads, opt) >= 0:
				loads = append(loads, val)
			case strings.IndexByte(sw.named, opt) >= 0:
				gaps = append(gaps, loadGap(name, 1, "is run with -"+string(opt)+", which "+sw.namedWhy))
			}
		}
		for _, u := range unknown {
			gaps = append(gaps, loadGap(name, 1, from.where+" passes "+sw.interp+" "+schema.Visible(u)+", which hookctl does not read"))
		}
	}
	addGaps(cmd, gaps)
	return dirs, loads
}

// switchValues reads interpreter switches as perl and ruby take them: a
// cluster of flags, then one switch that takes a value, the rest of the
// word, or for those in next the next word when the rest is empty. It
// returns the values of those in next and rest, in order, as "X value";
// switches in neither nor in flags (which take no value and load
// nothing) are returned in unknown.
func switchValues(words []string, next, rest, flags string) (vals []string, unknown []string) {
	for i := 0; i < len(words); i++ {
		w := words[i]
		if w == "--" || !strings.HasPrefix(w, "-") || w == "-" {
			break
		}
		if strings.HasPrefix(w, "--") {
			unknown = append(unknown, w)
			continue
		}
	cluster:
		for k := 1; k < len(w); k++ {
			ch := w[k]
			switch {
			case strings.IndexByte(next, ch) >= 0 || strings.IndexByte(rest, ch) >= 0:
				v := w[k+1:]
				if v == "" && strings.IndexByte(next, ch) >= 0 && i+1 < len(words) {
					i++
					v = words[i]
				}
				vals = append(vals, string(ch)+" "+v)
				break cluster
			case strings.IndexByte(flags, ch) < 0:
				unknown = append(unknown, w)
				break cluster
			}
		}
	}
	return vals, unknown
}

// codeLine is one line of a script's code, from 1.
type codeLine struct {
	n    int
	text string
}

// codeLines returns the lines of a Perl or Ruby script that may hold code:
// not the documentation blocks (Perl's POD, from =word to =cut; Ruby's
// =begin to =end), not whole-line comments, nothing past __END__ (or
// Perl's __DATA__).
func codeLines(content []byte, ruby bool) []codeLine {
	var out []codeLine
	doc := false
	for i, l := range strings.Split(string(content), "\n") {
		t := strings.TrimRight(l, "\r")
		switch {
		case doc:
			if ruby && strings.HasPrefix(t, "=end") || !ruby && strings.HasPrefix(t, "=cut") {
				doc = false
			}
			continue
		case ruby && strings.HasPrefix(t, "=begin"):
			doc = true
			continue
		case !ruby && len(t) > 1 && t[0] == '=' && isLetter(t[1]):
			doc = true
			continue
		case t == "__END__" || !ruby && t == "__DATA__":
			return out
		case strings.HasPrefix(strings.TrimSpace(t), "#"):
			continue
		}
		out = append(out, codeLine{i + 1, t})
	}
	return out
}

func isLetter(b byte) bool { return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' }

// quotedAt reads the string literal that starts at s[i] ('...' or "...")
// and returns its text, the index past it, and whether it is a literal
// whose value is its text: no escape, and in "..." nothing a language
// interpolates (interp lists what starts an interpolation: "$@" for Perl,
// "#{" for Ruby, "$" for PHP).
func quotedAt(s string, i int, interp []string) (string, int, bool) {
	if i >= len(s) || s[i] != '"' && s[i] != '\'' {
		return "", i, false
	}
	q := s[i]
	end := strings.IndexByte(s[i+1:], q)
	if end < 0 {
		return "", len(s), false
	}
	lit := s[i+1 : i+1+end]
	if strings.ContainsRune(lit, '\\') {
		return "", i + 2 + end, false
	}
	if q == '"' {
		for _, x := range interp {
			if strings.Contains(lit, x) {
				return "", i + 2 + end, false
			}
		}
	}
	return lit, i + 2 + end, true
}

// loadGap names, at its line, what a script loads that is not followed.
func loadGap(name string, line int, why string) string {
	return fmt.Sprintf("%s:%d %s: what it loads that way is not fingerprinted", name, line, why)
}

// fromDir returns p from the folder dir when it is relative, joined as
// the kernel reads it (a link on the way before its "..": perl, awk and
// make open the path as it is written), false when the folder is not
// known.
func fromDir(dir, p string) (string, bool) {
	if filepath.IsAbs(p) {
		return p, true
	}
	if dir == "" {
		return "", false
	}
	return dir + "/" + p, true
}

// coverCandidates covers the files an interpreter may take for one load,
// in the order it tries them: each is covered when there, and probed when
// not, so that creating it withdraws the trust. It returns the first that
// is there, where the search ends, nil when none is (or the search leaves
// the workspace, where a clone cannot add a file).
func (c *coverage) coverCandidates(cmd *Command, cands []string, why string) (*File, string) {
	for _, p := range cands {
		f, real := c.coverPath(cmd, p, why, true)
		if f != nil && f.State == Present {
			return f, real
		}
		if f == nil && !c.inside(real) {
			return nil, ""
		}
	}
	return nil, ""
}

// once reports whether key is read for the first time in this snapshot: a
// file loaded twice in the same setting is read once.
func (c *coverage) once(key string) bool {
	if c.followed == nil {
		c.followed = map[string]bool{}
	}
	if c.followed[key] {
		return false
	}
	c.followed[key] = true
	return true
}

// inline covers what the code a command gives an interpreter on its
// command line loads (python -c, node -e, perl -e, ruby -e, an awk
// program): the code is the command's own text, but what it loads is
// looked for in the folder the call runs in.
func (c *coverage) inline(cmd *Command, calls []*shellcmd.Call, depth int) {
	c.pythonInline(cmd, calls, depth)
	c.awkInline(cmd, calls, depth)
	if depth >= maxFollow {
		return
	}
	for _, call := range calls {
		prog, script := shellcmd.ProgramOf(call.Args)
		if prog < 0 || script >= 0 || call.Dir == "" {
			continue
		}
		l := shellcmd.LangOf(call.Args[prog].Text)
		if l != shellcmd.LangPerl && l != shellcmd.LangRuby {
			continue
		}
		name := path.Base(call.Args[prog].Text) + " -e"
		for j := prog + 1; j+1 < len(call.Args); j++ {
			if t := call.Args[j].Text; t != "-e" && !(l == shellcmd.LangPerl && t == "-E") {
				continue
			}
			j++
			code := call.Args[j]
			if !code.Lit {
				continue // a gap of the command's already
			}
			if l == shellcmd.LangPerl {
				c.perl(cmd, []byte(code.Text), filepath.Join(call.Dir, "-e"), call.Dir, name, call, depth)
			} else {
				c.ruby(cmd, []byte(code.Text), filepath.Join(call.Dir, "-e"), call.Dir, name, call, depth)
			}
		}
	}
}
