package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Kind is the kind of a JSON value.
type Kind uint8

// The kinds of JSON values.
const (
	Null Kind = iota
	Bool
	Number
	String
	Object
	Array
)

func (k Kind) String() string {
	switch k {
	case Null:
		return "null"
	case Bool:
		return "boolean"
	case Number:
		return "number"
	case String:
		return "string"
	case Object:
		return "object"
	case Array:
		return "array"
	}
	return "value"
}

// Node is a JSON value together with the span of the file it covers.
type Node struct {
	Kind Kind
	// Bool is the value of a boolean. It sits by Kind, in the same word.
	Bool bool
	Span Span
	// Str is the decoded value of a string, and the literal text of a number.
	Str string
	// Members are an object's members in file order, duplicates included.
	Members []Member
	// Elems are an array's elements in order.
	Elems []*Node
}

// Member is one key of an object and its value.
type Member struct {
	Key     string
	KeySpan Span
	Value   *Node
}

// Get returns the member for key, the last one when the key is repeated (as
// JSON decoders do), or nil.
func (n *Node) Get(key string) *Member {
	if n == nil || n.Kind != Object {
		return nil
	}
	for i := len(n.Members) - 1; i >= 0; i-- {
		if n.Members[i].Key == key {
			return &n.Members[i]
		}
	}
	return nil
}

// Interface returns the value as encoding/json would decode it into an
// interface, except that numbers stay json.Number, keeping their text.
// Where a key is repeated, the last occurrence counts.
func (n *Node) Interface() any {
	switch n.Kind {
	case Bool:
		return n.Bool
	case Number:
		return json.Number(n.Str)
	case String:
		return n.Str
	case Object:
		m := make(map[string]any, len(n.Members))
		for _, mem := range n.Members {
			m[mem.Key] = mem.Value.Interface()
		}
		return m
	case Array:
		a := make([]any, len(n.Elems))
		for i, e := range n.Elems {
			a[i] = e.Interface()
		}
		return a
	}
	return nil
}

// Describe names the value for a message: "the string \"x\"", "an array".
func (n *Node) Describe() string {
	switch n.Kind {
	case Null:
		return "null"
	case Bool:
		return strconv.FormatBool(n.Bool)
	case Number:
		return "the number " + n.Str
	case String:
		return "the string " + strconv.Quote(Shorten(n.Str, 40))
	case Object:
		return "an object"
	case Array:
		return "an array"
	}
	return "a value"
}

// Shorten returns s when it has at most most characters, else its first
// most-3 and "...", decoding no further: s may be megabytes. s is UTF-8, as
// the strings of a parsed file are.
func Shorten(s string, most int) string {
	n, cut := 0, 0
	for i := range s {
		if n == most-3 {
			cut = i
		}
		if n == most {
			return s[:cut] + "..."
		}
		n++
	}
	return s
}

// SyntaxError is a place where a file stops being valid JSON.
type SyntaxError struct {
	Pos Pos
	// Msg says what is wrong and, where it can, what to write instead.
	Msg string
	// Bound is set when the reading stopped at hookctl's bound on values
	// (MaxValues), not at a fault of the JSON: the agent, which has no
	// such bound, reads on, so the file is not known to be one it drops.
	Bound bool
	// Remove is set (not empty) for text that JSON forbids and that
	// means nothing to the readers that allow it: a comment, a trailing
	// comma, a byte order mark. Deleting its bytes corrects the mistake
	// and changes no value.
	Remove Span
}

func (e *SyntaxError) Error() string { return e.Pos.String() + ": " + e.Msg }

// Duplicate is a key repeated in one object.
type Duplicate struct {
	Key string
	// First is the span of the key's first occurrence, Again of the repeat.
	First Span
	Again Span
}

// smallObject is the number of members from which an object's repeated
// keys are looked up in a map rather than by a scan.
const smallObject = 16

// MaxDepth is how deeply arrays and objects may nest: the limit of the
// agent's decoder (Go's encoding/json), which fails on a deeper value with
// "exceeded max depth" and loads none of the file. A hooks.json needs five
// levels; the limit also keeps hostile input from exhausting memory.
const MaxDepth = 10000

// ParseJSON parses src as one JSON value. It returns the value's tree, every
// key repeated within an object, and the first syntax error, if any (then
// the tree is nil). It accepts RFC 8259 JSON, no comments, trailing commas
// or byte order mark, as the agent's decoder (Go's encoding/json) does; like
// that decoder, it reads a byte of invalid UTF-8 in a string as U+FFFD (see
// AgentReplaced).
func ParseJSON(src []byte) (*Node, []Duplicate, *SyntaxError) {
	return first(parseJSON(src, 0, false))
}

