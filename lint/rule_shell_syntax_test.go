package lint

import (
	"bytes"
	"context"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/internal/testenv"
	"github.com/hookctl/hookctl/schema"
)

// needShells returns the paths of the real shells named (see
// testenv.Need).
func needShells(t *testing.T, names ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, n := range names {
		out[n] = testenv.Need(t, n)
	}
	return out
}

// refusal is what a shell prints when it refuses code: a syntax error, or
// a bad substitution, which stops it where it meets one.
var refusal = regexp.MustCompile(`(?i)syntax error|bad substitution|unexpected EOF|unterminated`)

// shellRefuses runs code as the shell does with -c, in an empty folder
// with nothing on stdin, and reports whether it refuses it.
func shellRefuses(t *testing.T, shell, code string) (bool, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, shell, "-c", code)
	cmd.Dir = t.TempDir()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	return err != nil && refusal.MatchString(stderr.String()), stderr.String()
}

// TestShellCodeAsTheShellSays: the code of bash -c and dash -c is
// reported exactly when the real shell refuses it, and the code of sh -c
// only when both refuse it (sh is dash on Debian, bash on macOS), each
// finding inside the code, in the file.
func TestShellCodeAsTheShellSays(t *testing.T) {
	shells := needShells(t, "bash", "dash")
	codes := []string{
		`echo start; cd ${workspace.path} && echo fixed`,
		`echo ${a.b}`,
		`a=(1 2); echo ok`,
		`cat <<< hi`,
		`echo ${HOME//x/y}`,
		`echo ${HOME:1:2}`,
		`echo ${HOME^^}`,
		`function f { echo hi; }; f`,
		`echo |& cat`,
		`for ((i=0;i<1;i++)); do echo $i; done`,
		`echo &> /dev/null`,
		`[[ -f /etc/passwd ]] && echo yes`,
		`if true then echo x; fi`,
		`for x in a b; do echo`,
		`echo "unclosed`,
		`f() { echo hi }`,
		`echo ok; (`,
		`echo ok ) `,
		`echo $((1+2)) ${HOME%/*} ${HOME:-x}`,
	}
	for _, code := range codes {
		for _, shell := range []string{"bash", "dash", "sh"} {
			var refuses bool
			var said string
			if shell == "sh" {
				b, bs := shellRefuses(t, shells["bash"], code)
				d, ds := shellRefuses(t, shells["dash"], code)
				refuses, said = b && d, bs+ds
			} else {
				refuses, said = shellRefuses(t, shells[shell], code)
			}
			cmd := shell + " -c '" + code + "'"
			src := `{"g": {"Stop": [{"command": ` + quoted(cmd) + `}]}}`
			var found []Finding
			for _, f := range LintSource(Target{Path: "hooks.json"}, []byte(src)) {
				if f.Rule == "shell-syntax" {
					found = append(found, f)
				}
			}
			if (len(found) > 0) != refuses {
				t.Errorf("%s: reported %v, the shell refuses it: %v (%q)", cmd, formatFindings(found), refuses, said)
				continue
			}
			codeStart := strings.Index(src, "'") + 1
			codeEnd := strings.LastIndex(src, "'")
			for _, f := range found {
				if f.Span.Start.Offset < codeStart || f.Span.End.Offset > codeEnd || !strings.Contains(f.Message, "in the code of "+shell+" -c") {
					t.Errorf("%s: %s spans %d-%d, outside the code (%d-%d)", cmd, f, f.Span.Start.Offset, f.Span.End.Offset, codeStart, codeEnd)
				}
			}
		}
	}
}

// TestShellCodePositions: a mistake in the code of a shell -c is placed
// in the file through the JSON string's escapes and the command's quotes,
// past wrappers, with what it does to the handler.
func TestShellCodePositions(t *testing.T) {
	for _, c := range []struct {
		command string
		// at is the text the finding points at, msg a part of its message.
		at, msg string
	}{
		{`bash -c 'echo start; cd ${workspace.path} && dart fix --apply'`, "${workspace.path}",
			`in the code of bash -c, ${workspace.path} is a bad substitution: a shell variable's name holds only letters, digits and _, so bash stops with "bad substitution" and the handler fails on every call; the agent substitutes no such template`},
		{`timeout 5 sh -c "echo \"é\" ${HOME:+x} \${a.b}"`, "${HOME:+x}", ""},
		{`env -i A=1 nice -n 5 dash -c 'echo "x" ; a=(1 2)'`, "(1", "in the code of dash -c, arrays are a bash feature, which dash does not have: dash refuses the code of dash -c and exits with status 2, which the agent takes for a deny"},
		{`hookctl trace -- bash -euc "if true; then echo \"done\""`, `if true; then echo \"done\"`, "in the code of bash -c, the code ends too soon: `if` statement must end with `fi`; bash refuses the code of bash -c and exits with status 2, which the agent takes for a deny"},
		{`true; sh -c "echo \"ok; " && echo no`, "\"ok; ", "in the code of sh -c, the double quote \" opened here is never closed: sh refuses the code of sh -c, so that part of the command fails on every call"},
		{`sh -c echo\ \$\{a.b\}`, `$\{a.b\}`, "so sh stops with \"Bad substitution\" and the handler fails on every call"},
	} {
		src := []byte(`{"g": {"PreToolUse": [{"matcher": "run_command", "hooks": [{"command": ` + quoted(c.command) + `}]}]}}`)
		var found []Finding
		for _, f := range LintSource(Target{Path: "hooks.json"}, src) {
			if f.Rule == "shell-syntax" {
				found = append(found, f)
			}
		}
		if c.at == "${HOME:+x}" {
			// ${HOME:+x} is the outer shell's to expand: the code is not
			// a literal word, so it is not read.
			if len(found) != 0 {
				t.Errorf("%s: %s", c.command, formatFindings(found))
			}
			continue
		}
		if len(found) != 1 {
			t.Errorf("%s: %d findings: %s", c.command, len(found), formatFindings(found))
			continue
		}
		f := found[0]
		// The finding's text in the command, decoded from the JSON string.
		n, _, err := schema.ParseJSON(append(append([]byte(`"`), src[f.Span.Start.Offset:f.Span.End.Offset]...), '"'))
		if err != nil || n.Str != c.at {
			t.Errorf("%s: the finding spans %q (%v), want %q", c.command, src[f.Span.Start.Offset:f.Span.End.Offset], err, c.at)
		}
		if l, col := lineCol(src, f.Span.Start.Offset); l != f.Span.Start.Line || col != f.Span.Start.Col {
			t.Errorf("%s: starts at offset %d, which is %d:%d, not %v", c.command, f.Span.Start.Offset, l, col, f.Span.Start)
		}
		if !strings.Contains(f.Message, c.msg) {
			t.Errorf("%s: message %q, want it to hold %q", c.command, f.Message, c.msg)
		}
	}
}
