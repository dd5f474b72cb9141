package convert

import (
	"bytes"
	"io"
	"sort"
	"strings"
	"sync"

	"github.com/hookctl/hookctl/schema"

	"github.com/hookctl/hookctl/internal/lazyre"
)

// What other agents' handlers read and print, which this agent neither
// sends nor understands. A handler that uses them must be rewritten: the
// hook would run, read nothing useful and answer in a way that is ignored
// or taken as a failure.
var (
	// inputFields are payload fields of Claude Code, Codex, Gemini CLI and
	// Cursor, from the table they share with hookctl adapt and lint.
	inputFields = sync.OnceValue(func() map[string]bool { return wordSet(schema.InputFieldNames()...) })
	// outputFields are answer fields of those agents, from the same table.
	outputFields = sync.OnceValue(func() map[string]bool { return wordSet(schema.AnswerFieldNames()...) })
	// blockDecision is Claude Code's and Gemini CLI's {"decision": "block"}.
	blockDecision = lazyre.New(`["']?\bdecision\b["']?\s*[:=]\s*\\?["']block\b`)
	// cursorPermission is Cursor's {"permission": "deny"}.
	cursorPermission = lazyre.New(`["']permission["']\s*:`)
	// exit2 is a handler ending with status 2.
	exit2 = lazyre.New(`\bexit\s+2\b|\bexit\(2\)|\bexitCode\s*=\s*2\b|\bExit\(2\)`)
	// rootPath is a path from the project root into an agent's folder, which
	// a script that now starts in .agents/ no longer finds.
	rootPath = lazyre.New(`(?:^|[\s"'=(])(\.(?:claude|cursor|gemini|codex|agents)/[\w./-]*[\w-])`)
	// projectToolUse is a script line that runs a project tool.
	projectToolUse = lazyre.New(`(?m)^[ \t]*(?:if\s+!?\s*)?(npm|npx|pnpm|yarn|make|go|cargo|pytest|tox|gradle|mvn)\s+[a-z-]`)
)

func wordSet(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// isAgentVar reports whether a word is a variable another agent sets, such
// as CLAUDE_PROJECT_DIR.
func isAgentVar(w string) bool {
	if !hasAgentPrefix(w) {
		return false
	}
	for _, r := range w {
		if !(r >= 'A' && r <= 'Z' || r == '_') {
			return false
		}
	}
	return !strings.HasSuffix(w, "_")
}

// usage is what one handler's command and scripts use of another agent's
// conventions.
type usage struct {
	// inputs and outputs are the payload and answer fields found, in order
	// of first appearance.
	inputs, outputs []string
	// env are the other agents' variables the scripts read.
	env []string
	// exit2 is set when a script exits with status 2, which blocks in those
	// agents on more events than here.
	exit2 bool
	// tools are project tools a script runs, which look for the project
	// from the folder they start in.
	tools []string
	// paths are paths from the project root a script names.
	paths []string
	// where names the files the findings come from: "the command" or a
	// script's path.
	where []string
}

// merge adds what another part of the handler (a script) uses.
func (u *usage) merge(o *usage) {
	for _, s := range o.inputs {
		u.inputs = appendNew(u.inputs, s)
	}
	for _, s := range o.outputs {
		u.outputs = appendNew(u.outputs, s)
	}
	for _, s := range o.env {
		u.env = appendNew(u.env, s)
	}
	for _, s := range o.where {
		u.where = appendNew(u.where, s)
	}
	u.exit2 = u.exit2 || o.exit2
}

// adapted is what is left to report once the handler runs through
// hookctl adapt, which hands it the other agent's payload, reads its
// answer and sets the agents' project folder variables: the variables
// adapt does not set.
func (u *usage) adapted() *usage {
	out := &usage{where: u.where}
	for _, v := range u.env {
		if !adaptSets()[v] {
			out.env = append(out.env, v)
		}
	}
	return out
}

// adaptSets are the variables hookctl adapt sets for a handler as its
// agent would.
var adaptSets = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"CLAUDE_PROJECT_DIR": true, "GEMINI_PROJECT_DIR": true, "GEMINI_CWD": true, "CURSOR_PROJECT_DIR": true}
})

func (u *usage) empty() bool {
	return len(u.inputs) == 0 && len(u.outputs) == 0 && len(u.env) == 0 && !u.exit2
}

// maxScan is how much of a script is read: enough for any handler.
const maxScan = 512 << 10

// scanText records what text uses, under the name where; withEnv says
// whether to look for the other agents' variables.
func (u *usage) scanText(text []byte, where string, withEnv bool) {
	found := false
	add := func(list *[]string, s string) {
		found = true
		*list = appendNew(*list, s)
	}
	// One pass over the words finds the fields and variables: a regular
	// expression per field would read every script a dozen times.
	for i := 0; i < len(text); {
		if !isIdentByte(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isIdentByte(text[j]) {
			j++
		}
		w := string(text[i:j])
		switch {
		case inputFields()[w]:
			add(&u.inputs, w)
		case outputFields()[w]:
			add(&u.outputs, w)
		case withEnv && isAgentVar(w):
			add(&u.env, w)
		}
		i = j
	}
	if bytes.Contains(text, []byte("xit")) && exit2().Match(text) {
		found = true
		u.exit2 = true
	}
	if bytes.Contains(text, []byte("decision")) && blockDecision().Match(text) {
		add(&u.outputs, `"decision": "block"`)
	}
	if bytes.Contains(text, []byte("permission")) && cursorPermission().Match(text) {
		add(&u.outputs, `"permission"`)
	}
	for _, m := range projectToolUse().FindAllSubmatch(text, -1) {
		u.tools = appendNew(u.tools, string(m[1]))
	}
	if found {
		u.where = appendNew(u.where, where)
	}
}

// scanFile records what a script uses; a file that cannot be read or is
// not text adds nothing.
func (u *usage) scanFile(path, where string) {
	f, _, err := schema.OpenRegular(path)
	if err != nil {
		return
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxScan))
	if err != nil || bytes.IndexByte(b, 0) >= 0 {
		return
	}
	u.scanText(b, where, true)
	for _, m := range rootPath().FindAllSubmatch(b, -1) {
		u.paths = appendNew(u.paths, string(m[1]))
	}
}

// sortedEnv returns the variables in a stable order.
func (u *usage) sortedEnv() []string {
	out := append([]string(nil), u.env...)
	sort.Strings(out)
	return out
}

// isIdentByte reports whether c may be part of a word: a letter, a digit
// or an underscore.
func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
