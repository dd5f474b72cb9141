package shellcmd

import (
	"path"
	"strings"
)

// isNode reports whether a program runs JavaScript or TypeScript files as
// node does, reading their import and require specifiers.
func isNode(name string) bool {
	switch name {
	case "node", "nodejs", "bun", "tsx", "ts-node", "deno":
		return true
	}
	return false
}

// isAwk reports whether a program is an awk. awk itself is gawk on some
// systems and mawk on others: what gawk loads (@include) is read for both.
func isAwk(name string) bool {
	switch name {
	case "awk", "gawk", "mawk", "nawk", "original-awk":
		return true
	}
	return false
}

// isMake reports whether a program is make.
func isMake(name string) bool { return name == "make" || name == "gmake" }

// byName reads the arguments of the program at args[i] by what its name
// says it is, whether the call names it bare or by a path: a project
// runner (make reads a makefile), an awk (its -f files) or another
// interpreter (its script). It returns the index of the script word, -1
// for none.
func byName(call *Call, i int, add func(Word, Role, string, ...string), gaps *[]Gap) int {
	args := call.Args
	name := path.Base(args[i].Text)
	switch {
	case projectRunner(args, i):
		*gaps = append(*gaps, Gap{Word: args[i], Why: "runs the project's own scripts or packages (" + name + "), which are not fingerprinted", Code: true})
		if isMake(name) {
			makeArgs(call, i, add, gaps)
		}
	case isAwk(name):
		awkArgs(call, i, add, gaps)
	case isInterpreter(name):
		return interpreterArgs(call, i, add, gaps)
	}
	return -1
}

// valueOption reads the option word args[j] of a program whose short
// options cluster as getopt's do (flags, then one option that takes a
// value, the rest of the word or the next word) and whose long ones are
// --name=value or --name value: the letter of the option that takes a
// value (a long one's from long), its value, and the index of the word
// after it (past the end of args when the value is missing). opt is 0
// for a word of flags alone, or a long option long does not hold.
func valueOption(args []Word, j int, long map[string]byte, valued string) (opt byte, val Word, next int) {
	t := args[j].Text
	rest, attached := "", false
	if strings.HasPrefix(t, "--") {
		n, v, eq := strings.Cut(t[2:], "=")
		opt, rest, attached = long[n], v, eq
	} else {
		for k := 1; k < len(t); k++ {
			if strings.IndexByte(valued, t[k]) >= 0 {
				opt, rest, attached = t[k], t[k+1:], k+1 < len(t)
				break
			}
		}
	}
	switch {
	case opt == 0:
		return 0, Word{}, j + 1
	case attached:
		val = args[j]
		val.Text = rest
		return opt, val, j + 1
	case j+1 >= len(args):
		return opt, Word{}, j + 2
	}
	return opt, args[j+1], j + 2
}

// awkPart is a word of an awk call that names code: a program file (-f,
// --file, gawk's -E and --exec), a library (gawk's -i, --include), an
// extension (gawk's -l, --load), or program text (gawk's -e, --source, or
// the first operand when no program file is given).
type awkPart struct {
	w   Word
	opt byte // 'f', 'E', 'i', 'l', 'e', or 'p' for the program operand
}

// awkValued are the short options of awk (POSIX's and gawk's) that take a
// value: the rest of the word, else the next word.
const awkValued = "fFviEelW"

// awkParts reads the options of the awk at args[i]. bad is set to the
// first word that is not literal among them, whose meaning is then known
// only when the command runs.
func awkParts(args []Word, i int) (parts []awkPart, bad *Word) {
	long := map[string]byte{"file": 'f', "exec": 'E', "include": 'i', "source": 'e', "load": 'l',
		"field-separator": 'F', "assign": 'v'}
	files := false
	j := i + 1
	for ; j < len(args); j++ {
		a := args[j]
		t := a.Text
		if !a.Lit {
			return parts, &args[j]
		}
		if t == "--" {
			j++
			break
		}
		if !strings.HasPrefix(t, "-") || t == "-" {
			break
		}
		opt, w, next := valueOption(args, j, long, awkValued)
		if opt == 0 {
			continue
		}
		if next > len(args) {
			return parts, nil // awk refuses an option without its value
		}
		j = next - 1
		if !w.Lit && strings.IndexByte("fEiel", opt) >= 0 {
			return parts, &args[j]
		}
		switch opt {
		case 'f', 'E', 'e':
			files = true
			parts = append(parts, awkPart{w, opt})
		case 'i', 'l':
			parts = append(parts, awkPart{w, opt})
		}
	}
	if !files && j < len(args) {
		if !args[j].Lit {
			return parts, &args[j]
		}
		parts = append(parts, awkPart{args[j], 'p'})
	}
	return parts, nil
}

