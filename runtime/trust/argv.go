package trust

import (
	"fmt"
	"strings"

	"github.com/hookctl/hookctl/internal/lazyre"
	"github.com/hookctl/hookctl/schema/shellcmd"
)

// Programs a Python or JavaScript file starts without a shell, from a
// list (subprocess.run(["sh", "./x.sh"]), execFileSync("sh", ["x.sh"])),
// are read as the shell call they are: the first element the program, the
// rest its arguments, in the folder the script runs in (or the literal
// cwd the call gives). Literal elements are words as written; any other
// element is a word known only when the script runs, and a list, program
// or option that is not literal is named at its line.

// argSpans returns the arguments of the call whose ( is at code[open]:
// each as the span of its text, blanks trimmed, split at the commas
// outside brackets; ok is false when the call does not close. code has
// its strings and comments blanked, so that brackets and commas in them
// do not count.
func argSpans(code []byte, open int) (spans [][2]int, end int, ok bool) {
	depth := 0
	start := open + 1
	add := func(to int) {
		from := start
		for from < to && isBlank(code[from]) {
			from++
		}
		for to > from && isBlank(code[to-1]) {
			to--
		}
		if to > from {
			spans = append(spans, [2]int{from, to})
		}
	}
	for i := open; i < len(code); i++ {
		switch code[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				add(i)
				return spans, i + 1, true
			}
		case ',':
			if depth == 1 {
				add(i)
				start = i + 1
			}
		}
	}
	return nil, len(code), false
}

