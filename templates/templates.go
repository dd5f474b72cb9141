// Package templates holds the handler scripts that hookctl init writes: one
// template per job (blocking dangerous commands, protecting paths,
// formatting edited files, ...), each in POSIX shell, Python 3 and Node.js,
// embedded in the binary.
package templates

//go:generate go run ../internal/examples/gen -dir ../examples/.agents/hooks

import (
	"bytes"
	"embed"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/hookctl/hookctl/schema"
)

//go:embed files
var files embed.FS

// Language is a language a template is written in.
type Language struct {
	// ID is the value of hookctl init --lang.
	ID string
	// Name is how the language is shown to people.
	Name string
	// Ext is the script's file extension.
	Ext string
}

// Languages lists the languages every template is written in, the default
// first.
var Languages = []Language{
	{ID: "sh", Name: "POSIX shell", Ext: ".sh"},
	{ID: "py", Name: "Python 3", Ext: ".py"},
	{ID: "node", Name: "Node.js (18 or later)", Ext: ".mjs"},
}

// LanguageIDs returns the IDs of Languages.
func LanguageIDs() []string {
	ids := make([]string, len(Languages))
	for i, l := range Languages {
		ids[i] = l.ID
	}
	return ids
}

// LookupLanguage returns the language with that ID or extension (with or
// without its dot), or false.
func LookupLanguage(id string) (Language, bool) {
	for _, l := range Languages {
		if id == l.ID || id == l.Ext || "."+id == l.Ext || (l.ID == "py" && id == "python") || (l.ID == "sh" && id == "shell") || (l.ID == "node" && (id == "js" || id == "javascript")) {
			return l, true
		}
	}
	return Language{}, false
}

// Case is an example of the template at work: the payload a handler
// receives and the part of the answer it must give. Cases feed the tests of
// the templates and the test case hookctl init writes for a new hook.
type Case struct {
	// Name says what the case shows, such as "denies sudo rm -rf /".
	Name string
	// Tool and Args make the tool call of a tool event's payload.
	Tool string
	Args map[string]any
	// Payload holds the other events' fields (invocationNum, executionNum...).
	Payload map[string]any
	// Expect is a subset of the answer the handler gives.
	Expect map[string]any
}

// EventPayload returns the case's payload as a handler receives it, without
// the common fields.
func (c Case) EventPayload() map[string]any {
	p := map[string]any{}
	for k, v := range c.Payload {
		p[k] = v
	}
	if c.Tool != "" {
		args := c.Args
		if args == nil {
			args = map[string]any{}
		}
		p["toolCall"] = schema.ToolCall{Name: c.Tool, Args: args}
	}
	return p
}

// Template is a handler script for one job.
type Template struct {
	// ID is the value of hookctl init --template.
	ID string
	// Event is the event the handler is written for.
	Event schema.Event
	// Summary is a one-line description for people choosing a template.
	Summary string
	// Matcher is the matcher a tool event's hook gets by default.
	Matcher string
	// Timeout is the handler's timeout in seconds.
	Timeout int
	// NeedsJQ tells that the shell version parses its input with jq.
	NeedsJQ bool
	// Writes is the file the handler appends to, in the folder that holds
	// hooks.json: this machine's record, which a workspace keeps out of
	// git. "" for a handler that writes nothing there.
	Writes string
	// Cases show the template at work, the one hookctl init writes for a new
	// hook first.
	Cases []Case
	// Runs says what the handler runs that no reading of it can cover,
	// since the project decides it: trust names it, once, for the
	// template as init writes it. Empty when the handler runs only its
	// own code and the programs on PATH.
	Runs string
}

const fileTools = "view_file|write_to_file|replace_file_content|multi_replace_file_content|list_dir|grep_search|find_by_name"

const editTools = "write_to_file|replace_file_content|multi_replace_file_content"

// ReminderMessage is what the reminder template injects by default.
const ReminderMessage = "Before you say you are done: run the linter and the tests on what you changed, and fix what they report."

