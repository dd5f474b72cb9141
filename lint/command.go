package lint

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/shellcmd"
)

// A handler's command is shell code that /bin/sh -c runs. It is read by
// schema/shellcmd, the one reader of commands that lint, run, trust and
// import share: quoting, pipelines, cd and substitutions decide what the
// command runs.

// command is a handler's command as parsed.
type command struct {
	src string
	// parsed is the command as the shell reads it, in the folder handlers
	// run in: its calls, the files they run, what cannot be known.
	parsed *shellcmd.Command
	// file is the parsed shell program, nil when the text does not parse
	// (the shell would reject it too, or it uses syntax the parser lacks)
	// or when the command is simple.
	file *syntax.File
	// simple is set for a command of plain words and blanks, which needs
	// no parser: argv holds its words.
	simple bool
	argv   []word

	refs     []shellcmd.Ref
	refsDone bool
}

// fileRefs returns the files the command names (shellcmd's Refs), worked
// out once: the script rules and argument-path all read them.
func (c *command) fileRefs() []shellcmd.Ref {
	if !c.refsDone {
		c.refsDone = true
		c.refs, _ = c.parsed.Refs()
	}
	return c.refs
}

// word is one literal word of a command and where it stands in the
// command's text (byte offsets, quotes included).
type word struct {
	text     string
	from, to int
}

// parseCommand parses src as shellcmd.Parse does, with vars the values of
// the variables known before it runs, shared by a file's commands.
func parseCommand(src, dir string, vars map[string]string) *command {
	p := shellcmd.ParseVars(src, dir, vars)
	c := &command{src: src, parsed: p, file: p.File, simple: p.Simple}
	if p.Simple && len(p.Calls) == 1 {
		for _, w := range p.Calls[0].Args {
			c.argv = append(c.argv, word{text: w.Text, from: w.From, to: w.To})
		}
	}
	return c
}

// program returns the name a word runs as, without its folder.
func program(w word) string { return path.Base(w.text) }

// interpreterFor guesses the interpreter of a script from its #! line (as
// the kernel and env read it, shellcmd's one reading) or, without one,
// its extension, for messages that say how to run it.
func interpreterFor(name string, head []byte) string {
	if prog := shellcmd.ShebangProgram(head); prog != "" {
		return prog
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
	if f.fs.stopped() {
		return nil // the run's findings are thrown away: parse no more
	}
	c, ok := f.cmdTexts[h.Command.Str]
	if !ok {
		if f.cmdTexts == nil {
			f.cmdTexts = map[string]*command{}
		}
		if f.shellVars == nil && f.Root != "" {
			f.shellVars = map[string]string{"HOOKCTL_WORKSPACE": f.Root}
		}
		c = parseCommand(h.Command.Str, f.Dir(), f.shellVars)
		f.cmdTexts[h.Command.Str] = c
	}
	f.cmds[h.Command] = c
	return c
}
