package lint

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/hookctl/hookctl/schema"
)

// A handler's command is shell code that /bin/sh -c runs. It is parsed with
// mvdan.cc/sh, the shell parser behind shfmt, rather than split on spaces:
// quoting, pipelines and substitutions decide what the command runs, and a
// real parser tells a plain "python3 hooks/x.py" from inline shell that
// only looks like one.

// command is a handler's command as parsed.
type command struct {
	src string
	// file is the parsed shell program, nil when the text does not parse
	// (the shell would reject it too, or it uses syntax the parser lacks)
	// or when the command is simple.
	file *syntax.File
	// simple is set for a command of plain words and blanks, which needs
	// no parser: argv holds its words.
	simple bool
	// argv is the command's words when it is one plain command: literal
	// words only (quotes allowed), no variables, substitutions, globs,
	// pipelines or lists. Nil otherwise.
	argv []word
}

// word is one literal word of a command and where it stands in the
// command's text (byte offsets, quotes included).
type word struct {
	text     string
	from, to int
}

var shellParser = syntax.NewParser(syntax.Variant(syntax.LangBash))

// shellSpecial are the characters that make a command more than words
// separated by blanks.
const shellSpecial = "\"'`$\\|&;<>(){}[]*?~#!=\n\r%"

func parseCommand(src string) *command {
	c := &command{src: src}
	if !strings.ContainsAny(src, shellSpecial) {
		// Words and blanks only: the shell splits it exactly so, and most
		// commands look like this, so the parser is not needed.
		c.argv = fields(src)
		c.simple = true
		return c
	}
	f, err := shellParser.Parse(strings.NewReader(src), "")
	if err != nil {
		return c
	}
	c.file = f
	c.argv = plainArgv(f)
	return c
}

