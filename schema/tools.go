package schema

import "strings"

// Tool is one of the agent's documented tools, as a matcher names it.
type Tool struct {
	// Name is the tool's name in toolCall.name and in matchers.
	Name string
	// Category groups tools as the format's documentation does.
	Category string
	// Summary says what the tool does.
	Summary string
	// Args is a zero value of the struct that documents the tool's arguments.
	Args any
	// PathArgs names the arguments that hold a file or folder path.
	PathArgs []string
	// Source says where the name was seen: "doc" for the format's
	// documentation, "prompt" for the agent's published tool list,
	// "configs" for committed configurations that match on it, "probes"
	// for live probes of the agent (docs/agent.md cites each).
	Source string
}

// BrowserPrefix starts the names of the browser tools, a family whose members
// the documentation does not list one by one.
const BrowserPrefix = "browser_"

// Tools lists the known tools, the one table that lint, the schema's
// suggestions, completion, the wizard and test --contract read: the
// documented ones in the documentation's order, then the ones the agent's
// published tool list names besides (its system prompt of 2025-11-18, as
// published in github.com/x1xhlol/system-prompts-and-models-of-ai-tools,
// Google/Antigravity/Fast Prompt.txt), then names seen elsewhere: edit_file
// in the matchers of committed .agents/hooks.json files
// (GhaderiSaber/AcademicSuite at 13ce700, Cardosofiles/cardoso-sound-api
// at 656d1b4), edit_notebook in live probes of agy 1.1.x (docs/agent.md).
// A matcher may select any of them.
var Tools = []Tool{
	{"view_file", "File and Directory Operations", "View the contents of a file.", ViewFileArgs{}, []string{"AbsolutePath"}, "doc"},
	{"write_to_file", "File and Directory Operations", "Create new files.", WriteToFileArgs{}, []string{"TargetFile"}, "doc"},
	{"replace_file_content", "File and Directory Operations", "Edit a single contiguous block of text in a file.", ReplaceFileContentArgs{}, []string{"TargetFile"}, "doc"},
	{"multi_replace_file_content", "File and Directory Operations", "Make multiple, non-contiguous edits to the same file.", MultiReplaceFileContentArgs{}, []string{"TargetFile"}, "doc"},
	{"list_dir", "File and Directory Operations", "List the contents of a directory.", ListDirArgs{}, []string{"DirectoryPath"}, "doc"},
	{"find_by_name", "File and Directory Operations", "Search for files and directories using glob patterns.", FindByNameArgs{}, []string{"SearchDirectory"}, "doc"},
	{"grep_search", "Search and Research", "Fast text searches within specific paths.", GrepSearchArgs{}, []string{"SearchPath"}, "doc"},
	{"search_web", "Search and Research", "Perform a general web search.", SearchWebArgs{}, nil, "doc"},
	{"read_url_content", "Search and Research", "Fetch text content of a public URL.", ReadURLContentArgs{}, nil, "doc"},
	{"run_command", "System and Execution", "Propose a bash command to run.", RunCommandArgs{}, []string{"Cwd"}, "doc"},
	{"manage_task", "System and Execution", "Interact with background tasks.", ManageTaskArgs{}, nil, "doc"},
	{"schedule", "System and Execution", "Set timers or recurring cron jobs.", ScheduleArgs{}, nil, "doc"},
	{"list_permissions", "System and Execution", "View current resource access grants.", ListPermissionsArgs{}, nil, "doc"},
	{"ask_permission", "System and Execution", "Request additional scoped permissions.", AskPermissionArgs{}, nil, "doc"},
	{"invoke_subagent", "Agent Collaboration", "Spawn specialized sub-agents.", InvokeSubagentArgs{}, nil, "doc"},
	{"define_subagent", "Agent Collaboration", "Create a custom sub-agent.", DefineSubagentArgs{}, nil, "doc"},
	{"send_message", "Agent Collaboration", "Communicate with other agents.", SendMessageArgs{}, nil, "doc"},
	{"manage_subagents", "Agent Collaboration", "List or terminate active sub-agents.", ManageSubagentsArgs{}, nil, "doc"},
	{"ask_question", "Interaction and Media", "Ask multiple-choice questions.", AskQuestionArgs{}, nil, "doc"},
	{"generate_image", "Interaction and Media", "Create or edit images.", GenerateImageArgs{}, []string{"ImagePaths"}, "doc"},
	{"codebase_search", "Seen in the agent's tool list", "Search the code of the workspace by meaning.", CodebaseSearchArgs{}, []string{"TargetDirectories"}, "prompt"},
	{"search_in_file", "Seen in the agent's tool list", "Search one file by meaning.", SearchInFileArgs{}, []string{"AbsolutePath"}, "prompt"},
	{"view_file_outline", "Seen in the agent's tool list", "Show the outline of a file: its classes and functions.", ViewFileOutlineArgs{}, []string{"AbsolutePath"}, "prompt"},
	{"view_code_item", "Seen in the agent's tool list", "Show one class or function of a file.", ViewCodeItemArgs{}, []string{"File"}, "prompt"},
	{"view_content_chunk", "Seen in the agent's tool list", "Show a chunk of a document read earlier.", ViewContentChunkArgs{}, nil, "prompt"},
	{"command_status", "Seen in the agent's tool list", "Check on a command running in the background.", CommandStatusArgs{}, nil, "prompt"},
	{"send_command_input", "Seen in the agent's tool list", "Send input to a running command, or stop it.", SendCommandInputArgs{}, nil, "prompt"},
	{"read_terminal", "Seen in the agent's tool list", "Read what a terminal shows.", ReadTerminalArgs{}, nil, "prompt"},
	{"list_resources", "Seen in the agent's tool list", "List an MCP server's resources.", ListResourcesArgs{}, nil, "prompt"},
	{"read_resource", "Seen in the agent's tool list", "Read an MCP server's resource.", ReadResourceArgs{}, nil, "prompt"},
	{"browser_subagent", "Seen in the agent's tool list", "Hand a task to a sub-agent that drives the browser.", BrowserSubagentArgs{}, nil, "prompt"},
	{"edit_file", "Seen in real configurations", "Edit a file; its arguments are not published.", UnpublishedArgs{}, nil, "configs"},
	{"edit_notebook", "Seen in probes of the agent", "Edit a notebook; its arguments are not published.", UnpublishedArgs{}, nil, "probes"},
}

