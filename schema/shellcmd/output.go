package shellcmd

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Print is the text one statement of a command prints on stdout without
// running any program: echo, printf, or cat of a here-document, with
// literal words.
type Print struct {
	// Text is what it prints, as dash (/bin/sh on Debian and Ubuntu)
	// prints it.
	Text string
	// Differs is set when bash as /bin/sh prints other text (its echo
	// leaves backslashes alone and takes -e): then Alt is that text.
	Differs bool
	Alt     string
	// From and To are the bytes of the command that the text comes from:
	// the printed words, quotes included, or the here-document's body.
	From, To int
	// Exact is set when Text stands in the command byte for byte from
	// Base (a single-quoted word, a quoted here-document), so that an
	// offset in Text is Base plus that offset.
	Exact bool
	Base  int
	// Conditional is set when the statement may not run (after || or in
	// an if), or when other output may come before it.
	Conditional bool
	// Program names the printing command: "echo", "printf" or "cat".
	Program string
}

// Output is what a command prints on stdout, as far as it is known before
// the command runs.
type Output struct {
	// Prints are the statements that print literal text, in order.
	Prints []Print
	// Whole is set when they are everything the command prints on stdout
	// and it then exits 0: no program runs with its output there, no
	// statement is left to chance.
	Whole bool
}

// Output reads what the command prints on stdout. A command that does
// not parse prints nothing known.
func (c *Command) Output() Output {
	if c.Simple {
		var words []outWord
		for _, a := range fields(c.Src) {
			words = append(words, outWord{text: a.Text, from: a.From, to: a.To, exact: true})
		}
		o := &outputs{src: c.Src, whole: true}
		if !o.call(words, nil, false) {
			o.program()
		}
		return Output{Prints: o.prints, Whole: o.whole && len(words) > 0}
	}
	if c.File == nil {
		return Output{}
	}
	o := &outputs{src: c.Src, whole: true, workspace: c.workspace}
	o.stmts(c.File.Stmts, false)
	return Output{Prints: o.prints, Whole: o.whole}
}

type outputs struct {
	src       string
	prints    []Print
	whole     bool
	workspace known
	// unknown is set once a program may have printed on stdout: later
	// literal text is not the start of the output.
	unknown bool
}

// outWord is a literal word of a call.
type outWord struct {
	text     string
	from, to int
	// exact: text stands in the command byte for byte from from+skip.
	exact bool
	skip  int
}

func (o *outputs) stmts(stmts []*syntax.Stmt, cond bool) {
	for _, s := range stmts {
		o.stmt(s, cond)
	}
}

func (o *outputs) stmt(s *syntax.Stmt, cond bool) {
	if s.Background || s.Negated || s.Cmd == nil {
		o.whole = o.whole && s.Cmd == nil && !s.Background
		return
	}
	if stdoutElsewhere(s.Redirs) {
		// It prints nothing on stdout; what it runs may still decide the
		// exit status.
		if c, ok := s.Cmd.(*syntax.CallExpr); !ok || !isPrinter(c) {
			o.whole = false
		}
		return
	}
	switch x := s.Cmd.(type) {
	case *syntax.CallExpr:
		words, ok := o.words(x)
		if !ok {
			o.program()
			return
		}
		if !o.call(words, s.Redirs, cond) {
			o.program()
		}
	case *syntax.BinaryCmd:
		switch x.Op {
		case syntax.AndStmt:
			o.stmt(x.X, cond)
			o.stmt(x.Y, cond || o.unknown)
		case syntax.OrStmt:
			o.stmt(x.X, cond)
			o.whole = false
			o.stmt(x.Y, true)
		default: // a pipeline: the left prints into the right
			o.program()
		}
	case *syntax.Block:
		o.stmts(x.Stmts, cond)
	case *syntax.Subshell:
		o.stmts(x.Stmts, cond)
	case *syntax.IfClause:
		o.whole = false
		for c := x; c != nil; c = c.Else {
			o.stmts(c.Then, true)
		}
		o.unknown = true
	default:
		// Loops, case, functions, [[ ]]: what runs depends on the data.
		o.program()
	}
}

// program records a statement that runs a program, whose output is not
// known.
func (o *outputs) program() {
	o.whole = false
	o.unknown = true
}

func isPrinter(c *syntax.CallExpr) bool {
	if len(c.Args) == 0 {
		return false
	}
	switch c.Args[0].Lit() {
	case "echo", "printf", "cat", "true", ":":
		return true
	}
	return false
}

