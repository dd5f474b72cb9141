package lint

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/shellcmd"

	"github.com/hookctl/hookctl/internal/lazyre"
)

type shellSyntax struct{ RuleBase }

func newShellSyntax() Rule {
	return &shellSyntax{newBase("shell-syntax", Error,
		"an inline command that /bin/sh cannot run as written, or code given to sh -c, bash -c or dash -c that its shell refuses: a parse error, a bad substitution (${workspace.path}), an unclosed quote")}
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
		r.checkCommand(f, h, c)
		r.checkShellCode(f, h, c)
	}
}

// checkCommand reports what /bin/sh refuses of the command itself.
func (r *shellSyntax) checkCommand(f *File, h handlerRef, c *command) {
	err := c.parsed.Err
	if c.simple && hasReservedWord(c.src) {
		_, err = shellcmd.ParseSyntax(c.src)
	}
	if tl := (*shellcmd.TooLongError)(nil); errors.As(err, &tl) {
		r.report(f, h.Command.Span, "", "%s", tl.Error())
		return
	}
	if td := (*shellcmd.TooDeepError)(nil); errors.As(err, &td) {
		r.reportSeverity(f, Warning, h.Command.Span, "", "%s: lint checks nothing in it, ShellCheck is not run on it, and trust names it \"not covered\"; move the code into a script, or nest it less", td.Error())
		return
	}
	var pe syntax.ParseError
	if err == nil || !errors.As(err, &pe) {
		return
	}
	from, to, msg := syntaxMessage(f, c.src, int(pe.Pos.Offset()), pe.Text, pe.Incomplete, shellRefusal{shell: "/bin/sh", what: "the command", fails: refused(h.Event), failing: "the handler"})
	r.report(f, f.strSpan(h.Command, from, to), "", "%s", msg)
}

// codeShells are the shells whose -c code is read: sh (dash or bash, as
// the system has it), bash and dash.
var codeShells = map[string]bool{"sh": true, "bash": true, "dash": true}

// checkShellCode reports what the shell of each sh -c, bash -c or dash -c
// in the command (past env, timeout, nice, hookctl trace --) refuses of
// the code it is given as one literal word: only what that shell refuses,
// each at its place in the code, in the file.
func (r *shellSyntax) checkShellCode(f *File, h handlerRef, c *command) {
	top := 0
	for _, call := range c.parsed.Calls {
		if call.Depth == 0 {
			top++
		}
	}
	for _, call := range c.parsed.Calls {
		ci, si := shellcmd.ShellCode(call.Args)
		if ci < 0 || !call.Args[si].Lit || !codeShells[path.Base(call.Args[si].Text)] || !call.Args[ci].Lit {
			continue
		}
		shell, code := path.Base(call.Args[si].Text), call.Args[ci]
		off, text, incomplete, ok := refusedCode(shell, code.Text)
		if !ok {
			continue
		}
		who := fmt.Sprintf("%s refuses the code of %s -c", shell, shell)
		s := shellRefusal{shell: shell, what: "the code", fails: who + ", so that part of the command fails on every call", failing: "that part of the command"}
		if top == 1 && call.Depth == 0 {
			// The handler's status is the shell's.
			s.fails, s.failing = refusedBy(who, h.Event), "the handler"
		}
		from, to, msg := syntaxMessage(f, code.Text, off, text, incomplete, s)
		// Back from the code to the command, through the word's quotes.
		cf, ct := code.From, code.To
		if offs, ok := wordOffsets(c.src, code); ok {
			cf, ct = offs[from], offs[to]
		}
		r.report(f, f.strSpan(h.Command, cf, ct), "", "in the code of %s -c, %s", shell, msg)
	}
}

// refusedCode parses code as the shell will: what bash refuses, every sh
// refuses too; dash also refuses bash's own syntax (arrays, ${a//x/y},
// here-strings, function f), which dash -c is checked for. It returns the
// offset and text of the first mistake, and whether there is one.
func refusedCode(shell, code string) (off int, text string, incomplete, ok bool) {
	_, err := shellcmd.ParseSyntax(code)
	var pe syntax.ParseError
	if errors.As(err, &pe) {
		return int(pe.Pos.Offset()), pe.Text, pe.Incomplete, true
	}
	if err != nil || shell != "dash" {
		return 0, "", false, false
	}
	p := syntax.NewParser(syntax.Variant(syntax.LangPOSIX))
	_, err = p.Parse(strings.NewReader(code), "")
	var le syntax.LangError
	switch {
	case errors.As(err, &le) && !dashReads[le.Feature]:
		verb := "is"
		if strings.HasSuffix(le.Feature, "s") {
			verb = "are" // arrays, herestrings
		}
		return int(le.Pos.Offset()), fmt.Sprintf("%s %s a bash feature, which dash does not have", le.Feature, verb), false, true
	case errors.As(err, &pe):
		return int(pe.Pos.Offset()), pe.Text + " (bash reads it, dash does not)", pe.Incomplete, true
	}
	return 0, "", false, false
}

// dashReads are the bash features the POSIX parser names that dash reads
// otherwise, without a syntax error: "echo &> f" runs echo in the
// background and truncates f; "{fd}>f" is a word.
var dashReads = map[string]bool{"`&>` redirects": true, "`&>>` redirects": true, "`{varname}` redirects": true}

