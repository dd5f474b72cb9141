package schema

import (
	"fmt"
	"sort"
	"strings"
)

// Agent names another coding agent whose hook configuration people paste
// into hooks.json by mistake, and which hookctl import converts.
type Agent string

// The agents whose hook configurations hookctl knows.
const (
	Claude Agent = "claude"
	Gemini Agent = "gemini"
	Cursor Agent = "cursor"
	Codex  Agent = "codex"
)

// Agents lists the known agents in the order import tries them.
var Agents = []Agent{Claude, Gemini, Cursor, Codex}

// Title is the agent's product name, for messages.
func (a Agent) Title() string {
	switch a {
	case Claude:
		return "Claude Code"
	case Gemini:
		return "Gemini CLI"
	case Cursor:
		return "Cursor"
	case Codex:
		return "Codex"
	}
	return "another agent"
}

// ForeignEvent is another agent's event and what it becomes in this format.
type ForeignEvent struct {
	// Name is the event as the other agent spells it.
	Name string
	// Agents are the agents that use the name.
	Agents []Agent
	// Event is the equivalent event here, "" when there is none.
	Event Event
	// Matcher is the matcher the equivalent needs when the other agent's
	// event is about one kind of tool (Cursor's beforeShellExecution is
	// PreToolUse on run_command), else "".
	Matcher string
	// Note says what differs, or, when there is no equivalent, why and what
	// to do instead.
	Note string
}

// ForeignTool is another agent's tool name and the tools it corresponds to
// here.
type ForeignTool struct {
	// Name is the tool as the other agent spells it in a matcher.
	Name string
	// Agents are the agents whose tool has this name.
	Agents []Agent
	// Tool is the equivalent as a matcher: one tool name, or an alternation
	// such as "write_to_file|replace_file_content"; "" when there is none.
	Tool string
	// Note says what differs, or why there is no equivalent.
	Note string
}

var (
	claudeCodex = []Agent{Claude, Codex}
	editTools   = "write_to_file|replace_file_content|multi_replace_file_content"
)

