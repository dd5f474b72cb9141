package lint

import (
	"fmt"
	"strings"

	"github.com/hookctl/hookctl/schema"

	"github.com/hookctl/hookctl/internal/lazyre"
)

type foreignPayload struct{ RuleBase }

func newForeignPayload() Rule {
	return &foreignPayload{newBase("foreign-payload", Warning,
		"a handler, or the script it runs, reads another agent's payload fields (tool_input, tool_name) or prints its answer fields (permissionDecision)")}
}

// payloadFields are payload and answer fields of Claude Code, Codex and
// Gemini CLI, and what this agent uses instead. A script that also mentions toolCall
// handles both formats and is left alone.
var (
	payloadFields  = lazyre.New(`["'.\[](tool_input|tool_name|tool_response|hookSpecificOutput|permissionDecision)\b`)
	payloadOwn     = lazyre.New(`\btoolCall\b`)
	payloadInstead = insteadOf(map[string]string{
		"hookSpecificOutput": `{"decision": ...} at the top level of the answer`,
		"permissionDecision": `"decision" ("allow", "ask", "deny", "force_ask" or "deny_unless_prior_grant")`,
	})
)

// insteadOf adds to the answer fields' advice the payload fields', from
// the table import and hookctl adapt read (schema.ForeignInputs).
func insteadOf(answers map[string]string) map[string]string {
	for _, in := range schema.ForeignInputs {
		if in.Instead != "" {
			answers[in.Name] = in.Instead
		}
	}
	return answers
}

// maxScriptRead is how much of a script the rule reads.
const maxScriptRead = 256 << 10

// adapted reports whether a handler runs through hookctl adapt, which
// hands it the other agent's payload and reads its answer: it reads and
// answers in that agent's way on purpose.
func adapted(f *File, h handlerRef) bool {
	c := f.command(h)
	if c == nil || c.parsed == nil {
		return false
	}
	_, ok := c.parsed.Adapted()
	return ok
}

func (r *foreignPayload) Check(f *File) {
	for _, h := range f.allHandlers() {
		if h.Command == nil || adapted(f, h) {
			continue
		}
		s := h.Command.Str
		if !mayNameField(s) {
			continue
		}
		if loc := payloadFields().FindStringSubmatchIndex(s); loc != nil && !payloadOwn().MatchString(s) {
			field := s[loc[2]:loc[3]]
			r.report(f, f.strSpan(h.Command, loc[2], loc[3]), payloadInstead[field],
				"%q is a field of another agent's hook payload (Claude Code, Codex, Gemini CLI), which this agent does not send: use %s", field, payloadInstead[field])
		}
	}
	// Many handlers run the same script: each is searched once.
	type found struct {
		field string
		line  int
	}
	searched := map[string]*found{}
	for _, s := range f.scripts() {
		if adapted(f, s.handler) || s.unreadText() {
			continue
		}
		fd, ok := searched[s.path]
		if !ok {
			body := f.fs.read(s.path, maxScriptRead)
			if mayNameField(string(body)) {
				if loc := payloadFields().FindSubmatchIndex(body); loc != nil && !payloadOwn().Match(body) {
					fd = &found{string(body[loc[2]:loc[3]]), 1 + countNewlines(body[:loc[2]])}
				}
			}
			searched[s.path] = fd
		}
		if fd == nil {
			continue
		}
		field, line := fd.field, fd.line
		r.report(f, s.span, payloadInstead[field], "%s", fmt.Sprintf(
			"%s reads %q (its line %d), a field of another agent's hook payload (Claude Code, Codex, Gemini CLI), which this agent does not send: use %s (hookctl schema input EVENT shows the payload)",
			s.text(), field, line, payloadInstead[field]))
	}
}

// mayNameField is a quick test that spares the expression the many
// commands and scripts that name none of payloadFields.
func mayNameField(s string) bool {
	return strings.Contains(s, "tool_") || strings.Contains(s, "hookSpecificOutput") || strings.Contains(s, "permissionDecision")
}

func countNewlines(b []byte) int {
	n := 0
	for _, c := range b {
		if c == '\n' {
			n++
		}
	}
	return n
}

// read returns up to limit bytes of a regular file, nil when it cannot be
// read.
func (c *fsCache) read(path string, limit int64) []byte {
	if b, ok := c.bodies[path]; ok {
		return b
	}
	var b []byte
	if info, err := c.stat(path); err == nil && info.Mode().IsRegular() {
		if fh, _, err := schema.OpenRegular(path); err == nil {
			buf := make([]byte, min(info.Size(), limit))
			n, _ := fh.Read(buf)
			b = buf[:n]
			fh.Close()
		}
	}
	if c.bodies == nil {
		c.bodies = map[string][]byte{}
	}
	c.bodies[path] = b
	return b
}
