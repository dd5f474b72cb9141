package convert

import (
	"bytes"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/shellcmd"
)

// Options say where the converted hooks will live.
type Options struct {
	// Target is the hooks.json the hooks are for, as an absolute path: its
	// folder is where their handlers run.
	Target string
	// Root is the workspace root, the parent of the folder that holds a
	// workspace .agents/hooks.json; "" for the user's hooks.json, which
	// serves every workspace.
	Root string
	// Adapt runs the handlers written for the other agent through hookctl
	// adapt, which serves them as that agent would (hookctl import does,
	// unless --no-adapt); without it their commands stay as they are, with
	// a warning for what they read or print in the other agent's way.
	Adapt bool
	// Answer reads a fixed answer a handler prints (echo '{...}') by its
	// agent's rules for its event, as hookctl adapt would, and returns
	// this format's answer and what had no equivalent; ok is false when it
	// cannot be told. The caller gives runtime/adapter's; nil translates
	// none.
	Answer func(a schema.Agent, event string, stdout []byte) (native []byte, notes []string, ok bool)
}

// Hook is one converted hook.
type Hook struct {
	Name string
	Def  *schema.HookDefinition
	// Pos is where the hook comes from in the source file.
	Pos schema.Pos
}

// Result is a converted configuration and its report.
type Result struct {
	Source *Source
	Hooks  []Hook
	Report *Report
}

type converter struct {
	src    *Source
	opts   Options
	places places
	report *Report
	hooks  []Hook
	names  map[string]bool
	// noted keeps each remark about an event from repeating for every
	// group of that event.
	noted map[string]bool
	// event is the other agent's event being converted.
	curEvent string
	// targetName names the converted file's folder for messages, such as
	// ".agents/".
	targetName string
	// scripts are what each script the commands run uses, read once.
	scripts map[string]*usage
}

// Convert converts a recognised source into hooks for opts.Target.
func Convert(src *Source, opts Options) *Result {
	c := &converter{
		src:     src,
		opts:    opts,
		report:  &Report{Path: src.Path},
		names:   map[string]bool{},
		noted:   map[string]bool{},
		scripts: map[string]*usage{},
	}
	c.places = c.placesFor()
	c.targetName = filepath.Base(filepath.Dir(opts.Target)) + "/"
	if opts.Root == "" {
		c.targetName = "~/.gemini/config/"
	}
	if src.Shape == Wrapped {
		c.wrapped()
	} else {
		c.named()
	}
	c.report.sort()
	return &Result{Source: src, Hooks: c.hooks, Report: c.report}
}

// agentFolders are the folders whose parent is the project root the
// handlers of a file inside them ran in.
var agentFolders = sync.OnceValue(func() map[string]bool {
	return map[string]bool{".claude": true, ".gemini": true, ".cursor": true, ".codex": true, ".agents": true, ".agent": true}
})

// placesFor works out where the source's handlers ran and where the
// converted ones will run.
func (c *converter) placesFor() places {
	dir := filepath.Dir(c.src.Abs)
	pl := places{base: dir, project: dir, targetDir: filepath.Dir(c.opts.Target), targetRoot: c.opts.Root}
	parent := filepath.Dir(dir)
	if c.src.Shape == Named {
		// Already this format: its handlers ran where they will run, its
		// folder corresponds to the target's, and the project root to the
		// folder above.
		pl.project = parent
		if agentFolders()[filepath.Base(dir)] {
			pl.altBase = parent
		}
		pl.anchorSrc, pl.anchorDst = dir, pl.targetDir
		return pl
	}
	switch {
	case agentFolders()[filepath.Base(dir)]:
		pl.base, pl.project, pl.altBase = parent, parent, dir
		if c.src.Agent == schema.Cursor && filepath.Base(dir) == ".cursor" && isHome(parent) {
			// The user's ~/.cursor/hooks.json runs in ~/.cursor.
			pl.base, pl.altBase = dir, ""
		}
	case filepath.Base(dir) == "hooks" && (agentOfPath(c.src.Abs) != "" || namesPluginRoot(c.src.Src)):
		// A plugin's hooks/hooks.json: its commands name the plugin's
		// files through $CLAUDE_PLUGIN_ROOT and run in the user's project.
		pl.plugin = parent
		if c.opts.Root != "" {
			pl.base, pl.project = c.opts.Root, c.opts.Root
		}
	}
	pl.anchorSrc, pl.anchorDst, pl.strict = pl.project, c.opts.Root, true
	return pl
}

