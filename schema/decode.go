package schema

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The IDs of the lint rules that report what the parser and the decoder
// find: a file that is not JSON (Config.Syntax), a repeated key
// (Config.Duplicates), and each Problem.Rule. lint's rules are these IDs,
// and list and doctor name them.
const (
	RuleJSONSyntax     = "json-syntax"
	RuleDuplicateKey   = "duplicate-key"
	RuleRootShape      = "root-shape"
	RuleEnabledType    = "enabled-type"
	RuleKeyCase        = "key-case"
	RuleUnknownEvent   = "unknown-event"
	RuleUnknownField   = "unknown-field"
	RuleEventShape     = "event-shape"
	RuleMatcherSyntax  = "matcher-syntax"
	RuleHandlerType    = "handler-type"
	RuleMissingCommand = "missing-command"
	RuleTimeoutValue   = "timeout-value"
)

// Problem is a part of a hooks.json that does not follow the format. Problems
// that drop a part (Dropped is set) keep that part from running; the others
// (an unknown key beside valid ones) leave it running.
type Problem struct {
	// Rule is the lint rule that reports the problem, such as RuleEventShape.
	Rule string
	// Span is the key or value at fault.
	Span Span
	// Msg says what is wrong and what to write instead.
	Msg string
	// Dropped names what does not run because of the problem: "hook",
	// "event", "group", "handler", or "" when the part still runs.
	Dropped string
	// Hook is the name of the hook the problem is in, "" at the top level.
	Hook string
	// Events are the events whose dispatch loses the dropped part; empty
	// with Hook empty means every event (the file as a whole is unusable).
	Events []Event
	// Key is the unknown or misplaced key, for problems about a key.
	Key string
	// Context is the kind of object the key stands in: "file", "hook",
	// "group" or "handler".
	Context string
	// Unreached is set on a problem inside a part that does not run anyway
	// (an unknown event, a hook whose "enabled" is not a boolean, a
	// handler already dropped for another mistake): it is reported so that
	// one reading shows every mistake, and drops nothing more, so Dropped
	// is "".
	Unreached bool
	// Overridden is set on a key-case problem whose value the agent never
	// uses: another key of the same field replaces it, or it is a null
	// that leaves the field as an earlier key set it.
	Overridden bool
}

// Known keys of each kind of object, in documentation order.
var (
	HookKeys    = append([]string{"enabled"}, EventNames()...)
	GroupKeys   = []string{"matcher", "hooks"}
	HandlerKeys = []string{"type", "command", "timeout"}
)

type decoder struct {
	problems []Problem
	// unreached counts the parts being read that do not run anyway: while
	// it is above zero, problems drop nothing more.
	unreached int
	// matchers caches each distinct matcher's compile error: a large file
	// repeats a few matchers many times.
	matchers map[string]error
}

func (d *decoder) compile(matcher string) error {
	if err, ok := d.matchers[matcher]; ok {
		return err
	}
	err := ValidateMatcher(matcher)
	if d.matchers == nil {
		d.matchers = make(map[string]error)
	}
	d.matchers[matcher] = err
	return err
}

// lastOccurrences marks the members of an object whose key does not appear
// again later in it: those are the ones that count. One pass, so that a file
// of many hooks decodes in linear time.
func lastOccurrences(n *Node) []bool {
	last := make([]bool, len(n.Members))
	if len(n.Members) < smallObject {
		for i := range n.Members {
			last[i] = true
			for _, later := range n.Members[i+1:] {
				if later.Key == n.Members[i].Key {
					last[i] = false
					break
				}
			}
		}
		return last
	}
	seen := make(map[string]struct{}, len(n.Members))
	for i := len(n.Members) - 1; i >= 0; i-- {
		k := n.Members[i].Key
		if _, dup := seen[k]; !dup {
			last[i] = true
			seen[k] = struct{}{}
		}
	}
	return last
}

func (d *decoder) add(p Problem) {
	if d.unreached > 0 {
		p.Dropped, p.Unreached = "", true
	}
	d.problems = append(d.problems, p)
}

// null reports the member m, which fills field, when its value is null:
// the agent reads the field as if it were left out, with the effect and
// fix then says. It returns whether the value was null.
func (d *decoder) null(m *Member, field, rule, context, hook string, events []Event, then string) bool {
	if m.Value.Kind != Null {
		return false
	}
	d.add(Problem{Rule: rule, Span: m.Value.Span, Hook: hook, Events: events, Key: field, Context: context,
		Msg: fmt.Sprintf("%q is null, which the agent reads as if it were left out: %s", field, then)})
	return true
}

