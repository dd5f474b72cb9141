package scaffold

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/hookctl/hookctl/schema"
)

// NamedHook is a hook to add to a hooks.json: its name and its definition.
type NamedHook struct {
	Name string
	Def  schema.HookDefinition
}

// NameTakenError reports a hook name that the file already uses.
type NameTakenError struct {
	Name string
	// Pos is where the existing hook's key stands.
	Pos schema.Pos
}

func (e *NameTakenError) Error() string {
	return fmt.Sprintf("a hook named %q already exists at line %d, column %d", e.Name, e.Pos.Line, e.Pos.Col)
}

// ErrNotObject reports a file whose top level is not a JSON object.
var ErrNotObject = errors.New("the top level is not a JSON object")

// AddHooks returns src with the hooks added at the end of its top-level
// object. Every byte of src is kept: the other hooks, key order, spacing,
// line endings and a missing final newline. The new entries follow the
// file's own indentation (tabs or spaces, and their width), or its one-line
// style when the object is written on one line. An empty src (or one of
// whitespace only) is taken as {}. It refuses a src that is not
// valid JSON (a *schema.SyntaxError), whose top level is not an object
// (ErrNotObject), or that already has a hook of one of the names (a
// *NameTakenError).
func AddHooks(src []byte, hooks ...NamedHook) ([]byte, error) {
	if len(bytes.TrimSpace(src)) == 0 {
		// An empty file holds nothing to keep: it becomes an object.
		src = []byte("{}\n")
	}
	root, _, serr := schema.ParseJSON(src)
	if serr != nil {
		return nil, serr
	}
	if root.Kind != schema.Object {
		return nil, ErrNotObject
	}
	seen := map[string]bool{}
	for _, h := range hooks {
		if m := root.Get(h.Name); m != nil {
			return nil, &NameTakenError{Name: h.Name, Pos: m.KeySpan.Start}
		}
		if seen[h.Name] {
			return nil, fmt.Errorf("the hook %q is added twice", h.Name)
		}
		seen[h.Name] = true
	}
	var items []item
	for _, h := range hooks {
		def := h.Def
		v, err := schema.Marshal(&def)
		if err != nil {
			return nil, err
		}
		items = append(items, item{key: h.Name, value: v})
	}
	return insert(src, objectOf(root), items), nil
}

// container is an object or array of the source: where it opens and closes
// and where each of its entries stands.
type container struct {
	object      bool
	open, close int // offsets of the opening and closing bracket
	entries     []entry
}

// entry is one member of an object (start is its key's) or element of an
// array.
type entry struct {
	start, end int
	// keyEnd and valueStart bound what separates a member's key from its
	// value, such as ": ".
	keyEnd, valueStart int
}

// item is what to add: a member (key and value) or an element (value).
type item struct {
	key   string
	value []byte // compact JSON
}

func objectOf(n *schema.Node) container {
	c := container{object: n.Kind == schema.Object, open: n.Span.Start.Offset, close: n.Span.End.Offset - 1}
	for _, m := range n.Members {
		c.entries = append(c.entries, entry{start: m.KeySpan.Start.Offset, end: m.Value.Span.End.Offset,
			keyEnd: m.KeySpan.End.Offset, valueStart: m.Value.Span.Start.Offset})
	}
	for _, e := range n.Elems {
		c.entries = append(c.entries, entry{start: e.Span.Start.Offset, end: e.Span.End.Offset})
	}
	return c
}

// style is how a file lays out its JSON.
type style struct {
	nl    string // line ending
	unit  string // one level of indentation
	colon string // between a key and its value
	comma string // between entries on one line
	pad   string // inside the brackets of a container on one line
}

// detectStyle reads the line ending and the indentation unit of the file.
func detectStyle(src []byte) style {
	s := style{nl: "\n", unit: "  ", colon: ": ", comma: ", "}
	if bytes.Contains(src, []byte("\r\n")) {
		s.nl = "\r\n"
	}
	// The smallest indentation of any line is one level.
	best := ""
	for _, line := range bytes.Split(src, []byte("\n")) {
		ws := leadingSpace(line)
		if ws == "" || len(ws) == len(bytes.TrimRight(line, "\r")) {
			continue
		}
		if ws[0] == '\t' {
			best = "\t"
			break
		}
		if best == "" || len(ws) < len(best) {
			best = ws
		}
	}
	if best != "" {
		s.unit = best
	}
	return s
}

func leadingSpace(line []byte) string {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	return string(line[:i])
}