// first returns a strict reading's result with its one error.
func first(root *Node, dups []Duplicate, errs []*SyntaxError) (*Node, []Duplicate, *SyntaxError) {
	if len(errs) > 0 {
		return nil, nil, errs[0]
	}
	return root, dups, nil
}

// ParseJSONBounded is ParseJSON refusing more than MaxValues values and
// keys, as Parse does: the error at the first one past the bound has Bound
// set. It is for text a hooks.json holds or a reading of one makes, whose
// tree would cost many times its size.
func ParseJSONBounded(src []byte) (*Node, []Duplicate, *SyntaxError) {
	return first(parseJSON(src, MaxValues, false))
}

// ParseJSONWithin is ParseJSON refusing more than max values and keys, for
// a file hookctl reads whole that a workspace controls and that is not a
// hooks.json: a test file, another agent's settings (MaxOtherValues).
func ParseJSONWithin(src []byte, max int) (*Node, []Duplicate, *SyntaxError) {
	return first(parseJSON(src, max, false))
}

// MaxOtherValues bounds the other JSON files a workspace hands hookctl to
// read whole: hooks.test.json, another agent's settings for import. They
// hold more than a hooks.json (a case's payload and expectation are some
// 40 values, so the bound is some 6,000 cases), and their trees, at about
// 120 bytes a value, stay within some 30 MB where 16 MiB of [1,1,...]
// would take a gigabyte.
const MaxOtherValues = 1 << 18

// MaxValues is how many JSON values (objects, arrays, strings, numbers,
// literals) and keys a hooks.json may hold: a hook of one handler holds
// about 16, so the bound is about 1,000 hooks, where the largest files
// people commit hold a few hundred values. A file may spend two bytes on a
// value, while reading one costs hundreds of bytes (its tree) and linting a
// handler kilobytes (its shell parse, the files it names): the bound keeps
// what a hostile file of MaxFileSize (16 MiB of [1,1,...] is 8 million
// values) costs within four times its size and 30 MB.
const MaxValues = 1 << 14

// MaxSyntaxErrors is how many syntax mistakes a recovering reading
// (ParseRecovering) reads past: the next one stops it. A file with a
// comment on every line has a few hundred; a hostile file of 16 MiB of
// comments costs no more than this many errors.
const MaxSyntaxErrors = 1000

// parseJSON is ParseJSON refusing more than maxValues values, 0 for no
// bound. A strict reading stops at the first syntax error, which it
// returns alone, and then no tree. A recovering one reads on past the
// mistakes that leave no doubt about what was meant (see recover) and
// returns every mistake in file order, and a tree when none of them
// stopped it.
func parseJSON(src []byte, maxValues int, recovering bool) (*Node, []Duplicate, []*SyntaxError) {
	if maxValues > 0 && len(src) > maxValues && mayHold(src, maxValues) {
		// A first reading that builds no tree finds a file of too many
		// values without the tree's memory, many times the file's size.
		// It checks all the second one checks, so when it stops at the
		// bound, so would the second, at the same place.
		dry := &jsonParser{src: src, line: 1, col: 1, maxValues: maxValues, dry: true, recovering: recovering}
		if _, err := dry.parse(); err != nil && dry.values > maxValues {
			return nil, nil, append(dry.mistakes, err)
		}
	}
	p := &jsonParser{src: src, line: 1, col: 1, maxValues: maxValues, recovering: recovering}
	root, err := p.parse()
	if err != nil {
		return nil, nil, append(p.mistakes, err)
	}
	if len(p.mistakes) > 0 && !recovering {
		return nil, nil, p.mistakes[:1]
	}
	return root, p.dups, p.mistakes
}

// MayHold reports whether src may hold more than n values and keys, from a
// count of bytes: false means it surely holds no more.
func MayHold(src []byte, n int) bool { return mayHold(src, n) }

// mayHold reports whether src may hold more than n values and keys. Every
// one but the first follows a '[', '{', ',' or ':' of its own, so there
// are at most one more than those bytes (wherever they are, strings
// included): a hooks.json of 100 hooks has about a tenth of the bound.
func mayHold(src []byte, n int) bool {
	c := 1
	for _, b := range []string{"[", "{", ",", ":"} {
		c += bytes.Count(src, []byte(b))
	}
	return c > n
}

