package convert

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"

	"github.com/hookctl/hookctl/schema"
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
var agentFolders = map[string]bool{".claude": true, ".gemini": true, ".cursor": true, ".codex": true, ".agents": true, ".agent": true}

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
		if agentFolders[filepath.Base(dir)] {
			pl.altBase = parent
		}
		pl.anchorSrc, pl.anchorDst = dir, pl.targetDir
		return pl
	}
	switch {
	case agentFolders[filepath.Base(dir)]:
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
	if c.src.Shape == Wrapped && len(fe.Agents) > 0 && !hasAgent(fe.Agents, c.src.Agent) {
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

func countEntries(n *schema.Node) string {
	count := 0
	walkObjects(n, func(o *schema.Node) {
		if o.Get("command") != nil || o.Get("prompt") != nil {
			count++
		}
	})
	return plural(count, "handler is", "handlers are")
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

// matcher converts an entry's matcher for the target event; ok is false
// when the entry matches only tools that have no equivalent.
func (c *converter) matcher(key string, target schema.Event, fe schema.ForeignEvent, entry *schema.Node) (*string, bool) {
	mm := entry.Get("matcher")
	var text string
	has := mm != nil && mm.Value.Kind == schema.String
	if mm != nil && !has {
		c.report.warn(mm.Value.Span.Start, "the matcher is %s, not a string: left out, so the hook runs for every tool", mm.Value.Describe())
	}
	if has {
		text = mm.Value.Str
	}
	matchesAll := text == "" || text == "*" || text == ".*"
	switch {
	case fe.Matcher != "":
		// Cursor's tool-specific events are about one kind of tool.
		if has && !matchesAll {
			c.report.warn(mm.KeySpan.Start, "the matcher %q narrows %s to some calls; %s has no such filter, so the hook runs for every %s call: filter in the script", text, key, target, fe.Matcher)
		}
		m := fe.Matcher
		return &m, true
	case !target.IsTool():
		if has && !matchesAll {
			c.report.note(mm.KeySpan.Start, "the matcher %q is left out: %s takes no matcher, so the hook runs every time", text, target)
		}
		return nil, true
	case !has:
		return nil, true
	}
	ch := convertMatcher(text)
	pos := mm.Value.Span.Start
	for _, ft := range ch.Dropped {
		why := ft.Note
		if why == "" {
			why = "this agent has no such tool"
		}
		if ch.Nothing {
			c.report.warn(pos, "the matcher %q names only tools with no equivalent (%s: %s), so this group is not carried over", text, ft.Name, why)
			return nil, false
		}
		c.report.warn(pos, "%s has no equivalent (%s), so it is left out of the matcher", ft.Name, why)
	}
	if len(ch.Renamed) > 0 {
		c.report.note(pos, "the matcher %q becomes %q (%s)", text, ch.Text, strings.Join(ch.Renamed, ", "))
	}
	for _, n := range ch.Notes {
		c.report.note(pos, "%s", n)
	}
	if isMCP(text) {
		c.report.note(pos, "MCP tool names are kept as written: MCP tools keep the names their servers give them; check the names this agent shows for them")
	} else if len(ch.Unknown) > 0 {
		c.report.note(pos, "%s %s no tool of this agent: kept as written, for MCP or new tools; check the name", strings.Join(ch.Unknown, ", "), isAre(len(ch.Unknown)))
	}
	if cm, err := schema.CompileMatcher(ch.Text); err != nil {
		c.report.warn(pos, "%v: matchers here are RE2 regular expressions; rewrite it", err)
	} else if !isMCP(text) && len(ch.Unknown) == 0 && !matchesSomeTool(cm) {
		c.report.note(pos, "the matcher %q matches none of this agent's tools: kept as written; check it (hookctl schema lists the tools)", ch.Text)
	}
	return &ch.Text, true
}

// matchesSomeTool reports whether a matcher selects a documented tool or a
// browser tool.
func matchesSomeTool(m schema.Matcher) bool {
	for _, t := range append(schema.ToolNames(), schema.BrowserPrefix+"click") {
		if m.Match(t) {
			return true
		}
	}
	return false
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

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
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
				argv[i] = shellQuote(a)
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
		switch m.Key {
		case "type", "command", "timeout", "timeout_ms", "timeoutMs", "args":
		case "matcher":
			if inGroup {
				c.report.note(m.KeySpan.Start, "a handler's own matcher is left out: the group's matcher decides")
			}
		case "name", "id":
			if m.Value.Kind == schema.String && kebab(m.Value.Str) != "" {
				name = kebab(m.Value.Str)
			}
		case "description":
			c.report.note(m.KeySpan.Start, "the handler's description is left out: JSON has no comments; the hook's name says what it does")
		case "statusMessage", "status_message":
			c.report.note(m.KeySpan.Start, "statusMessage is left out: this agent shows no message while a hook runs")
		case "async":
			if m.Value.Kind == schema.Bool && m.Value.Bool {
				c.report.warn(m.KeySpan.Start, "async is not carried over: the agent waits for every handler here; to keep it from slowing the agent, start the slow work in the background inside the command (slow-job &) or give it a short timeout")
			}
		case "once":
			c.report.warn(m.KeySpan.Start, "once is not carried over: the hook runs every time its event fires; make the script remember that it ran (a marker file) if it must run once")
		case "if":
			c.report.warn(m.KeySpan.Start, "the %q filter is not carried over: the hook runs for every call its matcher selects; filter in the script", m.Key)
		case "failClosed":
			c.report.note(m.KeySpan.Start, "failClosed is left out: a PreToolUse handler that fails here denies the call by default (hookctl run --on-error)")
		case "loop_limit":
			c.report.note(m.KeySpan.Start, "loop_limit is left out: the agent bounds how often a Stop hook can make it continue (hookctl run --max-continues)")
		default:
			c.report.note(m.KeySpan.Start, "%q has no equivalent and is left out", m.Key)
		}
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

// commandReport lists what converting a command changed, and what in it
// or in its scripts (u) will not work here.
func (c *converter) commandReport(target schema.Event, pos schema.Pos, original string, ch commandChange, u *usage) {
	if strings.ContainsRune(original, 0) {
		c.report.warn(pos, "the command holds a NUL character (\\u0000), which no command can carry: the handler fails on every call; remove it")
	}
	if ch.Unparsed {
		c.report.note(pos, "the command is not shell syntax hookctl can read: only the agent's variables were replaced; check its paths, which now start from %s", c.targetName)
	}
	var vars []string
	for _, v := range ch.Vars {
		vars = appendNew(vars, "$"+v)
	}
	switch {
	case ch.Same:
	case len(vars) > 0 && len(ch.Rebased) > 0:
		c.report.note(pos, "this agent does not set %s, and handlers run in %s here: %s", strings.Join(vars, ", "), c.targetName, strings.Join(ch.Rebased, ", "))
	case len(ch.Rebased) > 0:
		c.report.note(pos, "handlers run in %s here, not in the project root: %s", c.targetName, strings.Join(ch.Rebased, ", "))
	}
	switch {
	case ch.Same:
	case ch.ToRoot && ch.Tool == "cd":
		c.report.note(pos, "the command changes folder with a path from the project root, so it goes to the project root first (cd ..)")
	case ch.ToRoot && ch.Tool != "":
		c.report.note(pos, "%s works from the project root, so the command goes there first (cd ..)", ch.Tool)
	}
	for _, miss := range ch.Missing {
		// Once per script: many handlers often share one.
		if !c.noted["missing:"+miss] {
			c.noted["missing:"+miss] = true
			c.report.warn(pos, "the script %s does not exist: copy it there or fix the path", displayPath(miss, cwd()))
		}
	}
	for _, v := range ch.Unset {
		c.report.warn(pos, "$%s is not set by this agent: %s", v, unsetAdvice(v))
	}
	for _, s := range ch.Scripts {
		// What a script runs is reported at the first handler that runs
		// it.
		su := c.scripts[s]
		if c.noted["script:"+s] || su == nil || ch.ToRoot || c.opts.Root == "" || c.src.Shape == Named {
			continue
		}
		c.noted["script:"+s] = true
		if len(su.tools) > 0 {
			c.report.note(pos, "%s runs %s, which looks for the project from the folder it starts in: handlers start in %s here, so have the script go to the workspace root first (cd ..)", displayPath(s, c.places.project), strings.Join(su.tools, ", "), c.targetName)
		}
		if len(su.paths) > 0 {
			c.report.note(pos, "%s names %s from the project root, but handlers start in %s here: have the script go to the workspace root first (cd ..), or write the paths from %s", displayPath(s, c.places.project), strings.Join(su.paths, ", "), c.targetName, c.targetName)
		}
	}
	if u.empty() {
		return
	}
	// A script shared by several handlers is reported at the first.
	where := strings.Join(u.where, ", ")
	if c.noted["usage:"+where] && where != "the command" {
		return
	}
	c.noted["usage:"+where] = true
	agent := c.src.Agent.Title()
	if len(u.inputs) > 0 {
		c.report.warn(pos, "%s %s %s's payload (%s): here the handler reads %s (hookctl schema input %s); rewrite it, or import without --no-adapt", where, reads(u.where), agent, strings.Join(u.inputs, ", "), inputShape(target), target)
	}
	if len(u.outputs) > 0 {
		c.report.warn(pos, "%s %s in %s's way (%s): %s (hookctl schema output %s); rewrite it, or import without --no-adapt", where, answers(u.where), agent, strings.Join(u.outputs, ", "), outputShape(target), target)
	}
	if len(u.env) > 0 {
		c.report.warn(pos, "%s %s %s, which this agent does not set: use the workspace root (the parent of %s) or the payload's fields", where, reads(u.where), strings.Join(prefixed(u.sortedEnv()), ", "), c.targetName)
	}
	if u.exit2 && target != schema.PreToolUse && target != schema.Stop {
		c.report.warn(pos, "%s %s with status 2, which %s takes as a block but %s takes as a failure: %s", where, exits(u.where), agent, target, exit2Advice(target))
	}
}

// commandUsage is what a command and the scripts it runs use of the other
// agent's conventions; each script is read once.
func (c *converter) commandUsage(original string, ch commandChange) *usage {
	u := &usage{}
	u.scanText([]byte(original), "the command", false)
	for _, s := range ch.Scripts {
		su, ok := c.scripts[s]
		if !ok {
			su = &usage{}
			su.scanFile(s, displayPath(s, c.places.project))
			c.scripts[s] = su
		}
		u.merge(su)
	}
	return u
}

func reads(where []string) string {
	if len(where) == 1 {
		return "reads"
	}
	return "read"
}

func answers(where []string) string {
	if len(where) == 1 {
		return "answers"
	}
	return "answer"
}

func exits(where []string) string {
	if len(where) == 1 {
		return "exits"
	}
	return "exit"
}

func prefixed(vars []string) []string {
	out := make([]string, len(vars))
	for i, v := range vars {
		out[i] = "$" + v
	}
	return out
}

func inputShape(e schema.Event) string {
	switch e {
	case schema.PreToolUse, schema.PostToolUse:
		return `{"toolCall": {"name", "args"}} on stdin, the file in toolCall.args.TargetFile and the command in toolCall.args.CommandLine`
	case schema.Stop:
		return `{"executionNum", "terminationReason", "fullyIdle", ...} on stdin`
	case schema.SessionStart:
		return `{"conversationId", "workspacePaths", "modelName", ...} on stdin`
	}
	return `{"invocationNum", "initialNumSteps", ...} on stdin`
}

func outputShape(e schema.Event) string {
	switch e {
	case schema.PreToolUse:
		return `a PreToolUse handler prints {"decision": "allow"|"ask"|"deny", "reason": ...} or exits 2 with the reason on stderr`
	case schema.PostToolUse:
		return "a PostToolUse handler prints {} or nothing"
	case schema.Stop:
		return `a Stop handler prints {"decision": "continue", "reason": ...} to keep the agent going, or exits 2 with the reason on stderr`
	case schema.PreInvocation, schema.SessionStart:
		return fmt.Sprintf(`a %s handler prints {"injectSteps": [{"ephemeralMessage": ...}]}`, e)
	}
	return `a PostInvocation handler prints {"injectSteps": [...], "terminationBehavior": ...}`
}

func exit2Advice(e schema.Event) string {
	switch e {
	case schema.PreInvocation, schema.SessionStart:
		return `to give the model a message, print {"injectSteps": [{"ephemeralMessage": ...}]} and exit 0`
	case schema.PostInvocation:
		return `to stop the agent, print {"terminationBehavior": "terminate"} and exit 0`
	}
	return "a tool that already ran cannot be blocked; move the check to a PreToolUse hook"
}

func unsetAdvice(v string) string {
	switch v {
	case "CLAUDE_TOOL_INPUT", "CLAUDE_FILE_PATHS", "CLAUDE_TOOL_NAME":
		return "the tool call arrives as JSON on stdin (toolCall.name and toolCall.args); read it from there"
	case "CLAUDE_ENV_FILE":
		return "there is no file of variables for later commands"
	}
	if isOneOf(v, pluginVars) {
		return "the file is not in a plugin's hooks/ folder, so hookctl cannot tell which folder it names: write the path of the plugin's files instead"
	}
	return "read what it held from the payload on stdin, or from $HOOKCTL_WORKSPACE when hookctl runs the hook"
}

func cwd() string {
	wd, err := filepath.Abs(".")
	if err != nil {
		return "/"
	}
	return wd
}

func displayPath(path, project string) string {
	if rel, ok := within(project, path); ok {
		return rel
	}
	return path
}

// hookName derives a readable name from the source: the group's own id or
// name, else the event and what the matcher names (pre-tool-use-bash).
func (c *converter) hookName(key string, entry *schema.Node, handlers []*schema.Node) string {
	for _, k := range []string{"id", "name"} {
		if m := entry.Get(k); m != nil && m.Value.Kind == schema.String && kebab(m.Value.Str) != "" {
			return kebab(m.Value.Str)
		}
	}
	name := kebab(key)
	if m := entry.Get("matcher"); m != nil && m.Value.Kind == schema.String {
		if slug := matcherSlug(m.Value.Str); slug != "" {
			name += "-" + slug
		}
	}
	return name
}

// matcherSlug turns a matcher into words for a name: "Edit|Write" is
// "edit-write", "mcp__github__.*" is "mcp-github".
func matcherSlug(m string) string {
	var words []string
	for id := range schema.ParseMatcher(m).Idents() {
		words = append(words, kebab(id))
	}
	var out []string
	length := 0
	for _, w := range words {
		if w == "" || isOneOf(w, out) {
			continue
		}
		if len(out) == 3 || length+len(w) > 40 {
			out = append(out, "more")
			break
		}
		out = append(out, w)
		length += len(w) + 1
	}
	return strings.Join(out, "-")
}

// kebab writes a name in lower case with hyphens between its words:
// "PreToolUse" is "pre-tool-use", "run_command" is "run-command".
func kebab(s string) string {
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case unicode.IsUpper(r):
			if i > 0 && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1])) {
				b.WriteByte('-')
			}
			b.WriteRune(unicode.ToLower(r))
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	parts := strings.FieldsFunc(b.String(), func(r rune) bool { return r == '-' })
	return strings.Join(parts, "-")
}

// addHook adds a converted hook under a name no other hook has.
func (c *converter) addHook(h Hook) {
	if h.Name == "" {
		h.Name = "imported"
	}
	name := h.Name
	for i := 2; c.names[name]; i++ {
		name = fmt.Sprintf("%s-%d", h.Name, i)
	}
	h.Name = name
	c.names[name] = true
	c.hooks = append(c.hooks, h)
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

// execWord writes one word of an exec-form command for /bin/sh, as it was
// passed: quoted, except the agents' path placeholders (${CLAUDE_PLUGIN_ROOT},
// ...), which the agent substitutes in exec form too and which stay
// variables, inside double quotes, for the command's conversion to read.
func execWord(s string) string {
	if !strings.Contains(s, "${") {
		return shellQuote(s)
	}
	var b strings.Builder
	b.WriteByte('"')
	rest := s
	for rest != "" {
		i := strings.Index(rest, "${")
		if i < 0 {
			b.WriteString(escapeDouble(rest))
			break
		}
		j := strings.IndexByte(rest[i:], '}')
		name := ""
		if j > 0 {
			name = rest[i+2 : i+j]
		}
		if name == "" || !isOneOf(name, projectVars) && !isOneOf(name, pluginVars) {
			b.WriteString(escapeDouble(rest[:i+2]))
			rest = rest[i+2:]
			continue
		}
		b.WriteString(escapeDouble(rest[:i]))
		b.WriteString("${" + name + "}")
		rest = rest[i+j+1:]
	}
	b.WriteByte('"')
	return b.String()
}

// escapeDouble escapes what a double-quoted shell word would interpret.
func escapeDouble(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "$", `\$`, "`", "\\`")
	return r.Replace(s)
}

func hasAgent(agents []schema.Agent, a schema.Agent) bool {
	for _, x := range agents {
		if x == a {
			return true
		}
	}
	return false
}

func agentNames(agents []schema.Agent) string {
	names := make([]string, len(agents))
	for i, a := range agents {
		names[i] = a.Title()
	}
	return strings.Join(names, " and ")
}

// nearEvent suggests the agent's own event a mistaken name was meant as.
func nearEvent(key string, names []string, a schema.Agent) string {
	if near := schema.Nearest(key, names); near != "" {
		return fmt.Sprintf(" (%s's own is %s)", a.Title(), near)
	}
	return ""
}

// readsPlainText reports whether the handler being converted printed plain
// text that the other agent gave the model as context: Claude Code's and
// Codex's UserPromptSubmit and SessionStart. Here such text is no answer:
// the runtime rejects it on every call.
func (c *converter) readsPlainText(target schema.Event) bool {
	return c.src.Shape == Wrapped && (c.src.Agent == schema.Claude || c.src.Agent == schema.Codex) &&
		(c.curEvent == "UserPromptSubmit" || c.curEvent == "SessionStart") &&
		(target == schema.PreInvocation || target == schema.SessionStart)
}

// answersJSON reports whether a command or the scripts it runs print a JSON
// answer (this format's injectSteps, or another agent's fields, which the
// report names), rather than plain text.
func answersJSON(command string, scripts []string) bool {
	for _, t := range append([][]byte{[]byte(command)}, readScripts(scripts)...) {
		if bytes.Contains(t, []byte("injectSteps")) {
			return true
		}
		u := &usage{}
		u.scanText(t, "", false)
		if len(u.outputs) > 0 {
			return true
		}
	}
	return false
}

// readScripts reads the scripts a command runs, those that can be read.
func readScripts(scripts []string) [][]byte {
	var out [][]byte
	for _, s := range scripts {
		f, _, err := schema.OpenRegular(s)
		if err != nil {
			continue
		}
		b, _ := io.ReadAll(io.LimitReader(f, maxScan))
		f.Close()
		out = append(out, b)
	}
	return out
}

// asContext wraps a command whose plain output the other agent gave the
// model: its output, when there is some, becomes
// {"injectSteps":[{"ephemeralMessage": OUTPUT}]}, written as a JSON string
// with POSIX tools alone (control characters other than tab and newline
// dropped); its exit status is kept.
func asContext(command string) string {
	return "out=$(sh -c " + shellQuote(command) + `) || exit; [ -z "$out" ] || printf '{"injectSteps":[{"ephemeralMessage":"%s"}]}\n' "$(printf '%s' "$out" | tr -d '\000-\010\013-\037' | sed 's/\\/\\\\/g; s/"/\\"/g; s/	/\\t/g' | awk 'NR > 1 { printf "%s", "\\n" } { printf "%s", $0 }')"`
}
