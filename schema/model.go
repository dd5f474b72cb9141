package schema

import "iter"

// Event names a point in the agent's execution loop at which hooks run.
type Event string

// The six events a hook can handle. SessionStart is newer than the
// format's first documentation: the agent (agy) fires it from version
// 1.1.27 on.
const (
	SessionStart   Event = "SessionStart"
	PreToolUse     Event = "PreToolUse"
	PostToolUse    Event = "PostToolUse"
	PreInvocation  Event = "PreInvocation"
	PostInvocation Event = "PostInvocation"
	Stop           Event = "Stop"
)

// Events lists the six events: SessionStart, which fires first, then the
// five in the order the format's documentation gives them.
var Events = []Event{SessionStart, PreToolUse, PostToolUse, PreInvocation, PostInvocation, Stop}

// SessionStartSince is the first version of the agent (agy) that loads and
// fires SessionStart; older versions do not know the event.
const SessionStartSince = "1.1.27"

// IsTool reports whether the event is about one tool call: its entries are
// matcher groups and its matcher selects tools.
func (e Event) IsTool() bool { return e == PreToolUse || e == PostToolUse }

// Exit2Decision is what a handler of e that exits with status 2 decides:
// "deny" for PreToolUse, "continue" for Stop, and "" for every other
// event, where status 2 is a failure. The dispatch (runtime) and the log
// of runs (tracelog) read it alike.
func (e Event) Exit2Decision() string {
	switch e {
	case PreToolUse:
		return "deny"
	case Stop:
		return "continue"
	}
	return ""
}

// Valid reports whether e is one of the six events.
func (e Event) Valid() bool {
	for _, v := range Events {
		if v == e {
			return true
		}
	}
	return false
}

// Summary is a one-line explanation of the event for people choosing one.
func (e Event) Summary() string {
	switch e {
	case SessionStart:
		return "once when a conversation starts: inject project context (agy 1.1.27 or later)"
	case PreToolUse:
		return "before a tool runs: allow, ask or deny the call"
	case PostToolUse:
		return "after a tool completes: format, lint or log what it did"
	case PreInvocation:
		return "before the model is called: inject reminders or context"
	case PostInvocation:
		return "after each model call: inject steps, continue or terminate the loop"
	case Stop:
		return "when the agent is about to stop: make it continue until work is done"
	}
	return ""
}

// EventNames returns the event names as strings, in documentation order.
func EventNames() []string {
	names := make([]string, len(Events))
	for i, e := range Events {
		names[i] = string(e)
	}
	return names
}

// File is a hooks.json file: an object that maps each hook's name to its
// definition. The workspace file is .agents/hooks.json; the user file is
// ~/.gemini/config/hooks.json. Handlers run in the folder that holds the file,
// so relative script paths are written from there.
type File struct {
	// Associates a JSON Schema with this file for editors. The agent may read
	// this key as a hook and reject the file: prefer your editor's settings
	// (json.schemas in VS Code) to associate the schema.
	Schema string `json:"$schema,omitempty"`

	// Hooks in file order. The JSON Schema describes them as the values of the
	// file's other keys.
	Hooks []*HookDefinition `json:"-"`

	// Path is the file the hooks were read from; Dir is the folder that holds
	// it, where handlers run.
	Path string `json:"-"`
	Dir  string `json:"-"`
}

// HookDefinition is one named hook: the handlers it runs for each event, and
// whether it is enabled.
type HookDefinition struct {
	// Set to false to disable the hook without removing it. Defaults to true.
	Enabled *bool `json:"enabled,omitempty"`

	// Fires once when a conversation starts (agy 1.1.27 or later). Entries
	// are handlers directly (no matcher); a handler may print
	// {"injectSteps": [...]} to give the model project context.
	SessionStart []Handler `json:"SessionStart,omitempty"`

	// Fires before a tool is executed. Each entry is a matcher group: a
	// regular expression that selects tools by name, and the handlers to run.
	// A handler prints {"decision": "allow"|"deny"|"ask"|"force_ask"|"deny_unless_prior_grant"}.
	PreToolUse []MatcherGroup `json:"PreToolUse,omitempty"`

	// Fires after a tool completes. Each entry is a matcher group: a regular
	// expression that selects tools by name, and the handlers to run.
	PostToolUse []MatcherGroup `json:"PostToolUse,omitempty"`

	// Fires before the model is called. Entries are handlers directly (no
	// matcher); a handler may print {"injectSteps": [...]}.
	PreInvocation []Handler `json:"PreInvocation,omitempty"`

	// Fires immediately after each model invocation completes. Entries are
	// handlers directly (no matcher); a handler may print injectSteps and a
	// terminationBehavior.
	PostInvocation []Handler `json:"PostInvocation,omitempty"`

	// Fires when the execution loop terminates. Entries are handlers directly
	// (no matcher); a handler prints {"decision": "continue", "reason": ...} to
	// keep the agent going.
	Stop []Handler `json:"Stop,omitempty"`

	// Name is the hook's key in the file; Pos is where that key stands.
	Name string `json:"-"`
	Pos  Pos    `json:"-"`
}

// IsEnabled reports whether the hook runs: enabled is absent or true.
func (h *HookDefinition) IsEnabled() bool { return h.Enabled == nil || *h.Enabled }