// namesPluginRoot reports whether a file's commands use a plugin's folder.
func namesPluginRoot(src []byte) bool {
	for _, v := range pluginVars {
		if bytes.Contains(src, []byte(v)) {
			return true
		}
	}
	return false
}

func isHome(dir string) bool {
	home, err := userHome()
	return err == nil && home == dir
}

// wrapped converts a file with a top-level "hooks" object: every matcher
// group (or Cursor entry) becomes a hook of its own.
func (c *converter) wrapped() {
	disabled := c.disabledNames()
	for i := range c.src.Events.Members {
		m := &c.src.Events.Members[i]
		if c.src.Events.Get(m.Key) != m {
			c.report.warn(m.KeySpan.Start, "%s is repeated: this one is left out, as %s reads only the last", m.Key, c.src.Agent.Title())
			continue
		}
		if c.src.Agent == schema.Gemini && (m.Key == "enabled" || m.Key == "disabled" || m.Key == "notifications") {
			continue // Gemini CLI's own switches, read by disabledNames
		}
		for _, h := range c.event(m, "") {
			c.addHook(h)
		}
	}
	all := false
	if d := c.src.Root.Get("disableAllHooks"); d != nil && d.Value.Kind == schema.Bool && d.Value.Bool {
		all = true
		c.report.note(d.KeySpan.Start, "disableAllHooks is true: every converted hook is written with \"enabled\": false")
	}
	if e := c.src.Events.Get("enabled"); e != nil && e.Value.Kind == schema.Bool && !e.Value.Bool {
		all = true
		c.report.note(e.KeySpan.Start, "hooks are switched off (\"enabled\": false): every converted hook is written with \"enabled\": false")
	}
	for i := range c.hooks {
		if all || disabled[c.hooks[i].Name] {
			f := false
			c.hooks[i].Def.Enabled = &f
		}
	}
}

// disabledNames reads Gemini CLI's lists of switched-off hooks.
func (c *converter) disabledNames() map[string]bool {
	out := map[string]bool{}
	for _, n := range []*schema.Node{c.src.Events, nodeOf(c.src.Root.Get("hooksConfig"))} {
		d := n.Get("disabled")
		if d == nil || d.Value.Kind != schema.Array {
			continue
		}
		for _, e := range d.Value.Elems {
			if e.Kind == schema.String {
				out[kebab(e.Str)] = true
			}
		}
		if len(d.Value.Elems) > 0 {
			c.report.note(d.KeySpan.Start, "the hooks listed in \"disabled\" are written with \"enabled\": false")
		}
	}
	return out
}

func nodeOf(m *schema.Member) *schema.Node {
	if m == nil {
		return nil
	}
	return m.Value
}

// named converts a hooks.json of this format whose hooks hold other agents'
// events, matcher groups where handlers belong, or other agents' tools.
func (c *converter) named() {
	for i := range c.src.Root.Members {
		m := &c.src.Root.Members[i]
		if m.Key == "$schema" {
			c.report.note(m.KeySpan.Start, "\"$schema\" is left out: the agent may read it as a hook; associate the schema in your editor's settings instead")
			continue
		}
		if c.src.Root.Get(m.Key) != m {
			c.report.warn(m.KeySpan.Start, "the hook %q is repeated: this one is left out, as JSON decoders keep only the last", m.Key)
			continue
		}
		if m.Value.Kind != schema.Object {
			c.report.warn(m.Value.Span.Start, "the hook %q is %s, not an object of events: not carried over", m.Key, m.Value.Describe())
			continue
		}
		def := &schema.HookDefinition{}
		for j := range m.Value.Members {
			em := &m.Value.Members[j]
			if em.Key == "enabled" {
				if em.Value.Kind == schema.Bool {
					b := em.Value.Bool
					def.Enabled = &b
				} else {
					c.report.warn(em.Value.Span.Start, "\"enabled\" is %s, not true or false: left out, so the hook is enabled", em.Value.Describe())
				}
				continue
			}
			for _, h := range c.event(em, m.Key) {
				mergeDef(def, h.Def)
			}
		}
		if isEmpty(def) {
			c.report.warn(m.KeySpan.Start, "nothing of the hook %q could be carried over, so it is left out", m.Key)
			continue
		}
		c.addHook(Hook{Name: m.Key, Def: def, Pos: m.KeySpan.Start})
	}
}