// UnpublishedArgs stand for the arguments of a tool seen in use whose
// arguments no source publishes: any object.
type UnpublishedArgs struct{}

// ToolNames returns the documented tool names in documentation order.
func ToolNames() []string {
	names := make([]string, len(Tools))
	for i, t := range Tools {
		names[i] = t.Name
	}
	return names
}

// LookupTool returns the documented tool of that exact name.
func LookupTool(name string) (Tool, bool) {
	for _, t := range Tools {
		if t.Name == name {
			return t, true
		}
	}
	return Tool{}, false
}

// IsKnownTool reports whether name is a documented tool or a browser tool.
func IsKnownTool(name string) bool {
	if _, ok := LookupTool(name); ok {
		return true
	}
	return strings.HasPrefix(name, BrowserPrefix) && len(name) > len(BrowserPrefix)
}

// ViewFileArgs are the arguments of view_file.
type ViewFileArgs struct {
	// The absolute path of the file to view.
	AbsolutePath string `json:"AbsolutePath"`
	// The first line to show (1-based).
	StartLine int `json:"StartLine,omitempty"`
	// The last line to show (1-based).
	EndLine int `json:"EndLine,omitempty"`
	// Whether the file is a skill file.
	IsSkillFile bool `json:"IsSkillFile,omitempty"`
}

// WriteToFileArgs are the arguments of write_to_file.
type WriteToFileArgs struct {
	// The path of the file to create.
	TargetFile string `json:"TargetFile"`
	// Whether an existing file may be overwritten.
	Overwrite bool `json:"Overwrite"`
	// The content to write.
	CodeContent string `json:"CodeContent"`
	// A description of the change.
	Description string `json:"Description"`
	// Whether the file is an artifact of the conversation.
	IsArtifact bool `json:"IsArtifact,omitempty"`
	// Metadata of the artifact.
	ArtifactMetadata any `json:"ArtifactMetadata,omitempty"`
}

// ReplaceFileContentArgs are the arguments of replace_file_content.
type ReplaceFileContentArgs struct {
	// The path of the file to edit.
	TargetFile string `json:"TargetFile"`
	// What the edit should do.
	Instruction string `json:"Instruction"`
	// A description of the change.
	Description string `json:"Description"`
	// Whether every occurrence of TargetContent is replaced.
	AllowMultiple bool `json:"AllowMultiple"`
	// The text to replace.
	TargetContent string `json:"TargetContent"`
	// The text that replaces it.
	ReplacementContent string `json:"ReplacementContent"`
	// The first line of the block (1-based).
	StartLine int `json:"StartLine"`
	// The last line of the block (1-based).
	EndLine int `json:"EndLine"`
	// Identifiers of the lint errors the edit fixes.
	TargetLintErrorIds []string `json:"TargetLintErrorIds,omitempty"`
}

