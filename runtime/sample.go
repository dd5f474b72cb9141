package runtime

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/hookctl/hookctl/schema"
)

// SampleFile is the file that the sample calls of the editing tools
// write, relative to the workspace. A plain text file that projects rarely
// hold, so that a PostToolUse formatter that acts on the edited file finds
// nothing of the user's to rewrite.
const SampleFile = "notes.txt"

// BrowserSamples stand for the browser_ family, whose members the format's
// documentation does not list: a matcher that selects browser tools without
// naming one ("browser_.*", "*") gets a call to the first of them it
// selects, with the URL a browser tool acts on.
var BrowserSamples = []string{"browser_navigate", "browser_click", "browser_type", "browser_screenshot"}

// SampleTools returns the tools that the sample calls of a tool event's
// group go to, given its matcher as written and compiled: every tool of the
// known tools' table it selects, in the table's order, then the browser
// tools outside the table it selects: each one it names
// ("browser_click|view_file" names browser_click), else the first of
// BrowserSamples it selects.
func SampleTools(text string, m schema.Matcher) []string {
	var out []string
	for _, t := range schema.ToolNames() {
		if m.Match(t) {
			out = append(out, t)
		}
	}
	named := false
	for _, word := range strings.FieldsFunc(text, func(r rune) bool {
		return r != '_' && (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && (r < '0' || r > '9')
	}) {
		if schema.IsKnownTool(word) && m.Match(word) && !slices.Contains(out, word) {
			_, inTable := schema.LookupTool(word)
			named = named || !inTable
			out = append(out, word)
		}
	}
	for _, b := range BrowserSamples {
		if !named && m.Match(b) {
			out = append(out, b)
			break
		}
	}
	return out
}

// sampleValue gives an argument's sample value for the workspace ws.
type sampleValue func(ws string) any

func constant(v any) sampleValue       { return func(string) any { return v } }
func inWorkspace(p string) sampleValue { return func(ws string) any { return filepath.Join(ws, p) } }
func workspaceDir(ws string) any       { return ws }

// sampleArgs are the sample values of the documented tools' arguments, by
// "tool.Argument", then by "Argument" for every tool that has it. The
// command line and folders follow the format's own example of a
// run_command call.
var sampleArgs = sync.OnceValue(func() map[string]sampleValue {
	return map[string]sampleValue{
		"AbsolutePath":       inWorkspace("README.md"),
		"TargetFile":         inWorkspace(SampleFile),
		"CodeContent":        constant("Notes\n\n- Run the tests before committing.\n"),
		"Overwrite":          constant(false),
		"Instruction":        constant("Fix the typo in the second note"),
		"AllowMultiple":      constant(false),
		"TargetContent":      constant("- Run the tets before committing."),
		"ReplacementContent": constant("- Run the tests before committing."),
		"StartLine":          constant(3),
		"EndLine":            constant(3),
		"DirectoryPath":      workspaceDir,
		"SearchDirectory":    workspaceDir,
		"Pattern":            constant("*.md"),
		"SearchPath":         workspaceDir,
		"Query":              constant("TODO"),
		"query":              constant("how to write a git pre-commit hook"),
		"Url":                constant("https://example.com/"),
		"CommandLine":        constant("npm test"),
		"Cwd":                workspaceDir,
		"WaitMsBeforeAsync":  constant(5000),
		"Prompt":             constant("Check whether the build has finished"),
		"Recipient":          constant("reviewer"),
		"Message":            constant("The tests pass now: please review the change again."),
		"name":               constant("reviewer"),
		"description":        constant("Reviews code changes and reports bugs"),
		"system_prompt":      constant("You review code changes and report the bugs you find."),

		"write_to_file.Description":              constant("Create a notes file"),
		"replace_file_content.Description":       constant("Fix a typo in the notes"),
		"multi_replace_file_content.Description": constant("Fix a typo in the notes"),
		"multi_replace_file_content.ReplacementChunks": constant([]any{map[string]any{
			"AllowMultiple": false, "TargetContent": "- Run the tets before committing.",
			"ReplacementContent": "- Run the tests before committing.", "StartLine": 3, "EndLine": 3}}),
		"manage_task.Action":        constant("list"),
		"manage_subagents.Action":   constant("list"),
		"schedule.DurationSeconds":  constant(300),
		"ask_permission.Action":     constant("command"),
		"ask_permission.Target":     constant("npm test"),
		"ask_permission.Reason":     constant("to run the project's tests"),
		"invoke_subagent.Subagents": constant([]any{map[string]any{"Prompt": "Review the changes in src/ for bugs", "Role": "reviewer", "TypeName": "general"}}),
		"ask_question.questions":    constant([]any{map[string]any{"question": "Which package manager does the project use?", "options": []any{"npm", "pnpm"}, "is_multi_select": false}}),
		"generate_image.Prompt":     constant("A flat icon of a fishing hook"),
		"generate_image.ImageName":  constant("hook_icon"),

		"codebase_search.Query":              constant("where the configuration is loaded"),
		"codebase_search.TargetDirectories":  func(ws string) any { return []string{ws} },
		"search_in_file.Query":               constant("how to run the tests"),
		"view_code_item.File":                inWorkspace("main.go"),
		"view_code_item.NodePaths":           constant([]string{"main"}),
		"view_content_chunk.document_id":     constant("https://example.com/"),
		"view_content_chunk.position":        constant(0),
		"command_status.CommandId":           constant("4f1c2d"),
		"command_status.WaitDurationSeconds": constant(5),
		"send_command_input.CommandId":       constant("4f1c2d"),
		"send_command_input.Input":           constant("q\n"),
		"read_terminal.Name":                 constant("npm test"),
		"read_terminal.ProcessID":            constant("4f1c2d"),
		"read_resource.ServerName":           constant("github"),
		"read_resource.Uri":                  constant("repo://README.md"),
		"browser_subagent.Task":              constant("Open http://localhost:3000 and check that the page shows the sign-in form"),
		"browser_subagent.TaskName":          constant("Check the sign-in page"),
		"browser_subagent.RecordingName":     constant("sign_in_check"),
	}
})

// SampleArgs returns realistic arguments for a call to the tool in the
// workspace, as a compact JSON object with the arguments in documentation
// order: every argument the tool requires, and a few optional ones where a
// call usually has them (schedule's DurationSeconds). Paths lie inside the workspace (view_file reads README.md, the editing tools
// write notes.txt, the folder tools search the workspace itself);
// run_command runs "npm test" in the workspace. A tool of the known tools'
// table gets its documented arguments, a value for each chosen by its name
// and type when none is listed here; a browser tool outside the table gets
// a Url; any other tool gets {}.
func SampleArgs(tool, workspace string) json.RawMessage {
	t, ok := schema.LookupTool(tool)
	if !ok {
		if strings.HasPrefix(tool, schema.BrowserPrefix) {
			var w objectWriter
			w.raw("Url", marshal(sampleArgs()["Url"](workspace)))
			return w.bytes()
		}
		return json.RawMessage("{}")
	}
	var w objectWriter
	typ := reflect.TypeOf(t.Args)
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		name, optional := jsonName(f)
		if name == "" {
			continue
		}
		// An optional argument is sent only where this tool's entry asks
		// for it: the agent leaves most of them out.
		v, listed := sampleArgs()[tool+"."+name]
		if !listed && optional {
			continue
		}
		if !listed {
			v, listed = sampleArgs()[name]
		}
		var val any
		if listed {
			val = v(workspace)
		} else {
			val = guessValue(name, f.Type, workspace)
		}
		w.raw(name, marshal(val))
	}
	return w.bytes()
}

