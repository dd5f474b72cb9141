package oracle

import (
	"path/filepath"
	"regexp"
	"strings"
)

// Program is what the oracle knows of a program that may take in code:
// its language, where its program comes from as its arguments say, and
// which files it reads as code.
type Program struct {
	// Lang is "shell", "python", "node", "perl", "ruby", "php", "lua",
	// "awk", "make", "git", "hookctl", "java", "jq", "sed", "tcl", "r",
	// or "" for a program that reads no code (cat, grep, env).
	Lang string
	// Shell tells a POSIX shell (sh, dash, bash, zsh, ksh).
	Shell bool
	// StdinProgram tells that the program reads its program on stdin
	// (sh with no operand, python3 -, perl with no script).
	StdinProgram bool
	// Code is code given in the arguments (sh -c, python3 -c, node -e).
	Code []string
	// CodeFiles are the base names of the files that jq -f, sed -f and
	// awk -f read as their program; they read every other file as data.
	CodeFiles []string
}

// Reads tells that the program reads code from files.
func (p Program) Reads() bool { return p.Lang != "" }

// Evaluates tells that the program can run code it reads on a pipe or
// builds as it runs (eval, exec): a shell, python, node, perl, ruby, php,
// lua, tcl, R. jq, sed, awk, make and git take what a pipe gives them as
// data.
func (p Program) Evaluates() bool {
	switch p.Lang {
	case "shell", "python", "node", "perl", "ruby", "php", "lua", "tcl", "r":
		return true
	}
	return false
}

// IsCode tells whether a file this program read is code to it: every file
// an interpreter reads, except for jq, sed and awk, which read their
// program from -f FILE (or a module, .jq, a gawk @include) and take every
// other file as data, and git, whose code is in a repository's config
// (core.fsmonitor, core.hooksPath, aliases, filters), its hooks and
// attributes, not in its objects, refs and HEAD.
func (p Program) IsCode(path string) bool {
	switch p.Lang {
	case "git":
		base := filepath.Base(path)
		return base == "config" || base == "config.worktree" || base == "commondir" || base == "gitdir" ||
			base == ".gitattributes" || base == "attributes" || base == ".gitmodules" ||
			strings.Contains(filepath.ToSlash(path), "/hooks/")
	case "jq", "sed", "awk":
		base := filepath.Base(path)
		for _, f := range p.CodeFiles {
			if base == filepath.Base(f) {
				return true
			}
		}
		switch p.Lang {
		case "jq":
			return strings.HasSuffix(base, ".jq")
		case "awk":
			return strings.HasSuffix(base, ".awk")
		}
		return false
	}
	return p.Lang != ""
}

var langs = []struct {
	re   *regexp.Regexp
	lang string
}{
	{regexp.MustCompile(`^(sh|dash|bash|zsh|ksh|ksh93|mksh|ash|posh|yash|busybox)$`), "shell"},
	{regexp.MustCompile(`^(python|pypy)[0-9.]*[dmu]?$`), "python"},
	{regexp.MustCompile(`^(node|nodejs|deno|bun)$`), "node"},
	{regexp.MustCompile(`^perl[0-9.]*$`), "perl"},
	{regexp.MustCompile(`^ruby[0-9.]*$`), "ruby"},
	{regexp.MustCompile(`^php[0-9.]*$`), "php"},
	{regexp.MustCompile(`^(lua[0-9.]*|luajit)$`), "lua"},
	{regexp.MustCompile(`^(awk|gawk|mawk|nawk|original-awk)$`), "awk"},
	{regexp.MustCompile(`^g?make$`), "make"},
	{regexp.MustCompile(`^git(-.*)?$`), "git"},
	{regexp.MustCompile(`^hookctl$`), "hookctl"},
	{regexp.MustCompile(`^java$`), "java"},
	{regexp.MustCompile(`^(tclsh|wish)[0-9.]*$`), "tcl"},
	{regexp.MustCompile(`^R(script)?$`), "r"},
	{regexp.MustCompile(`^jq$`), "jq"},
	{regexp.MustCompile(`^g?sed$`), "sed"},
}

