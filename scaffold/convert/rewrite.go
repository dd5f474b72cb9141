package convert

import (
	"bytes"
	"io"
	"strings"

	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/shellcmd"
)

// How a handler's command is rewritten to run here: the exec form's words
// quoted for the shell, and a command whose plain output the other agent
// gave the model wrapped into this format's answer.

// execWord writes one word of an exec-form command for /bin/sh, as it was
// passed: quoted, except the agents' path placeholders (${CLAUDE_PLUGIN_ROOT},
// ...), which the agent substitutes in exec form too and which stay
// variables, inside double quotes, for the command's conversion to read.
func execWord(s string) string {
	if !strings.Contains(s, "${") {
		return shellcmd.Quote(s)
	}
	var b strings.Builder
	b.WriteByte('"')
	rest := s
	for rest != "" {
		i := strings.Index(rest, "${")
		if i < 0 {
			b.WriteString(escapeDouble(rest))
			break
		}
		j := strings.IndexByte(rest[i:], '}')
		name := ""
		if j > 0 {
			name = rest[i+2 : i+j]
		}
		if name == "" || !isOneOf(name, projectVars) && !isOneOf(name, pluginVars) {
			b.WriteString(escapeDouble(rest[:i+2]))
			rest = rest[i+2:]
			continue
		}
		b.WriteString(escapeDouble(rest[:i]))
		b.WriteString("${" + name + "}")
		rest = rest[i+j+1:]
	}
	b.WriteByte('"')
	return b.String()
}

// escapeDouble escapes what a double-quoted shell word would interpret.
func escapeDouble(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "$", `\$`, "`", "\\`")
	return r.Replace(s)
}

// readsPlainText reports whether the handler being converted printed plain
// text that the other agent gave the model as context: Claude Code's and
// Codex's UserPromptSubmit and SessionStart. Here such text is no answer:
// the runtime rejects it on every call.
func (c *converter) readsPlainText(target schema.Event) bool {
	return c.src.Shape == Wrapped && (c.src.Agent == schema.Claude || c.src.Agent == schema.Codex) &&
		(c.curEvent == "UserPromptSubmit" || c.curEvent == "SessionStart") &&
		(target == schema.PreInvocation || target == schema.SessionStart)
}

// answersJSON reports whether a command or the scripts it runs print a JSON
// answer (this format's injectSteps, or another agent's fields, which the
// report names), rather than plain text.
func answersJSON(command string, scripts []string) bool {
	for _, t := range append([][]byte{[]byte(command)}, readScripts(scripts)...) {
		if bytes.Contains(t, []byte("injectSteps")) {
			return true
		}
		u := &usage{}
		u.scanText(t, "", false)
		if len(u.outputs) > 0 {
			return true
		}
	}
	return false
}

// readScripts reads the scripts a command runs, those that can be read.
func readScripts(scripts []string) [][]byte {
	var out [][]byte
	for _, s := range scripts {
		f, _, err := schema.OpenRegular(s)
		if err != nil {
			continue
		}
		b, _ := io.ReadAll(io.LimitReader(f, maxScan))
		f.Close()
		out = append(out, b)
	}
	return out
}

// asContext wraps a command whose plain output the other agent gave the
// model: its output, when there is some, becomes
// {"injectSteps":[{"ephemeralMessage": OUTPUT}]}, written as a JSON string
// with POSIX tools alone (control characters other than tab and newline
// dropped); its exit status is kept.
func asContext(command string) string {
	return "out=$(sh -c " + shellcmd.Quote(command) + `) || exit; [ -z "$out" ] || printf '{"injectSteps":[{"ephemeralMessage":"%s"}]}\n' "$(printf '%s' "$out" | tr -d '\000-\010\013-\037' | sed 's/\\/\\\\/g; s/"/\\"/g; s/	/\\t/g' | awk 'NR > 1 { printf "%s", "\\n" } { printf "%s", $0 }')"`
}