// wordOffsets maps the bytes of a literal word's value to the command:
// offs[i] is where the byte i of word.Text stands in src, offs[len] where
// the word ends. It reads the word as written (quotes, backslashes) and
// reports false when that does not give its value (a variable it
// expands).
func wordOffsets(src string, w shellcmd.Word) ([]int, bool) {
	if w.From < 0 || w.To > len(src) || w.From > w.To {
		return nil, false
	}
	raw := src[w.From:w.To]
	var text strings.Builder
	offs := make([]int, 0, len(raw)+1)
	put := func(i int) {
		text.WriteByte(raw[i])
		offs = append(offs, w.From+i)
	}
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; c {
		case '\'':
			j := strings.IndexByte(raw[i+1:], '\'')
			if j < 0 {
				return nil, false
			}
			for k := i + 1; k <= i+j; k++ {
				put(k)
			}
			i += j + 1
		case '"':
			i++
			for ; i < len(raw) && raw[i] != '"'; i++ {
				switch {
				case raw[i] == '$' || raw[i] == '`':
					return nil, false
				case raw[i] == '\\' && i+1 < len(raw) && strings.IndexByte("$`\"\\\n", raw[i+1]) >= 0:
					i++
					if raw[i] != '\n' {
						put(i)
					}
				default:
					put(i)
				}
			}
			if i == len(raw) {
				return nil, false
			}
		case '\\':
			if i+1 < len(raw) {
				i++
				if raw[i] != '\n' {
					put(i)
				}
			}
		case '$', '`':
			return nil, false
		default:
			put(i)
		}
	}
	if text.String() != w.Text {
		return nil, false
	}
	end := w.From // where the value's last byte ends, before a closing quote
	if len(offs) > 0 {
		end = offs[len(offs)-1] + 1
	}
	return append(offs, end), true
}

// Severities are those of the rule's findings, most serious first: a
// command the shell refuses is an error, one nested deeper than hookctl
// reads (which the shell may run) a warning.
func (r *shellSyntax) Severities() []Severity { return []Severity{Error, Warning} }

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

// shellRefusal says which shell refuses a piece of code and what that does
// to the handler.
type shellRefusal struct {
	// shell is the shell's name as messages give it: /bin/sh for the
	// command itself; what is "the command" or "the code" it refuses.
	shell, what string
	// fails says what the refusal does, failing what fails on a bad
	// substitution: the handler, or the part of the command.
	fails, failing string
}

// badSubstitution is what a shell says of a bad substitution.
func (s shellRefusal) badSubstitution() string {
	if s.shell == "bash" {
		return "bad substitution"
	}
	return "Bad substitution" // dash, the /bin/sh of Debian and Ubuntu
}

// syntaxMessage says what the parser met at off in src (its message text,
// and whether src ends too soon), in a user's words, and which bytes of
// src it is about.
func syntaxMessage(f *File, src string, off int, text string, incomplete bool, s shellRefusal) (from, to int, msg string) {
	off = min(off, len(src))
	switch {
	case strings.HasPrefix(text, "reached EOF without closing quote") && off < len(src):
		q := src[off : off+1]
		return off, len(src), fmt.Sprintf("the %s opened here is never closed: %s; close it, or escape it", quoteName(q), s.fails)
	case strings.HasPrefix(text, "not a valid parameter expansion operator"), text == "invalid parameter name":
		start := strings.LastIndex(src[:off], "${")
		end := strings.IndexByte(src[off:], '}')
		if start < 0 || end < 0 {
			break
		}
		end += off + 1
		expr := src[start:end]
		msg = fmt.Sprintf("%s is a bad substitution: a shell variable's name holds only letters, digits and _, so %s stops with \"%s\" and %s fails on every call", expr, s.shell, s.badSubstitution(), s.failing)
		if workspaceWords().MatchString(expr) {
			msg += fmt.Sprintf("; the agent substitutes no such template, and handlers run in %s, so the workspace root is .. (or read workspacePaths[0] from the payload on stdin)", f.dirName())
		}
		return start, end, msg
	case incomplete:
		return off, len(src), fmt.Sprintf("%s ends too soon: %s; %s", s.what, text, s.fails)
	}
	end := min(off+1, len(src))
	for end < len(src) && src[end] != ' ' && src[end] != '\t' && src[end] != '\n' {
		end++
	}
	return off, end, fmt.Sprintf("%s: %s", text, s.fails)
}

// refused says what a command the shell refuses does on the event: dash
// and bash exit with status 2 on a syntax error, which blocks PreToolUse
// and Stop.
func refused(e schema.Event) string {
	return refusedBy("/bin/sh refuses the command", e)
}

// refusedBy says what a handler that exits with status 2 when who refuses
// its code does on the event.
func refusedBy(who string, e schema.Event) string {
	switch e {
	case schema.PreToolUse:
		return who + " and exits with status 2, which the agent takes for a deny: every call the hook matches is blocked"
	case schema.Stop:
		return who + " and exits with status 2, which the agent takes for \"continue\": the hook never lets the agent stop"
	}
	return who + ", so the handler fails on every call"
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