// event converts one event key and its entries into hooks. hook is the
// name of the hook of this format the event stands in, "" in a wrapped
// file.
func (c *converter) event(m *schema.Member, hook string) []Hook {
	key := m.Key
	c.curEvent = key
	target, fe, ok := c.lookupEvent(key)
	if !ok {
		msg := fmt.Sprintf("%s is not a %s event, nor an event of this format, so its hooks are not carried over", key, c.src.Agent.Title())
		if near := schema.Nearest(key, c.eventNames()); near != "" {
			msg += fmt.Sprintf(" (did you mean %s?)", near)
		}
		c.report.warn(m.KeySpan.Start, "%s", msg)
		return nil
	}
	if target == "" {
		c.report.warn(m.KeySpan.Start, "%s has no equivalent, so its %s not carried over: %s", key, countEntries(m.Value), fe.Note)
		return nil
	}
	if m.Value.Kind != schema.Array {
		c.report.warn(m.Value.Span.Start, "%s is %s, not an array of entries: not carried over", key, m.Value.Describe())
		return nil
	}
	if c.src.Shape == Wrapped && len(fe.Agents) > 0 && !slices.Contains(fe.Agents, c.src.Agent) {
		// Another agent's spelling (Cursor's preToolUse in Claude Code's
		// settings): the agent never ran these hooks, and here they will.
		c.report.warn(m.KeySpan.Start, "%s is not a %s event (it is %s's), so %s never ran these hooks; they are carried over as %s and will run here: check that they should%s",
			key, c.src.Agent.Title(), agentNames(fe.Agents), c.src.Agent.Title(), target, nearEvent(key, c.eventNames(), c.src.Agent))
	}
	if fe.Note != "" && !c.noted[key] {
		c.noted[key] = true
		if key == string(target) {
			c.report.note(m.KeySpan.Start, "%s is %s here too, but %s", key, target, fe.Note)
		} else {
			c.report.note(m.KeySpan.Start, "%s becomes %s: %s", key, target, fe.Note)
		}
	}
	var out []Hook
	for _, entry := range m.Value.Elems {
		out = append(out, c.entry(key, target, fe, entry, hook)...)
	}
	return out
}

// lookupEvent maps an event name: this format's own names stand for
// themselves, other names go through the table.
func (c *converter) lookupEvent(key string) (schema.Event, schema.ForeignEvent, bool) {
	if fe, ok := schema.LookupForeignEvent(key); ok {
		return fe.Event, fe, true
	}
	if e := schema.Event(key); e.Valid() {
		return e, schema.ForeignEvent{Name: key, Event: e}, true
	}
	return "", schema.ForeignEvent{}, false
}

// eventNames lists the events of the source's agent, for suggestions.
func (c *converter) eventNames() []string {
	var out []string
	for _, fe := range schema.ForeignEvents {
		for _, a := range fe.Agents {
			if a == c.src.Agent {
				out = append(out, fe.Name)
			}
		}
	}
	return out
}

// entry converts one element of an event's array: a matcher group, or a
// handler standing alone (Cursor's shape, or a lifecycle event of this
// format).
func (c *converter) entry(key string, target schema.Event, fe schema.ForeignEvent, entry *schema.Node, hook string) []Hook {
	if entry.Kind != schema.Object {
		c.report.warn(entry.Span.Start, "an entry of %s is %s, not an object: not carried over", key, entry.Describe())
		return nil
	}
	var handlers []*schema.Node
	group := entry.Get("hooks") != nil
	if group {
		hs := entry.Get("hooks").Value
		if hs.Kind != schema.Array {
			c.report.warn(hs.Span.Start, "\"hooks\" is %s, not an array of handlers: this group is not carried over", hs.Describe())
			return nil
		}
		handlers = hs.Elems
		c.groupExtras(entry)
		if seq := entry.Get("sequential"); seq != nil && seq.Value.Kind == schema.Bool && seq.Value.Bool && len(handlers) > 1 {
			c.report.warn(seq.KeySpan.Start, "sequential is true, but handlers here start together: if the order matters, join the commands into one (first && second)")
		}
	} else {
		handlers = []*schema.Node{entry}
	}
	if len(handlers) == 0 {
		c.report.note(entry.Span.Start, "this group of %s has no handlers: nothing to carry over", key)
		return nil
	}
	matcher, ok := c.matcher(key, target, fe, entry)
	if !ok {
		return nil
	}
	var converted []schema.Handler
	var names []string
	for _, h := range handlers {
		hd, name, ok := c.handler(target, h, group)
		if ok {
			converted = append(converted, hd)
			names = append(names, name)
		}
	}
	if len(converted) == 0 {
		return nil
	}
	pos := entry.Span.Start
	base := c.hookName(key, entry, handlers)
	if hook != "" {
		base = hook
	}
	// Handlers with names of their own (Gemini CLI's) become hooks of their
	// own, so the names survive.
	if hook == "" && allNamed(names) {
		var out []Hook
		for i, h := range converted {
			out = append(out, Hook{Name: names[i], Def: defFor(target, matcher, []schema.Handler{h}), Pos: handlers[i].Span.Start})
		}
		return out
	}
	return []Hook{{Name: base, Def: defFor(target, matcher, converted), Pos: pos}}
}