// ForeignEvents maps the events of other agents' hook configurations to the
// events of this format. It is the one table that lint's foreign-format rule
// and hookctl import both read.
var ForeignEvents = []ForeignEvent{
	// Claude Code and Codex share their event names.
	{Name: "PreToolUse", Agents: claudeCodex, Event: PreToolUse},
	{Name: "PostToolUse", Agents: claudeCodex, Event: PostToolUse},
	{Name: "Stop", Agents: claudeCodex, Event: Stop},
	{Name: "UserPromptSubmit", Agents: claudeCodex, Event: PreInvocation,
		Note: "PreInvocation fires before every model call, not only after the user's prompt, and its handler reads invocationNum instead of the prompt"},
	{Name: "PostToolUseFailure", Agents: []Agent{Claude}, Event: PostToolUse,
		Note: "PostToolUse fires after every call; a failed one carries a non-empty \"error\" field"},
	{Name: "PermissionRequest", Agents: claudeCodex, Event: PreToolUse,
		Note: "PreToolUse fires before every call and answers with a decision, whether or not a permission prompt would show"},
	{Name: "SessionStart", Agents: []Agent{Claude, Codex, Gemini}, Event: SessionStart,
		Note: "it needs agy 1.1.27 or later, and its handler answers {\"injectSteps\": [{\"ephemeralMessage\": ...}]} where the other agent reads plain text, additionalContext or systemMessage"},
	{Name: "SessionEnd", Agents: claudeCodex,
		Note: "there is no session end event: Stop fires when the execution loop terminates"},
	{Name: "SubagentStart", Agents: []Agent{Claude},
		Note: "there is no sub-agent event: a PreToolUse hook on invoke_subagent sees sub-agents being spawned"},
	{Name: "SubagentStop", Agents: claudeCodex,
		Note: "there is no sub-agent event: Stop fires when the execution loop terminates"},
	{Name: "Notification", Agents: []Agent{Claude},
		Note: "there is no notification event"},
	{Name: "StopFailure", Agents: []Agent{Claude},
		Note: "there is no event for a turn that ends in an error: Stop fires when the execution loop terminates, with terminationReason \"error\""},
	{Name: "FileChanged", Agents: []Agent{Claude},
		Note: "there is no file watch event: a PostToolUse hook on the file-writing tools sees the agent's own edits"},
	{Name: "PreCompact", Agents: claudeCodex,
		Note: "there is no context compaction event"},
	{Name: "PostCompact", Agents: claudeCodex,
		Note: "there is no context compaction event"},
	{Name: "TaskCompleted", Agents: []Agent{Claude},
		Note: "there is no task event: Stop fires when the execution loop terminates"},
	{Name: "Interrupt", Agents: []Agent{Codex},
		Note: "there is no interrupt event"},
	// Gemini CLI.
	{Name: "BeforeTool", Agents: []Agent{Gemini}, Event: PreToolUse},
	{Name: "AfterTool", Agents: []Agent{Gemini}, Event: PostToolUse},
	{Name: "BeforeAgent", Agents: []Agent{Gemini}, Event: PreInvocation,
		Note: "PreInvocation fires before every model call, not once per prompt"},
	{Name: "AfterAgent", Agents: []Agent{Gemini}, Event: PostInvocation,
		Note: "PostInvocation fires after every model call, not once per agent loop"},
	{Name: "BeforeModel", Agents: []Agent{Gemini}, Event: PreInvocation},
	{Name: "AfterModel", Agents: []Agent{Gemini}, Event: PostInvocation},
	{Name: "BeforeToolSelection", Agents: []Agent{Gemini},
		Note: "there is no tool selection event: a PreToolUse hook can deny the tools you would have filtered out"},
	{Name: "PreCompress", Agents: []Agent{Gemini},
		Note: "there is no context compression event"},
	// Cursor spells its events in lower camel case.
	{Name: "beforeShellExecution", Agents: []Agent{Cursor}, Event: PreToolUse, Matcher: "run_command"},
	{Name: "afterShellExecution", Agents: []Agent{Cursor}, Event: PostToolUse, Matcher: "run_command"},
	{Name: "beforeReadFile", Agents: []Agent{Cursor}, Event: PreToolUse, Matcher: "view_file"},
	{Name: "afterFileEdit", Agents: []Agent{Cursor}, Event: PostToolUse, Matcher: editTools},
	{Name: "beforeMCPExecution", Agents: []Agent{Cursor}, Event: PreToolUse,
		Note: "MCP tools keep the names their servers give them: set the matcher to those names"},
	{Name: "afterMCPExecution", Agents: []Agent{Cursor}, Event: PostToolUse,
		Note: "MCP tools keep the names their servers give them: set the matcher to those names"},
	{Name: "beforeSubmitPrompt", Agents: []Agent{Cursor}, Event: PreInvocation,
		Note: "PreInvocation fires before every model call, not only after the user's prompt"},
	{Name: "afterAgentResponse", Agents: []Agent{Cursor}, Event: PostInvocation},
	{Name: "afterAgentThought", Agents: []Agent{Cursor},
		Note: "there is no event for the model's reasoning"},
	{Name: "stop", Agents: []Agent{Cursor}, Event: Stop},
	{Name: "preToolUse", Agents: []Agent{Cursor}, Event: PreToolUse},
	{Name: "postToolUse", Agents: []Agent{Cursor}, Event: PostToolUse},
	{Name: "postToolUseFailure", Agents: []Agent{Cursor}, Event: PostToolUse,
		Note: "PostToolUse fires after every call; a failed one carries a non-empty \"error\" field"},
	{Name: "sessionStart", Agents: []Agent{Cursor}, Event: SessionStart,
		Note: "SessionStart needs agy 1.1.27 or later, and its handler answers {\"injectSteps\": [{\"ephemeralMessage\": ...}]} where Cursor reads additional_context"},
	{Name: "sessionEnd", Agents: []Agent{Cursor},
		Note: "there is no session end event: Stop fires when the execution loop terminates"},
	{Name: "subagentStart", Agents: []Agent{Cursor},
		Note: "there is no sub-agent event: a PreToolUse hook on invoke_subagent sees sub-agents being spawned"},
	{Name: "subagentStop", Agents: []Agent{Cursor},
		Note: "there is no sub-agent event"},
	{Name: "preCompact", Agents: []Agent{Cursor},
		Note: "there is no context compaction event"},
	{Name: "beforeTabFileRead", Agents: []Agent{Cursor},
		Note: "there is no tab completion event"},
	{Name: "afterTabFileEdit", Agents: []Agent{Cursor},
		Note: "there is no tab completion event"},
}