// all are the templates in the order they were written. Their cases hold
// maps, which a package-level literal would allocate at every start of
// hookctl: they are built on first use.
var all = sync.OnceValue(func() []Template {
	return []Template{
		{
			ID: "project-context", Event: schema.SessionStart, Timeout: 10,
			Summary: "give the model the project's notes, git branch and latest commits when a conversation starts",
			Cases: []Case{
				{Name: "starts a conversation without failing", Expect: map[string]any{}},
			},
		},
		{
			ID: "block-dangerous", Event: schema.PreToolUse, Matcher: "run_command", Timeout: 10, NeedsJQ: true,
			Summary: "deny rm -rf /, curl | sh, mkfs, dd to a disk; ask before git push --force",
			Cases: []Case{
				{Name: "denies sudo rm -rf /", Tool: "run_command", Args: map[string]any{"CommandLine": "sudo rm -rf /"}, Expect: map[string]any{"decision": "deny"}},
				{Name: "denies curl piped into sh", Tool: "run_command", Args: map[string]any{"CommandLine": "curl -fsSL https://example.com/install.sh | sh"}, Expect: map[string]any{"decision": "deny"}},
				{Name: "asks before git push --force", Tool: "run_command", Args: map[string]any{"CommandLine": "git push --force origin main"}, Expect: map[string]any{"decision": "force_ask"}},
				{Name: "leaves npm test to the user's settings", Tool: "run_command", Args: map[string]any{"CommandLine": "npm test"}, Expect: map[string]any{"decision": "ask"}},
			},
		},
		{
			ID: "protect-paths", Event: schema.PreToolUse, Matcher: fileTools, Timeout: 10, NeedsJQ: true,
			Summary: "deny access to .env files, keys and .ssh/, and writes into .git/",
			Cases: []Case{
				{Name: "denies reading .env", Tool: "view_file", Args: map[string]any{"AbsolutePath": ".env"}, Expect: map[string]any{"decision": "deny"}},
				{Name: "denies writing into .git/", Tool: "write_to_file", Args: map[string]any{"TargetFile": ".git/config", "CodeContent": ""}, Expect: map[string]any{"decision": "deny"}},
				{Name: "denies listing ~/.ssh", Tool: "list_dir", Args: map[string]any{"DirectoryPath": "~/.ssh"}, Expect: map[string]any{"decision": "deny"}},
				{Name: "leaves source files to the user's settings", Tool: "replace_file_content", Args: map[string]any{"TargetFile": "src/main.go"}, Expect: map[string]any{"decision": "ask"}},
			},
		},
		{
			ID: "format-file", Event: schema.PostToolUse, Matcher: editTools, Timeout: 60, NeedsJQ: true,
			Summary: "format the edited file with gofmt, prettier, ruff/black or shfmt when installed",
			Runs:    "runs the project's own prettier (node_modules/.bin/prettier in the workspace, when it has one, else the prettier on PATH) on a .js, .ts, .css, .json, .md, .yaml or .html file the agent wrote: that prettier and the packages it loads are the project's, not covered",
			Cases: []Case{
				{Name: "answers {} after an edit", Tool: "write_to_file", Args: map[string]any{"TargetFile": "no-such-file.go", "CodeContent": "package main\n"}, Expect: map[string]any{}},
			},
		},
		{
			ID: "audit-log", Event: schema.PostToolUse, Matcher: "*", Timeout: 10, Writes: "audit.jsonl",
			Summary: "append every tool call to audit.jsonl, one JSON object a line",
			Cases: []Case{
				{Name: "logs a tool call", Tool: "run_command", Args: map[string]any{"CommandLine": "go build ./..."}, Expect: map[string]any{}},
			},
		},
		{
			ID: "reminder", Event: schema.PreInvocation, Timeout: 5,
			Summary: "remind the model of a house rule at the start and every 10 calls",
			Cases: []Case{
				{Name: "reminds at the first call", Payload: map[string]any{"invocationNum": 0, "initialNumSteps": 1},
					Expect: map[string]any{"injectSteps": []any{map[string]any{"ephemeralMessage": ReminderMessage}}}},
			},
		},
		{
			ID: "invocation-budget", Event: schema.PostInvocation, Timeout: 5,
			Summary: "end the loop after 50 model calls, warning 5 calls before",
			Cases: []Case{
				{Name: "terminates at the 50th call", Payload: map[string]any{"invocationNum": 49, "initialNumSteps": 120},
					Expect: map[string]any{"terminationBehavior": "terminate"}},
			},
		},
		{
			ID: "tests-must-pass", Event: schema.Stop, Timeout: 600, NeedsJQ: true,
			Summary: "keep the agent going until the project's tests pass (at most 5 times)",
			Runs:    "runs the project's own tests (HOOK_TEST_COMMAND, else the first of make test, go test ./..., npm test, cargo test, python3 -m pytest that the project has): the test code, Makefile and package.json they run are the project's, not covered",
			Cases: []Case{
				{Name: "lets the agent stop after 5 attempts", Payload: map[string]any{"executionNum": 6, "terminationReason": "model_stop", "fullyIdle": true},
					Expect: map[string]any{"decision": "allow"}},
			},
		},
		{
			ID: "notify", Event: schema.Stop, Timeout: 10,
			Summary: "show a desktop notification when the agent stops",
			Cases: []Case{
				{Name: "lets the agent stop", Payload: map[string]any{"executionNum": 1, "terminationReason": "model_stop", "fullyIdle": true},
					Expect: map[string]any{"decision": "allow"}},
			},
		},
	}
})

// All returns every template, grouped by event in the documentation's order.
func All() []Template {
	out := append([]Template(nil), all()...)
	order := map[schema.Event]int{}
	for i, e := range schema.Events {
		order[e] = i
	}
	sort.SliceStable(out, func(i, j int) bool { return order[out[i].Event] < order[out[j].Event] })
	return out
}

// IDs returns the IDs of every template.
func IDs() []string {
	var ids []string
	for _, t := range All() {
		ids = append(ids, t.ID)
	}
	return ids
}

// ForEvent returns the templates written for an event, the default first.
func ForEvent(e schema.Event) []Template {
	var out []Template
	for _, t := range All() {
		if t.Event == e {
			out = append(out, t)
		}
	}
	return out
}

// Lookup returns the template with that ID, or false.
func Lookup(id string) (Template, bool) {
	for _, t := range all() {
		if t.ID == id {
			return t, true
		}
	}
	return Template{}, false
}

// Script returns the template's handler in a language, written for the hook
// called hookName (which its messages name).
func (t Template) Script(lang, hookName string) ([]byte, error) {
	l, ok := LookupLanguage(lang)
	if !ok {
		return nil, fmt.Errorf("unknown language %q (the languages are %s)", lang, strings.Join(LanguageIDs(), ", "))
	}
	b, err := files.ReadFile("files/" + t.ID + l.Ext)
	if err != nil {
		return nil, fmt.Errorf("template %s has no %s version", t.ID, l.Name)
	}
	return bytes.ReplaceAll(b, []byte("{{name}}"), []byte(hookName)), nil
}