// MultiReplaceFileContentArgs are the arguments of multi_replace_file_content.
type MultiReplaceFileContentArgs struct {
	// The path of the file to edit.
	TargetFile string `json:"TargetFile"`
	// What the edits should do.
	Instruction string `json:"Instruction"`
	// A description of the change.
	Description string `json:"Description"`
	// The edits, each a contiguous block.
	ReplacementChunks []any `json:"ReplacementChunks"`
	// Identifiers of the lint errors the edits fix.
	TargetLintErrorIds []string `json:"TargetLintErrorIds,omitempty"`
	// Metadata of the artifact.
	ArtifactMetadata any `json:"ArtifactMetadata,omitempty"`
}

// ListDirArgs are the arguments of list_dir.
type ListDirArgs struct {
	// The folder to list.
	DirectoryPath string `json:"DirectoryPath"`
}

// FindByNameArgs are the arguments of find_by_name.
type FindByNameArgs struct {
	// The folder to search.
	SearchDirectory string `json:"SearchDirectory"`
	// The glob pattern to look for.
	Pattern string `json:"Pattern"`
	// "file" or "directory".
	Type string `json:"Type,omitempty"`
	// Glob patterns to leave out.
	Excludes []string `json:"Excludes,omitempty"`
	// File extensions to keep.
	Extensions []string `json:"Extensions,omitempty"`
	// Whether the pattern matches the full path.
	FullPath bool `json:"FullPath,omitempty"`
	// How deep to search.
	MaxDepth int `json:"MaxDepth,omitempty"`
}

// GrepSearchArgs are the arguments of grep_search.
type GrepSearchArgs struct {
	// The file or folder to search.
	SearchPath string `json:"SearchPath"`
	// The text or regular expression to find.
	Query string `json:"Query"`
	// Whether Query is a regular expression.
	IsRegex bool `json:"IsRegex,omitempty"`
	// Whether the search ignores case.
	CaseInsensitive bool `json:"CaseInsensitive,omitempty"`
	// Glob patterns of the files to search.
	Includes []string `json:"Includes,omitempty"`
	// Whether each matching line is reported.
	MatchPerLine bool `json:"MatchPerLine,omitempty"`
}

// SearchWebArgs are the arguments of search_web.
type SearchWebArgs struct {
	// What to search for.
	Query string `json:"query"`
	// A domain to restrict the search to.
	Domain string `json:"domain,omitempty"`
}

// ReadURLContentArgs are the arguments of read_url_content.
type ReadURLContentArgs struct {
	// The public URL to fetch.
	URL string `json:"Url"`
}

// RunCommandArgs are the arguments of run_command.
type RunCommandArgs struct {
	// The command line to run.
	CommandLine string `json:"CommandLine"`
	// The folder to run it in.
	Cwd string `json:"Cwd"`
	// How long to wait before the command continues in the background, in
	// milliseconds.
	WaitMsBeforeAsync int `json:"WaitMsBeforeAsync"`
	// Whether the command keeps running in a persistent terminal.
	RunPersistent bool `json:"RunPersistent,omitempty"`
	// The terminal to run the command in.
	RequestedTerminalID string `json:"RequestedTerminalID,omitempty"`
}

// ManageTaskArgs are the arguments of manage_task.
type ManageTaskArgs struct {
	// "list", "kill", "status" or "send_input".
	Action string `json:"Action" jsonschema:"enum=list,enum=kill,enum=status,enum=send_input"`
	// The task to act on.
	TaskID string `json:"TaskId,omitempty"`
	// The input to send.
	Input string `json:"Input,omitempty"`
}

// ScheduleArgs are the arguments of schedule.
type ScheduleArgs struct {
	// How many seconds to wait.
	DurationSeconds int `json:"DurationSeconds,omitempty"`
	// A cron expression for a recurring job.
	CronExpression string `json:"CronExpression,omitempty"`
	// How many times the job runs at most.
	MaxIterations int `json:"MaxIterations,omitempty"`
	// The prompt to run when the timer fires.
	Prompt string `json:"Prompt"`
}

// ListPermissionsArgs are the arguments of list_permissions: none.
type ListPermissionsArgs struct{}

// AskPermissionArgs are the arguments of ask_permission.
type AskPermissionArgs struct {
	// The action to permit.
	Action string `json:"Action"`
	// The resource the action applies to.
	Target string `json:"Target"`
	// Why the permission is needed.
	Reason string `json:"Reason"`
}

// InvokeSubagentArgs are the arguments of invoke_subagent.
type InvokeSubagentArgs struct {
	// The sub-agents to spawn, each with Prompt, Role, TypeName and
	// optionally Workspace.
	Subagents []any `json:"Subagents"`
}