// nullTimeout is what a null "timeout" leaves and how to mend it.
var nullTimeout = fmt.Sprintf("the handler gets the default %d seconds; write a whole number of seconds, or remove the key", DefaultTimeout)

// quietly reads a part that does not run, for its problems alone.
func (d *decoder) quietly(read func()) {
	d.unreached++
	read()
	d.unreached--
}

// EventMeant returns the event a key of a hook definition is read as or
// was meant as: the event the agent fills with it (its decoder ignores
// case: "pretooluse"), the equivalent of another agent's event
// ("BeforeTool", "beforeShellExecution"), or the event a near-miss
// spelling stands for ("pre_tool_use", "PreToolUes"). ok is false for a
// key that names no event.
func EventMeant(key string) (Event, bool) {
	f := AgentField("hook", key, AgentOptions{})
	if e := Event(f); e.Valid() {
		return e, true
	}
	if f != "" {
		return "", false // "enabled" in another case
	}
	if fe, ok := LookupForeignEvent(key); ok {
		return fe.Event, fe.Event != ""
	}
	if near := Nearest(key, HookKeys); near != "" && near != "enabled" {
		return Event(near), true
	}
	return "", false
}

// fieldSet is which member of an object fills each of the agent's fields:
// the last whose key matches it ignoring case, as the agent's decoder
// (encoding/json) reads it. One pass over the members, so that an object of
// many keys costs no more than reading it.
type fieldSet struct {
	n      *Node
	fields []string
	last   [8]int
	// of holds, for each member, the field it fills, "" for none.
	of []string
}

func fieldsOf(n *Node, context string) *fieldSet {
	fs := &fieldSet{n: n, fields: agentFields(context), of: make([]string, len(n.Members))}
	for i := range fs.last {
		fs.last[i] = -1
	}
	for i := range n.Members {
		f := AgentField(context, n.Members[i].Key, AgentOptions{})
		fs.of[i] = f
		for j, name := range fs.fields {
			if name == f && !(fs.last[j] >= 0 && n.Members[i].Value.Kind == Null && AgentScalar(f)) {
				fs.last[j] = i
			}
		}
	}
	return fs
}

// get returns the member that fills the field, nil when none does.
func (fs *fieldSet) get(name string) *Member {
	for j, f := range fs.fields {
		if f == name && fs.last[j] >= 0 {
			return &fs.n.Members[fs.last[j]]
		}
	}
	return nil
}

// keyCase reports the keys the agent reads only because its decoder
// ignores case ("command" written "Command"), and the keys another key of
// the same field overrides; they run, so nothing is dropped.
func (d *decoder) keyCase(fs *fieldSet, context, hook string, events []Event) {
	for i := range fs.n.Members {
		m := &fs.n.Members[i]
		f := fs.of[i]
		if f == "" {
			continue
		}
		if last := fs.get(f); last != m {
			if m.Value.Kind == Null && AgentScalar(f) {
				d.add(Problem{Rule: RuleKeyCase, Span: m.KeySpan, Hook: hook, Events: events, Key: m.Key, Context: context, Overridden: true,
					Msg: fmt.Sprintf("%q is null, which the agent's decoder skips: %s keeps the value %q gives it at %s; remove the null", m.Key, f, last.Key, last.KeySpan.Start)})
				continue
			}
			if last.Key != m.Key {
				d.add(Problem{Rule: RuleKeyCase, Span: m.KeySpan, Hook: hook, Events: events, Key: m.Key, Context: context, Overridden: true,
					Msg: fmt.Sprintf("%q is overridden by %q at %s: the agent's decoder ignores case, so both fill %s and the last wins; remove one", m.Key, last.Key, last.KeySpan.Start, f)})
			}
			continue
		}
		if m.Key != f {
			d.add(Problem{Rule: RuleKeyCase, Span: m.KeySpan, Hook: hook, Events: events, Key: m.Key, Context: context,
				Msg: fmt.Sprintf("%q is read as %q only because the agent's decoder ignores case; write %q, as other tools expect", m.Key, f, f)})
		}
	}
}