func isBlank(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\\' }

// skipBlanks returns where the first byte of b at or past i that is not
// blank stands, len(b) for none.
func skipBlanks(b []byte, i int) int {
	for i < len(b) && isBlank(b[i]) {
		i++
	}
	return i
}

// keyword returns the name of a keyword argument (cwd=x), "" for a
// positional one; "**" for **kwargs, "*" for *args.
func keyword(code []byte, span [2]int) string {
	t := string(code[span[0]:span[1]])
	switch {
	case strings.HasPrefix(t, "**"):
		return "**"
	case strings.HasPrefix(t, "*"), strings.HasPrefix(t, "..."):
		return "*"
	}
	k := strings.IndexByte(t, '=')
	if k <= 0 || k+1 < len(t) && t[k+1] == '=' {
		return ""
	}
	name := strings.TrimSpace(t[:k])
	for i := 0; i < len(name); i++ {
		if c := name[i]; !(c == '_' || isLetter(c) || i > 0 && c >= '0' && c <= '9') {
			return ""
		}
	}
	return name
}

// argvList reads a list literal ([...] or (...)) at src[span]: its
// elements as words, each literal when lit reads it as a string, else
// known only when the code runs. ok is false for anything but a list.
func argvList(src, code []byte, span [2]int, lit func(string) (string, bool)) ([]shellcmd.Word, bool) {
	switch open, end := code[span[0]], code[span[1]-1]; {
	case open == '[' && end == ']', open == '(' && end == ')':
	default:
		return nil, false
	}
	elems, end, ok := argSpans(code, span[0])
	if !ok || end != span[1] {
		return nil, false
	}
	var out []shellcmd.Word
	for _, e := range elems {
		out = append(out, argvWord(src, code, e, lit))
	}
	return out, true
}

// argvWord is the word that the expression at src[span] gives a program.
func argvWord(src, code []byte, span [2]int, lit func(string) (string, bool)) shellcmd.Word {
	w := shellcmd.Word{From: span[0], To: span[1]}
	if code[span[0]] != '*' && code[span[0]] != '.' {
		w.Text, w.Lit = lit(string(src[span[0]:span[1]]))
	}
	if !w.Lit {
		w.Text = string(src[span[0]:span[1]])
	}
	return w
}

// startsArgv covers what a call of the program in words, run in dir ("" when
// not known), runs, as a command's call is read, for cmd: the file named
// by name (a covered script) at the lines lines gives.
func (c *coverage) startsArgv(cmd *Command, words []shellcmd.Word, dir, name string, lines *lineCounter, depth int) {
	parsed := shellcmd.Argv(words, dir)
	// python -c and node -e code in the list: what it imports or runs.
	c.inline(cmd, parsed.Calls, depth+1)
	c.coverStarted(cmd, parsed, name, func(w shellcmd.Word) int { return lines.at(w.From) }, depth)
}

// coverStarted covers what parsed, a call that the script name starts,
// runs, and names what it cannot at the line line gives of a word.
func (c *coverage) coverStarted(cmd *Command, parsed *shellcmd.Command, name string, line func(shellcmd.Word) int, depth int) {
	refs, gaps := parsed.Refs()
	var found []string
	for _, g := range gaps {
		found = append(found, fmt.Sprintf("%s:%d %s", name, line(g.Word), inScript(g.Why)))
	}
	for _, r := range parsed.Repos() {
		if g := c.gitRepo(cmd, r); g != "" {
			found = append(found, fmt.Sprintf("%s:%d %s", name, line(r.Word), g))
		}
	}
	addGaps(cmd, found)
	for _, r := range refs {
		if r.Role.Runs() {
			c.coverRef(cmd, r, "by "+name, shellcmd.Start{}, depth+1)
		}
	}
}

// pyRun finds a call of a module's function (mod.fn() or bare fn()):
// those of subprocess and os that start a program count (pyStartNames).
var pyRun = lazyre.New(`\b([A-Za-z_]\w*)\s*\.\s*([A-Za-z_]\w*)\s*\(|\b([A-Za-z_]\w*)\s*\(`)

// pyStarts are the functions of subprocess and os that start a program:
// os's exec and spawn by the letters of their names (l: the arguments
// one by one, v: a list; p: looked up in PATH; e: an environment).
var pyStarts = lazyre.New(`^(?:subprocess\.(?:run|call|check_call|check_output|Popen)|os\.(?:exec|spawn)[lv]p?e?)$`)

// pyProcessModules are the modules whose functions start a program, by
// the name pyStartKind knows them by (posix is os's own).
var pyProcessModules = map[string]string{"subprocess": "subprocess", "os": "os", "posix": "os", "pty": "pty", "asyncio": "asyncio", "asyncio.subprocess": "asyncio", "_posixsubprocess": "_posixsubprocess"}

// Kinds of a function that starts a program (pyStartKind).
const (
	startRead  = "read"  // its call is read (pyStarts)
	startShell = "shell" // it hands a shell a command string
	startOther = "other" // it starts one in a way not read
)

// pyStartKind says what the module's function fn ("os.system") does
// with a program, "" for a function that starts none.
func pyStartKind(fn string) string {
	if pyStarts().MatchString(fn) {
		return startRead
	}
	switch fn {
	case "os.system", "os.popen", "subprocess.getoutput", "subprocess.getstatusoutput":
		return startShell
	case "os.posix_spawn", "os.posix_spawnp", "os.fexecve", "os.startfile", "pty.spawn",
		"asyncio.create_subprocess_exec", "asyncio.create_subprocess_shell", "asyncio.subprocess",
		"_posixsubprocess.fork_exec":
		return startOther
	}
	return ""
}

// pyParens blanks the parentheses around the names of from ... import (a,
// b).
var pyParens = strings.NewReplacer("(", " ", ")", " ")

// pyStartNames returns the names a Python file knows the modules that
// start programs by (import subprocess, import os as o), each with the
// module, and those it imported their functions that start programs as
// (from subprocess import run, from os import execv as ev), each with the
// function ("subprocess.run"); a module whose every name it imports (from
// os import *) is "*os" bound to "os". imports are the spans of its
// import statements, whose names are no use of the functions.
func pyStartNames(code []byte) (mods, funcs map[string]string, imports [][2]int) {
	mods, funcs = map[string]string{}, map[string]string{}
	stmts := pyStatements(code)
	for i, s := range stmts {
		words := strings.Fields(s.text)
		if len(words) >= 2 && (words[0] == "import" || words[0] == "from") {
			end := len(code)
			if i+1 < len(stmts) {
				end = stmts[i+1].off
			}
			imports = append(imports, [2]int{s.off, end})
		}
		switch {
		case len(words) >= 2 && words[0] == "import":
			for _, part := range strings.Split(strings.TrimPrefix(s.text, "import"), ",") {
				fs := strings.Fields(part)
				switch {
				case len(fs) == 1:
					// import os.path binds os
					root, _, _ := strings.Cut(fs[0], ".")
					if m := pyProcessModules[root]; m != "" {
						mods[root] = m
					}
				case len(fs) == 3 && fs[1] == "as" && pyProcessModules[fs[0]] != "":
					mods[fs[2]] = pyProcessModules[fs[0]]
				}
			}
		case len(words) >= 4 && words[0] == "from" && pyProcessModules[words[1]] != "" && words[2] == "import":
			mod := pyProcessModules[words[1]]
			names := pyParens.Replace(s.text[strings.Index(s.text, " import")+len(" import"):])
			for _, part := range strings.Split(names, ",") {
				fs := strings.Fields(part)
				switch {
				case len(fs) == 1 && fs[0] == "*":
					funcs["*"+mod] = mod
				case len(fs) == 1 && pyStartKind(mod+"."+fs[0]) != "":
					funcs[fs[0]] = mod + "." + fs[0]
				case len(fs) == 3 && fs[1] == "as" && pyStartKind(mod+"."+fs[0]) != "":
					funcs[fs[2]] = mod + "." + fs[0]
				}
			}
		}
	}
	return mods, funcs, imports
}

// pyBare is the function a bare name of a Python file stands for, by the
// names it imported (pyStartNames), "" for none that starts a program.
func pyBare(funcs map[string]string, local string) string {
	if fn := funcs[local]; fn != "" {
		return fn
	}
	for _, m := range []string{"subprocess", "os", "pty", "asyncio", "_posixsubprocess"} {
		if funcs["*"+m] != "" && pyStartKind(m+"."+local) != "" {
			return m + "." + local
		}
	}
	return ""
}

// pythonPrograms covers the programs a Python file starts with subprocess
// from a literal list, or with os's exec and spawn functions from literal
// arguments, run from the folder cwd ("" when not known), and names at
// its line each call whose list, program or options are not. It returns
// where the calls it read in full stand, which need no other name. code
// is content's pyCode.
func (c *coverage) pythonPrograms(cmd *Command, content, code []byte, cwd, name string, depth int) map[int]bool {
	mods, funcs, imports := pyStartNames(code)
	if len(mods) == 0 && len(funcs) == 0 {
		return nil
	}
	lines := lineCounter{b: content}
	named := func(at int, why string) {
		addGaps(cmd, []string{fmt.Sprintf("%s:%d %s", name, lines.at(at), why)})
	}
	read := map[int]bool{}
	for _, m := range pyRun().FindAllSubmatchIndex(code, -1) {
		at, fn := m[0], ""
		switch {
		case m[2] >= 0 && mods[string(code[m[2]:m[3]])] != "":
			fn = mods[string(code[m[2]:m[3]])] + "." + string(code[m[4]:m[5]])
		case m[6] >= 0 && (at == 0 || code[at-1] != '.'):
			fn = pyBare(funcs, string(code[m[6]:m[7]]))
		}
		if !pyStarts().MatchString(fn) {
			continue
		}
		if os, ok := strings.CutPrefix(fn, "os."); ok {
			if !c.pythonOS(cmd, content, code, m[1]-1, os, cwd, name, &lines, depth) {
				named(at, "starts a program from arguments built only when the script runs, or with an environment (os."+os+"): what it runs is not known")
			}
			read[at] = true
			continue
		}
		args, _, ok := argSpans(code, m[1]-1)
		if !ok {
			named(at, "starts a program by a call hookctl cannot read (subprocess): what it runs is not known")
			continue
		}
		dir := cwd
		var prog []shellcmd.Word
		var exe *shellcmd.Word
		listed, unsure := false, ""
		shellAt, fromString, positional := -1, false, 0
		for _, a := range args {
			switch k := keyword(code, a); k {
			case "":
				positional++
				if positional > 2 {
					// Popen's executable, stdin, ..., cwd, env by position
					unsure = "starts a program with options given by position (subprocess executable, cwd, env)"
				}
				if listed {
					continue // bufsize
				}
				listed = true
				if ws, ok := argvList(content, code, a, pyString); ok {
					prog = ws
				} else if s, ok := pyString(string(content[a[0]:a[1]])); ok {
					prog = []shellcmd.Word{{Text: s, Lit: true, From: a[0], To: a[1]}}
					fromString = true
				} else {
					unsure = "starts a program from a list built only when the script runs (subprocess)"
				}
			case "*", "**":
				unsure = "starts a program with arguments built only when the script runs (subprocess)"
			case "args":
				listed = true
				v := valueSpan(code, a)
				if ws, ok := argvList(content, code, v, pyString); ok {
					prog = ws
				} else {
					unsure = "starts a program from a list built only when the script runs (subprocess)"
				}
			case "shell":
				switch v := valueSpan(code, a); string(code[v[0]:v[1]]) {
				case "False":
				case "True":
					shellAt = a[0]
				default:
					unsure = "may hand a shell code (shell= known only when the script runs) (subprocess)"
				}
			case "cwd":
				v := valueSpan(code, a)
				s, ok := pyString(string(content[v[0]:v[1]]))
				dir = inFolder(dir, s, ok)
			case "executable":
				v := valueSpan(code, a)
				w := argvWord(content, code, v, pyString)
				exe = &w
			case "env":
				unsure = "starts a program with an environment built when the script runs (subprocess env=), which may change what it runs (PATH, PYTHONPATH)"
			}
		}
		switch {
		case shellAt >= 0:
			// shell=True: a literal string is the shell command it is;
			// anything else pyDynamic names at shell=True.
			if unsure == "" && fromString && exe == nil {
				read[shellAt] = true
				c.startsCommand(cmd, prog[0], dir, name, &lines, depth)
			}
			continue
		case unsure != "":
			named(at, unsure+": what it runs is not known")
			continue
		case len(prog) == 0:
			continue
		}
		if exe != nil {
			// executable= is the program; the list's first word is its
			// name for itself.
			prog = append([]shellcmd.Word{*exe}, prog[1:]...)
		}
		c.startsArgv(cmd, prog, dir, name, &lines, depth)
	}
	c.pythonStartsElse(cmd, content, code, mods, funcs, imports, cwd, name, &lines, read, depth)
	return read
}

// pyName finds a name of a Python file's code at the start of a text.
var pyName = lazyre.New(`^[A-Za-z_]\w*`)

// pyNameStart reports whether a name of Python code may start with b.
func pyNameStart(b byte) bool { return b == '_' || isLetter(b) }

// pythonStartsElse reads, or names at its line, every other use of the
// modules and functions that start programs (pyStartNames) than the
// calls pythonPrograms reads: a call of one that hands a shell a literal
// string (os.system("sh ./x.sh")) is read as the command it is; one that
// hands it a string built when the script runs, or starts a program in
// another way (os.posix_spawn, pty.spawn, asyncio's subprocesses), and a
// function or module taken other than by calling it (run =
// subprocess.run, getattr(os, name)) are named. Where it reads or names
// a call it marks read, for pyDynamic.
func (c *coverage) pythonStartsElse(cmd *Command, content, code []byte, mods, funcs map[string]string, imports [][2]int, cwd, name string, lines *lineCounter, read map[int]bool, depth int) {
	named := func(at int, why string) {
		read[at] = true
		addGaps(cmd, []string{fmt.Sprintf("%s:%d %s: what it runs is not known", name, lines.at(at), why)})
	}
	imp := 0
	for end := 0; end < len(code); {
		at := end
		if !pyNameStart(code[at]) {
			end++
			continue
		}
		after := at + 1
		for after < len(code) && (pyNameStart(code[after]) || code[after] >= '0' && code[after] <= '9') {
			after++
		}
		end = after
		for imp < len(imports) && imports[imp][1] <= at {
			imp++
		}
		if imp < len(imports) && imports[imp][0] <= at {
			continue // the import's own names
		}
		if at > 0 && (code[at-1] == '_' || code[at-1] >= '0' && code[at-1] <= '9') {
			continue // the end of a number or a name
		}
		b := at - 1
		for b >= 0 && isBlank(code[b]) {
			b--
		}
		if b >= 0 && code[b] == '.' {
			continue // another object's attribute
		}
		tok := string(code[at:after])
		var fn string
		if mod := mods[tok]; mod != "" {
			dot := skipBlanks(code, after)
			attr := pyName().FindIndex(code[skipBlanks(code, min(dot+1, len(code))):])
			if dot >= len(code) || code[dot] != '.' || attr == nil || attr[0] != 0 {
				named(at, "uses the module "+mod+" other than by naming its functions (getattr, an alias, an argument)")
				continue
			}
			from := skipBlanks(code, dot+1)
			after = from + attr[1]
			fn = mod + "." + string(code[from:after])
			if fn == "asyncio.subprocess" {
				named(at, "starts a program in a way hookctl does not read (asyncio.subprocess)")
				continue
			}
		} else {
			fn = pyBare(funcs, tok)
		}
		kind := pyStartKind(fn)
		if kind == "" {
			continue
		}
		open := skipBlanks(code, after)
		call := open < len(code) && code[open] == '('
		switch {
		case !call:
			named(at, "takes "+fn+" other than by calling it (an alias, an argument), which starts a program")
		case kind == startRead:
			// pythonPrograms reads the call.
		case kind == startShell:
			args, _, ok := argSpans(code, open)
			if ok && len(args) > 0 && keyword(code, args[0]) == "" {
				if s, lit := pyString(string(content[args[0][0]:args[0][1]])); lit {
					read[at] = true
					c.startsCommand(cmd, shellcmd.Word{Text: s, Lit: true, From: args[0][0], To: args[0][1]}, cwd, name, lines, depth)
					continue
				}
			}
			named(at, "hands a shell a command built only when the script runs ("+fn+")")
		default:
			named(at, "starts a program in a way hookctl does not read ("+fn+")")
		}
	}
}

// pythonOS reads a call of os's exec or spawn function fn whose ( is at
// code[open], from the folder cwd: the program the path names, with the
// arguments past the first (the program's name for itself). It reports
// whether it read the call in full.
func (c *coverage) pythonOS(cmd *Command, content, code []byte, open int, fn, cwd, name string, lines *lineCounter, depth int) bool {
	args, _, ok := argSpans(code, open)
	if !ok {
		return false
	}
	for _, a := range args {
		if keyword(code, a) != "" {
			return false
		}
	}
	if strings.HasPrefix(fn, "spawn") {
		if len(args) == 0 {
			return false
		}
		args = args[1:] // the mode
	}
	letters := strings.TrimPrefix(strings.TrimPrefix(fn, "exec"), "spawn")
	if strings.HasSuffix(letters, "e") || len(args) < 2 {
		return false // an environment, which may set PATH
	}
	words := []shellcmd.Word{argvWord(content, code, args[0], pyString)}
	var argv []shellcmd.Word
	if letters[0] == 'v' {
		if len(args) != 2 {
			return false
		}
		list, ok := argvList(content, code, args[1], pyString)
		if !ok {
			return false
		}
		argv = list
	} else {
		for _, a := range args[1:] {
			argv = append(argv, argvWord(content, code, a, pyString))
		}
	}
	if len(argv) > 0 {
		words = append(words, argv[1:]...)
	}
	c.startsArgv(cmd, words, cwd, name, lines, depth)
	return true
}

// valueSpan is the span of a keyword argument's value.
func valueSpan(code []byte, a [2]int) [2]int {
	k := a[0] + strings.IndexByte(string(code[a[0]:a[1]]), '=') + 1
	return [2]int{skipBlanks(code[:a[1]], k), a[1]}
}

// pyString reads s as one Python string literal ('x', "x", r'x', b"x",
// triple-quoted), its value, and whether it is one whose value is
// certain: not an f-string, no escapes but the plain ones, not two
// literals joined.
func pyString(s string) (string, bool) {
	i := 0
	raw := false
	for i < len(s) && i < 2 && strings.IndexByte("rRbBuU", s[i]) >= 0 {
		raw = raw || s[i] == 'r' || s[i] == 'R'
		i++
	}
	s = s[i:]
	var q string
	switch {
	case strings.HasPrefix(s, `"""`), strings.HasPrefix(s, `'''`):
		q = s[:3]
	case strings.HasPrefix(s, `"`), strings.HasPrefix(s, `'`):
		q = s[:1]
	default:
		return "", false
	}
	if len(s) < 2*len(q) || !strings.HasSuffix(s, q) {
		return "", false
	}
	body := s[len(q) : len(s)-len(q)]
	if strings.Contains(body, q) && !strings.Contains(body, `\`) {
		return "", false // 'a' 'b', two literals
	}
	if raw {
		if strings.ContainsAny(body, `\`+q[:1]) {
			return "", false
		}
		return body, true
	}
	var b strings.Builder
	for j := 0; j < len(body); j++ {
		ch := body[j]
		if ch == q[0] && len(q) == 1 {
			return "", false // a quote not escaped: more than one literal
		}
		if ch != '\\' {
			b.WriteByte(ch)
			continue
		}
		j++
		if j >= len(body) {
			return "", false
		}
		switch body[j] {
		case '\\', '\'', '"':
			b.WriteByte(body[j])
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		default:
			return "", false
		}
	}
	return b.String(), true
}

// jsCode returns JavaScript source with its comments and the text of its
// strings and templates blanked (newlines kept), for argSpans, the code of
// a template's ${} kept as code; text marks the bytes of strings and
// templates it blanked. A regular expression literal is not told from a
// division: one holding a quote or a backtick may blank code, which
// nodePrograms then names where it finds a name of child_process's in
// such text.
func jsCode(src []byte) (code []byte, text []bool) {
	out := []byte(string(src))
	text = make([]bool, len(src))
	blank := func(from, to int, str bool) {
		for k := from; k < to && k < len(out); k++ {
			if out[k] != '\n' {
				out[k] = ' '
			}
			text[k] = str
		}
	}
	// braces holds, for each template's ${ open, the { opened within it.
	var braces []int
	// template blanks a template's text from i, up to its closing
	// backtick or a ${, and returns where the code goes on.
	template := func(i int) int {
		j := i
		for ; j < len(src); j++ {
			switch {
			case src[j] == '\\':
				j++
			case src[j] == '`':
				blank(i, j, true)
				return j + 1
			case src[j] == '$' && j+1 < len(src) && src[j+1] == '{':
				blank(i, j, true)
				braces = append(braces, 0)
				return j + 2
			}
		}
		blank(i, len(src), true)
		return len(src)
	}
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '{' && len(braces) > 0:
			braces[len(braces)-1]++
		case c == '}' && len(braces) > 0:
			if braces[len(braces)-1] > 0 {
				braces[len(braces)-1]--
				continue
			}
			braces = braces[:len(braces)-1]
			i = template(i+1) - 1
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			end := strings.IndexByte(string(src[i:]), '\n')
			if end < 0 {
				end = len(src) - i
			}
			blank(i, i+end, false)
			i += end - 1
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := strings.Index(string(src[i+2:]), "*/")
			if end < 0 {
				end = len(src) - i - 2
			}
			blank(i, i+2+end+2, false)
			i += 2 + end + 1
		case c == '`':
			i = template(i+1) - 1
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(src) && src[j] != c {
				if src[j] == '\\' {
					j++
				}
				if j < len(src) && src[j] == '\n' {
					break
				}
				j++
			}
			blank(i+1, j, true)
			i = j
		}
	}
	return out, text
}

