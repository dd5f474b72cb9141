package adapter

import (
	"path/filepath"
	"strings"
)

// patchFile is one file operation of a Codex patch.
type patchFile struct {
	op     string // "add", "update" or "delete"
	path   string
	moveTo string
	added  []string
	// before and after are the hunks' text as it was and as it will be.
	before, after []string
}

// parsePatch reads the file operations of a patch in Codex's apply_patch
// format (*** Begin Patch, *** Add File:, *** Update File:, *** Move to:,
// *** Delete File:, hunks of " ", "-" and "+" lines, *** End Patch). Headers
// are read with their white space trimmed, as Codex reads them.
func parsePatch(text string) []*patchFile {
	var files []*patchFile
	var cur *patchFile
	for _, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		head := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(head, "*** Add File: "):
			cur = &patchFile{op: "add", path: strings.TrimSpace(strings.TrimPrefix(head, "*** Add File: "))}
			files = append(files, cur)
		case strings.HasPrefix(head, "*** Update File: "):
			cur = &patchFile{op: "update", path: strings.TrimSpace(strings.TrimPrefix(head, "*** Update File: "))}
			files = append(files, cur)
		case strings.HasPrefix(head, "*** Delete File: "):
			cur = &patchFile{op: "delete", path: strings.TrimSpace(strings.TrimPrefix(head, "*** Delete File: "))}
			files = append(files, cur)
		case strings.HasPrefix(head, "*** Move to: ") && cur != nil:
			cur.moveTo = strings.TrimSpace(strings.TrimPrefix(head, "*** Move to: "))
		case strings.HasPrefix(head, "***"), strings.HasPrefix(head, "@@"), cur == nil:
		case strings.HasPrefix(line, "+"):
			cur.added = append(cur.added, line[1:])
			cur.after = append(cur.after, line[1:])
		case strings.HasPrefix(line, "-"):
			cur.before = append(cur.before, line[1:])
		case strings.HasPrefix(line, " "):
			cur.before = append(cur.before, line[1:])
			cur.after = append(cur.after, line[1:])
		}
	}
	return files
}

// patchCalls makes one call of this format per file a patch touches, each
// with a file-writing tool, so that every gate import makes of an
// apply_patch matcher (write_to_file|replace_file_content|
// multi_replace_file_content) sees every file: an added file is a
// write_to_file, an updated one a replace_file_content, a deleted one a
// write_to_file that empties it, and a moved one the edit of its old name
// and a write_to_file of its new one.
func (c *Call) patchCalls(name string, args map[string]any, cwd string) {
	text, _ := args["command"].(string)
	if text == "" {
		text, _ = args["patch"].(string)
	}
	files := parsePatch(text)
	if len(files) == 0 {
		c.notef("%s's %s holds no patch hookctl can read (no *** Add, Update or Delete File line): the call is passed on as %s", c.Agent.Title(), name, name)
		c.calls = append(c.calls, &nativeCall{tool: name, args: args, foreignName: name, foreignArgs: args})
		return
	}
	abs := func(p string) string {
		if filepath.IsAbs(p) || cwd == "" {
			return p
		}
		return filepath.Join(cwd, p)
	}
	add := func(tool string, a map[string]any) {
		c.calls = append(c.calls, &nativeCall{tool: tool, args: a, foreignName: name, foreignArgs: args, synthetic: true})
	}
	for _, f := range files {
		switch f.op {
		case "add":
			add("write_to_file", map[string]any{"TargetFile": abs(f.path), "CodeContent": strings.Join(f.added, "\n"), "Overwrite": false,
				"Description": "create " + f.path + " (" + name + ")"})
		case "update":
			desc := "edit " + f.path + " (" + name + ")"
			if f.moveTo != "" {
				desc = "move " + f.path + " to " + f.moveTo + " (" + name + ")"
			}
			add("replace_file_content", map[string]any{"TargetFile": abs(f.path),
				"TargetContent": strings.Join(f.before, "\n"), "ReplacementContent": strings.Join(f.after, "\n"), "Instruction": desc})
			if f.moveTo != "" {
				add("write_to_file", map[string]any{"TargetFile": abs(f.moveTo), "CodeContent": strings.Join(f.after, "\n"), "Overwrite": true,
					"Description": desc})
			}
		case "delete":
			add("write_to_file", map[string]any{"TargetFile": abs(f.path), "CodeContent": "", "Overwrite": true,
				"Description": "delete " + f.path + " (" + name + ")"})
		}
	}
}