// Decode turns a parsed hooks.json into its hooks, keeping every valid part
// and reporting the others as problems. Where a key is repeated, the last
// occurrence counts, as with the agent's own JSON decoder.
func Decode(root *Node) (*File, []Problem) {
	d := &decoder{}
	f := &File{}
	if root.Kind != Object {
		d.add(Problem{Rule: RuleRootShape, Span: root.Span, Dropped: "file", Context: "file",
			Msg: fmt.Sprintf("the top level of hooks.json must be an object that maps hook names to hook definitions, not %s", root.Describe())})
		return f, d.problems
	}
	last := lastOccurrences(root)
	for i := range root.Members {
		m := &root.Members[i]
		if !last[i] {
			continue // a later occurrence of the key counts
		}
		if m.Key == "$schema" && m.Value.Kind == String {
			f.Schema = m.Value.Str
			continue
		}
		if h := d.hook(m); h != nil {
			f.Hooks = append(f.Hooks, h)
		}
	}
	return f, d.problems
}

// eventsIn lists the event keys an object holds, for problems that drop it.
func eventsIn(n *Node) []Event {
	var evs []Event
	if n == nil || n.Kind != Object {
		return nil
	}
	for _, m := range n.Members {
		if e := Event(AgentField("hook", m.Key, AgentOptions{})); e.Valid() {
			evs = append(evs, e)
		}
	}
	return evs
}

func (d *decoder) hook(m *Member) *HookDefinition {
	v := m.Value
	if v.Kind != Object {
		d.add(Problem{Rule: RuleRootShape, Span: v.Span, Dropped: "hook", Hook: m.Key, Context: "file", Key: m.Key,
			Msg: fmt.Sprintf("the hook %q must be an object of events, such as {\"PreToolUse\": [...]}, not %s", m.Key, v.Describe())})
		return nil
	}
	h := &HookDefinition{Name: m.Key, Pos: m.KeySpan.Start}
	hf := fieldsOf(v, "hook")
	d.keyCase(hf, "hook", m.Key, eventsIn(v))
	if em := hf.get("enabled"); em != nil && !d.null(em, "enabled", RuleEnabledType, "hook", m.Key, eventsIn(v),
		"the hook is enabled; write true or false, or remove the key") {
		if em.Value.Kind != Bool {
			d.add(Problem{Rule: RuleEnabledType, Span: em.Value.Span, Dropped: "hook", Hook: m.Key, Events: eventsIn(v), Key: "enabled", Context: "hook",
				Msg: fmt.Sprintf("\"enabled\" must be true or false without quotes, not %s", em.Value.Describe())})
			// The hook does not run; its events are read for their
			// mistakes all the same.
			d.quietly(func() { d.events(h, hf, v) })
			return nil
		}
		b := em.Value.Bool
		h.Enabled = &b
	}
	d.events(h, hf, v)
	return h
}

// events reads the events of a hook definition into h.
func (d *decoder) events(h *HookDefinition, hf *fieldSet, v *Node) {
	for i := range v.Members {
		em := &v.Members[i]
		f := hf.of[i]
		if f == "enabled" || f != "" && hf.get(f) != em {
			continue
		}
		e := Event(f)
		if f == "" {
			d.add(Problem{Rule: RuleUnknownEvent, Span: em.KeySpan, Hook: h.Name, Key: em.Key, Context: "hook",
				Msg: fmt.Sprintf("%q is not an event: a hook definition holds \"enabled\" and the events %s", em.Key, strings.Join(EventNames(), ", "))})
			// The agent skips it; its inside is read as the event meant,
			// for the mistakes the rename would leave.
			if meant, ok := EventMeant(em.Key); ok {
				d.quietly(func() { d.event(&HookDefinition{Name: h.Name}, meant, em) })
			}
			continue
		}
		d.event(h, e, em)
	}
}

// event reads the value of one event's member into h.
func (d *decoder) event(h *HookDefinition, e Event, em *Member) {
	if em.Value.Kind != Array {
		msg := fmt.Sprintf("%s must be an array of %s, not %s", e, entryKind(e), em.Value.Describe())
		if em.Value.Kind == Null {
			msg = fmt.Sprintf("%s is null: remove it or give it an array of %s", e, entryKind(e))
		}
		d.add(Problem{Rule: RuleEventShape, Span: em.Value.Span, Dropped: "event", Hook: h.Name, Events: []Event{e}, Key: em.Key, Context: "hook", Msg: msg})
		if em.Value.Kind == Object {
			// One entry without its array: read it as the entry.
			one := &Node{Kind: Array, Span: em.Value.Span, Elems: []*Node{em.Value}}
			d.quietly(func() { d.entries(&HookDefinition{Name: h.Name}, e, one) })
		}
		return
	}
	d.entries(h, e, em.Value)
}

// entries reads an event's array into h.
func (d *decoder) entries(h *HookDefinition, e Event, arr *Node) {
	if e.IsTool() {
		h.SetGroups(e, d.groups(h.Name, e, arr))
		return
	}
	h.SetHandlers(e, d.handlers(h.Name, e, arr))
}