// jsonName returns the JSON name of a struct field and whether it may be
// left out; "" for a field that is not encoded.
func jsonName(f reflect.StructField) (string, bool) {
	if !f.IsExported() {
		return "", false
	}
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", false
	}
	name, opts, _ := strings.Cut(tag, ",")
	if name == "" {
		name = f.Name
	}
	return name, strings.Contains(","+opts+",", ",omitempty,")
}

// guessValue makes a plausible value for an argument that the table above
// does not list, from its name and Go type, so that a tool newly added to
// the known tools' table gets realistic calls without an entry here.
func guessValue(name string, t reflect.Type, ws string) any {
	lower := strings.ToLower(name)
	switch t.Kind() {
	case reflect.String:
		switch {
		case strings.Contains(lower, "url") || strings.Contains(lower, "uri"):
			return "https://example.com/"
		case lower == "cwd" || strings.Contains(lower, "directory") || strings.HasSuffix(lower, "dir") || strings.HasSuffix(lower, "folder"):
			return ws
		case strings.Contains(lower, "path") || strings.Contains(lower, "file"):
			return filepath.Join(ws, SampleFile)
		case strings.Contains(lower, "command"):
			return "npm test"
		case strings.HasSuffix(lower, "id"):
			return "1"
		}
		return "example"
	case reflect.Bool:
		return false
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return 1
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.String && (strings.Contains(lower, "path") || strings.Contains(lower, "file")) {
			return []string{filepath.Join(ws, SampleFile)}
		}
		return []any{}
	}
	return map[string]any{}
}

// marshal encodes a sample value, leaving <, > and & as they are.
func marshal(v any) []byte {
	if s, ok := v.(string); ok {
		return quote(s)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return []byte("null")
	}
	return b
}
