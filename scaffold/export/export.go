// Package export wires a workspace's hooks into another agent's settings:
// for each event the hooks use, one entry in the agent's hook configuration
// that calls hookctl run --from AGENT EVENT, which dispatches the hooks of
// .agents/hooks.json (matching happens there, so the entry selects every
// tool). The edit keeps every other byte of the settings file, comments
// included where the format has them; a second export changes nothing; and
// removal takes out the entries export adds, recognised by their exact
// command, and the members export created to hold them (Result.Made, kept
// between the two in a Record), and nothing else.
package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/tailscale/hujson"

	"github.com/hookctl/hookctl/scaffold"
	"github.com/hookctl/hookctl/schema"

	"github.com/hookctl/hookctl/internal/lazyre"
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

// OnErrors are the failure policies export writes into its commands.
var OnErrors = []string{"deny", "ignore"}

// CommandWith is Command with the failure policy written in, "" for none
// (hookctl run's default, deny).
func CommandWith(a schema.Agent, foreign, onError string) string {
	if onError == "" {
		return Command(a, foreign)
	}
	return Command(a, foreign) + " --on-error " + onError
}

// ours reports whether cmd is the command of an entry export writes for
// the agent's event, with any failure policy it writes.
func oursCommand(a schema.Agent, foreign, cmd string) bool {
	if cmd == Command(a, foreign) {
		return true
	}
	for _, o := range OnErrors {
		if cmd == CommandWith(a, foreign, o) {
			return true
		}
	}
	return false
}

// AddOptions are what an export adds besides its entries.
type AddOptions struct {
	// OnError is the failure policy written into each entry's command
	// (hookctl run --on-error), "" for none: an entry already there with
	// another keeps its own then, and is rewritten otherwise.
	OnError string
	// Imported are the entries of the settings that the workspace's
	// hooks.json holds as imported (FindImported): the agent would run
	// them twice. An event they run on is not wired, unless
	// ReplaceImported, which takes them out of the settings first.
	Imported        []Imported
	ReplaceImported bool
}

// Result is an export computed: the settings file before and after, and
// what changed.
type Result struct {
	// Old is the file as read, nil when it does not exist; New what it
	// becomes.
	Old, New []byte
	// Added, Present and Removed name the agent's events whose entry was
	// added, was there already, or was taken out; Updated those whose
	// entry got another failure policy; Skipped those not wired because
	// the settings run a hook the hooks.json holds as imported.
	Added, Present, Removed, Updated, Skipped []string
	// Replaced are the imported entries taken out of the settings.
	Replaced []Imported
	// Made names, as JSON pointers ("/hooks", "/hooks/PreToolUse",
	// "/version"), the members Add created because they were missing: what
	// Remove may take out again once it has emptied them.
	Made []string
	// Filled holds, by JSON pointer ("" for the top level), the whitespace
	// that stood inside each empty object or array of the user's that Add
	// put an entry into: a removal that empties it again gives it back.
	Filled map[string]string
	// Notes say which events of the workspace have no event to wire in the
	// agent, and what differs for those that have.
	Notes []string
}

// Record returns what to remember of the export r for the settings file
// whose real path is file.
func (r *Result) Record(file string) *Record {
	return &Record{File: file, Made: append([]string{}, r.Made...), Filled: r.Filled}
}

