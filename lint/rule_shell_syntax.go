package lint

import (
	"errors"
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/shellcmd"

	"github.com/hookctl/hookctl/internal/lazyre"
)

type shellSyntax struct{ RuleBase }

func newShellSyntax() Rule {
	return &shellSyntax{newBase("shell-syntax", Error,
		"an inline command that /bin/sh cannot run as written: a parse error, a bad substitution (${workspace.path}), an unclosed quote")}
}

// reservedWords are the words that make a command of plain words shell
// syntax after all ("if true then echo" is an if without its fi).
var reservedWords = map[string]bool{
	"if": true, "then": true, "else": true, "elif": true, "fi": true, "do": true, "done": true,
	"case": true, "esac": true, "while": true, "until": true, "for": true, "in": true, "function": true, "select": true,
}

func (r *shellSyntax) Check(f *File) {
	for _, h := range f.allHandlers() {
		c := f.command(h)
		if c == nil {
			continue
		}
		err := c.parsed.Err
		if c.simple && hasReservedWord(c.src) {
			_, err = shellcmd.ParseSyntax(c.src)
		}
		if tl := (*shellcmd.TooLongError)(nil); errors.As(err, &tl) {
			r.report(f, h.Command.Span, "", "%s", tl.Error())
			continue
		}
		var pe syntax.ParseError
		if err == nil || !errors.As(err, &pe) {
			continue
		}
		from, to, msg := syntaxMessage(f, h.Event, c.src, pe)
		r.report(f, f.strSpan(h.Command, from, to), "", "%s", msg)
	}
}

func hasReservedWord(src string) bool {
	for _, w := range strings.Fields(src) {
		if reservedWords[w] {
			return true
		}
	}
	return false
}

// workspaceWords are what template variables for the workspace folder are
// called in other tools (${workspaceFolder}, ${workspace.path}).
var workspaceWords = lazyre.New(`(?i)workspace|project|root|cwd`)

// syntaxMessage says what the parser met, in a user's words, and which
// bytes of the command it is about.
func syntaxMessage(f *File, e schema.Event, src string, pe syntax.ParseError) (from, to int, msg string) {
	off := min(int(pe.Pos.Offset()), len(src))
	fails := refused(e)
	switch {
	case strings.HasPrefix(pe.Text, "reached EOF without closing quote"):
		q := src[off : off+1]
		return off, len(src), fmt.Sprintf("the %s opened here is never closed: %s; close it, or escape it", quoteName(q), fails)
	case strings.HasPrefix(pe.Text, "not a valid parameter expansion operator"), pe.Text == "invalid parameter name":
		start := strings.LastIndex(src[:off], "${")
		end := strings.IndexByte(src[off:], '}')
		if start < 0 || end < 0 {
			break
		}
		end += off + 1
		expr := src[start:end]
		msg = fmt.Sprintf("%s is a bad substitution: a shell variable's name holds only letters, digits and _, so /bin/sh stops with \"Bad substitution\" and the handler fails on every call", expr)
		if workspaceWords().MatchString(expr) {
			msg += fmt.Sprintf("; the agent substitutes no such template, and handlers run in %s, so the workspace root is .. (or read workspacePaths[0] from the payload on stdin)", f.dirName())
		}
		return start, end, msg
	case pe.Incomplete:
		return off, len(src), fmt.Sprintf("the command ends too soon: %s; %s", pe.Text, fails)
	}
	end := off + 1
	for end < len(src) && src[end] != ' ' && src[end] != '\t' && src[end] != '\n' {
		end++
	}
	return off, min(end, len(src)), fmt.Sprintf("%s: %s", pe.Text, fails)
}

// refused says what a command the shell refuses does on the event: dash
// and bash exit with status 2 on a syntax error, which blocks PreToolUse
// and Stop.
func refused(e schema.Event) string {
	switch e {
	case schema.PreToolUse:
		return "/bin/sh refuses the command and exits with status 2, which the agent takes for a deny: every call the hook matches is blocked"
	case schema.Stop:
		return "/bin/sh refuses the command and exits with status 2, which the agent takes for \"continue\": the hook never lets the agent stop"
	}
	return "/bin/sh refuses the command, so the handler fails on every call"
}

func quoteName(q string) string {
	switch q {
	case "'":
		return "single quote '"
	case `"`:
		return `double quote "`
	case "`":
		return "backquote `"
	}
	return "quote " + q
}