// childProcess finds, in jsCode's text, the calls of child_process's
// functions by a name the file binds the module to (cp.spawn(), and
// require("child_process").execFileSync(), whose string is blanked), and
// every bare call, of which those of the names the file binds its
// functions to count.
var childProcess = lazyre.New(`(?:\b([A-Za-z_$][\w$]*)|\brequire\s*\(\s*["'][ ]*["']\s*\))\s*\.\s*(spawn|spawnSync|execFile|execFileSync|fork|exec|execSync)\s*\(|\b([A-Za-z_$][\w$]*)\s*\(`)

// jsChildBind finds where a JavaScript file binds names to child_process
// or its functions (jsChildNames).
var jsChildBind = lazyre.New(`(?:\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*require\s*\(\s*["'](?:node:)?child_process["']\s*\)|\bimport\s+(?:\*\s+as\s+)?([A-Za-z_$][\w$]*)\s+from\s+["'](?:node:)?child_process["']|\b(?:const|let|var)\s*\{([^}]*)\}\s*=\s*require\s*\(\s*["'](?:node:)?child_process["']\s*\)|\bimport\s*\{([^}]*)\}\s*from\s*["'](?:node:)?child_process["'])`)

// jsChildNames binds what a JavaScript file names child_process by: the
// module's names (const cp = require("child_process"), import * as cp
// from "node:child_process") and its functions' (const { spawnSync: s }
// = require(...), import { execFile as ef } from ...), each to the
// function it is; a file that never names the module binds none. binds
// are the spans of the statements that bind them.
func jsChildNames(src []byte) (mods map[string]bool, funcs map[string]string, binds [][2]int) {
	mods, funcs = map[string]bool{}, map[string]string{}
	group := func(m []int, g int) []byte {
		if m[2*g] < 0 {
			return nil
		}
		return src[m[2*g]:m[2*g+1]]
	}
	for _, m := range jsChildBind().FindAllSubmatchIndex(src, -1) {
		binds = append(binds, [2]int{m[0], m[1]})
		switch {
		case m[2] >= 0:
			mods[string(group(m, 1))] = true
		case m[4] >= 0:
			mods[string(group(m, 2))] = true
		default:
			list, sep := group(m, 3), ":"
			if list == nil {
				list, sep = group(m, 4), " as "
			}
			for _, part := range strings.Split(string(list), ",") {
				fn, local, ok := strings.Cut(part, sep)
				fn = strings.TrimSpace(fn)
				if !ok {
					local = fn
				}
				funcs[strings.TrimSpace(local)] = fn
			}
		}
	}
	return mods, funcs, binds
}

