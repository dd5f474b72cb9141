package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/hookctl/hookctl/lint"
	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/templates"
)

// completeCommand is the hidden command behind the shell completion
// scripts: "hookctl __complete WORD... CURRENT" prints the candidates for
// CURRENT, the word being typed ("" after a space), given the words before
// it. Each line is a candidate, with a tab and a description when there is
// one; a last line ":files" or ":dirs" asks the shell to offer file or
// folder names as well. It reads the command tree the CLI parses with, so
// completion knows every command and flag there is, and nothing else: no
// file is read, so it answers as fast as hookctl starts.
const completeCommand = "__complete"

// candidate is one completion.
type candidate struct {
	value, desc string
}

// completion is what the words complete to.
type completion struct {
	cands []candidate
	// files or dirs: the shell also offers file or folder names.
	files, dirs bool
}

func (c *completion) add(value, desc string) {
	c.cands = append(c.cands, candidate{value, desc})
}

// complete works out the candidates for the last of words.
func complete(app *cli.App, words []string) *completion {
	var out completion
	if len(words) == 0 {
		words = []string{""}
	}
	cur := words[len(words)-1]
	var (
		path    []*cli.Command        // the command and subcommands named so far
		args    []string              // positional arguments of the last command
		pending cli.Flag              // a flag whose value comes next
		dashes  bool                  // "--" seen: the rest are arguments
		values  = map[string]string{} // the flags given so far, by first name
	)
	flagsOf := func() []cli.Flag {
		if len(path) == 0 {
			return app.Flags
		}
		return append(append([]cli.Flag(nil), path[len(path)-1].Flags...), app.Flags...)
	}
	subcommands := func() []*cli.Command {
		if len(path) == 0 {
			return app.Commands
		}
		return path[len(path)-1].Subcommands
	}
	for _, w := range words[:len(words)-1] {
		switch {
		case pending != nil:
			values[pending.Names()[0]] = w
			pending = nil
		case dashes:
			args = append(args, w)
		case w == "--":
			dashes = true
		case strings.HasPrefix(w, "-") && w != "-":
			name, value, hasValue := strings.Cut(strings.TrimLeft(w, "-"), "=")
			if f := lookupFlag(flagsOf(), name); f != nil && takesValue(f) {
				if hasValue {
					values[f.Names()[0]] = value
				} else {
					pending = f
				}
			}
		default:
			if cmd := findCommand(subcommands(), w); cmd != nil && len(args) == 0 {
				path = append(path, cmd)
				continue
			}
			args = append(args, w)
		}
	}
	names := make([]string, len(path))
	for i, c := range path {
		names[i] = c.Name
	}
	cmdPath := strings.Join(names, " ")

	given := given{cmdPath: cmdPath, args: args, values: values}
	switch {
	case pending != nil:
		given.typed = cur
		flagValues(&out, given, pending.Names()[0], "")
	case !dashes && strings.HasPrefix(cur, "-") && strings.Contains(cur, "="):
		name, typed, _ := strings.Cut(strings.TrimLeft(cur, "-"), "=")
		if f := lookupFlag(flagsOf(), name); f != nil && takesValue(f) {
			given.typed = typed
			flagValues(&out, given, f.Names()[0], cur[:strings.Index(cur, "=")+1])
		}
	case !dashes && strings.HasPrefix(cur, "-"):
		flags := flagsOf()
		if len(path) == 0 {
			flags = append(flags, cli.VersionFlag)
		}
		for _, f := range flags {
			for _, n := range f.Names() {
				if len(n) > 1 {
					out.add("--"+n, flagUsage(f))
					break
				}
			}
		}
	case len(path) == 0 || len(path[len(path)-1].Subcommands) > 0:
		if len(args) > 0 {
			break
		}
		for _, c := range subcommands() {
			if !c.Hidden {
				out.add(c.Name, c.Usage)
			}
		}
	default:
		arguments(&out, app, path, given)
	}

	// Keep the candidates that start with what is typed.
	kept := out.cands[:0]
	for _, c := range out.cands {
		if strings.HasPrefix(c.value, cur) {
			kept = append(kept, c)
		}
	}
	out.cands = kept
	return &out
}

// given is what the words before the one being completed say.
type given struct {
	// cmdPath names the command and its subcommands ("schema input").
	cmdPath string
	// args are the command's positional arguments.
	args []string
	// values are the flags given, by their first name.
	values map[string]string
	// typed is the part of a flag's value typed so far.
	typed string
}