func allNamed(names []string) bool {
	for _, n := range names {
		if n == "" {
			return false
		}
	}
	return len(names) > 0
}

// groupExtras reports the keys of a matcher group that have no place here.
func (c *converter) groupExtras(entry *schema.Node) {
	for _, m := range entry.Members {
		switch m.Key {
		case "matcher", "hooks", "sequential", "id", "name":
		case "description":
			c.report.note(m.KeySpan.Start, "the group's description is left out: JSON has no comments; the hook's name says what it does")
		default:
			c.report.note(m.KeySpan.Start, "the group's %q has no equivalent and is left out", m.Key)
		}
	}
}

// stringList returns the strings of an array that holds only strings.
func stringList(n *schema.Node) ([]string, bool) {
	out := make([]string, 0, len(n.Elems))
	for _, e := range n.Elems {
		if e.Kind != schema.String {
			return nil, false
		}
		out = append(out, e.Str)
	}
	return out, true
}

// handler converts one handler. name is its own name, when the source
// gives it one.
func (c *converter) handler(target schema.Event, h *schema.Node, inGroup bool) (schema.Handler, string, bool) {
	if h.Kind != schema.Object {
		c.report.warn(h.Span.Start, "a handler is %s, not an object with a command: not carried over", h.Describe())
		return schema.Handler{}, "", false
	}
	if t := h.Get("type"); t != nil {
		typ := t.Value.Str
		if t.Value.Kind != schema.String || (typ != "command" && typ != "") {
			what := t.Value.Describe()
			if t.Value.Kind == schema.String {
				what = strconv.Quote(typ)
			}
			c.report.warn(t.Value.Span.Start, "a handler of type %s is not carried over: handlers here are shell commands only; write a script that makes the check and answers as the event expects", what)
			return schema.Handler{}, "", false
		}
	}
	cm := h.Get("command")
	command := ""
	if cm != nil && cm.Value.Kind == schema.String {
		command = cm.Value.Str
	} else if cm != nil && cm.Value.Kind == schema.Array {
		// Some Codex builds take the program and its arguments as a list.
		if argv, ok := stringList(cm.Value); ok && len(argv) > 0 {
			for i, a := range argv {
				argv[i] = shellcmd.Quote(a)
			}
			command = strings.Join(argv, " ")
			c.report.note(cm.Value.Span.Start, "the command's list of arguments becomes one shell command: %s", command)
		}
	}
	if a := h.Get("args"); a != nil && cm != nil && strings.TrimSpace(command) != "" {
		// Claude Code's exec form: command is the program, args its
		// arguments, each one word as written, with no shell. Dropping args
		// would leave the program alone (a bare bash reading the payload
		// as its script): they become words of the shell command.
		argv, ok := stringList(a.Value)
		if !ok || a.Value.Kind != schema.Array {
			c.report.warn(a.Value.Span.Start, "\"args\" is %s, not a list of strings: the handler is not carried over, as its program would run without its arguments", a.Value.Describe())
			return schema.Handler{}, "", false
		}
		words := []string{execWord(command)}
		for _, arg := range argv {
			words = append(words, execWord(arg))
		}
		command = strings.Join(words, " ")
		c.report.note(a.KeySpan.Start, "the program and its \"args\" (exec form, no shell) become one shell command, each argument one word: %s", command)
	}
	if cm == nil || strings.TrimSpace(command) == "" {
		what := "no command"
		if cm != nil {
			what = "a command that is " + cm.Value.Describe()
		}
		c.report.warn(h.Span.Start, "a handler with %s is not carried over", what)
		return schema.Handler{}, "", false
	}
	out := schema.Handler{Type: "command"}
	out.Timeout = c.timeout(h)
	var name string
	for _, m := range h.Members {
		if (m.Key == "name" || m.Key == "id") && m.Value.Kind == schema.String && kebab(m.Value.Str) != "" {
			name = kebab(m.Value.Str)
		}
		c.handlerField(m, inGroup)
	}
	ch := c.places.convertCommand(command)
	out.Command = ch.Command
	pos := cm.Value.Span.Start
	u := c.commandUsage(command, ch)
	switch {
	case c.literalAnswer(pos, &out, u):
		u = u.adapted()
	case c.opts.Adapt && c.needsAdapt(command, ch):
		out.Command = wrapAdapt(c.src.Agent, c.adaptEvent(target), out.Command)
		c.report.note(pos, "%s: it runs through hookctl adapt, which hands it %s's payload and reads its answer as %s does", c.adaptWhy(target, u), c.src.Agent.Title(), c.src.Agent.Title())
		u = u.adapted()
	case c.readsPlainText(target) && !answersJSON(command, ch.Scripts):
		out.Command = asContext(out.Command)
		c.report.note(pos, "%s adds what a %s handler prints to the model's context, where %s here takes only {\"injectSteps\": [...]}: the command's output is wrapped into an ephemeral message (empty output gives none)", c.src.Agent.Title(), c.curEvent, target)
	}
	c.commandReport(target, pos, command, ch, u)
	return out, name, true
}