// fields splits a command of plain words at blanks, keeping where each
// word stands.
func fields(s string) []word {
	var out []word
	start := -1
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ' ' || s[i] == '\t' {
			if start >= 0 {
				out = append(out, word{text: s[start:i], from: start, to: i})
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	return out
}

// plainArgv returns the words of a program that is one simple command with
// literal words, else nil.
func plainArgv(f *syntax.File) []word {
	if len(f.Stmts) != 1 {
		return nil
	}
	st := f.Stmts[0]
	if st.Negated || st.Background || st.Coprocess || st.Disown {
		return nil
	}
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 || len(call.Args) == 0 {
		return nil
	}
	for _, r := range st.Redirs {
		if r.Word != nil {
			if _, ok := literal(r.Word); !ok {
				return nil
			}
		}
	}
	argv := make([]word, 0, len(call.Args))
	for _, w := range call.Args {
		s, ok := literal(w)
		if !ok {
			return nil
		}
		argv = append(argv, word{text: s, from: int(w.Pos().Offset()), to: int(w.End().Offset())})
	}
	return argv
}

// literal returns the value of a word that means the same whatever the
// environment: plain text, single quotes, or double quotes around plain
// text. Globs, a leading ~ and backslash escapes are not literal here.
func literal(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for i, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, "*?[\\") || (i == 0 && strings.HasPrefix(p.Value, "~")) {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", false
			}
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok || strings.Contains(l.Value, "\\") {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// program returns the name a word runs as, without its folder.
func program(w word) string { return path.Base(w.text) }

// scriptRef is the file a plain command executes: the program itself, or
// the script it hands to an interpreter.
type scriptRef struct {
	word word
	// viaInterpreter is set when an interpreter reads the file, so its
	// execute bit and #! line do not matter.
	viaInterpreter bool
	// interpreter is the interpreter's name, "" for a program run directly.
	interpreter string
}

var pythonName = lazyRegexp(`^(python|pypy)[0-9.]*$`)

// scriptExts are the extensions of files that interpreters run.
var scriptExts = map[string]bool{
	".py": true, ".js": true, ".mjs": true, ".cjs": true, ".ts": true, ".mts": true, ".cts": true,
	".sh": true, ".bash": true, ".zsh": true, ".rb": true, ".pl": true, ".php": true,
	".java": true, ".lua": true, ".R": true, ".jsx": true, ".tsx": true,
}

// flagsWithValue are interpreter options that take the next word as their
// value, so that word is not the script.
var flagsWithValue = map[string]bool{
	"-W": true, "-X": true, // python
	"-r": true, "--require": true, "--import": true, "--loader": true, "--experimental-loader": true, "--env-file": true, // node
	"-cp": true, "-classpath": true, "--class-path": true, // java
	"-o": true, "-O": true, // bash, sh
	"--config": true, "-C": true, // deno, ruby
	"-I": true, // perl, ruby
}

// noScriptFlags make the interpreter run code from the command line or a
// module, not a file.
var noScriptFlags = map[string]bool{
	"-c": true, "-m": true, "-e": true, "-p": true, "--eval": true, "--print": true,
	"--version": true, "-V": true, "--help": true, "-h": true,
}

// script returns the file the plain command executes, if it names one by
// a path: "./x.sh", "python3 hooks/x.py", "uv run python x.py", "node
// x.mjs". A bare program name ("jev-guard") is looked up on PATH and names
// no file here.
func (c *command) script() (scriptRef, bool) {
	argv := c.argv
	i := 0
	for i < len(argv) {
		switch program(argv[i]) {
		case "env":
			i++
			for i < len(argv) && (strings.Contains(argv[i].text, "=") || strings.HasPrefix(argv[i].text, "-")) {
				i++
			}
			continue
		case "exec", "nohup", "command", "time":
			i++
			continue
		case "uv", "poetry", "pipenv", "rye", "pdm", "hatch":
			if i+1 < len(argv) && argv[i+1].text == "run" {
				i = skipFlags(argv, i+2, map[string]bool{"--with": true, "--python": true, "-p": true, "--project": true, "--directory": true, "--group": true, "--extra": true, "--env-file": true, "--index": true, "--from": true})
				if i < len(argv) && !isInterpreter(program(argv[i])) && scriptExts[path.Ext(argv[i].text)] {
					return scriptRef{word: argv[i], viaInterpreter: true, interpreter: "uv run"}, true
				}
				continue
			}
			return scriptRef{}, false
		case "npx", "bunx", "pnpx":
			i = skipFlags(argv, i+1, map[string]bool{"--package": true, "-p": true})
			continue
		}
		break
	}
	if i >= len(argv) {
		return scriptRef{}, false
	}
	prog := argv[i]
	name := program(prog)
	if !isInterpreter(name) {
		if strings.Contains(prog.text, "/") {
			return scriptRef{word: prog}, true
		}
		return scriptRef{}, false
	}
	j := i + 1
	if (name == "deno" || name == "bun") && j < len(argv) && argv[j].text == "run" {
		j++
	}
	for j < len(argv) {
		a := argv[j].text
		if !strings.HasPrefix(a, "-") || a == "-" {
			break
		}
		if noScriptFlags[a] {
			return scriptRef{}, false
		}
		if name == "py" && len(a) > 1 && a[1] >= '0' && a[1] <= '9' {
			j++ // py -3
			continue
		}
		if flagsWithValue[a] {
			j++
		}
		j++
	}
	if j >= len(argv) {
		return scriptRef{}, false
	}
	s := argv[j]
	if !strings.Contains(s.text, "/") && !scriptExts[path.Ext(s.text)] {
		return scriptRef{}, false
	}
	return scriptRef{word: s, viaInterpreter: true, interpreter: name}, true
}

func skipFlags(argv []word, i int, withValue map[string]bool) int {
	for i < len(argv) && strings.HasPrefix(argv[i].text, "-") {
		if withValue[argv[i].text] {
			i++
		}
		i++
	}
	return i
}

func isInterpreter(name string) bool {
	switch name {
	case "node", "nodejs", "bash", "sh", "zsh", "dash", "ksh", "fish", "ruby", "perl", "php",
		"deno", "bun", "tsx", "ts-node", "java", "Rscript", "lua", "py", "osascript":
		return true
	}
	return pythonName().MatchString(name)
}

// interpreterFor guesses the interpreter of a script from its #! line or,
// without one, its extension, for messages that say how to run it.
func interpreterFor(name string, head []byte) string {
	if line, ok := shebang(head); ok {
		fields := strings.Fields(line)
		if len(fields) > 0 {
			prog := path.Base(fields[0])
			if prog == "env" && len(fields) > 1 {
				for _, f := range fields[1:] {
					if !strings.HasPrefix(f, "-") {
						return f
					}
				}
			}
			return prog
		}
	}
	switch path.Ext(name) {
	case ".py":
		return "python3"
	case ".js", ".mjs", ".cjs":
		return "node"
	case ".ts", ".mts", ".cts":
		return "npx tsx"
	case ".sh":
		return "sh"
	case ".bash":
		return "bash"
	case ".zsh":
		return "zsh"
	case ".rb":
		return "ruby"
	case ".pl":
		return "perl"
	case ".php":
		return "php"
	}
	return ""
}

// shebang returns a file's #! line without the #!.
func shebang(head []byte) (string, bool) {
	if len(head) < 2 || head[0] != '#' || head[1] != '!' {
		return "", false
	}
	line := string(head[2:])
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	return strings.TrimSpace(line), true
}

// isBinary reports whether a file starts like an executable binary (ELF,
// Mach-O or a universal binary), which needs no #! line.
func isBinary(head []byte) bool {
	if len(head) < 4 {
		return false
	}
	switch string(head[:4]) {
	case "\x7fELF", "\xfe\xed\xfa\xce", "\xfe\xed\xfa\xcf", "\xce\xfa\xed\xfe", "\xcf\xfa\xed\xfe", "\xca\xfe\xba\xbe":
		return true
	}
	return false
}

// commands caches each handler's parsed command: several rules read it.
func (f *File) command(h handlerRef) *command {
	if h.Command == nil {
		return nil
	}
	if f.cmds == nil {
		f.cmds = map[*schema.Node]*command{}
	}
	if c, ok := f.cmds[h.Command]; ok {
		return c
	}
	c := parseCommand(h.Command.Str)
	f.cmds[h.Command] = c
	return c
}