// nodePrograms covers what a JavaScript file starts with child_process,
// run from the folder cwd ("" when not known): spawn, spawnSync,
// execFile, execFileSync and fork of a literal program and list read as
// the shell call they are, exec and execSync of a literal string as the
// command it is; a program, list or options not literal are named at the
// line. It returns where the calls it read in full stand (their names'
// offsets), which then need no other name. code and text are content's
// jsCode.
func (c *coverage) nodePrograms(cmd *Command, content, code []byte, text []bool, cwd, name string, depth int) map[int]bool {
	mods, funcs, binds := jsChildNames(content)
	internals := jsInternals().FindAllIndex(content, -1)
	if len(mods) == 0 && len(funcs) == 0 && len(internals) == 0 && !strings.Contains(string(content), "child_process") {
		return nil
	}
	lines := lineCounter{b: content}
	named := func(at int, why string) {
		addGaps(cmd, []string{fmt.Sprintf("%s:%d %s: what it runs is not known", name, lines.at(at), why)})
	}
	for _, m := range internals {
		named(m[0], "starts a program in a way hookctl does not read (process.binding, process.execve, Bun.spawn, Bun.$, Deno.Command)")
	}
	lit := func(s string) (string, bool) {
		v, end, ok := jsString([]byte(s), 0)
		return v, ok && end == len(s)
	}
	read := map[int]bool{}
	// calls are the calls the loop reads or names, by where they start,
	// each with where its name ends.
	calls := map[int]int{}
	for _, m := range childProcess().FindAllSubmatchIndex(code, -1) {
		at, fn := m[0], ""
		switch {
		case m[4] >= 0 && m[2] < 0 && strings.Contains(string(content[m[0]:m[4]]), "child_process"),
			m[4] >= 0 && m[2] >= 0 && mods[string(code[m[2]:m[3]])]:
			fn = string(code[m[4]:m[5]])
		case m[6] >= 0 && jsStarts[funcs[string(code[m[6]:m[7]])]] && (at == 0 || code[at-1] != '.'):
			fn = funcs[string(code[m[6]:m[7]])]
		default:
			continue
		}
		calls[at] = m[1]
		args, _, ok := argSpans(code, m[1]-1)
		if !ok || len(args) == 0 {
			named(at, "starts a program by a call hookctl cannot read (child_process)")
			continue
		}
		dir, unsure := cwd, ""
		var words []shellcmd.Word
		options := 1
		first := argvWord(content, code, args[0], lit)
		switch fn {
		case "exec", "execSync":
			if !first.Lit {
				// as jsShell names it, under whatever name
				addGaps(cmd, []string{fmt.Sprintf("%s:%d hands code to a shell (exec, execSync, shell: true, sh -c): what it loads that way is not fingerprinted", name, lines.at(at))})
				continue
			}
		default:
			words = []shellcmd.Word{first}
			if fn == "fork" {
				words = []shellcmd.Word{{Text: "node", Lit: true, From: args[0][0], To: args[0][0]}, first}
			}
			if len(args) > 1 && code[args[1][0]] != '{' {
				options = 2
				if ws, ok := argvList(content, code, args[1], lit); ok {
					words = append(words, ws...)
				} else {
					unsure = "starts a program with arguments built only when the script runs (child_process)"
				}
			}
		}
		if options < len(args) {
			dir, unsure = jsOptions(content, code, args[options], lit, dir, unsure)
		}
		switch {
		case unsure == "skip":
			continue
		case unsure != "":
			named(at, unsure)
			continue
		}
		read[at], read[m[4]] = true, true
		if fn == "exec" || fn == "execSync" {
			c.startsCommand(cmd, first, dir, name, &lines, depth)
			continue
		}
		c.startsArgv(cmd, words, dir, name, &lines, depth)
	}
	nodeStartsElse(content, code, text, mods, funcs, binds, calls, named)
	return read
}