// lineIndent returns the whitespace that starts the line holding off.
func lineIndent(src []byte, off int) string {
	start := bytes.LastIndexByte(src[:off], '\n') + 1
	return leadingSpace(src[start:])
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

// insert adds the items at the end of the container and returns the new
// source; src itself is not changed.
func insert(src []byte, c container, items []item) []byte {
	st := detectStyle(src)
	if len(c.entries) > 0 && c.object {
		if g := colonOf(src, c.entries[0]); g != "" {
			st.colon = g
		}
	}
	if len(c.entries) > 0 && !bytes.ContainsAny(src[c.open+1:c.entries[0].start], "\n") {
		return insertInline(src, c, items, st)
	}
	var indent string
	if len(c.entries) > 0 {
		indent = lineIndent(src, c.entries[0].start)
		if parent := lineIndent(src, c.open); strings.HasPrefix(indent, parent) && len(indent) > len(parent) {
			st.unit = indent[len(parent):]
		}
	} else {
		indent = lineIndent(src, c.open) + st.unit
	}
	var text bytes.Buffer
	for i, it := range items {
		if i > 0 {
			text.WriteByte(',')
		}
		text.WriteString(st.nl + indent)
		writeItem(&text, it, st, indent, true)
	}
	out := make([]byte, 0, len(src)+text.Len()+8)
	if len(c.entries) == 0 {
		// An empty {} or [] opens up, keeping whatever it held (comments).
		inner := bytes.TrimRight(src[c.open+1:c.close], " \t\r\n")
		out = append(out, src[:c.open+1]...)
		out = append(out, inner...)
		out = append(out, text.Bytes()...)
		out = append(out, st.nl+lineIndent(src, c.open)...)
		return append(out, src[c.close:]...)
	}
	last := c.entries[len(c.entries)-1].end
	// The new entries go after the last one's trailing comment, before the
	// whitespace that leads to the closing bracket.
	at := c.close
	for at > last && isSpace(src[at-1]) {
		at--
	}
	trailingComma := hasComma(src[last:at])
	out = append(out, src[:last]...)
	if !trailingComma {
		out = append(out, ',')
	}
	out = append(out, src[last:at]...)
	out = append(out, text.Bytes()...)
	if trailingComma {
		out = append(out, ',')
	}
	return append(out, src[at:]...)
}

// insertInline adds items to a container written on one line, in the
// file's spacing.
func insertInline(src []byte, c container, items []item, st style) []byte {
	st.comma = ","
	if src[c.open+1] == ' ' {
		st.pad = " "
	}
	if len(c.entries) > 1 {
		st.comma = strings.TrimRight(string(src[c.entries[0].end:c.entries[1].start]), "\n\r")
	} else if strings.HasSuffix(st.colon, " ") {
		st.comma = ", "
	}
	var text bytes.Buffer
	for _, it := range items {
		text.WriteString(st.comma)
		writeItem(&text, it, st, "", false)
	}
	last := c.entries[len(c.entries)-1].end
	out := append([]byte{}, src[:last]...)
	out = append(out, text.Bytes()...)
	return append(out, src[last:]...)
}

// colonOf returns what separates a member's key from its value.
func colonOf(src []byte, e entry) string {
	g := string(src[e.keyEnd:e.valueStart])
	if strings.ContainsAny(g, "\r\n/") {
		return ""
	}
	return g
}

// hasComma reports whether b, the stretch after a container's last entry,
// holds a comma outside comments (JSONC allows a trailing one).
func hasComma(b []byte) bool {
	for i := 0; i < len(b); i++ {
		switch {
		case b[i] == ',':
			return true
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				i++
			}
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '*':
			end := bytes.Index(b[i+2:], []byte("*/"))
			if end < 0 {
				return false
			}
			i += end + 3
		}
	}
	return false
}

func writeItem(w *bytes.Buffer, it item, st style, indent string, multiline bool) {
	if it.key != "" {
		k, _ := schema.Marshal(it.key)
		w.Write(k)
		w.WriteString(st.colon)
	}
	layout(w, it.value, st, indent, multiline)
}

// layout writes compact JSON in the file's style: one entry a line, indented
// from indent, or all on one line with its spacing.
func layout(w *bytes.Buffer, compact []byte, st style, indent string, multiline bool) {
	depth := 0
	newline := func() {
		w.WriteString(st.nl + indent)
		for i := 0; i < depth; i++ {
			w.WriteString(st.unit)
		}
	}
	for i := 0; i < len(compact); i++ {
		c := compact[i]
		switch c {
		case '"':
			j := i + 1
			for ; j < len(compact) && compact[j] != '"'; j++ {
				if compact[j] == '\\' {
					j++
				}
			}
			w.Write(compact[i : j+1])
			i = j
		case '{', '[':
			w.WriteByte(c)
			if i+1 < len(compact) && (compact[i+1] == '}' || compact[i+1] == ']') {
				w.WriteByte(compact[i+1])
				i++
				continue
			}
			depth++
			if multiline {
				newline()
			} else {
				w.WriteString(st.pad)
			}
		case '}', ']':
			depth--
			if multiline {
				newline()
			} else {
				w.WriteString(st.pad)
			}
			w.WriteByte(c)
		case ',':
			w.WriteByte(c)
			if multiline {
				newline()
			} else {
				w.WriteString(strings.TrimPrefix(st.comma, ","))
			}
		case ':':
			w.WriteString(st.colon)
		default:
			w.WriteByte(c)
		}
	}
}