// fill remembers the whitespace inside v, at ptr, when v is an empty
// object or array that an entry goes into.
func (r *Result) fill(src []byte, v *hujson.Value, ptr string) {
	inner := src[v.StartOffset+1 : v.EndOffset-1]
	if entries(v) != 0 || len(inner) == 0 || len(bytes.TrimSpace(inner)) != 0 {
		return
	}
	if r.Filled == nil {
		r.Filled = map[string]string{}
	}
	r.Filled[ptr] = string(inner)
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
// when it does not exist. A Cursor file gets "version": 1 when it has no
// version: Cursor refuses a hooks.json without one.
func Add(a schema.Agent, old []byte, events []schema.Event) (*Result, error) {
	return AddWith(a, old, events, AddOptions{})
}

// AddWith is Add with options.
func AddWith(a schema.Agent, old []byte, events []schema.Event, o AddOptions) (*Result, error) {
	r := &Result{Old: old}
	src := old
	if src == nil {
		src = []byte("{}\n")
	}
	skip := map[schema.Event]bool{}
	var replace []Imported
	for _, e := range events {
		x, _ := schema.LookupExportedEvent(a, e)
		if x.Foreign == "" {
			continue
		}
		for _, im := range o.Imported {
			if im.Native != e {
				continue
			}
			switch {
			case o.ReplaceImported && im.Whole:
				replace = append(replace, im)
			case o.ReplaceImported:
				skip[e] = true
				r.Notes = append(r.Notes, fmt.Sprintf("%s is not wired: the %s entry at line %d, column %d runs %s, which the hooks.json holds as imported (hook %q, line %d), but also handlers that were not carried over, so it is not taken out: move those into the hooks.json or take the entry out by hand", e, im.Event, im.Line, im.Col, a.Title(), im.Hook, im.HookLine))
			default:
				skip[e] = true
				r.Notes = append(r.Notes, fmt.Sprintf("%s is not wired: the %s entry at line %d, column %d already runs what the hooks.json holds as imported (hook %q, line %d), so %s would run it twice; take the entry out of the settings, or export with --replace-imported", e, im.Event, im.Line, im.Col, im.Hook, im.HookLine, a.Title()))
			}
		}
	}
	if len(replace) > 0 {
		keep := map[string]bool{}
		for _, e := range events {
			if x, _ := schema.LookupExportedEvent(a, e); x.Foreign != "" && !skip[e] {
				keep[x.Foreign] = true
			}
		}
		next, err := RemoveImported(src, replace, keep)
		if err != nil {
			return nil, err
		}
		src, r.Replaced = next, replace
	}
	want := map[schema.Event]bool{}
	wired := false
	for _, e := range events {
		want[e] = true
		x, _ := schema.LookupExportedEvent(a, e)
		wired = wired || x.Foreign != ""
	}
	if a == schema.Cursor && wired {
		next, note, err := cursorVersion(r, src)
		if err != nil {
			return nil, err
		}
		if note != "" {
			r.Notes = append(r.Notes, note)
		}
		if next != nil {
			src = next
			// A file export creates stays after a removal, and a Cursor
			// hooks.json without a version is an error in Cursor: there
			// the version is part of the file, not an addition.
			if old != nil {
				r.Made = append(r.Made, "/version")
			}
		}
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
		if skip[e] {
			r.Skipped = append(r.Skipped, x.Foreign)
			continue
		}
		if x.Note != "" {
			r.Notes = append(r.Notes, fmt.Sprintf("%s runs on %s's %s: %s", e, a.Title(), x.Foreign, x.Note))
		}
		next, made, updated, err := addEntry(r, a, src, x, o.OnError)
		if err != nil {
			return nil, err
		}
		src = next
		switch {
		case made != nil:
			r.Added = append(r.Added, x.Foreign)
			r.Made = append(r.Made, made...)
		case updated:
			r.Updated = append(r.Updated, x.Foreign)
		default:
			r.Present = append(r.Present, x.Foreign)
		}
	}
	if old == nil && len(r.Added) == 0 {
		r.Made, r.Filled, src = nil, nil, nil // nothing to write: no file
	}
	r.New = src
	return r, nil
}

// cursorVersion returns src with "version": 1 added when it has no
// version (nil when it has one), and a note when its version is not the 1
// Cursor reads.
func cursorVersion(r *Result, src []byte) ([]byte, string, error) {
	root, err := parse(src)
	if err != nil {
		return nil, "", err
	}
	o := root.Value.(*hujson.Object)
	for _, m := range o.Members {
		if name(m.Name) != "version" {
			continue
		}
		if lit, ok := m.Value.Value.(hujson.Literal); ok && lit.Kind() == '0' && string(lit) == "1" {
			return nil, "", nil
		}
		line, col := position(src, m.Value.StartOffset)
		return nil, fmt.Sprintf("\"version\" (line %d, column %d) is %s, and Cursor reads only the number 1: it is left as you wrote it, and Cursor may refuse the file", line, col, oneLine(string(src[m.Value.StartOffset:m.Value.EndOffset]))), nil
	}
	r.fill(src, root, "")
	return scaffold.InsertMember(src, root, "version", []byte("1")), "", nil
}

// oneLine shortens a JSON value for a message, its control characters
// shown as escapes.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 40 {
		s = string(r[:40]) + "..."
	}
	return schema.Visible(s)
}