func entryKind(e Event) string {
	if e.IsTool() {
		return "matcher groups, such as [{\"matcher\": \"run_command\", \"hooks\": [{\"command\": \"./scripts/check.sh\"}]}]"
	}
	return "handlers, such as [{\"command\": \"./scripts/check.sh\"}]"
}

func (d *decoder) groups(hook string, e Event, arr *Node) []MatcherGroup {
	var out []MatcherGroup
	for _, n := range arr.Elems {
		if n.Kind != Object {
			d.add(Problem{Rule: RuleEventShape, Span: n.Span, Dropped: "group", Hook: hook, Events: []Event{e}, Context: "hook",
				Msg: fmt.Sprintf("each entry of %s must be a matcher group object {\"matcher\": ..., \"hooks\": [...]}, not %s", e, n.Describe())})
			continue
		}
		gf := fieldsOf(n, "group")
		d.keyCase(gf, "group", hook, []Event{e})
		hooks := gf.get("hooks")
		if hooks == nil {
			msg := fmt.Sprintf("each entry of %s is a matcher group: it needs a \"hooks\" array of handlers", e)
			handler := fieldsOf(n, "handler").get("command") != nil
			if handler {
				msg = fmt.Sprintf("%s entries are matcher groups, not handlers: move the handler into a \"hooks\" array, as {\"matcher\": ..., \"hooks\": [{\"command\": ...}]}", e)
			}
			d.add(Problem{Rule: RuleEventShape, Span: n.Span, Dropped: "group", Hook: hook, Events: []Event{e}, Context: "group", Msg: msg})
			if handler {
				d.quietly(func() { d.handlerAlone(hook, e, n, true) })
			}
			continue
		}
		g := MatcherGroup{Pos: n.Span.Start}
		ok := true
		if mm := gf.get("matcher"); mm != nil && !d.null(mm, "matcher", RuleMatcherSyntax, "group", hook, []Event{e},
			"the group matches every tool; write a regular expression such as \"run_command\", or remove the key") {
			if mm.Value.Kind != String {
				d.add(Problem{Rule: RuleMatcherSyntax, Span: mm.Value.Span, Dropped: "group", Hook: hook, Events: []Event{e}, Key: "matcher", Context: "group",
					Msg: fmt.Sprintf("\"matcher\" must be a string holding a regular expression, such as \"run_command|view_file\", not %s", mm.Value.Describe())})
				ok = false
			} else {
				s := mm.Value.Str
				g.Matcher = &s
				g.MatcherPos = mm.Value.Span.Start
				if err := d.compile(s); err != nil {
					d.add(Problem{Rule: RuleMatcherSyntax, Span: mm.Value.Span, Dropped: "group", Hook: hook, Events: []Event{e}, Key: "matcher", Context: "group",
						Msg: err.Error()})
					ok = false
				}
			}
		}
		for ki, k := range n.Members {
			if gf.of[ki] == "" {
				d.add(Problem{Rule: RuleUnknownField, Span: k.KeySpan, Hook: hook, Events: []Event{e}, Key: k.Key, Context: "group",
					Msg: fmt.Sprintf("%q is not a field of a matcher group: a group holds \"matcher\" and \"hooks\"", k.Key)})
			}
		}
		if hooks.Value.Kind != Array {
			d.add(Problem{Rule: RuleEventShape, Span: hooks.Value.Span, Dropped: "group", Hook: hook, Events: []Event{e}, Key: "hooks", Context: "group",
				Msg: fmt.Sprintf("\"hooks\" must be an array of handlers, such as [{\"command\": \"./scripts/check.sh\"}], not %s", hooks.Value.Describe())})
			if hooks.Value.Kind == Object {
				d.quietly(func() { d.handler(hook, e, hooks.Value) })
			}
			continue
		}
		g.Hooks = d.handlers(hook, e, hooks.Value)
		if ok {
			out = append(out, g)
		}
	}
	return out
}

func (d *decoder) handlers(hook string, e Event, arr *Node) []Handler {
	var out []Handler
	for _, n := range arr.Elems {
		if h, ok := d.handler(hook, e, n); ok {
			out = append(out, h)
		}
	}
	return out
}