type jsonParser struct {
	src       []byte
	off       int
	line, col int
	depth     int
	dups      []Duplicate
	// values counts the values read, up to maxValues when it is set.
	values, maxValues int
	// dry reads without building the tree or noting repeated keys: nodes
	// are one scratch node, and strings and numbers are not copied.
	dry     bool
	scratch Node
	// recovering reads on past the mistakes recover allows, noting them
	// in mistakes.
	recovering bool
	mistakes   []*SyntaxError

	// nodes is the free part of the chunk new nodes are taken from: one
	// allocation for many small values.
	nodes []Node
	// members and elems hold the children of the objects and arrays being
	// read, innermost last; each container copies its own out once it is
	// closed, so that its slice has exactly its length and the growth of
	// every container's slice costs no garbage.
	members []Member
	elems   []*Node
}

// nodeChunk is the most nodes the parser allocates at once.
const nodeChunk = 256

// node returns a new node of the kind.
func (p *jsonParser) node(kind Kind) *Node {
	if p.dry {
		p.scratch = Node{Kind: kind}
		return &p.scratch
	}
	if len(p.nodes) == 0 {
		// A small text (an answer, a payload) gets a chunk of its size.
		p.nodes = make([]Node, min(nodeChunk, (len(p.src)-p.off)/8+1))
	}
	n := &p.nodes[0]
	p.nodes = p.nodes[1:]
	n.Kind = kind
	return n
}

type open struct {
	pos  Pos
	kind Kind
}

func (p *jsonParser) pos() Pos { return Pos{Offset: p.off, Line: p.line, Col: p.col} }

func (p *jsonParser) errorf(at Pos, format string, args ...any) *SyntaxError {
	return &SyntaxError{Pos: at, Msg: fmt.Sprintf(format, args...)}
}

// advance moves past one character: a byte of ASCII or of invalid UTF-8, or
// a whole multi-byte rune.
func (p *jsonParser) advance() {
	c := p.src[p.off]
	switch {
	case c == '\n':
		p.off++
		p.line++
		p.col = 1
	case c == '\r':
		p.off++
		if p.off < len(p.src) && p.src[p.off] == '\n' {
			p.off++
		}
		p.line++
		p.col = 1
	case c < utf8.RuneSelf:
		p.off++
		p.col++
	default:
		_, size := utf8.DecodeRune(p.src[p.off:])
		p.off += size
		p.col++
	}
}

func (p *jsonParser) skipSpace() {
	for p.off < len(p.src) {
		switch p.src[p.off] {
		case ' ', '\t', '\n', '\r':
			p.advance()
		case '/', '#':
			if !p.recovering || !p.skipComment() {
				return
			}
		default:
			return
		}
	}
}

// readPast notes a mistake that a recovering reading goes on past, and
// reports whether it does: a strict reading stops at its first mistake,
// a recovering one at the one past MaxSyntaxErrors.
//
// A recovering reading goes past the mistakes that leave no doubt about
// what was meant, reading the value the author wrote: a comment (//, /* */
// or #), a trailing comma, a missing comma between two members or
// elements, single quotes, a key without quotes, True, False, None and
// other literals in another language's spelling, an invalid escape (kept
// as written, a backslash and the character: "C:\Users"), a control
// character in a string, a byte order mark. Every other mistake stops it.
func (p *jsonParser) readPast(e *SyntaxError) bool {
	if !p.recovering || len(p.mistakes) >= MaxSyntaxErrors {
		return false
	}
	p.mistakes = append(p.mistakes, e)
	return true
}

// skipComment reads past the comment at the offset, noting it, and
// reports whether it did: not when no comment starts there, when a block
// comment is never closed, or when the reading goes no further.
func (p *jsonParser) skipComment() bool {
	rest := p.src[p.off:]
	var size int
	switch {
	case rest[0] == '#' || len(rest) >= 2 && rest[0] == '/' && rest[1] == '/':
		size = bytes.IndexAny(rest, "\r\n")
		if size < 0 {
			size = len(rest)
		}
	case len(rest) >= 2 && rest[0] == '/' && rest[1] == '*':
		i := bytes.Index(rest[2:], []byte("*/"))
		if i < 0 {
			return false
		}
		size = i + 4
	default:
		return false
	}
	e := p.commentError()
	if !p.readPast(e) {
		return false
	}
	for end := p.off + size; p.off < end; {
		p.advance()
	}
	e.Remove = Span{e.Pos, p.pos()}
	return true
}

