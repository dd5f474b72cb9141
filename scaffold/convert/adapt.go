package convert

import (
	"bytes"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/shellcmd"
)

// needsAdapt reports whether a converted handler runs through hookctl
// adapt: every handler written for the other agent does, since what it
// reads, what it prints and how it exits mean what that agent makes of
// them (plain text on stdout is ignored or context there and a failure
// here, an unknown decision is ignored there and a failure here), unless
// it already speaks this format.
func (c *converter) needsAdapt(command string, ch commandChange) bool {
	return !speaksThisFormat(command, ch.Scripts)
}

// nativeWords are words only a handler written for this format uses.
var nativeWords = [][]byte{[]byte("toolCall"), []byte("injectSteps"), []byte("HOOKCTL_EVENT"), []byte("executionNum"), []byte("terminationBehavior")}

// speaksThisFormat reports whether a command or the scripts it runs use
// this format's payload or answer fields.
func speaksThisFormat(command string, scripts []string) bool {
	for _, text := range append([][]byte{[]byte(command)}, readScripts(scripts)...) {
		for _, w := range nativeWords {
			if bytes.Contains(text, w) {
				return true
			}
		}
	}
	return false
}

// adaptWhy says in a few words why a handler runs through hookctl adapt.
func (c *converter) adaptWhy(target schema.Event, u *usage) string {
	where := strings.Join(u.where, ", ")
	if where == "" {
		where = "the command"
	}
	switch {
	case len(u.inputs) > 0 && len(u.outputs) > 0:
		return where + " " + reads(u.where) + " " + c.src.Agent.Title() + "'s payload (" + strings.Join(u.inputs, ", ") + ") and " + answers(u.where) + " in its way (" + strings.Join(u.outputs, ", ") + ")"
	case len(u.inputs) > 0:
		return where + " " + reads(u.where) + " " + c.src.Agent.Title() + "'s payload (" + strings.Join(u.inputs, ", ") + ")"
	case len(u.outputs) > 0:
		return where + " " + answers(u.where) + " in " + c.src.Agent.Title() + "'s way (" + strings.Join(u.outputs, ", ") + ")"
	case u.exit2 && target != schema.PreToolUse && target != schema.Stop:
		return where + " " + exits(u.where) + " with status 2, which " + c.src.Agent.Title() + " reads on " + c.curEvent + " as this format does not"
	case c.readsPlainText(target):
		return c.src.Agent.Title() + " gives the model what a " + c.curEvent + " handler prints"
	case len(u.env) > 0:
		return where + " " + reads(u.where) + " " + strings.Join(prefixed(u.sortedEnv()), ", ")
	}
	return "the handler was written for " + c.src.Agent.Title()
}

// adaptEvent is the other agent's name for the event the handler serves:
// the event being converted, or, in a file of this format's shape, the
// agent's event for this format's.
func (c *converter) adaptEvent(target schema.Event) string {
	if _, ok := schema.LookupAgentEvent(c.src.Agent, c.curEvent); ok {
		return c.curEvent
	}
	if x, ok := schema.LookupExportedEvent(c.src.Agent, target); ok && x.Foreign != "" {
		return x.Foreign
	}
	return c.curEvent
}

// wrapAdapt runs a command through hookctl adapt: a single call of a
// program directly, anything else (a pipe, a list, a redirection, a
// builtin) through sh -c.
func wrapAdapt(a schema.Agent, event, command string) string {
	prefix := "hookctl adapt --from " + string(a) + " --event " + shellcmd.Quote(event) + " -- "
	if directCall(command) {
		return prefix + command
	}
	return prefix + "sh -c " + shellcmd.Quote(command)
}

// shellBuiltins are words a shell runs itself, or runs differently from
// the program of the same name (echo's escapes): they stay in a shell.
var shellBuiltins = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"cd": true, "exit": true, ".": true, "source": true, "exec": true, "eval": true, "export": true, "set": true, "unset": true,
		"trap": true, "return": true, "shift": true, "readonly": true, "ulimit": true, "umask": true, "wait": true, "alias": true,
		"read": true, "echo": true, "printf": true, "test": true, "[": true, "command": true, "type": true, "local": true,
	}
})

// directCall reports whether a command is one program and its arguments,
// which hookctl adapt can run as they stand after the shell that runs the
// handler expanded them.
func directCall(command string) bool {
	f, err := shellcmd.ParseSyntax(command)
	if err != nil || len(f.Stmts) != 1 {
		return false
	}
	st := f.Stmts[0]
	if st.Negated || st.Background || st.Coprocess || len(st.Redirs) > 0 {
		return false
	}
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 || len(call.Args) == 0 {
		return false
	}
	first := call.Args[0].Lit()
	return first != "" && !shellBuiltins()[first]
}

// literalAnswer translates a command that prints a fixed answer in the
// other agent's way (echo '{"hookSpecificOutput": ...}', echo 'some
// context') into one that prints this format's. It reports whether it
// did.
func (c *converter) literalAnswer(pos schema.Pos, h *schema.Handler, u *usage) bool {
	if c.src.Shape != Wrapped || len(u.inputs) > 0 || c.opts.Answer == nil {
		return false
	}
	text, ok := echoed(h.Command)
	if !ok {
		return false
	}
	native, notes, ok := c.opts.Answer(c.src.Agent, c.curEvent, []byte(text+"\n"))
	if !ok {
		return false
	}
	answer := strings.TrimSpace(string(native))
	switch {
	case answer == "" && len(notes) == 0 && text == "":
		return false
	case answer == "":
		h.Command = "true"
	default:
		h.Command = "echo " + shellcmd.Quote(answer)
	}
	c.report.note(pos, "the command prints a fixed answer in %s's way: it prints this format's instead (%s)", c.src.Agent.Title(), h.Command)
	for _, n := range notes {
		c.report.warn(pos, "%s", n)
	}
	return true
}

// echoed returns the text a command prints when it is one statement that
// prints a fixed text and nothing else (echo, printf or cat of a
// here-document, with literal words), read as the shell reads it
// (shellcmd's Output), without its line end. A text that bash would print
// otherwise than dash (echo's options and escapes) is none.
func echoed(command string) (string, bool) {
	f, err := shellcmd.ParseSyntax(command)
	if err != nil || len(f.Stmts) != 1 {
		return "", false
	}
	out := shellcmd.Parse(command, "", "").Output()
	if !out.Whole || len(out.Prints) != 1 || out.Prints[0].Differs || out.Prints[0].Conditional {
		return "", false
	}
	return strings.TrimSuffix(out.Prints[0].Text, "\n"), true
}