// Groups returns the entries of a tool event, or nil for the other events.
func (h *HookDefinition) Groups(e Event) []MatcherGroup {
	switch e {
	case PreToolUse:
		return h.PreToolUse
	case PostToolUse:
		return h.PostToolUse
	}
	return nil
}

// Handlers returns the handlers of a non-tool event, or nil for tool events.
func (h *HookDefinition) Handlers(e Event) []Handler {
	switch e {
	case SessionStart:
		return h.SessionStart
	case PreInvocation:
		return h.PreInvocation
	case PostInvocation:
		return h.PostInvocation
	case Stop:
		return h.Stop
	}
	return nil
}

// SetGroups sets the entries of a tool event; it does nothing for the
// other events.
func (h *HookDefinition) SetGroups(e Event, gs []MatcherGroup) {
	switch e {
	case PreToolUse:
		h.PreToolUse = gs
	case PostToolUse:
		h.PostToolUse = gs
	}
}

// SetHandlers sets the handlers of a non-tool event; it does nothing for
// tool events.
func (h *HookDefinition) SetHandlers(e Event, hs []Handler) {
	switch e {
	case SessionStart:
		h.SessionStart = hs
	case PreInvocation:
		h.PreInvocation = hs
	case PostInvocation:
		h.PostInvocation = hs
	case Stop:
		h.Stop = hs
	}
}

// HasEvent reports whether the hook has at least one entry for the event.
func (h *HookDefinition) HasEvent(e Event) bool {
	return len(h.Groups(e)) > 0 || len(h.Handlers(e)) > 0
}

// HandlerAt is where a handler stands in a hooks.json: its hook, its event
// and, for a tool event, its matcher group.
type HandlerAt struct {
	Hook  *HookDefinition
	Event Event
	// Group is the handler's matcher group, nil for an event without
	// matchers.
	Group *MatcherGroup
}

// MatcherText is the matcher of the handler's group, "" for an event
// without matchers.
func (at HandlerAt) MatcherText() string {
	if at.Group == nil {
		return ""
	}
	return at.Group.MatcherText()
}

// AllHandlers yields every handler of the hook with where it stands: event
// by event in the order of Events, then in file order. A handler may be
// changed through its pointer.
func (h *HookDefinition) AllHandlers() iter.Seq2[HandlerAt, *Handler] {
	return func(yield func(HandlerAt, *Handler) bool) {
		for _, e := range Events {
			gs := h.Groups(e)
			for i := range gs {
				for j := range gs[i].Hooks {
					if !yield(HandlerAt{Hook: h, Event: e, Group: &gs[i]}, &gs[i].Hooks[j]) {
						return
					}
				}
			}
			hs := h.Handlers(e)
			for i := range hs {
				if !yield(HandlerAt{Hook: h, Event: e}, &hs[i]) {
					return
				}
			}
		}
	}
}

// AllHandlers yields every handler of the file with where it stands: hook
// by hook in file order, then as HookDefinition.AllHandlers. A nil file
// has none.
func (f *File) AllHandlers() iter.Seq2[HandlerAt, *Handler] {
	return func(yield func(HandlerAt, *Handler) bool) {
		if f == nil {
			return
		}
		for _, h := range f.Hooks {
			for at, hd := range h.AllHandlers() {
				if !yield(at, hd) {
					return
				}
			}
		}
	}
}

// MatcherGroup selects tools by name and lists the handlers that run for them.
type MatcherGroup struct {
	// A regular expression (RE2 syntax) matched against the whole tool name,
	// as if written ^(?:matcher)$. "" or "*" (or leaving it out) matches every
	// tool; "run_command|view_file" matches either tool; "browser_.*" matches
	// every tool whose name starts with browser_.
	Matcher *string `json:"matcher,omitempty"`

	// The handlers to run when the matcher selects the tool.
	Hooks []Handler `json:"hooks"`

	// Pos is where the group's object starts in the file.
	Pos Pos `json:"-"`
	// MatcherPos is where the matcher's value stands, when there is one.
	MatcherPos Pos `json:"-"`
}

// MatcherText returns the matcher as written, "" when there is none.
func (g *MatcherGroup) MatcherText() string {
	if g.Matcher == nil {
		return ""
	}
	return *g.Matcher
}

// Handler is a shell command that receives the event's JSON on stdin and may
// print an answer as JSON on stdout. It runs with /bin/sh -c in the folder
// that holds the hooks.json file.
type Handler struct {
	// The kind of handler. Currently only "command" is supported. Defaults to
	// "command".
	Type string `json:"type,omitempty" jsonschema:"enum=command"`

	// The shell command to execute, run in the folder that holds the
	// hooks.json file: in .agents/hooks.json, "./scripts/lint.sh" means
	// .agents/scripts/lint.sh.
	Command string `json:"command" jsonschema:"minLength=1,pattern=\\S"`

	// Timeout in seconds. Defaults to 30. At the timeout the handler's whole
	// process group is stopped.
	Timeout int `json:"timeout,omitempty" jsonschema:"minimum=1"`

	// Pos is where the handler's object starts in the file.
	Pos Pos `json:"-"`
}

// DefaultTimeout is a handler's timeout in seconds when it names none.
const DefaultTimeout = 30

// TimeoutSeconds returns the handler's timeout, the default when unset.
func (h *Handler) TimeoutSeconds() int {
	if h.Timeout <= 0 {
		return DefaultTimeout
	}
	return h.Timeout
}