// timeout converts a handler's timeout into whole seconds.
func (c *converter) timeout(h *schema.Node) int {
	// A file of this format already counts in seconds.
	m, ms := h.Get("timeout"), c.src.Agent == schema.Gemini && c.src.Shape == Wrapped
	for _, k := range []string{"timeout_ms", "timeoutMs"} {
		if alt := h.Get(k); alt != nil {
			m, ms = alt, true
		}
	}
	if m == nil {
		return 0
	}
	v, ok := timeoutNumber(m.Value)
	if !ok || v <= 0 {
		c.report.warn(m.Value.Span.Start, "the timeout is %s, not a positive number: left out, so the default of %d seconds applies", m.Value.Describe(), schema.DefaultTimeout)
		return 0
	}
	secs, unit := v, "s"
	if ms {
		secs, unit = v/1000, "ms"
	}
	if secs > schema.MaxTimeout {
		// Converted as it is, it would wrap around to a small number, or be
		// one run refuses: the longest there is comes closest.
		c.report.warn(m.Value.Span.Start, "the timeout of %s %s is longer than any hookctl can run: it becomes %d s (about 68 years), the longest there is", m.Value.Str, unit, schema.MaxTimeout)
		return schema.MaxTimeout
	}
	out := int(math.Ceil(secs - 1e-9))
	out = max(out, 1)
	switch {
	case ms && float64(out) != v/1000:
		c.report.note(m.Value.Span.Start, "the timeout of %s ms becomes %d s: timeouts here are whole seconds, rounded up", m.Value.Str, out)
	case ms && !c.noted["ms"]:
		c.noted["ms"] = true
		c.report.note(m.Value.Span.Start, "the timeout of %s ms becomes %d s: timeouts here are in seconds, and so every timeout is converted", m.Value.Str, out)
	case ms:
	case float64(out) != v:
		c.report.note(m.Value.Span.Start, "the timeout of %s s becomes %d s: timeouts here are whole seconds", m.Value.Str, out)
	}
	if schema.ReadsAsMilliseconds(float64(out)) {
		c.report.note(m.Value.Span.Start, "a timeout of %d s is long: hookctl lint takes it for milliseconds written by mistake", out)
	}
	return out
}

// timeoutNumber reads a JSON number as a timeout; one too large for a
// float64 (1e400) is +Inf, longer than any timeout.
func timeoutNumber(n *schema.Node) (float64, bool) {
	if n == nil || n.Kind != schema.Number {
		return 0, false
	}
	f, err := strconv.ParseFloat(n.Str, 64)
	if err != nil && !math.IsInf(f, 1) {
		return 0, false
	}
	return f, true
}

// defFor builds a hook definition with one event.
func defFor(e schema.Event, matcher *string, handlers []schema.Handler) *schema.HookDefinition {
	def := &schema.HookDefinition{}
	if e.IsTool() {
		def.SetGroups(e, []schema.MatcherGroup{{Matcher: matcher, Hooks: handlers}})
	} else {
		def.SetHandlers(e, handlers)
	}
	return def
}

// mergeDef appends the events of b to a.
func mergeDef(a, b *schema.HookDefinition) {
	for _, e := range schema.Events {
		if e.IsTool() {
			a.SetGroups(e, append(a.Groups(e), b.Groups(e)...))
		} else {
			a.SetHandlers(e, append(a.Handlers(e), b.Handlers(e)...))
		}
	}
}

func isEmpty(d *schema.HookDefinition) bool {
	for _, e := range schema.Events {
		if d.HasEvent(e) {
			return false
		}
	}
	return true
}