// Interpreter says what the program named name (its file's base name)
// does with argv.
func Interpreter(name string, argv []string) Program {
	var p Program
	for _, l := range langs {
		if l.re.MatchString(name) {
			p.Lang = l.lang
			break
		}
	}
	if name == "busybox" && len(argv) > 0 {
		// busybox is the program its argv[0] names.
		q := Interpreter(filepath.Base(argv[0]), argv)
		if q.Lang == "" || filepath.Base(argv[0]) == "busybox" {
			return Program{}
		}
		return q
	}
	args := []string(nil)
	if len(argv) > 1 {
		args = argv[1:]
	}
	switch p.Lang {
	case "shell":
		p.Shell = true
		shellArgs(&p, args)
	case "python":
		scriptArgs(&p, args, "cmWX", "c", "m", true)
	case "node":
		nodeArgs(&p, args)
	case "perl":
		// -l and -0 take digits only.
		scriptArgs(&p, args, "eEIMmxiCd", "eE", "", true)
	case "ruby":
		scriptArgs(&p, args, "erICEx", "e", "", true)
	case "php":
		scriptArgs(&p, args, "rfcdz", "r", "", true)
	case "lua":
		scriptArgs(&p, args, "el", "e", "", false)
	case "awk":
		awkArgs(&p, args)
	case "jq", "sed":
		for i := 0; i < len(args); i++ {
			if args[i] == "-f" || args[i] == "--from-file" || args[i] == "--file" {
				if i+1 < len(args) {
					p.CodeFiles = append(p.CodeFiles, args[i+1])
				}
			} else if v, ok := strings.CutPrefix(args[i], "--file="); ok {
				p.CodeFiles = append(p.CodeFiles, v)
			}
		}
	}
	return p
}

// shellArgs reads a POSIX shell's arguments: its options (-c, -s, and -o,
// -O, --rcfile with their values), then its code or its script; with
// neither it reads its program on stdin.
func shellArgs(p *Program, args []string) {
	cmode, smode := false, false
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" || a == "-" {
			i++
			break
		}
		if strings.HasPrefix(a, "--") {
			if a == "--rcfile" || a == "--init-file" {
				i++
			}
			continue
		}
		if len(a) < 2 || (a[0] != '-' && a[0] != '+') {
			break
		}
		for _, ch := range a[1:] {
			switch ch {
			case 'c':
				cmode = true
			case 's':
				smode = true
			case 'o', 'O':
				i++
			}
		}
	}
	switch {
	case cmode:
		if i < len(args) {
			p.Code = append(p.Code, args[i])
		}
	case smode || i >= len(args):
		p.StdinProgram = true
	}
}

// scriptArgs reads the arguments of an interpreter whose options are
// single letters that combine (-le 'code'): valued are the letters taking
// a value (joined or the next argument), code the ones whose value is
// code, module the one that runs a module and ends the options. "-" or no
// script and no code means the program is read on stdin (when stdin is
// true).
func scriptArgs(p *Program, args []string, valued, code, module string, stdin bool) {
	ran := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-" {
			p.StdinProgram = true
			return
		}
		if a == "--" {
			if i+1 < len(args) {
				return
			}
			break
		}
		if strings.HasPrefix(a, "--") {
			continue
		}
		if len(a) < 2 || a[0] != '-' {
			return
		}
	letters:
		for j := 1; j < len(a); j++ {
			ch := a[j]
			if !strings.ContainsRune(valued, rune(ch)) {
				continue
			}
			v := a[j+1:]
			if v == "" && i+1 < len(args) {
				i++
				v = args[i]
			}
			switch {
			case strings.ContainsRune(code, rune(ch)):
				p.Code = append(p.Code, v)
				ran = true
				if module != "" {
					// python -c ends the options.
					return
				}
			case module != "" && strings.ContainsRune(module, rune(ch)):
				return
			}
			break letters
		}
	}
	if !ran && stdin {
		p.StdinProgram = true
	}
}

// nodeValued are node's options that take a value as the next argument.
var nodeValued = map[string]bool{
	"-r": true, "--require": true, "--import": true, "--loader": true, "--experimental-loader": true,
	"-C": true, "--conditions": true, "--input-type": true, "--env-file": true, "--title": true,
	"--inspect-port": true, "--stack-size": true, "--max-old-space-size": true,
}

func nodeArgs(p *Program, args []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-" || a == "--":
			p.StdinProgram = a == "-" || i+1 >= len(args)
			return
		case a == "-e" || a == "--eval" || a == "-p" || a == "--print":
			if i+1 < len(args) {
				p.Code = append(p.Code, args[i+1])
			}
			return
		case strings.HasPrefix(a, "--eval=") || strings.HasPrefix(a, "--print="):
			p.Code = append(p.Code, a[strings.IndexByte(a, '=')+1:])
			return
		case nodeValued[a]:
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return
		}
	}
	p.StdinProgram = true
}

func awkArgs(p *Program, args []string) {
	program := false
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if len(a) < 2 || a[0] != '-' {
			break
		}
		switch a {
		case "-f", "--file", "-i", "--include", "-E", "--exec":
			if i+1 < len(args) {
				p.CodeFiles = append(p.CodeFiles, args[i+1])
				i++
			}
			program = program || a != "-i" && a != "--include"
		case "-e", "--source":
			if i+1 < len(args) {
				p.Code = append(p.Code, args[i+1])
				i++
			}
			program = true
		case "-v", "-F", "--assign", "--field-separator", "-l", "--load":
			i++
		}
	}
	if !program && i < len(args) {
		p.Code = append(p.Code, args[i])
	}
}