// stdoutElsewhere reports whether redirections send stdout away from the
// handler's stdout (>&2, >/dev/null, > file).
func stdoutElsewhere(rs []*syntax.Redirect) bool {
	for _, r := range rs {
		fd := "1"
		if r.N != nil {
			fd = r.N.Value
		}
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.DplOut:
			if fd == "1" && !(r.Op == syntax.DplOut && r.Word != nil && r.Word.Lit() == "1") {
				return true
			}
		case syntax.RdrAll, syntax.AppAll:
			return true
		}
	}
	return false
}

// words returns the call's words when every one is literal.
func (o *outputs) words(x *syntax.CallExpr) ([]outWord, bool) {
	if len(x.Assigns) > 0 || len(x.Args) == 0 {
		return nil, len(x.Args) == 0 && len(x.Assigns) > 0 // VAR=x alone prints nothing
	}
	out := make([]outWord, 0, len(x.Args))
	for _, a := range x.Args {
		text, ok := literal(a, o.workspace)
		if !ok {
			return nil, false
		}
		w := outWord{text: text, from: int(a.Pos().Offset()), to: int(a.End().Offset())}
		if len(a.Parts) == 1 {
			switch p := a.Parts[0].(type) {
			case *syntax.SglQuoted:
				w.exact, w.skip = !p.Dollar, 1
			case *syntax.Lit:
				w.exact = !strings.Contains(p.Value, `\`)
			case *syntax.DblQuoted:
				if len(p.Parts) == 1 {
					if l, ok := p.Parts[0].(*syntax.Lit); ok && !strings.Contains(l.Value, `\`) {
						w.exact, w.skip = true, 1
					}
				}
			}
		}
		out = append(out, w)
	}
	return out, true
}

// call reads a call of literal words; it returns false for a call that
// runs a program, or prints what cannot be known.
func (o *outputs) call(words []outWord, redirs []*syntax.Redirect, cond bool) bool {
	if len(words) == 0 {
		return true
	}
	p := Print{Program: words[0].text, Conditional: cond || o.unknown}
	args := words[1:]
	switch words[0].text {
	case "true", ":":
		return true
	case "exit", "return":
		if len(args) > 0 && args[0].text != "0" {
			o.whole = false
		}
		o.unknown = true // nothing after it runs
		return true
	case "echo":
		dash, bash := echoDash(args), echoBash(args)
		p.Text, p.Alt, p.Differs = dash, bash, dash != bash
		if len(args) > 0 {
			p.From, p.To = args[0].from, args[len(args)-1].to
			p.Exact = len(args) == 1 && args[0].exact && !p.Differs
			p.Base = p.From + args[0].skip
		}
	case "printf":
		if len(args) > 0 && args[0].text == "--" {
			args = args[1:]
		}
		if len(args) == 0 || strings.HasPrefix(args[0].text, "-") {
			return false
		}
		text, ok := printf(args[0].text, texts(args[1:]))
		if !ok {
			return false
		}
		p.Text = text
		p.From, p.To = args[0].from, args[len(args)-1].to
		p.Exact = len(args) == 1 && args[0].exact && text == args[0].text
		p.Base = p.From + args[0].skip
	case "cat":
		if len(args) > 0 && !(len(args) == 1 && args[0].text == "-") {
			return false
		}
		var body *syntax.Redirect
		for _, r := range redirs {
			if r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc || r.Op == syntax.WordHdoc {
				body = r
			}
		}
		if body == nil {
			return false
		}
		if !o.heredoc(body, &p) {
			return false
		}
	default:
		return false
	}
	// Exact only when the bytes are there as read (the parser drops a NUL,
	// for one).
	if p.Exact && (p.Base > len(o.src) || !strings.HasPrefix(o.src[p.Base:], strings.TrimSuffix(p.Text, "\n"))) {
		p.Exact = false
	}
	o.prints = append(o.prints, p)
	return true
}

// heredoc reads the text of a here-document or here-string.
func (o *outputs) heredoc(r *syntax.Redirect, p *Print) bool {
	text, from, to, exact, ok := hereText(r, o.workspace)
	if !ok {
		return false
	}
	if r.Op == syntax.WordHdoc {
		// The printed word, quotes included.
		from, to, exact = int(r.Word.Pos().Offset()), int(r.Word.End().Offset()), false
	}
	p.Text = text
	p.From, p.To, p.Base = from, to, from
	p.Exact = exact
	return true
}

func isLit(w *syntax.Word) bool {
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); !ok || strings.Contains(l.Value, `\`) {
			return false
		}
	}
	return true
}

// unescapeHeredoc resolves the backslashes that an unquoted
// here-document honours: before $, `, \ and a newline.
func unescapeHeredoc(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\\\n", s[i+1]) >= 0 {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// stripTabs drops the leading tabs of every line, as <<- does, and the
// tabs before the delimiter that the parser keeps.
func stripTabs(s string) string {
	lines := strings.SplitAfter(s, "\n")
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(strings.TrimLeft(l, "\t"))
	}
	return b.String()
}

func texts(ws []outWord) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.text
	}
	return out
}

// echoDash prints as dash's echo does (POSIX with the XSI extension):
// only a first -n is an option, and backslash escapes are always read.
func echoDash(args []outWord) string {
	newline := true
	if len(args) > 0 && args[0].text == "-n" {
		newline, args = false, args[1:]
	}
	return echoText(args, newline, true)
}

// echoBash prints as bash's echo does without xpg_echo: options -n, -e
// and -E in any mix, escapes only with -e.
func echoBash(args []outWord) string {
	newline, esc := true, false
	for len(args) > 0 {
		t := args[0].text
		if len(t) < 2 || t[0] != '-' || strings.Trim(t[1:], "neE") != "" {
			break
		}
		for _, c := range t[1:] {
			switch c {
			case 'n':
				newline = false
			case 'e':
				esc = true
			case 'E':
				esc = false
			}
		}
		args = args[1:]
	}
	return echoText(args, newline, esc)
}

// echoText joins echo's words with blanks, reading their escapes when
// esc is set (\c ends the output there), and ends with a newline.
func echoText(args []outWord, newline, esc bool) string {
	var b strings.Builder
	size := len(args) // the blanks and the newline
	for _, a := range args {
		size += len(a.text) // escapes only shorten a word
	}
	b.Grow(size)
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		if !esc {
			b.WriteString(a.text)
			continue
		}
		s, stop := escapes(a.text, true)
		b.WriteString(s)
		if stop {
			return b.String()
		}
	}
	if newline {
		b.WriteByte('\n')
	}
	return b.String()
}

// escapes reads the backslash escapes of echo (\c stops the output, \0NNN
// is octal) or, with echo false, of printf's format (\NNN is octal).
func escapes(s string, echo bool) (string, bool) {
	if !strings.Contains(s, `\`) {
		return s, false
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		if e, ok := controlEscape(s[i]); ok {
			b.WriteByte(e)
			continue
		}
		switch c := s[i]; c {
		case '\\':
			b.WriteByte('\\')
		case 'c':
			if echo {
				return b.String(), true
			}
			b.WriteString(`\c`)
		case '"', '\'':
			if echo {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		default:
			if c >= '0' && c <= '7' {
				start := i
				if echo {
					if c != '0' {
						b.WriteByte('\\')
						b.WriteByte(c)
						continue
					}
					start = i + 1
				}
				n, k := escDigits(s[start:], 3, false)
				b.WriteByte(byte(n))
				i = start + k - 1
				continue
			}
			b.WriteByte('\\')
			b.WriteByte(c)
		}
	}
	return b.String(), false
}

// printf formats as POSIX printf does, for the conversions %s, %b, %c,
// %d, %i and %%, without flags or widths; false for anything else, or for
// arguments the format never uses.
func printf(format string, args []string) (string, bool) {
	var b strings.Builder
	for first := true; first || len(args) > 0; first = false {
		used := false
		for i := 0; i < len(format); i++ {
			c := format[i]
			switch {
			case c == '\\':
				j := i + 1
				for j < len(format) && j < i+4 && format[j] >= '0' && format[j] <= '7' {
					j++
				}
				if j == i+1 {
					j = min(i+2, len(format))
				}
				s, _ := escapes(format[i:j], false)
				b.WriteString(s)
				i = j - 1
			case c != '%':
				b.WriteByte(c)
			case i+1 == len(format):
				return "", false
			default:
				i++
				if format[i] == '%' {
					b.WriteByte('%')
					continue
				}
				arg := ""
				if len(args) > 0 {
					arg, args = args[0], args[1:]
				}
				used = true
				switch format[i] {
				case 's':
					b.WriteString(arg)
				case 'b':
					s, stop := escapes(arg, true)
					b.WriteString(s)
					if stop {
						return b.String(), true
					}
				case 'c':
					if arg != "" {
						b.WriteByte(arg[0])
					}
				case 'd', 'i':
					if arg == "" {
						arg = "0"
					}
					n, err := strconv.ParseInt(arg, 10, 64)
					if err != nil {
						return "", false
					}
					b.WriteString(strconv.FormatInt(n, 10))
				default:
					return "", false
				}
			}
		}
		if !used {
			if len(args) > 0 {
				return "", false
			}
			break
		}
	}
	return b.String(), true
}

// controlEscape is the control character a backslash and c stand for in
// printf's format, echo -e and bash's $'...' alike (\a \b \f \n \r \t \v).
func controlEscape(c byte) (byte, bool) {
	switch c {
	case 'a':
		return '\a', true
	case 'b':
		return '\b', true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	case 'v':
		return '\v', true
	}
	return 0, false
}