func (p *jsonParser) parse() (*Node, *SyntaxError) {
	if len(p.src) >= 3 && p.src[0] == 0xEF && p.src[1] == 0xBB && p.src[2] == 0xBF {
		e := p.errorf(p.pos(), "the file starts with a byte order mark (BOM), which JSON forbids: save it as UTF-8 without BOM")
		if !p.readPast(e) {
			return nil, e
		}
		p.advance()
		e.Remove = Span{e.Pos, p.pos()}
	}
	p.skipSpace()
	if p.off == len(p.src) {
		switch {
		case len(p.src) == 0:
			return nil, p.errorf(p.pos(), "the file is empty: write {} for a file without hooks")
		case len(p.mistakes) > 0:
			return nil, p.errorf(p.pos(), "the file holds no JSON value: write {} for a file without hooks")
		}
		return nil, p.errorf(p.pos(), "the file holds only white space: write {} for a file without hooks")
	}
	v, err := p.value(nil)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.off < len(p.src) {
		if err := p.commentError(); err != nil {
			return nil, err
		}
		return nil, p.errorf(p.pos(), "unexpected %s after the end of the top-level value: a JSON file holds one value", p.describeHere())
	}
	return v, nil
}

// describeHere names the character at the current offset for a message.
func (p *jsonParser) describeHere() string {
	if p.off >= len(p.src) {
		return "end of file"
	}
	r, size := utf8.DecodeRune(p.src[p.off:])
	if r == utf8.RuneError && size <= 1 {
		return fmt.Sprintf("byte 0x%02x (not UTF-8)", p.src[p.off])
	}
	if r < ' ' || r == 0x7f {
		return fmt.Sprintf("control character U+%04X", r)
	}
	return strconv.QuoteRune(r)
}

// commentError reports a comment at the current offset, if one starts there.
func (p *jsonParser) commentError() *SyntaxError {
	rest := p.src[p.off:]
	if len(rest) >= 2 && rest[0] == '/' && rest[1] == '*' && !bytes.Contains(rest[2:], []byte("*/")) {
		return p.errorf(p.pos(), "comments are not allowed in JSON, and this one is never closed (no */ follows, so the rest of the file is comment): remove it")
	}
	if len(rest) >= 2 && rest[0] == '/' && (rest[1] == '/' || rest[1] == '*') {
		return p.errorf(p.pos(), "comments are not allowed in JSON: remove it (a hook's purpose can go in its name)")
	}
	if len(rest) >= 1 && rest[0] == '#' {
		return p.errorf(p.pos(), "comments are not allowed in JSON: remove the line starting with #")
	}
	return nil
}

// count counts one more value or key, at, and refuses one past maxValues.
func (p *jsonParser) count(at Pos) *SyntaxError {
	if p.values++; p.maxValues > 0 && p.values > p.maxValues {
		var e *SyntaxError
		if p.maxValues == MaxValues {
			e = p.errorf(at, "the file holds more than %d JSON values and keys, more than any hooks.json needs (1,000 hooks hold about 16,000): hookctl reads no further, so it neither checks nor runs these hooks (the agent has no such bound)", p.maxValues)
		} else {
			e = p.errorf(at, "the file holds more than %d JSON values and keys, more than hookctl reads of such a file, so it is not read further", p.maxValues)
		}
		e.Bound = true
		return e
	}
	return nil
}

func (p *jsonParser) value(parent *open) (*Node, *SyntaxError) {
	if p.off >= len(p.src) {
		return nil, p.eofError(parent)
	}
	start := p.pos()
	if err := p.count(start); err != nil {
		return nil, err
	}
	switch c := p.src[p.off]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"' || c == '\'':
		if c == '\'' {
			if e := p.errorf(start, "strings must be in double quotes, not single quotes"); !p.readPast(e) {
				return nil, e
			}
		}
		s, err := p.str(c)
		if err != nil {
			return nil, err
		}
		n := p.node(String)
		n.Str, n.Span = s, Span{start, p.pos()}
		return n, nil
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case c == '/' || c == '#':
		if err := p.commentError(); err != nil {
			return nil, err
		}
		if parent == nil && looksLikePath(p.src[p.off:]) {
			return nil, p.errorf(start, "the file holds a path (%s), not JSON: a symbolic link committed as a plain file reads this way; commit the hooks.json itself", strings.TrimSpace(string(p.src[p.off:])))
		}
		return nil, p.errorf(start, "unexpected %s where a value should start", p.describeHere())
	case c == ',' && parent != nil:
		return nil, p.errorf(start, "a value is missing before this comma")
	case (c == '}' || c == ']') && parent != nil:
		return nil, p.errorf(start, "a value is missing before %q", c)
	case parent == nil && looksLikeRelativePath(p.src[p.off:]):
		return nil, p.errorf(start, "the file holds a path (%s), not JSON: a symbolic link committed as a plain file reads this way (a checkout without symbolic links, git's core.symlinks false, writes the link's target as text); commit the hooks.json itself, or check it out again with symbolic links", strings.TrimSpace(string(p.src[p.off:])))
	case isIdentByte(c):
		return p.literal()
	default:
		return nil, p.errorf(start, "unexpected %s where a value should start", p.describeHere())
	}
}