func (d *decoder) handler(hook string, e Event, n *Node) (Handler, bool) {
	drop := func(rule string, span Span, key, msg string) (Handler, bool) {
		d.add(Problem{Rule: rule, Span: span, Dropped: "handler", Hook: hook, Events: []Event{e}, Key: key, Context: "handler", Msg: msg})
		return Handler{}, false
	}
	if n.Kind == String {
		return drop(RuleEventShape, n.Span, "", fmt.Sprintf("a handler is an object, not a bare string: write {\"command\": %s}", strconv.Quote(n.Str)))
	}
	if n.Kind != Object {
		return drop(RuleEventShape, n.Span, "", fmt.Sprintf("a handler must be an object such as {\"command\": \"./scripts/check.sh\"}, not %s", n.Describe()))
	}
	if hm := fieldsOf(n, "group").get("hooks"); !e.IsTool() && hm != nil {
		drop(RuleEventShape, n.Span, "", fmt.Sprintf("%s takes handlers directly, not matcher groups: list the handlers of \"hooks\" directly in the %s array (the matcher is ignored there)", e, e))
		if hm.Value.Kind == Array {
			d.quietly(func() { d.handlers(hook, e, hm.Value) })
		}
		return Handler{}, false
	}
	return d.handlerAlone(hook, e, n, false)
}

// handlerAlone reads a handler object, wherever it stands (inGroup: where
// a matcher group belongs, beside its matcher). Once one mistake drops it,
// the rest is read for its mistakes alone.
func (d *decoder) handlerAlone(hook string, e Event, n *Node, inGroup bool) (Handler, bool) {
	dropped := false
	drop := func(rule string, span Span, key, msg string) {
		d.add(Problem{Rule: rule, Span: span, Dropped: "handler", Hook: hook, Events: []Event{e}, Key: key, Context: "handler", Msg: msg})
		if !dropped {
			dropped = true
			d.unreached++
		}
	}
	defer func() {
		if dropped {
			d.unreached--
		}
	}()
	hf := fieldsOf(n, "handler")
	h := Handler{Pos: n.Span.Start}
	for ki, k := range n.Members {
		switch hf.of[ki] {
		case "type", "command", "timeout":
		default:
			if inGroup && AgentField("group", k.Key, AgentOptions{}) == "matcher" {
				continue
			}
			d.add(Problem{Rule: RuleUnknownField, Span: k.KeySpan, Hook: hook, Events: []Event{e}, Key: k.Key, Context: "handler",
				Msg: fmt.Sprintf("%q is not a field of a handler: a handler holds \"type\", \"command\" and \"timeout\"", k.Key)})
		}
	}
	d.keyCase(hf, "handler", hook, []Event{e})
	if t := hf.get("type"); t != nil && !d.null(t, "type", RuleHandlerType, "handler", hook, []Event{e},
		"write \"command\", or remove the key") {
		if t.Value.Kind != String || t.Value.Str != "command" {
			drop(RuleHandlerType, t.Value.Span, "type", fmt.Sprintf("the handler type must be \"command\" (the only kind there is), not %s", t.Value.Describe()))
		}
		h.Type = "command"
	}
	c := hf.get("command")
	switch {
	case c == nil:
		drop(RuleMissingCommand, n.Span, "command", "the handler has no \"command\": add the shell command to run, such as \"command\": \"./scripts/check.sh\"")
	case c.Value.Kind != String:
		drop(RuleMissingCommand, c.Value.Span, "command", fmt.Sprintf("\"command\" must be a string holding a shell command, not %s", c.Value.Describe()))
	case strings.TrimSpace(c.Value.Str) == "":
		drop(RuleMissingCommand, c.Value.Span, "command", "\"command\" is empty: write the shell command to run")
	default:
		h.Command = c.Value.Str
	}
	if t := hf.get("timeout"); t != nil && !d.null(t, "timeout", RuleTimeoutValue, "handler", hook, []Event{e},
		nullTimeout) {
		secs, ok := wholeNumber(t.Value)
		if !ok || secs < 1 {
			drop(RuleTimeoutValue, t.Value.Span, "timeout", fmt.Sprintf("\"timeout\" must be a whole number of seconds, 1 or more, without quotes, not %s", t.Value.Describe()))
		}
		h.Timeout = secs
	}
	if dropped {
		return Handler{}, false
	}
	return h, true
}

// MaxTimeout is the longest timeout a handler can have, in seconds (about
// 68 years): the largest whole number the decoder reads into a timeout.
const MaxTimeout = math.MaxInt32

// wholeNumber returns the value of a JSON number written as a whole number
// (10, not 10.0 or 1e1), the only form the agent's decoder reads into an
// integer, up to MaxTimeout.
func wholeNumber(n *Node) (int, bool) {
	if n.Kind != Number {
		return 0, false
	}
	i, err := strconv.ParseInt(n.Str, 10, 32)
	if err != nil {
		return 0, false
	}
	return int(i), true
}