// ForeignTools maps the tool names of other agents to the tools of this
// format. It is the one table that lint's foreign-tool rule and hookctl
// import both read.
var ForeignTools = []ForeignTool{
	// Claude Code.
	{Name: "Bash", Agents: []Agent{Claude}, Tool: "run_command"},
	{Name: "Write", Agents: []Agent{Claude, Cursor}, Tool: "write_to_file"},
	{Name: "Edit", Agents: []Agent{Claude}, Tool: "replace_file_content"},
	{Name: "MultiEdit", Agents: []Agent{Claude}, Tool: "multi_replace_file_content"},
	{Name: "Read", Agents: []Agent{Claude, Cursor}, Tool: "view_file"},
	{Name: "Grep", Agents: []Agent{Claude, Cursor}, Tool: "grep_search"},
	{Name: "Glob", Agents: []Agent{Claude, Cursor}, Tool: "find_by_name"},
	{Name: "LS", Agents: []Agent{Claude, Cursor}, Tool: "list_dir"},
	{Name: "WebFetch", Agents: []Agent{Claude}, Tool: "read_url_content"},
	{Name: "WebSearch", Agents: []Agent{Claude}, Tool: "search_web"},
	{Name: "Task", Agents: []Agent{Claude}, Tool: "invoke_subagent"},
	{Name: "Agent", Agents: []Agent{Claude}, Tool: "invoke_subagent"},
	{Name: "AskUserQuestion", Agents: []Agent{Claude}, Tool: "ask_question"},
	{Name: "BashOutput", Agents: []Agent{Claude}, Tool: "manage_task"},
	{Name: "KillShell", Agents: []Agent{Claude}, Tool: "manage_task"},
	{Name: "KillBash", Agents: []Agent{Claude}, Tool: "manage_task"},
	{Name: "NotebookRead", Agents: []Agent{Claude}, Tool: "view_file"},
	{Name: "NotebookEdit", Agents: []Agent{Claude}, Note: "there is no notebook tool: notebooks are edited with replace_file_content"},
	{Name: "TodoWrite", Agents: []Agent{Claude}, Note: "there is no to-do tool"},
	{Name: "ExitPlanMode", Agents: []Agent{Claude}, Note: "there is no plan mode tool"},
	{Name: "Skill", Agents: []Agent{Claude}, Note: "there is no skill tool"},
	{Name: "SlashCommand", Agents: []Agent{Claude}, Note: "there is no slash command tool"},
	// Gemini CLI.
	{Name: "run_shell_command", Agents: []Agent{Gemini}, Tool: "run_command"},
	{Name: "write_file", Agents: []Agent{Gemini}, Tool: "write_to_file"},
	{Name: "replace", Agents: []Agent{Gemini}, Tool: "replace_file_content"},
	{Name: "read_file", Agents: []Agent{Gemini}, Tool: "view_file"},
	{Name: "read_many_files", Agents: []Agent{Gemini}, Tool: "view_file"},
	{Name: "list_directory", Agents: []Agent{Gemini}, Tool: "list_dir"},
	{Name: "glob", Agents: []Agent{Gemini}, Tool: "find_by_name"},
	{Name: "search_file_content", Agents: []Agent{Gemini}, Tool: "grep_search"},
	{Name: "web_fetch", Agents: []Agent{Gemini}, Tool: "read_url_content"},
	{Name: "google_web_search", Agents: []Agent{Gemini}, Tool: "search_web"},
	{Name: "save_memory", Agents: []Agent{Gemini}, Note: "there is no memory tool"},
	{Name: "write_todos", Agents: []Agent{Gemini}, Note: "there is no to-do tool"},
	// Cursor.
	{Name: "Shell", Agents: []Agent{Cursor}, Tool: "run_command"},
	{Name: "StrReplace", Agents: []Agent{Cursor}, Tool: "replace_file_content"},
	{Name: "Delete", Agents: []Agent{Cursor}, Tool: "run_command", Note: "files are deleted through run_command"},
	{Name: "EditNotebook", Agents: []Agent{Cursor}, Note: "there is no notebook tool: notebooks are edited with replace_file_content"},
	// Codex.
	{Name: "shell", Agents: []Agent{Codex}, Tool: "run_command"},
	{Name: "exec_command", Agents: []Agent{Codex}, Tool: "run_command"},
	{Name: "shell_command", Agents: []Agent{Codex}, Tool: "run_command"},
	{Name: "local_shell", Agents: []Agent{Codex}, Tool: "run_command"},
	{Name: "apply_patch", Agents: []Agent{Codex}, Tool: editTools,
		Note: "a patch may create or edit files: the three file-writing tools cover both"},
	{Name: "view_image", Agents: []Agent{Codex}, Tool: "view_file"},
	{Name: "web_search", Agents: []Agent{Codex}, Tool: "search_web"},
	{Name: "update_plan", Agents: []Agent{Codex}, Note: "there is no plan tool"},
	// Names that other editors' agents use for the same jobs.
	{Name: "edit_file", Tool: "replace_file_content"},
	{Name: "apply_diff", Tool: "replace_file_content"},
	{Name: "multi_file_edit", Tool: "multi_replace_file_content"},
	{Name: "create_file", Tool: "write_to_file"},
	{Name: "read", Tool: "view_file"},
	{Name: "bash", Tool: "run_command"},
}

// LookupForeignEvent returns the entry for another agent's event name,
// spelled exactly as that agent spells it.
func LookupForeignEvent(name string) (ForeignEvent, bool) {
	for _, e := range ForeignEvents {
		if e.Name == name {
			return e, true
		}
	}
	return ForeignEvent{}, false
}

