// Package export wires a workspace's hooks into another agent's settings:
// for each event the hooks use, one entry in the agent's hook configuration
// that calls hookctl run --from AGENT EVENT, which dispatches the hooks of
// .agents/hooks.json (matching happens there, so the entry selects every
// tool). The edit keeps every other byte of the settings file, comments
// included where the format has them; a second export changes nothing; and
// removal takes out the entries export adds, recognised by their exact
// command, and nothing else.
package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/tailscale/hujson"

	"github.com/hookctl/hookctl/scaffold"
	"github.com/hookctl/hookctl/schema"
)

// SettingsFile returns the agent's workspace settings file that holds its
// hooks, relative to the workspace root.
func SettingsFile(a schema.Agent) string {
	switch a {
	case schema.Claude:
		return filepath.Join(".claude", "settings.json")
	case schema.Gemini:
		return filepath.Join(".gemini", "settings.json")
	case schema.Cursor:
		return filepath.Join(".cursor", "hooks.json")
	}
	return filepath.Join(".codex", "hooks.json")
}

// Command is the command of the entry that serves the agent's event.
func Command(a schema.Agent, foreign string) string {
	return "hookctl run --from " + string(a) + " " + foreign
}

// Result is an export computed: the settings file before and after, and
// what changed.
type Result struct {
	// Old is the file as read, nil when it does not exist; New what it
	// becomes.
	Old, New []byte
	// Added, Present and Removed name the agent's events whose entry was
	// added, was there already, or was taken out.
	Added, Present, Removed []string
	// Notes say which events of the workspace have no event to wire in the
	// agent, and what differs for those that have.
	Notes []string
}

// Changed reports whether the file changes.
func (r *Result) Changed() bool { return !bytes.Equal(r.Old, r.New) || r.Old == nil && r.New != nil }

// Error is a settings file that cannot be edited safely, at a position.
type Error struct {
	Line, Col int
	Msg       string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg)
	}
	return e.Msg
}

// Add returns the settings with an entry for each of the events (of this
// format), in the order of schema.Events. old is the file's content, nil
// when it does not exist.
func Add(a schema.Agent, old []byte, events []schema.Event) (*Result, error) {
	r := &Result{Old: old}
	src := old
	if src == nil {
		src = []byte("{}\n")
		if a == schema.Cursor {
			// Cursor's hooks.json names its schema version.
			v, _ := hujson.Parse(src)
			src = scaffold.InsertMember(src, &v, "version", []byte("1"))
		}
	}
	want := map[schema.Event]bool{}
	for _, e := range events {
		want[e] = true
	}
	for _, e := range schema.Events {
		if !want[e] {
			continue
		}
		x, _ := schema.LookupExportedEvent(a, e)
		if x.Foreign == "" {
			r.Notes = append(r.Notes, fmt.Sprintf("%s is not wired: %s", e, x.Note))
			continue
		}
		if x.Note != "" {
			r.Notes = append(r.Notes, fmt.Sprintf("%s runs on %s's %s: %s", e, a.Title(), x.Foreign, x.Note))
		}
		next, added, err := addEntry(a, src, x)
		if err != nil {
			return nil, err
		}
		src = next
		if added {
			r.Added = append(r.Added, x.Foreign)
		} else {
			r.Present = append(r.Present, x.Foreign)
		}
	}
	if old == nil && len(r.Added) == 0 {
		src = nil // nothing to write: no file
	}
	r.New = src
	return r, nil
}

