package trust

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Python's import statements are read from its code as Python's tokenizer
// splits it (The Python Language Reference, "Lexical analysis"): strings
// and comments set aside, a logical line running on while a bracket is
// open or a line ends with a backslash, and statements split at ; and at
// the : of a compound statement (if x: import helper). So "import a;
// import b", "try: import helper" and a parenthesized "from pkg import (\n
// a,\n b)" are read, and an "import x" line inside a docstring is not.

// pyCode returns Python source with its comments and the text of its
// strings blanked (newlines kept, so that offsets and lines stay), but
// for the {expressions} of f-strings, which are code; a byte order mark
// at its start is blanked too.
func pyCode(src []byte) []byte {
	out := bytes.Clone(src)
	blank := func(from, to int) {
		for k := from; k < to && k < len(out); k++ {
			if out[k] != '\n' {
				out[k] = ' '
			}
		}
	}
	if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		blank(0, 3) // a UTF-8 byte order mark, which Python skips
	}
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '#':
			end := bytes.IndexByte(src[i:], '\n')
			if end < 0 {
				end = len(src) - i
			}
			blank(i, i+end)
			i += end - 1
		case '"', '\'':
			fstring := false
			for k := i - 1; k >= 0 && k >= i-3 && isLetter(src[k]); k-- {
				fstring = fstring || src[k] == 'f' || src[k] == 'F'
			}
			q := []byte{c}
			if bytes.HasPrefix(src[i:], []byte{c, c, c}) {
				q = []byte{c, c, c}
			}
			j := i + len(q)
			for j < len(src) {
				if src[j] == '\\' {
					j += 2
					continue
				}
				if bytes.HasPrefix(src[j:], q) {
					j += len(q)
					break
				}
				if len(q) == 1 && src[j] == '\n' {
					break // not closed on its line: a syntax error
				}
				j++
			}
			if !fstring {
				blank(i+len(q), j-len(q))
			} else {
				// the text around its {expressions} ({{ and }} are text)
				depth := 0
				for k := i + len(q); k < j-len(q); k++ {
					switch {
					case depth == 0 && k+1 < j && (src[k] == '{' && src[k+1] == '{' || src[k] == '}' && src[k+1] == '}'):
						blank(k, k+2)
						k++
					case src[k] == '{':
						depth++
					case src[k] == '}' && depth > 0:
						depth--
					case depth == 0:
						blank(k, k+1)
					}
				}
			}
			i = j - 1
		}
	}
	return out
}

// pyStmt is one simple statement of a Python file and where it starts.
type pyStmt struct {
	off  int
	text string
}

// pyStatements splits code (pyCode's) into simple statements.
func pyStatements(code []byte) []pyStmt {
	var out []pyStmt
	depth, start := 0, 0
	var cur strings.Builder
	flush := func(end int) {
		if s := strings.TrimSpace(cur.String()); s != "" {
			out = append(out, pyStmt{start, s})
		}
		cur.Reset()
		start = end + 1
	}
	for i := 0; i < len(code); i++ {
		c := code[i]
		switch {
		case c == '(' || c == '[' || c == '{':
			depth++
		case (c == ')' || c == ']' || c == '}') && depth > 0:
			depth--
		case c == '\\' && i+1 < len(code) && code[i+1] == '\n':
			cur.WriteByte(' ')
			i++
			continue
		case c == '\n' && depth > 0:
			cur.WriteByte(' ')
			continue
		case c == '\n' || depth == 0 && (c == ';' || c == ':'):
			flush(i)
			continue
		}
		cur.WriteByte(c)
	}
	flush(len(code))
	return out
}

// pyImport is what one import statement loads: dots is the number of
// leading dots of a relative import; mod is the module (dotted, "" for
// "from . import x"); names are what "from mod import" names, each a name
// in mod or a submodule of it.
type pyImport struct {
	off   int
	dots  int
	mod   string
	names []string
	from  bool
}

// pyImports returns the import statements of a Python file.
func pyImports(src []byte) []pyImport {
	var out []pyImport
	for _, s := range pyStatements(pyCode(src)) {
		words := strings.Fields(s.text)
		if len(words) < 2 {
			continue
		}
		switch words[0] {
		case "import":
			for _, part := range strings.Split(strings.TrimPrefix(s.text, "import"), ",") {
				if fs := strings.Fields(part); len(fs) > 0 {
					out = append(out, pyImport{off: s.off, mod: fs[0]})
				}
			}
		case "from":
			rest := strings.TrimSpace(strings.TrimPrefix(s.text, "from"))
			k := strings.Index(rest, " import")
			if k < 0 {
				continue
			}
			mod, names := strings.TrimSpace(rest[:k]), rest[k+len(" import"):]
			imp := pyImport{off: s.off, from: true}
			for strings.HasPrefix(mod, ".") {
				imp.dots++
				mod = strings.TrimSpace(mod[1:])
			}
			imp.mod = mod
			names = strings.NewReplacer("(", " ", ")", " ").Replace(names)
			for _, part := range strings.Split(names, ",") {
				if fs := strings.Fields(part); len(fs) > 0 {
					imp.names = append(imp.names, fs[0])
				}
			}
			out = append(out, imp)
		}
	}
	return out
}

// pyUnnormalized returns the offset of the first character of Python's
// code (pyCode's) that Python reads as another, -1 for none: Python
// takes a name in its NFKC form ("ｏs" is os, "ｅvil" is evil), which the
// readers, which match names as written, would miss.
func pyUnnormalized(code []byte) int {
	for i, r := range string(code) {
		if r >= utf8.RuneSelf && norm.NFKC.String(string(r)) != string(r) {
			return i
		}
	}
	return -1
}