// jsOptions reads the options a child_process call gives at code[o]: the
// folder its cwd makes of dir, and why what the call runs is not read,
// unsure as it came when the options do not say ("skip" for shell: true,
// which jsShell names). A callback in the options' place gives none.
func jsOptions(content, code []byte, o [2]int, lit func(string) (string, bool), dir, unsure string) (string, string) {
	if code[o[0]] != '{' {
		if keyword := string(code[o[0]:o[1]]); !strings.HasPrefix(keyword, "(") && !strings.HasPrefix(keyword, "function") && !strings.Contains(keyword, "=>") {
			unsure = "starts a program with options built only when the script runs (child_process)"
		}
		return dir, unsure
	}
	props, _, _ := argSpans(code, o[0])
	for _, p := range props {
		k, v, colon := strings.Cut(string(code[p[0]:p[1]]), ":")
		vs := p // { cwd }: the value of the name cwd
		if colon {
			vs[0] = skipBlanks(code[:p[1]], p[0]+len(k)+1)
		}
		switch strings.Trim(strings.TrimSpace(k), `"'`) {
		case "cwd":
			s, ok := lit(string(content[vs[0]:vs[1]]))
			dir = inFolder(dir, s, ok)
		case "shell":
			switch strings.TrimSpace(v) {
			case "false":
			case "true":
				unsure = "skip" // jsShell names shell: true
			default:
				unsure = "starts a program through a shell the options name, or one known only when the script runs (child_process shell)"
			}
		case "env", "execPath", "execArgv":
			unsure = "starts a program with an environment or interpreter built when the script runs (child_process env, execPath, execArgv), which may change what it runs"
		default:
			if k := strings.TrimSpace(k); strings.HasPrefix(k, "...") || strings.HasPrefix(k, "[") {
				unsure = "starts a program with options built only when the script runs (child_process)"
			}
		}
	}
	return dir, unsure
}

