package lint

import (
	"github.com/hookctl/hookctl/schema"
)

// Script is a file that a handler's command executes, as the script rules
// see it.
type Script struct {
	// Path is the file on disk: a relative name in the command is joined
	// to the folder that holds the hooks.json, where handlers run.
	Path string
	// Span is where the command names the file in hooks.json.
	Span schema.Span
	// Command is the span of the whole command string.
	Command schema.Span
}

// Scripts returns the files that the handlers of src, the hooks.json at
// t.Path, execute, in file order, for editors: go to definition, and
// watching the files whose change alters lint's findings. Inline shell
// names no file here, as for the script rules.
func Scripts(t Target, src []byte) []Script {
	run := &Run{fs: newFSCache()}
	f := run.newFile(t, schema.Parse(t.Path, src))
	var out []Script
	for _, s := range f.scripts() {
		out = append(out, Script{Path: s.path, Span: s.span, Command: s.handler.Command.Span})
	}
	return out
}

// RuleDoc is the address of a rule's documentation in docs/rules.md.
func RuleDoc(id string) string { return rulesDoc + id }