// looksLikePath reports whether the rest of the file is a single line that
// names an absolute path.
func looksLikePath(rest []byte) bool {
	if len(bytes.TrimSpace(rest)) >= 4096 {
		return false
	}
	line := strings.TrimSpace(string(rest))
	return len(line) < 4096 && utf8.ValidString(line) && !strings.ContainsAny(line, "\n{}[]\"") && strings.Count(line, "/") >= 2
}

// looksLikeRelativePath reports whether the rest of the file is a single
// line that names a relative path to a JSON file or through a folder
// ("../shared/hooks.json", "hooks.shared.json"): what a checkout without
// symbolic links writes in place of a link.
func looksLikeRelativePath(rest []byte) bool {
	if len(bytes.TrimSpace(rest)) >= 4096 {
		return false
	}
	line := strings.TrimSpace(string(rest))
	if len(line) == 0 || len(line) >= 4096 || !strings.Contains(line, "/") && !strings.HasSuffix(line, ".json") {
		return false
	}
	for _, part := range strings.Split(line, "/") {
		if part == "" {
			return false
		}
		for i := 0; i < len(part); i++ {
			c := part[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
				return false
			}
		}
	}
	return true
}

func isIdentByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '+' || c == '.'
}

// maxWord is the most of a word outside quotes that a message quotes.
const maxWord = 64

func (p *jsonParser) literal() (*Node, *SyntaxError) {
	start := p.pos()
	end := p.off
	for end < len(p.src) && (isIdentByte(p.src[end]) || p.src[end] >= '0' && p.src[end] <= '9') {
		end++
	}
	// A word (ASCII) of megabytes is named by its start.
	word := string(p.src[p.off:min(end, p.off+maxWord)])
	if end-p.off > maxWord {
		word = word[:maxWord-3] + "..."
	}
	n := p.node(Null)
	n.Span.Start = start
	switch word {
	case "true":
		n.Kind, n.Bool = Bool, true
	case "false":
		n.Kind = Bool
	case "null":
		n.Kind = Null
	default:
		// Another language's spelling of a literal is read as the
		// literal meant.
		var e *SyntaxError
		switch meant := strings.ToLower(word); meant {
		case "true", "false", "null":
			e = p.errorf(start, "%s is not a JSON value: write %s in lower case", word, meant)
			n.Kind, n.Bool = Bool, meant == "true"
			if meant == "null" {
				n.Kind = Null
			}
		case "none", "nil", "undefined":
			e = p.errorf(start, "%s is not a JSON value: write null", word)
		case "nan", "infinity", "+infinity":
			return nil, p.errorf(start, "%s is not a JSON number", word)
		default:
			if word != "" && (word[0] == '+' || word[0] == '.') {
				return nil, p.errorf(start, "%s is not a JSON number: write digits with an optional leading minus, such as 10", word)
			}
			return nil, p.errorf(start, "unexpected word %q where a value should start: a string needs double quotes", word)
		}
		if !p.readPast(e) {
			return nil, e
		}
	}
	for p.off < end {
		p.advance()
	}
	n.Span.End = p.pos()
	return n, nil
}

func (p *jsonParser) number() (*Node, *SyntaxError) {
	start := p.pos()
	i := p.off
	src := p.src
	digits := func() int {
		n := 0
		for i < len(src) && src[i] >= '0' && src[i] <= '9' {
			i++
			n++
		}
		return n
	}
	bad := func(why string) *SyntaxError {
		j := i
		for j < len(src) && (src[j] == '.' || src[j] == '-' || src[j] == '+' || src[j] == 'e' || src[j] == 'E' || src[j] >= '0' && src[j] <= '9' || src[j] >= 'a' && src[j] <= 'z' || src[j] >= 'A' && src[j] <= 'Z') {
			j++
		}
		return p.errorf(start, "%q is not a valid JSON number: %s", string(src[p.off:j]), why)
	}
	if i < len(src) && src[i] == '-' {
		i++
	}
	intStart := i
	if n := digits(); n == 0 {
		return nil, bad("a digit must follow the minus sign")
	} else if n > 1 && src[intStart] == '0' {
		return nil, bad("leading zeros are not allowed")
	}
	if i < len(src) && src[i] == '.' {
		i++
		if digits() == 0 {
			return nil, bad("a digit must follow the decimal point")
		}
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		i++
		if i < len(src) && (src[i] == '+' || src[i] == '-') {
			i++
		}
		if digits() == 0 {
			return nil, bad("a digit must follow the exponent")
		}
	}
	if i < len(src) && (isIdentByte(src[i])) {
		return nil, bad("a number cannot be followed by letters")
	}
	var text string
	if !p.dry {
		text = string(src[p.off:i])
	}
	p.col += i - p.off
	p.off = i
	n := p.node(Number)
	n.Str, n.Span = text, Span{start, p.pos()}
	return n, nil
}