// entry is the agent's hook entry for an event, as compact JSON.
func entry(a schema.Agent, x schema.ExportedEvent) []byte {
	cmd := Command(a, x.Foreign)
	var v any
	switch {
	case a == schema.Cursor:
		v = map[string]any{"command": cmd}
	case x.Tools:
		// Claude Code, Gemini CLI and Codex all read "*" as every tool.
		v = struct {
			Matcher string    `json:"matcher"`
			Hooks   []handler `json:"hooks"`
		}{"*", []handler{{"command", cmd}}}
	default:
		v = struct {
			Hooks []handler `json:"hooks"`
		}{[]handler{{"command", cmd}}}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return bytes.TrimSpace(b.Bytes())
}

type handler struct {
	Type    string `json:"type"`
	Command string `json:"command"`
}

// addEntry adds the entry of one event unless it is there.
func addEntry(a schema.Agent, src []byte, x schema.ExportedEvent) ([]byte, bool, error) {
	root, err := parse(src)
	if err != nil {
		return nil, false, err
	}
	hooks, err := member(src, root, "hooks", "an object of events")
	if err != nil {
		return nil, false, err
	}
	e := entry(a, x)
	if hooks == nil {
		return scaffold.InsertMember(src, root, "hooks", []byte(`{"`+x.Foreign+`":[`+string(e)+`]}`)), true, nil
	}
	list, err := member(src, hooks, x.Foreign, "an array of entries")
	if err != nil {
		return nil, false, err
	}
	if list == nil {
		return scaffold.InsertMember(src, hooks, x.Foreign, append(append([]byte("["), e...), ']')), true, nil
	}
	if i, _ := find(a, list, Command(a, x.Foreign)); i >= 0 {
		return src, false, nil
	}
	return scaffold.AppendElement(src, list, e), true, nil
}

// Remove returns the settings without the entries export adds, for every
// event it may have wired. Entries, event keys and a "hooks" object left
// empty by the removal go too; what the user wrote stays.
func Remove(a schema.Agent, old []byte) (*Result, error) {
	r := &Result{Old: old, New: old}
	if old == nil {
		return r, nil
	}
	src := old
	for _, x := range schema.ExportedEvents {
		if x.Agent != a || x.Foreign == "" {
			continue
		}
		removed := false
		for {
			next, ok, err := removeOne(a, src, x.Foreign)
			if err != nil {
				return nil, err
			}
			if !ok {
				break
			}
			src, removed = next, true
		}
		if removed {
			r.Removed = append(r.Removed, x.Foreign)
		}
	}
	r.New = src
	return r, nil
}

// removeOne removes one entry of the event that runs the command, and the
// containers it leaves empty.
func removeOne(a schema.Agent, src []byte, foreign string) ([]byte, bool, error) {
	root, err := parse(src)
	if err != nil {
		return nil, false, err
	}
	hooks, err := member(src, root, "hooks", "an object of events")
	if err != nil || hooks == nil {
		return src, false, err
	}
	list, err := member(src, hooks, foreign, "an array of entries")
	if err != nil || list == nil {
		return src, false, err
	}
	i, j := find(a, list, Command(a, foreign))
	if i < 0 {
		return src, false, nil
	}
	arr := list.Value.(*hujson.Array)
	if j >= 0 {
		// A group the user shares with other handlers: only the handler
		// goes.
		group := &arr.Elements[i]
		inner := group.Value.(*hujson.Object)
		for k := range inner.Members {
			if name(inner.Members[k].Name) == "hooks" {
				return scaffold.RemoveEntry(src, &inner.Members[k].Value, j), true, nil
			}
		}
	}
	if len(arr.Elements) > 1 {
		return scaffold.RemoveEntry(src, list, i), true, nil
	}
	// The event's list held only this entry: the event goes, and the hooks
	// object when it held only this event.
	obj := hooks.Value.(*hujson.Object)
	if len(obj.Members) == 1 {
		return scaffold.RemoveEntry(src, root, index(root, "hooks")), true, nil
	}
	return scaffold.RemoveEntry(src, hooks, index(hooks, foreign)), true, nil
}

// find returns the index of the entry of list that runs cmd, and, when the
// entry is a group that holds other handlers too, the index of the handler
// in it (else -1). An entry export would write in full (its one handler, a
// matcher selecting every tool or none) is taken out whole.
func find(a schema.Agent, list *hujson.Value, cmd string) (int, int) {
	arr, ok := list.Value.(*hujson.Array)
	if !ok {
		return -1, -1
	}
	for i := range arr.Elements {
		obj, ok := arr.Elements[i].Value.(*hujson.Object)
		if !ok {
			continue
		}
		if a == schema.Cursor {
			if str(obj, "command") == cmd {
				return i, -1
			}
			continue
		}
		for _, m := range obj.Members {
			if name(m.Name) != "hooks" {
				continue
			}
			hs, ok := m.Value.Value.(*hujson.Array)
			if !ok {
				continue
			}
			for j := range hs.Elements {
				h, ok := hs.Elements[j].Value.(*hujson.Object)
				if !ok || str(h, "command") != cmd {
					continue
				}
				if len(hs.Elements) == 1 && ours(obj) {
					return i, -1
				}
				return i, j
			}
		}
	}
	return -1, -1
}

// ours reports whether a group holds nothing but what export writes.
func ours(obj *hujson.Object) bool {
	for _, m := range obj.Members {
		switch name(m.Name) {
		case "hooks":
		case "matcher":
			if s := str(obj, "matcher"); s != "*" && s != "" {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// hujsonPos reads the position hujson puts at the start of its errors.
var hujsonPos = regexp.MustCompile(`^line (\d+), column (\d+): `)

func parse(src []byte) (*hujson.Value, error) {
	v, err := hujson.Parse(src)
	if err != nil {
		msg := strings.TrimPrefix(err.Error(), "hujson: ")
		if m := hujsonPos.FindStringSubmatch(msg); m != nil {
			line, _ := strconv.Atoi(m[1])
			col, _ := strconv.Atoi(m[2])
			return nil, &Error{Line: line, Col: col, Msg: "not valid JSON: " + msg[len(m[0]):]}
		}
		return nil, &Error{Msg: "not valid JSON: " + msg}
	}
	if _, ok := v.Value.(*hujson.Object); !ok {
		line, col := position(src, v.StartOffset)
		return nil, &Error{Line: line, Col: col, Msg: "the top level is not a JSON object"}
	}
	return &v, nil
}

// member returns the value of key in the object obj, nil when it is absent,
// and refuses one of another kind than want says (an object or an array).
func member(src []byte, obj *hujson.Value, key, want string) (*hujson.Value, error) {
	o := obj.Value.(*hujson.Object)
	var found *hujson.Value
	for i := range o.Members {
		if name(o.Members[i].Name) == key {
			found = &o.Members[i].Value
		}
	}
	if found == nil {
		return nil, nil
	}
	kind := found.Value.Kind()
	if want == "an object of events" && kind != '{' || want == "an array of entries" && kind != '[' {
		line, col := position(src, found.StartOffset)
		return nil, &Error{Line: line, Col: col, Msg: fmt.Sprintf("%q is not %s: fix it by hand first, as export edits only what it understands", key, want)}
	}
	return found, nil
}

func index(obj *hujson.Value, key string) int {
	o := obj.Value.(*hujson.Object)
	for i := range o.Members {
		if name(o.Members[i].Name) == key {
			return i
		}
	}
	return -1
}

func name(v hujson.Value) string {
	lit, ok := v.Value.(hujson.Literal)
	if !ok {
		return ""
	}
	return lit.String()
}

func str(obj *hujson.Object, key string) string {
	for _, m := range obj.Members {
		if name(m.Name) == key {
			if lit, ok := m.Value.Value.(hujson.Literal); ok && lit.Kind() == '"' {
				return lit.String()
			}
		}
	}
	return ""
}

// position returns the 1-based line and column (in characters) of an
// offset.
func position(src []byte, off int) (int, int) {
	off = min(max(off, 0), len(src))
	line := 1 + bytes.Count(src[:off], []byte("\n"))
	start := bytes.LastIndexByte(src[:off], '\n') + 1
	return line, 1 + len([]rune(string(src[start:off])))
}
