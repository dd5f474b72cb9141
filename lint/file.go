package lint

import (
	"path/filepath"
	"unicode/utf8"

	"github.com/hookctl/hookctl/schema"
)

// File is one hooks.json being linted.
type File struct {
	// Name is the file as shown in findings.
	Name string
	// Config is the file as loaded: bytes, tree, hooks and problems.
	Config *schema.Config
	// Scope says whether the file is a workspace's or the user's.
	Scope Scope
	// Root is the workspace folder (the parent of .agents/) for a
	// workspace file, "" when the file is not in a .agents folder.
	Root string

	// choice says which rules run on the file; nil keeps the defaults.
	choice   *Choice
	fs       *fsCache
	foreign  *foreignInfo
	handlers []handlerRef
	walked   bool
	cmds     map[*schema.Node]*command
	hookRefs []hookRef

	agentDone bool
	agentErrs []schema.AgentError

	scriptsDone bool
	scriptList  []handlerScript
	probs       map[string][]schema.Problem
}

// problems returns the decoder's problems that the rule names, in file
// order.
func (f *File) problems(rule string) []schema.Problem {
	if f.probs == nil {
		f.probs = map[string][]schema.Problem{}
		for _, p := range f.Config.Problems {
			f.probs[p.Rule] = append(f.probs[p.Rule], p)
		}
	}
	return f.probs[rule]
}

// dirName names the folder that holds the file, for messages: ".agents/".
func (f *File) dirName() string {
	d := filepath.Dir(f.Name)
	if d == "." {
		return "the current folder"
	}
	return d + "/"
}

// Dir is the folder that holds the file, where its handlers run.
func (f *File) Dir() string { return f.Config.Dir }

// hookRef is one hook definition as written: the last occurrence of its key
// at the top level, whatever its value.
type hookRef struct {
	Name   string
	Member *schema.Member
}

// hooks returns the top-level members that name hooks, in file order: the
// last occurrence of each key, as the decoder reads them.
func (f *File) hooks() []hookRef {
	if f.hookRefs != nil {
		return f.hookRefs
	}
	f.hookRefs = []hookRef{}
	root := f.Config.Root
	if root == nil || root.Kind != schema.Object {
		return f.hookRefs
	}
	last := make(map[string]int, len(root.Members))
	for i := range root.Members {
		last[root.Members[i].Key] = i
	}
	for i := range root.Members {
		m := &root.Members[i]
		if m.Key == "$schema" || last[m.Key] != i {
			continue
		}
		f.hookRefs = append(f.hookRefs, hookRef{Name: m.Key, Member: m})
	}
	return f.hookRefs
}

// groupRef is one matcher group of a tool event.
type groupRef struct {
	Hook  string
	Event schema.Event
	Node  *schema.Node
	// Matcher is the matcher's value, nil when the group has none.
	Matcher *schema.Node
}

// handlerRef is one handler object as written, wherever it stands in the
// shape the format expects.
type handlerRef struct {
	Hook  string
	Event schema.Event
	// Group is the handler's matcher group, nil for events without groups.
	Group *groupRef
	Node  *schema.Node
	// Command is the command's value when it is a non-empty string.
	Command *schema.Node
}

// groups returns every matcher group of every tool event, in file order.
func (f *File) groups() []groupRef {
	var out []groupRef
	for _, h := range f.hooks() {
		if h.Member.Value.Kind != schema.Object {
			continue
		}
		for _, e := range []schema.Event{schema.PreToolUse, schema.PostToolUse} {
			em := h.Member.Value.Get(string(e))
			if em == nil || em.Value.Kind != schema.Array {
				continue
			}
			for _, n := range em.Value.Elems {
				if n.Kind != schema.Object || n.Get("hooks") == nil {
					continue
				}
				g := groupRef{Hook: h.Name, Event: e, Node: n}
				if m := n.Get("matcher"); m != nil {
					g.Matcher = m.Value
				}
				out = append(out, g)
			}
		}
	}
	return out
}