// jsStarts are the functions of child_process whose calls nodePrograms
// reads.
var jsStarts = map[string]bool{"spawn": true, "spawnSync": true, "execFile": true, "execFileSync": true, "fork": true, "exec": true, "execSync": true}

// jsInternals finds what starts a program without child_process: node's
// internal bindings, process.execve, which replaces node by a program,
// and the APIs of Bun and Deno, which run JavaScript files too.
var jsInternals = lazyre.New(`\bprocess\s*\.\s*(?:binding|_linkedBinding|execve)\b|\bBun\s*\.\s*(?:spawn|spawnSync|\$)|\bDeno\s*\.\s*(?:Command|run)\b`)

// jsChildQuoted is child_process named in a string.
const jsChildQuoted = "[\"'`](?:node:)?child_process[\"'`]"

// jsName finds the names of JavaScript code, and child_process named in a
// string.
var jsName = lazyre.New("[A-Za-z_$][\\w$]*|" + jsChildQuoted)

// jsChildString finds child_process named in a string.
var jsChildString = lazyre.New(jsChildQuoted)

// nodeStartsElse names at its line every use of child_process that the
// calls nodePrograms reads (calls: where each starts, and where its name
// ends) do not account for: the module named in a string that binds it
// in a way not read (import cp, { spawn } from, await
// import("child_process"), a second assignment), a name bound to the
// module used other than by calling one of jsStarts on it (cp["spawn"],
// const { spawn } = cp, module.exports = cp), a name bound to one of its
// functions taken other than by calling it, and such a name in text that
// jsCode blanked (a string, or code after a regular expression it took
// for one). binds are the spans of the statements that bind the names
// (jsChildNames); named names a use at its line.
func nodeStartsElse(content, code []byte, text []bool, mods map[string]bool, funcs map[string]string, binds [][2]int, calls map[int]int, named func(at int, why string)) {
	bound := func(at int) bool {
		for _, b := range binds {
			if b[0] <= at && at < b[1] {
				return true
			}
		}
		return false
	}
	skip := -1 // the end of the name of a call the loop took
	find := jsName()
	if len(mods) == 0 && len(funcs) == 0 {
		find = jsChildString() // no name to look for
	}
	for _, m := range find.FindAllIndex(content, -1) {
		at, after := m[0], m[1]
		if end, ok := calls[at]; ok {
			skip = end
		}
		if at < skip || bound(at) || at > 0 && (isLetter(content[at-1]) || content[at-1] == '_' || content[at-1] == '$' || content[at-1] >= '0' && content[at-1] <= '9') {
			continue
		}
		tok := string(content[at:after])
		if strings.HasSuffix(tok, "child_process"+tok[:1]) {
			if code[at] == content[at] && !text[at] {
				named(at, "names child_process other than where hookctl reads how the file binds or calls it (import(), a default import beside named ones, a function it does not read)")
			}
			continue
		}
		mod, fn := mods[tok], funcs[tok]
		if !mod && fn == "" {
			continue
		}
		if text[at] {
			if c := skipBlanks(content, after); c < len(content) && (content[c] == '(' || content[c] == '.') {
				named(at, "names "+tok+", bound to child_process, where hookctl reads a string (a regular expression that holds a quote may hide code from it)")
			}
			continue
		}
		if code[at] != content[at] {
			continue // a comment
		}
		if b := at - 1; b >= 0 {
			for b > 0 && isBlank(code[b]) {
				b--
			}
			if code[b] == '.' {
				continue // another object's property
			}
		}
		open := skipBlanks(code, after)
		switch {
		case mod:
			named(at, "uses child_process ("+tok+") other than by calling spawn, spawnSync, execFile, execFileSync, fork, exec or execSync on it")
		case !jsStarts[fn]:
			named(at, "uses child_process's "+fn+" ("+tok+")")
		case open >= len(code) || code[open] != '(':
			named(at, "takes child_process's "+fn+" ("+tok+") other than by calling it")
		}
	}
}

// startsCommand covers what the literal shell command w (a JavaScript
// exec's) runs, from dir, as a handler's command is read, naming at w's
// line what it cannot.
func (c *coverage) startsCommand(cmd *Command, w shellcmd.Word, dir, name string, lines *lineCounter, depth int) {
	// The command's words stand in w.Text, not the file: all at w's line.
	line := lines.at(w.From)
	c.coverStarted(cmd, shellcmd.Parse(w.Text, dir, c.root), name, func(shellcmd.Word) int { return line }, depth)
}

// inFolder is the folder a call's cwd option (s, when literal) makes of
// dir, the folder the program starts in: "" when it is not known.
func inFolder(dir, s string, literal bool) string {
	switch {
	case !literal:
		return ""
	case strings.HasPrefix(s, "/"):
		return s
	case dir != "":
		return dir + "/" + s
	}
	return dir
}