// DefineSubagentArgs are the arguments of define_subagent.
type DefineSubagentArgs struct {
	// The sub-agent's name.
	Name string `json:"name"`
	// What the sub-agent does.
	Description string `json:"description"`
	// The sub-agent's system prompt.
	SystemPrompt string `json:"system_prompt"`
	// Whether the sub-agent may use MCP tools.
	EnableMCPTools bool `json:"enable_mcp_tools,omitempty"`
	// Whether the sub-agent may use tools that write.
	EnableWriteTools bool `json:"enable_write_tools,omitempty"`
	// Whether the sub-agent may spawn sub-agents.
	EnableSubagentTools bool `json:"enable_subagent_tools,omitempty"`
}

// SendMessageArgs are the arguments of send_message.
type SendMessageArgs struct {
	// The agent to send the message to.
	Recipient string `json:"Recipient"`
	// The message.
	Message string `json:"Message"`
}

// ManageSubagentsArgs are the arguments of manage_subagents.
type ManageSubagentsArgs struct {
	// "list", "kill" or "kill_all".
	Action string `json:"Action" jsonschema:"enum=list,enum=kill,enum=kill_all"`
	// The conversations of the sub-agents to act on.
	ConversationIds []string `json:"ConversationIds,omitempty"`
}

// AskQuestionArgs are the arguments of ask_question.
type AskQuestionArgs struct {
	// The questions, each with question, options and is_multi_select.
	Questions []any `json:"questions"`
}

// GenerateImageArgs are the arguments of generate_image.
type GenerateImageArgs struct {
	// What to draw.
	Prompt string `json:"Prompt"`
	// The name of the image to create.
	ImageName string `json:"ImageName"`
	// Images to edit or draw from.
	ImagePaths []string `json:"ImagePaths,omitempty"`
}

// The arguments of the tools the agent's published tool list names
// besides the documented ones, as it names them.

// CodebaseSearchArgs are the arguments of codebase_search.
type CodebaseSearchArgs struct {
	// What to search for.
	Query string `json:"Query"`
	// The folders to search in.
	TargetDirectories []string `json:"TargetDirectories"`
}

// SearchInFileArgs are the arguments of search_in_file.
type SearchInFileArgs struct {
	// The file to search.
	AbsolutePath string `json:"AbsolutePath"`
	// What to search for.
	Query string `json:"Query"`
}

// ViewFileOutlineArgs are the arguments of view_file_outline.
type ViewFileOutlineArgs struct {
	// The file to outline.
	AbsolutePath string `json:"AbsolutePath"`
	// Where in the outline to start.
	ItemOffset int `json:"ItemOffset,omitempty"`
}

// ViewCodeItemArgs are the arguments of view_code_item.
type ViewCodeItemArgs struct {
	// The file that holds the items.
	File string `json:"File"`
	// The items, as paths of names such as "Server.Start".
	NodePaths []string `json:"NodePaths"`
}

// ViewContentChunkArgs are the arguments of view_content_chunk.
type ViewContentChunkArgs struct {
	// The document read earlier.
	DocumentID string `json:"document_id"`
	// The chunk to show.
	Position int `json:"position"`
}

// CommandStatusArgs are the arguments of command_status.
type CommandStatusArgs struct {
	// The background command.
	CommandID string `json:"CommandId"`
	// How many characters of its output to show.
	OutputCharacterCount int `json:"OutputCharacterCount,omitempty"`
	// How long to wait for it to finish.
	WaitDurationSeconds int `json:"WaitDurationSeconds"`
}

// SendCommandInputArgs are the arguments of send_command_input.
type SendCommandInputArgs struct {
	// The running command.
	CommandID string `json:"CommandId"`
	// The input to send.
	Input string `json:"Input,omitempty"`
	// Whether to stop the command.
	Terminate bool `json:"Terminate,omitempty"`
}

// ReadTerminalArgs are the arguments of read_terminal.
type ReadTerminalArgs struct {
	// The terminal's name.
	Name string `json:"Name"`
	// The process running in it.
	ProcessID string `json:"ProcessID"`
}

// ListResourcesArgs are the arguments of list_resources.
type ListResourcesArgs struct {
	// The MCP server, all of them when empty.
	ServerName string `json:"ServerName,omitempty"`
}

// ReadResourceArgs are the arguments of read_resource.
type ReadResourceArgs struct {
	// The MCP server.
	ServerName string `json:"ServerName,omitempty"`
	// The resource's URI.
	URI string `json:"Uri,omitempty"`
}

// BrowserSubagentArgs are the arguments of browser_subagent.
type BrowserSubagentArgs struct {
	// What the sub-agent is to do in the browser.
	Task string `json:"Task"`
	// A short name of the task.
	TaskName string `json:"TaskName"`
	// The name of the recording of the session.
	RecordingName string `json:"RecordingName"`
}
