package schema

import (
	"fmt"
	"reflect"
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

// ParseAgent reads an agent's name as a command line gives it (hookctl
// run --from, import --from, adapt --from, export --to), in any case. An
// unknown name is an error that names the option, flag, and the agents.
func ParseAgent(flag, s string) (Agent, error) {
	for _, a := range Agents {
		if string(a) == strings.ToLower(s) {
			return a, nil
		}
	}
	names := make([]string, len(Agents))
	for i, a := range Agents {
		names[i] = string(a)
	}
	return "", fmt.Errorf("%s must be %s, not %q", flag, strings.Join(names, ", "), s)
}

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

// ForeignSource is a public document a row of the tables below comes from.
type ForeignSource struct {
	// Key names the source in the rows.
	Key string
	// Title and URL say what and where it is.
	Title string
	URL   string
	// Version is the agent's version or the document's date the row was
	// read against.
	Version string
}

// ForeignSources are the documents the mapping tables were read from. The
// rows cite them by key; docs/agents.md and docs/import.md print them.
var ForeignSources = []ForeignSource{
	{Key: "claude-hooks", Title: "Claude Code hooks reference", URL: "https://code.claude.com/docs/en/hooks",
		Version: "Claude Code 2.1.240, 2026-08-22"},
	{Key: "claude-tools", Title: "Claude Code tools reference", URL: "https://code.claude.com/docs/en/tools-reference",
		Version: "Claude Code 2.1.240, 2026-08-22"},
	{Key: "claude-tools-2025", Title: "Claude Code settings, tools available to Claude (earlier releases)", URL: "https://docs.anthropic.com/en/docs/claude-code/settings",
		Version: "2025-07-09 (LS, MultiEdit, NotebookRead) and 2025-12-05 (BashOutput, KillShell, SlashCommand, Task)"},
	{Key: "claude-sdk-2025", Title: "Claude Code SDK tool reference (earlier releases)", URL: "https://docs.anthropic.com/en/docs/claude-code/sdk",
		Version: "before 2025-09-29 (KillBash)"},
	{Key: "gemini-hooks", Title: "Gemini CLI hooks reference", URL: "https://github.com/google-gemini/gemini-cli/blob/main/docs/hooks/reference.md",
		Version: "gemini-cli 0.56.0-nightly, 2026-08-21; decision \"ask\" from the source, packages/core/src/hooks/types.ts, since v0.36.0"},
	{Key: "gemini-tools", Title: "Gemini CLI tool and parameter names", URL: "https://github.com/google-gemini/gemini-cli/blob/main/packages/core/src/tools/definitions/base-declarations.ts",
		Version: "gemini-cli 0.56.0-nightly, 2026-08-21 (search_file_content and absolute_path: earlier releases)"},
	{Key: "gemini-runner", Title: "Gemini CLI hook runner and aggregator", URL: "https://github.com/google-gemini/gemini-cli/blob/main/packages/core/src/hooks/hookRunner.ts",
		Version: "gemini-cli 0.56.0-nightly at 5411f113cafae26161b4969b0237b8e1e024e2c2 (2026-08-21): hookRunner.ts reads stdout, else stderr, as the answer, whatever the status; hookAggregator.ts and types.ts merge and read it"},
	{Key: "cursor-hooks", Title: "Cursor hooks", URL: "https://cursor.com/docs/hooks",
		Version: "docs snapshot 2026-08-25"},
	{Key: "cursor-observed", Title: "Cursor tool names seen in hook payloads but not documented", URL: "https://cursor.com/docs/hooks",
		Version: "the page names Shell, Read, Write, Grep, Delete and Task; the argument names are not documented"},
	{Key: "codex-hooks", Title: "Codex hooks", URL: "https://developers.openai.com/codex/hooks",
		Version: "page of 2026-06-27, with the schemas of codex-rs/hooks/schema/generated"},
	{Key: "codex-engine", Title: "Codex hook engine: how it reads an answer", URL: "https://github.com/openai/codex/tree/main/codex-rs/hooks/src",
		Version: "engine/output_parser.rs at 0ea83813ef8631debc8ad777641fe532f0deffc2, events/pre_tool_use.rs and events/user_prompt_submit.rs at 0082977cebb9fbd524046914dbc4305e5b8e0b95, with their tests"},
	{Key: "codex-tools", Title: "Codex tool names in configurations", URL: "https://github.com/openai/codex",
		Version: "tool names its configurations and matchers use (shell, exec_command, apply_patch, ...)"},
	{Key: "editors", Title: "tool names of other editors' agents, seen in real configurations", URL: "",
		Version: "no single public reference"},
}

// LookupForeignSource returns the source of a key.
func LookupForeignSource(key string) (ForeignSource, bool) {
	for _, s := range ForeignSources {
		if s.Key == key {
			return s, true
		}
	}
	return ForeignSource{}, false
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
	// Source is the key of the document the row comes from.
	Source string
}

// ForeignArg maps one argument of another agent's tool to an argument of
// this format's tool, so that a handler reads the call as this agent sends
// it, and an overwrite can be told back in the other agent's words.
type ForeignArg struct {
	// From is the other agent's name for the argument; Also are other
	// names it has had, read when From is absent.
	From string
	Also []string
	// To is this format's name for it.
	To string
	// List wraps a single value into a list (one glob into Includes).
	List bool
	// Elems maps the fields of each object in an array argument.
	Elems []ForeignArg
	// Format builds the value from the other's, "{}" standing for it
	// quoted for /bin/sh: "rm -- {}". Such a value cannot be told back.
	Format string
}

// ForeignTool is another agent's tool name and the tools it corresponds to
// here.
type ForeignTool struct {
	// Name is the tool as the other agent spells it in a matcher and in its
	// hook payloads.
	Name string
	// Agents are the agents whose tool has this name.
	Agents []Agent
	// Tool is the equivalent as a matcher: one tool name, or an alternation
	// such as "write_to_file|replace_file_content"; "" when there is none.
	// A row whose Tool is its Name carries only argument names: the tool
	// has this format's name but other arguments.
	Tool string
	// Note says what differs, or why there is no equivalent.
	Note string
	// Args map the call's arguments; arguments not listed keep their
	// names.
	Args []ForeignArg
	// Patch marks a tool whose input is a patch (tool_input.command) that
	// may create, edit and delete several files: one call here per file.
	Patch bool
	// Source is the key of the document the row comes from.
	Source string
}

var (
	claudeCodex = []Agent{Claude, Codex}
	editTools   = "write_to_file|replace_file_content|multi_replace_file_content"
	pathArg     = []string{"path", "target_file"}
)

// ForeignEvents maps the events of other agents' hook configurations to the
// events of this format. It is the one table that lint's foreign-format rule,
// hookctl import and hookctl run --from read.
var ForeignEvents = []ForeignEvent{
	// Claude Code and Codex share their event names.
	{Name: "PreToolUse", Agents: claudeCodex, Event: PreToolUse, Source: "claude-hooks"},
	{Name: "PostToolUse", Agents: claudeCodex, Event: PostToolUse, Source: "claude-hooks"},
	{Name: "Stop", Agents: claudeCodex, Event: Stop, Source: "claude-hooks"},
	{Name: "UserPromptSubmit", Agents: claudeCodex, Event: PreInvocation, Source: "claude-hooks",
		Note: "PreInvocation fires before every model call, not only after the user's prompt, and this agent sends no prompt (hookctl run --from passes the other agent's under \"from\")"},
	{Name: "PostToolUseFailure", Agents: []Agent{Claude}, Event: PostToolUse, Source: "claude-hooks",
		Note: "PostToolUse fires after every call; a failed one carries a non-empty \"error\" field"},
	{Name: "PermissionRequest", Agents: claudeCodex, Event: PreToolUse, Source: "claude-hooks",
		Note: "PreToolUse fires before every call and answers with a decision, whether or not a permission prompt would show"},
	{Name: "SessionStart", Agents: []Agent{Claude, Codex, Gemini}, Event: SessionStart, Source: "claude-hooks",
		Note: "it needs agy 1.1.27 or later, and its handler answers {\"injectSteps\": [{\"ephemeralMessage\": ...}]} where the other agent reads plain text, additionalContext or systemMessage"},
	{Name: "SessionEnd", Agents: []Agent{Claude, Codex, Gemini}, Source: "claude-hooks",
		Note: "there is no session end event: Stop fires when the execution loop terminates"},
	{Name: "Setup", Agents: []Agent{Claude}, Source: "claude-hooks",
		Note: "there is no setup event: SessionStart fires once when a conversation starts"},
	{Name: "UserPromptExpansion", Agents: []Agent{Claude}, Source: "claude-hooks",
		Note: "there is no event for a command that expands into a prompt: PreInvocation fires before every model call"},
	{Name: "MessageDisplay", Agents: []Agent{Claude}, Source: "claude-hooks",
		Note: "there is no event for displayed text"},
	{Name: "PermissionDenied", Agents: []Agent{Claude}, Source: "claude-hooks",
		Note: "there is no event for a call the permission system denied"},
	{Name: "PostToolBatch", Agents: []Agent{Claude}, Source: "claude-hooks",
		Note: "there is no event for a batch of calls: PreInvocation fires before the model call that follows it"},
	{Name: "SubagentStart", Agents: claudeCodex, Source: "claude-hooks",
		Note: "there is no sub-agent event: a PreToolUse hook on invoke_subagent sees sub-agents being spawned"},
	{Name: "SubagentStop", Agents: claudeCodex, Source: "claude-hooks",
		Note: "there is no sub-agent event: Stop fires when the execution loop terminates"},
	{Name: "TaskCreated", Agents: []Agent{Claude}, Source: "claude-hooks",
		Note: "there is no task event"},
	{Name: "TaskCompleted", Agents: []Agent{Claude}, Source: "claude-hooks",
		Note: "there is no task event: Stop fires when the execution loop terminates"},
	{Name: "TeammateIdle", Agents: []Agent{Claude}, Source: "claude-hooks",
		Note: "there are no agent teams: Stop fires when the execution loop terminates"},
	{Name: "Notification", Agents: []Agent{Claude, Gemini}, Source: "claude-hooks",
		Note: "there is no notification event"},
	{Name: "StopFailure", Agents: []Agent{Claude}, Source: "claude-hooks",
		Note: "there is no event for a turn that ends in an error: Stop fires when the execution loop terminates, with terminationReason \"error\""},
	{Name: "InstructionsLoaded", Agents: []Agent{Claude}, Source: "claude-hooks",
		Note: "there is no event for loaded instructions"},
	{Name: "ConfigChange", Agents: []Agent{Claude}, Source: "claude-hooks",
		Note: "there is no configuration change event"},
	{Name: "CwdChanged", Agents: []Agent{Claude}, Source: "claude-hooks",
		Note: "there is no working folder event"},
	{Name: "DirectoryAdded", Agents: []Agent{Claude}, Source: "claude-hooks",
		Note: "there is no event for an added workspace folder"},
	{Name: "FileChanged", Agents: []Agent{Claude}, Source: "claude-hooks",
		Note: "there is no file watch event: a PostToolUse hook on the file-writing tools sees the agent's own edits"},
	{Name: "WorktreeCreate", Agents: []Agent{Claude}, Source: "claude-hooks",
		Note: "there is no worktree event"},
	{Name: "WorktreeRemove", Agents: []Agent{Claude}, Source: "claude-hooks",
		Note: "there is no worktree event"},
	{Name: "PreCompact", Agents: claudeCodex, Source: "claude-hooks",
		Note: "there is no context compaction event"},
	{Name: "PostCompact", Agents: claudeCodex, Source: "claude-hooks",
		Note: "there is no context compaction event"},
	{Name: "Elicitation", Agents: []Agent{Claude}, Source: "claude-hooks",
		Note: "there is no event for an MCP server asking the user"},
	{Name: "ElicitationResult", Agents: []Agent{Claude}, Source: "claude-hooks",
		Note: "there is no event for an MCP server asking the user"},
	// Gemini CLI.
	{Name: "BeforeTool", Agents: []Agent{Gemini}, Event: PreToolUse, Source: "gemini-hooks"},
	{Name: "AfterTool", Agents: []Agent{Gemini}, Event: PostToolUse, Source: "gemini-hooks"},
	{Name: "BeforeAgent", Agents: []Agent{Gemini}, Event: PreInvocation, Source: "gemini-hooks",
		Note: "PreInvocation fires before every model call, not once per prompt"},
	{Name: "AfterAgent", Agents: []Agent{Gemini}, Event: Stop, Source: "gemini-hooks",
		Note: "Stop fires when the execution loop ends, as AfterAgent does once per turn; a continue answers as AfterAgent's decision \"deny\" does, with the reason as the next prompt"},
	{Name: "BeforeModel", Agents: []Agent{Gemini}, Event: PreInvocation, Source: "gemini-hooks"},
	{Name: "AfterModel", Agents: []Agent{Gemini}, Event: PostInvocation, Source: "gemini-hooks",
		Note: "PostInvocation fires once after each model call, where AfterModel fires for every chunk of the response"},
	{Name: "BeforeToolSelection", Agents: []Agent{Gemini}, Source: "gemini-hooks",
		Note: "there is no tool selection event: a PreToolUse hook can deny the tools you would have filtered out"},
	{Name: "PreCompress", Agents: []Agent{Gemini}, Source: "gemini-hooks",
		Note: "there is no context compression event"},
	// Cursor spells its events in lower camel case.
	{Name: "beforeShellExecution", Agents: []Agent{Cursor}, Event: PreToolUse, Matcher: "run_command", Source: "cursor-hooks"},
	{Name: "afterShellExecution", Agents: []Agent{Cursor}, Event: PostToolUse, Matcher: "run_command", Source: "cursor-hooks"},
	{Name: "beforeReadFile", Agents: []Agent{Cursor}, Event: PreToolUse, Matcher: "view_file", Source: "cursor-hooks"},
	{Name: "afterFileEdit", Agents: []Agent{Cursor}, Event: PostToolUse, Matcher: editTools, Source: "cursor-hooks"},
	{Name: "beforeMCPExecution", Agents: []Agent{Cursor}, Event: PreToolUse, Source: "cursor-hooks",
		Note: "MCP tools keep the names their servers give them: set the matcher to those names"},
	{Name: "afterMCPExecution", Agents: []Agent{Cursor}, Event: PostToolUse, Source: "cursor-hooks",
		Note: "MCP tools keep the names their servers give them: set the matcher to those names"},
	{Name: "beforeSubmitPrompt", Agents: []Agent{Cursor}, Event: PreInvocation, Source: "cursor-hooks",
		Note: "PreInvocation fires before every model call, not only after the user's prompt"},
	{Name: "afterAgentResponse", Agents: []Agent{Cursor}, Event: PostInvocation, Source: "cursor-hooks"},
	{Name: "afterAgentThought", Agents: []Agent{Cursor}, Source: "cursor-hooks",
		Note: "there is no event for the model's reasoning"},
	{Name: "stop", Agents: []Agent{Cursor}, Event: Stop, Source: "cursor-hooks"},
	{Name: "preToolUse", Agents: []Agent{Cursor}, Event: PreToolUse, Source: "cursor-hooks"},
	{Name: "postToolUse", Agents: []Agent{Cursor}, Event: PostToolUse, Source: "cursor-hooks"},
	{Name: "postToolUseFailure", Agents: []Agent{Cursor}, Event: PostToolUse, Source: "cursor-hooks",
		Note: "PostToolUse fires after every call; a failed one carries a non-empty \"error\" field"},
	{Name: "sessionStart", Agents: []Agent{Cursor}, Event: SessionStart, Source: "cursor-hooks",
		Note: "SessionStart needs agy 1.1.27 or later, and its handler answers {\"injectSteps\": [{\"ephemeralMessage\": ...}]} where Cursor reads additional_context"},
	{Name: "sessionEnd", Agents: []Agent{Cursor}, Source: "cursor-hooks",
		Note: "there is no session end event: Stop fires when the execution loop terminates"},
	{Name: "subagentStart", Agents: []Agent{Cursor}, Source: "cursor-hooks",
		Note: "there is no sub-agent event: a PreToolUse hook on invoke_subagent sees sub-agents being spawned"},
	{Name: "subagentStop", Agents: []Agent{Cursor}, Source: "cursor-hooks",
		Note: "there is no sub-agent event"},
	{Name: "preCompact", Agents: []Agent{Cursor}, Source: "cursor-hooks",
		Note: "there is no context compaction event"},
	{Name: "beforeTabFileRead", Agents: []Agent{Cursor}, Source: "cursor-hooks",
		Note: "there is no tab completion event"},
	{Name: "afterTabFileEdit", Agents: []Agent{Cursor}, Source: "cursor-hooks",
		Note: "there is no tab completion event"},
	{Name: "workspaceOpen", Agents: []Agent{Cursor}, Source: "cursor-hooks",
		Note: "there is no event for an opened workspace"},
}

// Argument maps shared by tools of several agents.
var (
	shellArgs = []ForeignArg{{From: "command", To: "CommandLine"}}
	writeArgs = []ForeignArg{{From: "file_path", Also: pathArg, To: "TargetFile"}, {From: "content", Also: []string{"contents"}, To: "CodeContent"}}
	editArgs  = []ForeignArg{{From: "file_path", Also: pathArg, To: "TargetFile"}, {From: "old_string", To: "TargetContent"},
		{From: "new_string", To: "ReplacementContent"}, {From: "replace_all", To: "AllowMultiple"}}
	readArgs = []ForeignArg{{From: "file_path", Also: pathArg, To: "AbsolutePath"}, {From: "offset", To: "StartLine"}}
)

// ForeignTools maps the tool names of other agents to the tools of this
// format, and their arguments to this format's. It is the one table that
// lint's foreign-tool rule, hookctl import and hookctl run --from read.
// Codex's hooks name its shell tool Bash, as Claude Code's do, and send the
// command in tool_input.command: the Bash row serves both.
var ForeignTools = []ForeignTool{
	// Claude Code.
	{Name: "Bash", Agents: []Agent{Claude}, Tool: "run_command", Args: shellArgs, Source: "claude-hooks"},
	{Name: "PowerShell", Agents: []Agent{Claude}, Tool: "run_command", Args: shellArgs, Source: "claude-hooks",
		Note: "run_command runs bash, not PowerShell"},
	{Name: "Write", Agents: []Agent{Claude, Cursor}, Tool: "write_to_file", Args: writeArgs, Source: "claude-hooks"},
	{Name: "Edit", Agents: []Agent{Claude}, Tool: "replace_file_content", Args: editArgs, Source: "claude-hooks"},
	{Name: "MultiEdit", Agents: []Agent{Claude}, Tool: "multi_replace_file_content", Source: "claude-tools-2025",
		Args: []ForeignArg{{From: "file_path", To: "TargetFile"}, {From: "edits", To: "ReplacementChunks", Elems: editArgs[1:]}}},
	{Name: "Read", Agents: []Agent{Claude, Cursor}, Tool: "view_file", Args: readArgs, Source: "claude-hooks"},
	{Name: "Grep", Agents: []Agent{Claude, Cursor}, Tool: "grep_search", Source: "claude-hooks",
		Args: []ForeignArg{{From: "pattern", To: "Query"}, {From: "path", To: "SearchPath"}, {From: "glob", To: "Includes", List: true}, {From: "-i", To: "CaseInsensitive"}}},
	{Name: "Glob", Agents: []Agent{Claude}, Tool: "find_by_name", Source: "claude-hooks",
		Args: []ForeignArg{{From: "pattern", To: "Pattern"}, {From: "path", To: "SearchDirectory"}}},
	{Name: "LS", Agents: []Agent{Claude}, Tool: "list_dir", Args: []ForeignArg{{From: "path", To: "DirectoryPath"}}, Source: "claude-tools-2025"},
	{Name: "WebFetch", Agents: []Agent{Claude}, Tool: "read_url_content", Args: []ForeignArg{{From: "url", To: "Url"}}, Source: "claude-hooks"},
	{Name: "WebSearch", Agents: []Agent{Claude}, Tool: "search_web", Args: []ForeignArg{{From: "query", To: "query"}}, Source: "claude-hooks"},
	{Name: "Task", Agents: []Agent{Claude, Cursor}, Tool: "invoke_subagent", Source: "claude-tools-2025"},
	{Name: "Agent", Agents: []Agent{Claude}, Tool: "invoke_subagent", Source: "claude-hooks"},
	{Name: "AskUserQuestion", Agents: []Agent{Claude}, Tool: "ask_question", Args: []ForeignArg{{From: "questions", To: "questions"}}, Source: "claude-hooks"},
	{Name: "BashOutput", Agents: []Agent{Claude}, Tool: "manage_task", Source: "claude-tools-2025"},
	{Name: "KillShell", Agents: []Agent{Claude}, Tool: "manage_task", Source: "claude-tools-2025"},
	{Name: "KillBash", Agents: []Agent{Claude}, Tool: "manage_task", Source: "claude-sdk-2025"},
	{Name: "TaskOutput", Agents: []Agent{Claude}, Tool: "manage_task", Source: "claude-tools"},
	{Name: "TaskStop", Agents: []Agent{Claude}, Tool: "manage_task", Source: "claude-tools"},
	{Name: "NotebookRead", Agents: []Agent{Claude}, Tool: "view_file", Args: []ForeignArg{{From: "notebook_path", To: "AbsolutePath"}}, Source: "claude-tools-2025"},
	{Name: "NotebookEdit", Agents: []Agent{Claude}, Note: "there is no notebook tool: notebooks are edited with replace_file_content", Source: "claude-tools"},
	{Name: "TodoWrite", Agents: []Agent{Claude}, Note: "there is no to-do tool", Source: "claude-tools"},
	{Name: "ExitPlanMode", Agents: []Agent{Claude}, Note: "there is no plan mode tool", Source: "claude-hooks"},
	{Name: "Skill", Agents: []Agent{Claude}, Note: "there is no skill tool", Source: "claude-tools"},
	{Name: "SlashCommand", Agents: []Agent{Claude}, Note: "there is no slash command tool", Source: "claude-tools-2025"},
	// Gemini CLI.
	{Name: "run_shell_command", Agents: []Agent{Gemini}, Tool: "run_command", Source: "gemini-tools",
		Args: []ForeignArg{{From: "command", To: "CommandLine"}, {From: "dir_path", Also: []string{"directory"}, To: "Cwd"}}},
	{Name: "write_file", Agents: []Agent{Gemini}, Tool: "write_to_file", Args: writeArgs, Source: "gemini-tools"},
	{Name: "replace", Agents: []Agent{Gemini}, Tool: "replace_file_content", Source: "gemini-tools",
		Args: []ForeignArg{{From: "file_path", To: "TargetFile"}, {From: "old_string", To: "TargetContent"}, {From: "new_string", To: "ReplacementContent"},
			{From: "allow_multiple", To: "AllowMultiple"}, {From: "instruction", To: "Instruction"}}},
	{Name: "read_file", Agents: []Agent{Gemini}, Tool: "view_file", Source: "gemini-tools",
		Args: []ForeignArg{{From: "file_path", Also: []string{"absolute_path"}, To: "AbsolutePath"}, {From: "start_line", To: "StartLine"}, {From: "end_line", To: "EndLine"}}},
	{Name: "read_many_files", Agents: []Agent{Gemini}, Tool: "view_file", Source: "gemini-tools"},
	{Name: "list_directory", Agents: []Agent{Gemini}, Tool: "list_dir", Args: []ForeignArg{{From: "dir_path", Also: []string{"path"}, To: "DirectoryPath"}}, Source: "gemini-tools"},
	{Name: "glob", Agents: []Agent{Gemini}, Tool: "find_by_name", Source: "gemini-tools",
		Args: []ForeignArg{{From: "pattern", To: "Pattern"}, {From: "dir_path", Also: []string{"path"}, To: "SearchDirectory"}}},
	{Name: "search_file_content", Agents: []Agent{Gemini}, Tool: "grep_search", Source: "gemini-tools",
		Args: []ForeignArg{{From: "pattern", To: "Query"}, {From: "dir_path", Also: []string{"path"}, To: "SearchPath"}, {From: "include", To: "Includes", List: true}}},
	{Name: "grep_search", Agents: []Agent{Gemini}, Tool: "grep_search", Source: "gemini-tools",
		Args: []ForeignArg{{From: "pattern", To: "Query"}, {From: "dir_path", Also: []string{"path"}, To: "SearchPath"}, {From: "include_pattern", Also: []string{"include"}, To: "Includes", List: true}}},
	{Name: "web_fetch", Agents: []Agent{Gemini}, Tool: "read_url_content", Source: "gemini-tools",
		Note: "web_fetch takes a prompt with the URLs in it, read_url_content one Url"},
	{Name: "google_web_search", Agents: []Agent{Gemini}, Tool: "search_web", Args: []ForeignArg{{From: "query", To: "query"}}, Source: "gemini-tools"},
	{Name: "save_memory", Agents: []Agent{Gemini}, Note: "there is no memory tool", Source: "gemini-tools"},
	{Name: "write_todos", Agents: []Agent{Gemini}, Note: "there is no to-do tool", Source: "gemini-tools"},
	// Cursor.
	{Name: "Shell", Agents: []Agent{Cursor}, Tool: "run_command", Source: "cursor-hooks",
		Args: []ForeignArg{{From: "command", To: "CommandLine"}, {From: "working_directory", Also: []string{"cwd"}, To: "Cwd"}}},
	{Name: "StrReplace", Agents: []Agent{Cursor}, Tool: "replace_file_content", Args: editArgs, Source: "cursor-observed"},
	{Name: "Delete", Agents: []Agent{Cursor}, Tool: "run_command", Note: "files are deleted through run_command", Source: "cursor-hooks",
		Args: []ForeignArg{{From: "file_path", Also: pathArg, To: "CommandLine", Format: "rm -- {}"}}},
	{Name: "EditNotebook", Agents: []Agent{Cursor}, Note: "there is no notebook tool: notebooks are edited with replace_file_content", Source: "cursor-observed"},
	// Codex.
	{Name: "shell", Agents: []Agent{Codex}, Tool: "run_command", Args: shellArgs, Source: "codex-tools"},
	{Name: "exec_command", Agents: []Agent{Codex}, Tool: "run_command", Args: shellArgs, Source: "codex-tools"},
	{Name: "shell_command", Agents: []Agent{Codex}, Tool: "run_command", Args: shellArgs, Source: "codex-tools"},
	{Name: "local_shell", Agents: []Agent{Codex}, Tool: "run_command", Args: shellArgs, Source: "codex-tools"},
	{Name: "apply_patch", Agents: []Agent{Codex}, Tool: editTools, Patch: true, Source: "codex-hooks",
		Note: "a patch may create or edit files: the three file-writing tools cover both"},
	{Name: "view_image", Agents: []Agent{Codex}, Tool: "view_file", Args: []ForeignArg{{From: "path", To: "AbsolutePath"}}, Source: "codex-tools"},
	{Name: "web_search", Agents: []Agent{Codex}, Tool: "search_web", Args: []ForeignArg{{From: "query", To: "query"}}, Source: "codex-tools"},
	{Name: "update_plan", Agents: []Agent{Codex}, Note: "there is no plan tool", Source: "codex-hooks"},
	// Names that other editors' agents use for the same jobs.
	{Name: "apply_diff", Tool: "replace_file_content", Source: "editors"},
	{Name: "multi_file_edit", Tool: "multi_replace_file_content", Source: "editors"},
	{Name: "create_file", Tool: "write_to_file", Source: "editors"},
	{Name: "read", Tool: "view_file", Source: "editors"},
	{Name: "bash", Tool: "run_command", Source: "editors"},
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

// AgentEvents returns the events the table lists for one agent, in its
// order.
func AgentEvents(a Agent) []ForeignEvent {
	var out []ForeignEvent
	for _, e := range ForeignEvents {
		if hasAgent(e.Agents, a) {
			out = append(out, e)
		}
	}
	return out
}

// LookupAgentEvent returns the entry for an event of one agent: a name the
// table lists for that agent.
func LookupAgentEvent(a Agent, name string) (ForeignEvent, bool) {
	e, ok := LookupForeignEvent(name)
	if !ok || !hasAgent(e.Agents, a) {
		return ForeignEvent{}, false
	}
	return e, true
}

// LookupForeignTool returns the entry for another agent's tool name, spelled
// exactly as that agent spells it in a matcher. A name that is also this
// format's tool (Gemini CLI's grep_search) is not another agent's name for a
// matcher: it is not returned.
func LookupForeignTool(name string) (ForeignTool, bool) {
	for _, t := range ForeignTools {
		if t.Name == name && t.Tool != t.Name {
			return t, true
		}
	}
	return ForeignTool{}, false
}

// LookupForeignCall returns the entry for a tool as one agent's hook payload
// names it: the row of that agent first, else a row of the same name (Codex
// calls its shell Bash, as Claude Code does).
func LookupForeignCall(a Agent, name string) (ForeignTool, bool) {
	var other *ForeignTool
	for i := range ForeignTools {
		t := &ForeignTools[i]
		if t.Name != name {
			continue
		}
		if hasAgent(t.Agents, a) {
			return *t, true
		}
		if other == nil {
			other = t
		}
	}
	if other != nil {
		return *other, true
	}
	return ForeignTool{}, false
}

func hasAgent(agents []Agent, a Agent) bool {
	for _, x := range agents {
		if x == a {
			return true
		}
	}
	return false
}

// ExportedEvent is an event of this format as hookctl export wires it into
// another agent's settings: the agent's event whose hook calls
// hookctl run --from AGENT EVENT.
type ExportedEvent struct {
	Agent Agent
	// Event is this format's event.
	Event Event
	// Foreign is the agent's event that carries it, "" when none does.
	Foreign string
	// Tools marks a tool event, whose entry gets a matcher that selects
	// every tool.
	Tools bool
	// Note says why there is none, or what differs.
	Note string
}

// ExportedEvents lists, per agent, the event that hookctl export wires for
// each event of this format, the reverse of ForeignEvents where an agent
// has several candidates.
var ExportedEvents = []ExportedEvent{
	{Agent: Claude, Event: SessionStart, Foreign: "SessionStart"},
	{Agent: Claude, Event: PreToolUse, Foreign: "PreToolUse", Tools: true},
	{Agent: Claude, Event: PostToolUse, Foreign: "PostToolUse", Tools: true},
	{Agent: Claude, Event: PreInvocation, Foreign: "UserPromptSubmit", Note: "it fires once per prompt, not before every model call"},
	{Agent: Claude, Event: PostInvocation, Note: "Claude Code has no event after each model call"},
	{Agent: Claude, Event: Stop, Foreign: "Stop"},
	{Agent: Gemini, Event: SessionStart, Foreign: "SessionStart"},
	{Agent: Gemini, Event: PreToolUse, Foreign: "BeforeTool", Tools: true},
	{Agent: Gemini, Event: PostToolUse, Foreign: "AfterTool", Tools: true},
	{Agent: Gemini, Event: PreInvocation, Foreign: "BeforeAgent", Note: "it fires once per prompt, not before every model call"},
	{Agent: Gemini, Event: PostInvocation, Note: "Gemini CLI's AfterModel fires for every chunk of a response, so it is not wired"},
	{Agent: Gemini, Event: Stop, Foreign: "AfterAgent"},
	{Agent: Cursor, Event: SessionStart, Foreign: "sessionStart"},
	{Agent: Cursor, Event: PreToolUse, Foreign: "preToolUse", Tools: true},
	{Agent: Cursor, Event: PostToolUse, Foreign: "postToolUse", Tools: true},
	{Agent: Cursor, Event: PreInvocation, Foreign: "beforeSubmitPrompt", Note: "it fires once per prompt, and Cursor reads no context from it"},
	{Agent: Cursor, Event: PostInvocation, Foreign: "afterAgentResponse", Note: "Cursor reads no answer from it"},
	{Agent: Cursor, Event: Stop, Foreign: "stop"},
	{Agent: Codex, Event: SessionStart, Foreign: "SessionStart"},
	{Agent: Codex, Event: PreToolUse, Foreign: "PreToolUse", Tools: true},
	{Agent: Codex, Event: PostToolUse, Foreign: "PostToolUse", Tools: true},
	{Agent: Codex, Event: PreInvocation, Foreign: "UserPromptSubmit", Note: "it fires once per prompt, not before every model call"},
	{Agent: Codex, Event: PostInvocation, Note: "Codex has no event after each model call"},
	{Agent: Codex, Event: Stop, Foreign: "Stop"},
}

// LookupExportedEvent returns how export wires an event of this format for
// an agent.
func LookupExportedEvent(a Agent, e Event) (ExportedEvent, bool) {
	for _, x := range ExportedEvents {
		if x.Agent == a && x.Event == e {
			return x, true
		}
	}
	return ExportedEvent{}, false
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
	// hooks of this format, is no wrapper. "$schema" is no hook: a file of
	// "$schema" and "hooks" alone is another agent's settings (Claude Code's
	// settings name their schema so), not one hook named "hooks".
	others := 0
	for _, m := range root.Members {
		if m.Key != "$schema" {
			others++
		}
	}
	if version == nil && others > 1 {
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
	if a := agentOfSchema(root); a != "" {
		f.Agent = a
	}
	return f, true
}

// agentOfSchema recognises the agent whose settings schema a top-level
// "$schema" names (https://json.schemastore.org/claude-code-settings.json).
func agentOfSchema(root *Node) Agent {
	m := root.Get("$schema")
	if m == nil || m.Value.Kind != String {
		return ""
	}
	u := strings.ToLower(m.Value.Str)
	switch {
	case strings.Contains(u, "claude-code"):
		return Claude
	case strings.Contains(u, "gemini"):
		return Gemini
	case strings.Contains(u, "cursor"):
		return Cursor
	case strings.Contains(u, "codex"):
		return Codex
	}
	return ""
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

// ArgNames returns the names of a documented tool's arguments, as they
// stand in toolCall.args.
func (t Tool) ArgNames() []string {
	var out []string
	for name := range argNames(t.Args) {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

func argNames(args any) map[string]bool {
	out := map[string]bool{}
	rt := reflect.TypeOf(args)
	if rt == nil || rt.Kind() != reflect.Struct {
		return out
	}
	for i := 0; i < rt.NumField(); i++ {
		name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out[name] = true
		}
	}
	return out
}
