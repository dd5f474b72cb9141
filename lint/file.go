package lint

import (
	"path/filepath"
	"slices"
	"sort"
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
	choice *Choice
	// only are the rules the run is limited to, nil for every rule.
	only     map[string]bool
	fs       *fsCache
	foreign  *foreignInfo
	handlers []handlerRef
	walked   bool
	// eventRefs are the hook definitions' events, once walked, and
	// unknownSpans the values of the unknown events among them.
	eventRefs    []eventRef
	unknownSpans []schema.Span
	cmds         map[*schema.Node]*command
	// cmdTexts holds the same commands by their text: handlers that run
	// the same command share one parse.
	cmdTexts map[string]*command
	// shellVars are the variables a command knows before it runs (see
	// shellcmd.Parse), one map for all.
	shellVars map[string]string
	hookRefs  []hookRef

	agentVerdict *schema.Verdict

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

// eventRef is one event of a hook definition as written, with the event
// it is checked as.
type eventRef struct {
	Hook   string
	Event  schema.Event
	Member *schema.Member
	// Unknown is set for a key the agent does not read as an event (a
	// near-miss spelling, another agent's name): it is checked as the
	// event meant, so that one run shows the mistakes inside it too.
	Unknown bool
}

// events returns every event member of every hook definition, in file
// order: those the agent reads (the last of each event, whatever the
// case of its key), and unknown keys that stand for an event.
func (f *File) events() []eventRef {
	if f.eventRefs != nil {
		return f.eventRefs
	}
	f.eventRefs = []eventRef{}
	for _, h := range f.hooks() {
		v := h.Member.Value
		if v.Kind != schema.Object {
			continue
		}
		fields := make([]string, len(v.Members))
		for i := range v.Members {
			fields[i] = schema.AgentField("hook", v.Members[i].Key, schema.AgentOptions{})
		}
		for i := range v.Members {
			em := &v.Members[i]
			switch e := schema.Event(fields[i]); {
			case e.Valid():
				// The last member of each field counts, as the agent
				// reads it; a hook holds a handful of keys.
				if !slices.Contains(fields[i+1:], fields[i]) {
					f.eventRefs = append(f.eventRefs, eventRef{Hook: h.Name, Event: e, Member: em})
				}
			case fields[i] == "":
				if meant, ok := schema.EventMeant(em.Key); ok {
					f.eventRefs = append(f.eventRefs, eventRef{Hook: h.Name, Event: meant, Member: em, Unknown: true})
					f.unknownSpans = append(f.unknownSpans, em.Value.Span)
				}
			}
		}
	}
	return f.eventRefs
}

// entries returns the entries of an event's value: its array's elements,
// or the value itself when one entry stands without its array.
func entries(v *schema.Node) []*schema.Node {
	switch v.Kind {
	case schema.Array:
		return v.Elems
	case schema.Object:
		return []*schema.Node{v}
	}
	return nil
}

// inUnknown reports whether a span lies inside the value of an unknown
// event, a part the agent skips.
func (f *File) inUnknown(span schema.Span) bool {
	f.events()
	// The spans are in file order and apart: the one that may hold span
	// is the last to start at or before it.
	i := sort.Search(len(f.unknownSpans), func(i int) bool { return f.unknownSpans[i].Start.Offset > span.Start.Offset }) - 1
	return i >= 0 && span.End.Offset <= f.unknownSpans[i].End.Offset
}

// groupRef is one matcher group of a tool event.
type groupRef struct {
	Hook  string
	Event schema.Event
	Node  *schema.Node
	// Matcher is the matcher's value, nil when the group has none.
	Matcher *schema.Node
	// Unknown is set inside an unknown event (see eventRef).
	Unknown bool
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
	// Unknown is set inside an unknown event (see eventRef).
	Unknown bool
}

// groups returns every matcher group of every tool event, in file order.
func (f *File) groups() []groupRef {
	var out []groupRef
	for _, er := range f.events() {
		if !er.Event.IsTool() {
			continue
		}
		for _, n := range entries(er.Member.Value) {
			if g, ok := groupOf(er, n); ok {
				out = append(out, *g)
			}
		}
	}
	return out
}

// groupOf returns the entry n of an event as a matcher group, when it is
// one.
func groupOf(er eventRef, n *schema.Node) (*groupRef, bool) {
	if n.Kind != schema.Object || n.Get("hooks") == nil {
		return nil, false
	}
	g := &groupRef{Hook: er.Hook, Event: er.Event, Node: n, Unknown: er.Unknown}
	if m := n.Get("matcher"); m != nil {
		g.Matcher = m.Value
	}
	return g, true
}

// allHandlers returns every handler object, in file order: inside a
// group's "hooks" for tool events, directly in the event's array for the
// others, and also where the other shape puts them (a handler directly in
// a tool event's array, a group in another event's), since a misplaced
// handler's own mistakes are mistakes too.
func (f *File) allHandlers() []handlerRef {
	if f.walked {
		return f.handlers
	}
	f.walked = true
	for _, er := range f.events() {
		for _, n := range entries(er.Member.Value) {
			if n.Kind != schema.Object {
				continue
			}
			g, ok := groupOf(er, n)
			if !ok {
				f.addHandler(er, nil, n)
				continue
			}
			hm := n.Get("hooks")
			for _, hn := range entries(hm.Value) {
				if hn.Kind == schema.Object {
					f.addHandler(er, g, hn)
				}
			}
		}
	}
	return f.handlers
}

func (f *File) addHandler(er eventRef, g *groupRef, n *schema.Node) {
	r := handlerRef{Hook: er.Hook, Event: er.Event, Group: g, Node: n, Unknown: er.Unknown}
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
			switch c := src[off+1]; {
			case !validEscape(c, src[n.Span.Start.Offset]):
				size = 1 // read past as written: the backslash is itself
			case c == 'u':
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

// validEscape reports whether a backslash and c are an escape sequence
// in a string that quote opens (a single quote in a file read past its
// syntax mistakes, where \' escapes it).
func validEscape(c, quote byte) bool {
	switch c {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't', 'u':
		return true
	}
	return c == quote
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