// LookupForeignTool returns the entry for another agent's tool name, spelled
// exactly as that agent spells it.
func LookupForeignTool(name string) (ForeignTool, bool) {
	for _, t := range ForeignTools {
		if t.Name == name {
			return t, true
		}
	}
	return ForeignTool{}, false
}

// ForeignFinding says that a whole file is another agent's hook
// configuration.
type ForeignFinding struct {
	// Agent is the agent whose format the file follows, "" when the shape
	// is not this format's but no known agent's either.
	Agent Agent
	// Span is the key that gives the format away.
	Span Span
	// Reason says what gives it away, such as `a top-level "hooks" wrapper`.
	Reason string
}

// Message is the finding as a sentence, with what to do about it.
func (f ForeignFinding) Message(path string) string {
	if f.Agent == "" {
		return fmt.Sprintf("this is not a hooks.json of this format (%s): the top level maps hook names to definitions such as {\"gate\": {\"PreToolUse\": [...]}}", f.Reason)
	}
	return fmt.Sprintf("this is a %s hook configuration (%s), which the agent ignores: convert it with hookctl import --from %s %s", f.Agent.Title(), f.Reason, f.Agent, path)
}

// DetectForeign reports whether a parsed file is another agent's hook
// configuration as a whole: a top-level "hooks" wrapper, or Cursor's
// "version" key. Foreign event names inside a named hook are not a foreign
// file: they are unknown events of a hook of this format.
func DetectForeign(root *Node) (ForeignFinding, bool) {
	if root == nil || root.Kind != Object {
		return ForeignFinding{}, false
	}
	version := root.Get("version")
	hooks := root.Get("hooks")
	if hooks == nil {
		if version != nil && version.Value.Kind == Number {
			return ForeignFinding{Agent: Cursor, Span: version.KeySpan, Reason: `a top-level "version" key`}, true
		}
		return ForeignFinding{}, false
	}
	if hooks.Value.Kind == Array {
		return ForeignFinding{Span: hooks.KeySpan, Reason: `a top-level "hooks" list`}, true
	}
	if hooks.Value.Kind != Object {
		return ForeignFinding{}, false
	}
	// A hook of this format that happens to be named "hooks", among other
	// hooks of this format, is no wrapper.
	if version == nil && len(root.Members) > 1 {
		native := true
		for _, m := range root.Members {
			if m.Key != "$schema" && !isHookDefinition(m.Value) {
				native = false
			}
		}
		if native {
			return ForeignFinding{}, false
		}
	}
	f := ForeignFinding{Span: hooks.KeySpan, Reason: `a top-level "hooks" wrapper`}
	if version != nil {
		f.Agent = Cursor
		f.Reason = `a "version" key and a "hooks" wrapper`
		return f, true
	}
	f.Agent = agentOfEvents(hooks.Value)
	return f, true
}

// isHookDefinition reports whether n looks like a hook definition of this
// format: an object of hook keys only.
func isHookDefinition(n *Node) bool {
	if n.Kind != Object {
		return false
	}
	for _, m := range n.Members {
		if !isHookKey(m.Key) {
			return false
		}
	}
	return true
}

func isHookKey(k string) bool {
	for _, h := range HookKeys {
		if h == k {
			return true
		}
	}
	return false
}

// agentOfEvents guesses the agent from the event names and matchers under a
// "hooks" wrapper: Gemini CLI and Cursor have names of their own; Codex
// shares Claude Code's and is told apart by its tool names.
func agentOfEvents(hooks *Node) Agent {
	votes := map[Agent]int{}
	known := false
	for _, m := range hooks.Members {
		e, ok := LookupForeignEvent(m.Key)
		known = known || ok
		if ok && len(e.Agents) == 1 {
			votes[e.Agents[0]] += 2
		}
		for _, t := range matchersUnder(m.Value) {
			for _, name := range strings.Split(t, "|") {
				if ft, ok := LookupForeignTool(strings.Trim(name, "^$()")); ok && len(ft.Agents) == 1 {
					votes[ft.Agents[0]]++
				}
			}
		}
	}
	if !known {
		return ""
	}
	best, bestVotes := Claude, 0
	agents := make([]Agent, 0, len(votes))
	for a := range votes {
		agents = append(agents, a)
	}
	sort.Slice(agents, func(i, j int) bool { return agents[i] < agents[j] })
	for _, a := range agents {
		if votes[a] > bestVotes {
			best, bestVotes = a, votes[a]
		}
	}
	return best
}

// matchersUnder returns the matcher strings of the groups in an event's
// array.
func matchersUnder(n *Node) []string {
	var out []string
	if n == nil || n.Kind != Array {
		return nil
	}
	for _, g := range n.Elems {
		if m := g.Get("matcher"); m != nil && m.Value.Kind == String {
			out = append(out, m.Value.Str)
		}
	}
	return out
}