// allHandlers returns every handler object in the place the format expects
// handlers, in file order: inside a group's "hooks" for tool events,
// directly in the event's array for the others.
func (f *File) allHandlers() []handlerRef {
	if f.walked {
		return f.handlers
	}
	f.walked = true
	for _, h := range f.hooks() {
		v := h.Member.Value
		if v.Kind != schema.Object {
			continue
		}
		for i := range v.Members {
			em := &v.Members[i]
			e := schema.Event(em.Key)
			if !e.Valid() || v.Get(em.Key) != em || em.Value.Kind != schema.Array {
				continue
			}
			for _, n := range em.Value.Elems {
				if n.Kind != schema.Object {
					continue
				}
				if !e.IsTool() {
					if n.Get("hooks") == nil {
						f.addHandler(h.Name, e, nil, n)
					}
					continue
				}
				hm := n.Get("hooks")
				if hm == nil || hm.Value.Kind != schema.Array {
					continue
				}
				g := &groupRef{Hook: h.Name, Event: e, Node: n}
				if m := n.Get("matcher"); m != nil {
					g.Matcher = m.Value
				}
				for _, hn := range hm.Value.Elems {
					if hn.Kind == schema.Object {
						f.addHandler(h.Name, e, g, hn)
					}
				}
			}
		}
	}
	return f.handlers
}

func (f *File) addHandler(hook string, e schema.Event, g *groupRef, n *schema.Node) {
	r := handlerRef{Hook: hook, Event: e, Group: g, Node: n}
	if c := n.Get("command"); c != nil && c.Value.Kind == schema.String && c.Value.Str != "" {
		r.Command = c.Value
	}
	f.handlers = append(f.handlers, r)
}

// strSpan returns the span of the bytes [from, to) of a string value's
// decoded text, seeing through escape sequences in the source, so that a
// finding can point at one word of a command.
func (f *File) strSpan(n *schema.Node, from, to int) schema.Span {
	src := f.Config.Src
	if n.Kind != schema.String || from < 0 || to < from || to > len(n.Str) {
		return n.Span
	}
	off := n.Span.Start.Offset + 1 // after the opening quote
	pos := schema.Pos{Offset: off, Line: n.Span.Start.Line, Col: n.Span.Start.Col + 1}
	var start schema.Pos
	decoded := 0
	for {
		if decoded >= from && !start.IsValid() {
			start = pos
		}
		if decoded >= to || off >= n.Span.End.Offset-1 || off >= len(src) {
			break
		}
		size, width := 1, 1
		if src[off] == '\\' && off+1 < len(src) {
			size = 2
			switch src[off+1] {
			case 'u':
				size = 6
				r := rune(0)
				for _, c := range src[min(off+2, len(src)):min(off+6, len(src))] {
					r = r<<4 | rune(hexVal(c))
				}
				width = utf8.RuneLen(r)
				if width < 0 {
					width = 3 // a lone surrogate decodes to U+FFFD
				}
				if r >= 0xD800 && r < 0xDC00 && off+12 <= len(src) && src[off+6] == '\\' && src[off+7] == 'u' {
					size, width = 12, 4
				}
			}
		} else if src[off] >= utf8.RuneSelf {
			_, size = utf8.DecodeRune(src[off:])
			width = size
		}
		off += size
		decoded += width
		pos = schema.Pos{Offset: off, Line: pos.Line, Col: pos.Col + charCount(size, src[off-size:off])}
	}
	if !start.IsValid() {
		return n.Span
	}
	return schema.Span{Start: start, End: pos}
}

// charCount is how many characters a stretch of source counts for a column:
// an escape sequence counts as written.
func charCount(size int, b []byte) int {
	if len(b) > 0 && b[0] == '\\' {
		return size
	}
	return utf8.RuneCount(b)
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return 0
}

// rel returns path relative to dir when it can, else path itself.
func rel(dir, path string) string {
	if r, err := filepath.Rel(dir, path); err == nil {
		return r
	}
	return path
}