// entry is the agent's hook entry for an event, as compact JSON.
func entry(a schema.Agent, x schema.ExportedEvent, onError string) []byte {
	cmd := CommandWith(a, x.Foreign, onError)
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
	b, _ := schema.Marshal(v)
	return b
}

type handler struct {
	Type    string `json:"type"`
	Command string `json:"command"`
}

// addEntry adds the entry of one event unless it is there: it returns
// the new source and the members it created (empty but not nil when it
// only appended the entry), nil when the entry was there; updated says
// that the entry there got the failure policy asked for.
func addEntry(r *Result, a schema.Agent, src []byte, x schema.ExportedEvent, onError string) ([]byte, []string, bool, error) {
	root, err := parse(src)
	if err != nil {
		return nil, nil, false, err
	}
	hooks, err := member(src, root, "hooks", "an object of events")
	if err != nil {
		return nil, nil, false, err
	}
	e := entry(a, x, onError)
	event := "/hooks/" + pointerToken(x.Foreign)
	if hooks == nil {
		r.fill(src, root, "")
		return scaffold.InsertMember(src, root, "hooks", []byte(`{"`+x.Foreign+`":[`+string(e)+`]}`)), []string{"/hooks", event}, false, nil
	}
	list, err := member(src, hooks, x.Foreign, "an array of entries")
	if err != nil {
		return nil, nil, false, err
	}
	if list == nil {
		r.fill(src, hooks, "/hooks")
		return scaffold.InsertMember(src, hooks, x.Foreign, append(append([]byte("["), e...), ']')), []string{event}, false, nil
	}
	if cmd := commandValue(a, list, x.Foreign); cmd != nil {
		want := CommandWith(a, x.Foreign, onError)
		if onError == "" || cmd.Value.(hujson.Literal).String() == want {
			return src, nil, false, nil
		}
		quoted, _ := json.Marshal(want)
		out := append(append(append([]byte{}, src[:cmd.StartOffset]...), quoted...), src[cmd.EndOffset:]...)
		return out, nil, true, nil
	}
	r.fill(src, list, event)
	return scaffold.AppendElement(src, list, e), []string{}, false, nil
}

// commandValue returns the "command" value of the entry export wrote for
// the event in list, nil when there is none.
func commandValue(a schema.Agent, list *hujson.Value, foreign string) *hujson.Value {
	i, j := find(a, list, foreign)
	if i < 0 {
		return nil
	}
	obj := list.Value.(*hujson.Array).Elements[i].Value.(*hujson.Object)
	if a != schema.Cursor {
		for _, m := range obj.Members {
			if name(m.Name) == "hooks" {
				hs := m.Value.Value.(*hujson.Array)
				k := max(j, 0)
				obj = hs.Elements[k].Value.(*hujson.Object)
			}
		}
	}
	for k := range obj.Members {
		if name(obj.Members[k].Name) == "command" {
			return &obj.Members[k].Value
		}
	}
	return nil
}

// pointerToken escapes a key for a JSON pointer (RFC 6901).
func pointerToken(key string) string {
	return strings.ReplaceAll(strings.ReplaceAll(key, "~", "~0"), "/", "~1")
}