// str parses a string at the current offset, which its quote q opens (a
// single quote only in a recovering reading), and returns its decoded
// value.
func (p *jsonParser) str(q byte) (string, *SyntaxError) {
	open := p.pos()
	p.advance() // the opening quote
	var b strings.Builder
	plainFrom := p.off
	for {
		if p.off >= len(p.src) {
			return "", p.errorf(open, "the string that starts here is never closed: add the closing %c", q)
		}
		c := p.src[p.off]
		switch {
		case c == q:
			if p.dry {
				p.advance()
				return "", nil
			}
			s := b.String() + string(p.src[plainFrom:p.off])
			p.advance()
			return s, nil
		case c == '\\':
			if p.dry {
				b.Reset()
			}
			b.Write(p.src[plainFrom:p.off])
			if err := p.escape(&b, q); err != nil {
				return "", err
			}
			plainFrom = p.off
		case c == '\n' || c == '\r':
			return "", p.errorf(p.pos(), "a string cannot span lines: close it with %c before the line ends, or write \\n for a line break (the string starts at %s)", q, open)
		case c < ' ':
			if e := p.errorf(p.pos(), "control character U+%04X in a string: write it as \\u%04x", c, c); !p.readPast(e) {
				return "", e
			}
			p.off++ // read as written
			p.col++
		case c < utf8.RuneSelf:
			p.off++
			p.col++
		default:
			r, size := utf8.DecodeRune(p.src[p.off:])
			if r == utf8.RuneError && size == 1 {
				// encoding/json reads the byte as U+FFFD, and so does the agent.
				if p.dry {
					b.Reset()
				}
				b.Write(p.src[plainFrom:p.off])
				b.WriteRune(utf8.RuneError)
				p.off++
				p.col++
				plainFrom = p.off
				continue
			}
			p.off += size
			p.col++
		}
	}
}

// escape reads the escape sequence at the offset into b, in a string that
// q opens. An invalid one that a recovering reading goes past stays as
// written: the backslash now, the character it escapes with the text
// after it.
func (p *jsonParser) escape(b *strings.Builder, q byte) *SyntaxError {
	at := p.pos()
	p.advance() // the backslash
	if p.off >= len(p.src) {
		return p.errorf(at, "the file ends inside an escape sequence")
	}
	c := p.src[p.off]
	switch {
	case c == '"' || c == '\\' || c == '/' || c == q:
		b.WriteByte(c)
	case c == 'b':
		b.WriteByte('\b')
	case c == 'f':
		b.WriteByte('\f')
	case c == 'n':
		b.WriteByte('\n')
	case c == 'r':
		b.WriteByte('\r')
	case c == 't':
		b.WriteByte('\t')
	case c == 'u':
		r, ok := p.hex4(p.off + 1)
		if !ok {
			return p.errorf(at, "\\u must be followed by four hexadecimal digits")
		}
		for range 5 {
			p.advance()
		}
		if utf8.ValidRune(r) {
			b.WriteRune(r)
			return nil
		}
		// A surrogate: combine it with a following low surrogate, as JSON
		// decoders do, else keep the replacement character.
		if r >= 0xD800 && r < 0xDC00 && p.off+6 <= len(p.src) && p.src[p.off] == '\\' && p.src[p.off+1] == 'u' {
			if lo, ok := p.hex4(p.off + 2); ok && lo >= 0xDC00 && lo < 0xE000 {
				b.WriteRune((r-0xD800)<<10 + (lo - 0xDC00) + 0x10000)
				for range 6 {
					p.advance()
				}
				return nil
			}
		}
		b.WriteRune(utf8.RuneError)
		return nil
	case c == '\n' || c == '\r':
		return p.errorf(at, "a backslash cannot continue a string on the next line: write \\n for a line break")
	default:
		e := p.errorf(at, "invalid escape \\%s in a string: valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX (write \\\\ for a backslash, as in Windows paths)", p.describeRaw())
		if !p.readPast(e) {
			return e
		}
		b.WriteByte('\\')
		return nil
	}
	p.advance()
	return nil
}

// describeRaw returns the character at the offset as written, for messages
// that quote the input.
func (p *jsonParser) describeRaw() string {
	r, size := utf8.DecodeRune(p.src[p.off:])
	if r == utf8.RuneError && size <= 1 {
		return fmt.Sprintf("\\x%02x", p.src[p.off])
	}
	return string(r)
}