// awkArgs reads an awk call: its program files and gawk's libraries are
// Modules, each as the files awk may take for it (gawk looks a name
// without a slash up in AWKPATH, "." first, and tries the name, then the
// name with .awk added); an extension is a gap; the program text is read
// by trust for what it includes (AwkCode).
func awkArgs(call *Call, i int, add func(Word, Role, string, ...string), gaps *[]Gap) {
	name := path.Base(call.Args[i].Text)
	parts, bad := awkParts(call.Args, i)
	if bad != nil {
		*gaps = append(*gaps, Gap{Word: *bad, Why: name + " is given a program, an option or a file known only when the command runs", Code: true})
	}
	for _, p := range parts {
		switch p.opt {
		case 'f', 'E', 'i':
			// gawk tries the name, then the name with .awk added, with
			// a slash in it or not.
			base := join(call.Dir, p.w.Text)
			add(p.w, Module, name, base, base+".awk")
		case 'l':
			*gaps = append(*gaps, Gap{Word: p.w, Why: name + " loads an extension (" + p.w.Text + "), compiled code that is not read", Code: true})
		}
	}
}

// AwkCode returns the program text an awk call is given on the command
// line (awk '{...}', gawk -e '...'), which may include files.
func AwkCode(call *Call) []Word {
	prog, _ := skipWrappers(call.Args)
	if prog >= len(call.Args) || !call.Args[prog].Lit || !isAwk(path.Base(call.Args[prog].Text)) {
		return nil
	}
	parts, _ := awkParts(call.Args, prog)
	var out []Word
	for _, p := range parts {
		if p.opt == 'e' || p.opt == 'p' {
			out = append(out, p.w)
		}
	}
	return out
}

// makeValued are make's short options whose value may be the next word.
const makeValued = "fCIoW"

// makeParts reads the options of the make at args[i], from the folder dir:
// the folder it runs in (-C, --directory; "" when not known), its -f
// makefiles, and its -I folders. bad is the first word that is not
// literal among its options.
func makeParts(args []Word, i int, dir string) (folder string, files []Word, incs []string, bad *Word) {
	long := map[string]byte{"file": 'f', "makefile": 'f', "directory": 'C', "include-dir": 'I',
		"old-file": 'o', "assume-old": 'o', "what-if": 'W', "new-file": 'W', "assume-new": 'W'}
	var incWords []string
	for j := i + 1; j < len(args); j++ {
		a := args[j]
		t := a.Text
		if !a.Lit {
			return "", nil, nil, &args[j]
		}
		if t == "--" {
			break
		}
		if !strings.HasPrefix(t, "-") || t == "-" {
			continue // a target or a VAR=value
		}
		opt, w, next := valueOption(args, j, long, makeValued)
		if opt == 0 {
			continue
		}
		if next > len(args) {
			break
		}
		j = next - 1
		if !w.Lit {
			return "", nil, nil, &args[j]
		}
		switch opt {
		case 'f':
			files = append(files, w)
		case 'I':
			incWords = append(incWords, w.Text)
		case 'C':
			switch {
			case strings.HasPrefix(w.Text, "/"):
				dir = w.Text
			case dir != "":
				dir += "/" + w.Text
			}
		}
	}
	for _, d := range incWords {
		if p := join(dir, d); p != "" {
			incs = append(incs, p)
		}
	}
	return dir, files, incs, nil
}

// makeArgs reads make's makefiles: those of -f (--file, --makefile), else
// GNUmakefile, makefile and Makefile, in the folder -C (--directory)
// changes to. Each is a Module whose one Alternative is its path. Their
// recipes are shell code make builds as it runs, which the project
// runner's gap names.
func makeArgs(call *Call, i int, add func(Word, Role, string, ...string), gaps *[]Gap) {
	name := path.Base(call.Args[i].Text)
	dir, files, _, bad := makeParts(call.Args, i, call.Dir)
	if bad != nil {
		*gaps = append(*gaps, Gap{Word: *bad, Why: name + " is given an option or a makefile known only when the command runs", Code: true})
		return
	}
	if dir == "" {
		return // the folder is not known: the call's refs are gaps already
	}
	for _, w := range files {
		add(w, Module, name, join(dir, w.Text))
	}
	if len(files) == 0 {
		w := call.Args[i]
		w.Text = strings.TrimPrefix(dir+"/Makefile", call.Dir+"/")
		add(w, Module, name, dir+"/GNUmakefile", dir+"/makefile", dir+"/Makefile")
	}
}

// makeCall returns the index of the make a call runs, -1 for none.
func makeCall(call *Call) int {
	if call == nil {
		return -1
	}
	prog, _ := skipWrappers(call.Args)
	if prog >= len(call.Args) || !call.Args[prog].Lit || !isMake(path.Base(call.Args[prog].Text)) {
		return -1
	}
	return prog
}

// MakeFolder returns the folder the make a call runs works in (-C), false
// when it is not known.
func MakeFolder(call *Call) (string, bool) {
	i := makeCall(call)
	if i < 0 {
		return call.Dir, call.Dir != ""
	}
	dir, _, _, bad := makeParts(call.Args, i, call.Dir)
	return dir, bad == nil && dir != ""
}

// MakeIncludeDirs returns the folders the make a call runs looks for an
// included makefile in after its own folder (-I).
func MakeIncludeDirs(call *Call) []string {
	i := makeCall(call)
	if i < 0 {
		return nil
	}
	_, _, incs, _ := makeParts(call.Args, i, call.Dir)
	return incs
}