// Remove returns the settings without the entries export adds, for every
// event it may have wired. rec is what an earlier Add created and filled
// (Result.Record): an event list, the "hooks" object or Cursor's "version"
// that it created goes once the removal leaves it empty (the version once
// no hook is left), an empty one of the user's that it filled comes back
// as the user wrote it, and every other member stays. A nil rec is not
// knowing: then every event list and "hooks" object the removal empties
// goes, and the version stays.
func Remove(a schema.Agent, old []byte, rec *Record) (*Result, error) {
	r := &Result{Old: old, New: old}
	if old == nil {
		return r, nil
	}
	drop := func(ptr string) bool { return rec == nil || slices.Contains(rec.Made, ptr) }
	src := old
	for _, x := range schema.ExportedEvents {
		if x.Agent != a || x.Foreign == "" {
			continue
		}
		removed := false
		for {
			next, ok, err := removeOne(a, src, x.Foreign, drop)
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
	if rec == nil || len(r.Removed) == 0 {
		r.New = src
		return r, nil
	}
	if a == schema.Cursor && slices.Contains(rec.Made, "/version") {
		root, err := parse(src)
		if err != nil {
			return nil, err
		}
		hooks, _ := member(src, root, "hooks", "an object of events")
		left := 0
		if hooks != nil {
			for _, m := range hooks.Value.(*hujson.Object).Members {
				left += entries(&m.Value)
			}
		}
		if left == 0 {
			if i := index(root, "version"); i >= 0 {
				src = scaffold.RemoveEntry(src, root, i)
			}
		} else {
			r.Notes = append(r.Notes, `"version": 1 stays, though export added it: Cursor needs it for the hooks left in the file`)
		}
	}
	// The empty containers of the user's that export filled, deepest
	// first, so that the offsets of the outer ones still hold.
	ptrs := make([]string, 0, len(rec.Filled))
	for p := range rec.Filled {
		ptrs = append(ptrs, p)
	}
	slices.SortFunc(ptrs, func(x, y string) int { return strings.Count(y, "/") - strings.Count(x, "/") })
	for _, p := range ptrs {
		ws := rec.Filled[p]
		was, now := lookup(old, p), lookup(src, p)
		if len(bytes.TrimSpace([]byte(ws))) != 0 || was == nil || now == nil || entries(was) == 0 ||
			entries(now) != 0 || now.EndOffset-now.StartOffset != 2 {
			continue
		}
		src = append(append(append([]byte{}, src[:now.StartOffset+1]...), ws...), src[now.EndOffset-1:]...)
	}
	r.New = src
	return r, nil
}

// removeOne removes one entry of the event that runs the command, and the
// containers it leaves empty that drop allows.
func removeOne(a schema.Agent, src []byte, foreign string, drop func(string) bool) ([]byte, bool, error) {
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
	i, j := find(a, list, foreign)
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
	if len(arr.Elements) > 1 || !drop("/hooks/"+pointerToken(foreign)) {
		return scaffold.RemoveEntry(src, list, i), true, nil
	}
	// The event's list held only this entry: the event goes, and the hooks
	// object when it held only this event.
	obj := hooks.Value.(*hujson.Object)
	if len(obj.Members) == 1 && drop("/hooks") {
		return scaffold.RemoveEntry(src, root, index(root, "hooks")), true, nil
	}
	return scaffold.RemoveEntry(src, hooks, index(hooks, foreign)), true, nil
}

// find returns the index of the entry of list that runs export's command
// for the event, and, when the entry is a group that holds other handlers
// too, the index of the handler in it (else -1). An entry export would
// write in full (its one handler, a matcher selecting every tool or none)
// is taken out whole.
func find(a schema.Agent, list *hujson.Value, foreign string) (int, int) {
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
			if oursCommand(a, foreign, str(obj, "command")) {
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
				if !ok || !oursCommand(a, foreign, str(h, "command")) {
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
var hujsonPos = lazyre.New(`^line (\d+), column (\d+): `)

func parse(src []byte) (*hujson.Value, error) {
	if err := schema.BoundJSONC(src, schema.MaxOtherValues); err != nil {
		return nil, &Error{Line: err.Pos.Line, Col: err.Pos.Col, Msg: err.Msg}
	}
	v, err := hujson.Parse(src)
	if err != nil {
		msg := strings.TrimPrefix(err.Error(), "hujson: ")
		if m := hujsonPos().FindStringSubmatch(msg); m != nil {
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
	p := schema.PosAt(src, off)
	return p.Line, p.Col
}

// entries counts the members of an object or the elements of an array.
func entries(v *hujson.Value) int {
	switch c := v.Value.(type) {
	case *hujson.Object:
		return len(c.Members)
	case *hujson.Array:
		return len(c.Elements)
	}
	return 0
}