func (p *jsonParser) hex4(at int) (rune, bool) {
	if at+4 > len(p.src) {
		return 0, false
	}
	var r rune
	for _, c := range p.src[at : at+4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	return r, true
}

func (p *jsonParser) enter(kind Kind) (open, *SyntaxError) {
	o := open{pos: p.pos(), kind: kind}
	p.depth++
	if p.depth > MaxDepth {
		return o, p.errorf(o.pos, "arrays and objects nest more than %d levels deep here, the most the agent's decoder reads (Go's encoding/json stops with \"exceeded max depth\"): a hooks.json needs five levels; remove the nesting", MaxDepth)
	}
	p.advance() // the bracket
	return o, nil
}

func (p *jsonParser) eofError(o *open) *SyntaxError {
	if o == nil {
		return p.errorf(p.pos(), "the file ends where a value should start")
	}
	closer := "}"
	if o.kind == Array {
		closer = "]"
	}
	return p.errorf(p.pos(), "the file ends before the %s opened at %s is closed: is it truncated? add the missing %s", o.kind, o.pos, closer)
}

func (p *jsonParser) object() (*Node, *SyntaxError) {
	o, err := p.enter(Object)
	if err != nil {
		return nil, err
	}
	n := p.node(Object)
	base := len(p.members)
	defer func() { p.members = p.members[:base] }()
	var seen map[string]int
	p.skipSpace()
	if p.off < len(p.src) && p.src[p.off] == '}' {
		return p.close(n, o), nil
	}
	for {
		p.skipSpace()
		if p.off >= len(p.src) {
			return nil, p.eofError(&o)
		}
		if err := p.commentError(); err != nil {
			return nil, err
		}
		keyStart := p.pos()
		if err := p.count(keyStart); err != nil {
			return nil, err
		}
		var key string
		switch c := p.src[p.off]; {
		case c == '"':
			key, err = p.str('"')
		case c == '\'':
			if e := p.errorf(keyStart, "object keys must be in double quotes, not single quotes"); !p.readPast(e) {
				return nil, e
			}
			key, err = p.str('\'')
		case c == '}':
			return nil, p.errorf(keyStart, "a key is missing before '}'")
		case isKeyStart(c):
			if e := p.errorf(keyStart, "object keys must be strings in double quotes: write %q", p.word()); !p.readPast(e) {
				return nil, e
			}
			key = p.bareKey()
		case isIdentByte(c):
			return nil, p.errorf(keyStart, "object keys must be strings in double quotes: write %q", p.word())
		default:
			return nil, p.errorf(keyStart, "unexpected %s where an object key should start: keys are strings in double quotes", p.describeHere())
		}
		if err != nil {
			return nil, err
		}
		keySpan := Span{keyStart, p.pos()}
		p.skipSpace()
		if p.off >= len(p.src) {
			return nil, p.eofError(&o)
		}
		if p.src[p.off] != ':' {
			if err := p.commentError(); err != nil {
				return nil, err
			}
			return nil, p.errorf(p.pos(), "expected ':' after the key %q, found %s", Shorten(key, maxWord), p.describeHere())
		}
		p.advance()
		p.skipSpace()
		v, err := p.value(&o)
		if err != nil {
			return nil, err
		}
		if !p.dry {
			seen = p.member(base, seen, key, keySpan, v)
		}
		p.skipSpace()
		if p.off >= len(p.src) {
			return nil, p.eofError(&o)
		}
		switch c := p.src[p.off]; {
		case c == ',':
			comma := p.pos()
			p.advance()
			p.skipSpace()
			if p.off < len(p.src) && p.src[p.off] == '}' {
				if e := p.trailingComma(comma, '}'); !p.readPast(e) {
					return nil, e
				}
				return p.closeObject(n, o, base), nil
			}
		case c == '}':
			return p.closeObject(n, o, base), nil
		default:
			if err := p.commentError(); err != nil {
				return nil, err
			}
			if c == '"' || c == '\'' || isKeyStart(c) {
				if e := p.errorf(p.pos(), "missing ',' before this key: members of an object are separated by commas"); !p.readPast(e) {
					return nil, e
				}
				continue
			}
			return nil, p.errorf(p.pos(), "expected ',' or '}' after the value of %q, found %s", Shorten(key, maxWord), p.describeHere())
		}
	}
}

// closeObject ends the object n at its closing brace.
func (p *jsonParser) closeObject(n *Node, o open, base int) *Node {
	n.Members = slices.Clone(p.members[base:])
	return p.close(n, o)
}

// close ends the object or array n that o opened, at its closing
// bracket.
func (p *jsonParser) close(n *Node, o open) *Node {
	p.advance()
	p.depth--
	n.Span = Span{o.pos, p.pos()}
	return n
}

// trailingComma is the mistake of the comma at comma, which closer
// follows.
func (p *jsonParser) trailingComma(comma Pos, closer byte) *SyntaxError {
	e := p.errorf(comma, "trailing comma before '%c': remove this comma", closer)
	e.Remove = Span{comma, Pos{Offset: comma.Offset + 1, Line: comma.Line, Col: comma.Col + 1}}
	return e
}

// member adds the key and its value to the object whose members start at
// base in p.members, noting a repeated key, and returns the object's key
// map, which it makes once the object is large.
func (p *jsonParser) member(base int, seen map[string]int, key string, keySpan Span, v *Node) map[string]int {
	// Small objects, the most of any hooks.json, find a repeated key
	// faster by a scan than through a map; large ones switch to a map.
	first := -1
	if seen != nil {
		if i, ok := seen[key]; ok {
			first = i
		}
	} else {
		for i := len(p.members) - 1; i >= base; i-- {
			if p.members[i].Key == key {
				first = i
				break
			}
		}
	}
	if first >= 0 {
		p.dups = append(p.dups, Duplicate{Key: key, First: p.members[first].KeySpan, Again: keySpan})
	}
	if count := len(p.members) - base; seen == nil && count >= smallObject {
		seen = make(map[string]int, 2*count)
		for i := base; i < len(p.members); i++ {
			seen[p.members[i].Key] = i
		}
	}
	if seen != nil {
		seen[key] = len(p.members)
	}
	p.members = append(p.members, Member{Key: key, KeySpan: keySpan, Value: v})
	return seen
}

// word returns the run of identifier characters at the current offset,
// its start when long, for a message.
func (p *jsonParser) word() string {
	end := p.off
	for end < len(p.src) && (isIdentByte(p.src[end]) || p.src[end] >= '0' && p.src[end] <= '9' || p.src[end] == '-' || p.src[end] == '$') {
		end++
	}
	return Shorten(string(p.src[p.off:min(end, p.off+maxWord+1)]), maxWord)
}

// isKeyStart reports whether c starts a key written without quotes, as
// JavaScript writes one: a letter, _ or $.
func isKeyStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$'
}