// arguments completes a positional argument of the command at the end of
// path, given the arguments before it.
func arguments(out *completion, app *cli.App, path []*cli.Command, g given) {
	before := g.args
	switch path[0].Name {
	case "run":
		if len(before) > 0 {
			break
		}
		if a := schema.Agent(g.values["from"]); slices.Contains(schema.Agents, a) {
			// hookctl run --from claude Pre<TAB>: the agent's own events.
			agentEvents(a, out.add)
			break
		}
		events(out)
	case "adapt":
		// hookctl adapt --from claude -- ./hooks/<TAB>: the handler.
		out.files = true
	case "schema":
		if len(path) == 2 && (path[1].Name == "input" || path[1].Name == "output" || path[1].Name == "example") && len(before) == 0 {
			events(out)
		}
	case "help":
		// hookctl help schema inp<TAB>
		cmds := app.Commands
		for _, name := range before {
			c := findCommand(cmds, name)
			if c == nil {
				return
			}
			cmds = c.Subcommands
		}
		for _, c := range cmds {
			if !c.Hidden {
				out.add(c.Name, c.Usage)
			}
		}
	case "completion":
		if len(before) == 0 {
			for _, sh := range shells {
				out.add(sh.name, sh.desc)
			}
		}
	case "lint", "test", "import":
		out.files = true
	case "trust":
		if len(before) == 0 {
			out.dirs = true
		}
	}
}

// flagValues completes the value of a flag; prefix ("--flag=") comes
// before each candidate when flag and value are one word.
func flagValues(out *completion, g given, flag, prefix string) {
	cmdPath := g.cmdPath
	add := func(value, desc string) { out.add(prefix+value, desc) }
	switch flag {
	case "color":
		add("auto", "on a terminal, unless NO_COLOR is set")
		add("always", "")
		add("never", "")
	case "event":
		if cmdPath == "adapt" {
			// The event is the other agent's own.
			if a := schema.Agent(g.values["from"]); slices.Contains(schema.Agents, a) {
				agentEvents(a, add)
			}
			break
		}
		for _, e := range schema.Events {
			add(string(e), e.Summary())
		}
	case "tool":
		if cmdPath == "run" {
			// run refuses --tool with --from (the payload is the agent's)
			// and for an event that names no tool.
			if g.values["from"] != "" {
				break
			}
			if len(g.args) > 0 {
				if e := schema.Event(g.args[0]); e.Valid() && !e.IsTool() {
					break
				}
			}
		}
		for _, t := range schema.Tools {
			add(t.Name, t.Summary)
		}
	case "matcher":
		// A matcher is a regular expression over tool names: the tool
		// after the last | is completed ("run_command|view_<TAB>").
		head := g.typed[:strings.LastIndexByte(g.typed, '|')+1]
		for _, t := range schema.Tools {
			add(head+t.Name, t.Summary)
		}
	case "template":
		for _, t := range templates.All() {
			add(t.ID, fmt.Sprintf("%s: %s", t.Event, t.Summary))
		}
	case "lang":
		for _, id := range templates.LanguageIDs() {
			l, _ := templates.LookupLanguage(id)
			add(id, l.Name)
		}
	case "format":
		if cmdPath == "lint" {
			for _, f := range lint.FormatNames() {
				add(f, "")
			}
		}
	case "disable", "enable":
		for _, r := range lint.Catalogue() {
			add(r.ID, r.Summary)
		}
	case "fail-on":
		for _, s := range []lint.Severity{lint.Error, lint.Warning, lint.Info} {
			add(s.String(), "")
		}
	case "on-error":
		add("deny", "a failed handler denies the call")
		if cmdPath != "export" {
			add("ask", "a failed handler makes the agent ask (force_ask)")
		}
		add("ignore", "a failed handler adds nothing")
	case "scope":
		add("workspace", ".agents/hooks.json")
		add("user", "~/.gemini/config/hooks.json")
	case "from", "to":
		for _, a := range schema.Agents {
			add(string(a), a.Title())
		}
	case "config", "out":
		out.files = true
	case "workspace", "dir":
		out.dirs = true
	}
}

// agentEvents offers the events of another agent, each with the event of
// this format it runs.
func agentEvents(a schema.Agent, add func(value, desc string)) {
	for _, e := range schema.AgentEvents(a) {
		desc := "no equivalent: passes through"
		if e.Event != "" {
			desc = "runs the " + string(e.Event) + " hooks"
		}
		add(e.Name, desc)
	}
}

func events(out *completion) {
	for _, e := range schema.Events {
		out.add(string(e), e.Summary())
	}
}

// takesValue reports whether a flag is followed by its value.
func takesValue(f cli.Flag) bool {
	if dv, ok := f.(cli.DocGenerationFlag); ok {
		return dv.TakesValue()
	}
	return false
}

// flagUsage is a flag's usage without the markers around its placeholder.
func flagUsage(f cli.Flag) string {
	if df, ok := f.(cli.DocGenerationFlag); ok {
		return strings.ReplaceAll(df.GetUsage(), "`", "")
	}
	return ""
}

// write prints the candidates in the form the scripts read.
func (c *completion) write(w io.Writer) error {
	var b strings.Builder
	for _, cand := range c.cands {
		b.WriteString(cand.value)
		if d := oneLineDesc(cand.desc); d != "" {
			b.WriteString("\t" + d)
		}
		b.WriteByte('\n')
	}
	if c.files {
		b.WriteString(":files\n")
	}
	if c.dirs {
		b.WriteString(":dirs\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// oneLineDesc keeps a description to one short line.
func oneLineDesc(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 70 {
		s = strings.TrimRight(string(r[:69]), " ,;:") + "…"
	}
	return s
}