// bareKey reads a key written without quotes: letters, digits, _, $, -
// and dots.
func (p *jsonParser) bareKey() string {
	start := p.off
	for p.off < len(p.src) {
		c := p.src[p.off]
		if !isKeyStart(c) && !(c >= '0' && c <= '9') && c != '-' && c != '.' {
			break
		}
		p.off++
		p.col++
	}
	if p.dry {
		return ""
	}
	return string(p.src[start:p.off])
}

func (p *jsonParser) array() (*Node, *SyntaxError) {
	o, err := p.enter(Array)
	if err != nil {
		return nil, err
	}
	n := p.node(Array)
	base := len(p.elems)
	defer func() { p.elems = p.elems[:base] }()
	p.skipSpace()
	if p.off < len(p.src) && p.src[p.off] == ']' {
		return p.close(n, o), nil
	}
	for {
		p.skipSpace()
		v, err := p.value(&o)
		if err != nil {
			return nil, err
		}
		if !p.dry {
			p.elems = append(p.elems, v)
		}
		p.skipSpace()
		if p.off >= len(p.src) {
			return nil, p.eofError(&o)
		}
		switch c := p.src[p.off]; {
		case c == ',':
			comma := p.pos()
			p.advance()
			p.skipSpace()
			if p.off < len(p.src) && p.src[p.off] == ']' {
				if e := p.trailingComma(comma, ']'); !p.readPast(e) {
					return nil, e
				}
				return p.closeArray(n, o, base), nil
			}
		case c == ']':
			return p.closeArray(n, o, base), nil
		default:
			if err := p.commentError(); err != nil {
				return nil, err
			}
			if c == '{' || c == '[' || c == '"' || c == '\'' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
				if e := p.errorf(p.pos(), "missing ',' before this element: elements of an array are separated by commas"); !p.readPast(e) {
					return nil, e
				}
				continue
			}
			return nil, p.errorf(p.pos(), "expected ',' or ']' after an array element, found %s", p.describeHere())
		}
	}
}

// closeArray ends the array n at its closing bracket.
func (p *jsonParser) closeArray(n *Node, o open, base int) *Node {
	n.Elems = slices.Clone(p.elems[base:])
	return p.close(n, o)
}
