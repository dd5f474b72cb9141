package lint

import (
	"bytes"
	"strings"
	"testing"

	"github.com/fatih/color"

	"github.com/hookctl/hookctl/schema"
)

// lineCol recomputes the line and column of a byte offset: lines end at
// \n, columns count characters.
func lineCol(src []byte, off int) (int, int) {
	line, col := 1, 1
	for _, r := range string(src[:off]) {
		if r == '\n' {
			line, col = line+1, 1
			continue
		}
		col++
	}
	return line, col
}

// TestSyntaxMistakesInOneRun: a file with several syntax mistakes gets
// them all in one run, and the other rules check what it means, every
// finding at its place in the file as written: after single quotes, keys
// without quotes, comments and invalid escapes on the same lines.
func TestSyntaxMistakesInOneRun(t *testing.T) {
	src := []byte(`{
  // gate the shell
  gate: {'PreToolUse': [{"matcher": 'Bash', "hooks": [/* one */ {"command": "echo \d ${workspace.path}", timeout: "10"},]}]},
  "stop": {"Stop": [{"command": "true"}]}
}
`)
	fs := LintSource(Target{Path: "hooks.json"}, src)
	var got []string
	for _, f := range fs {
		got = append(got, f.Span.Start.String()+" "+f.Rule+" "+string(src[f.Span.Start.Offset:f.Span.End.Offset]))
		if l, c := lineCol(src, f.Span.Start.Offset); l != f.Span.Start.Line || c != f.Span.Start.Col {
			t.Errorf("%s: starts at offset %d, which is %d:%d", f, f.Span.Start.Offset, l, c)
		}
		if l, c := lineCol(src, f.Span.End.Offset); l != f.Span.End.Line || c != f.Span.End.Col {
			t.Errorf("%s: ends at offset %d, which is %d:%d", f, f.Span.End.Offset, l, c)
		}
	}
	want := []string{
		"2:3 json-syntax // gate the shell",
		"3:3 json-syntax g",
		"3:10 json-syntax '",
		"3:37 json-syntax '",
		"3:38 foreign-tool Bash",
		"3:55 json-syntax /* one */",
		"3:83 json-syntax \\",
		"3:86 shell-syntax ${workspace.path}",
		"3:106 json-syntax t",
		"3:115 timeout-value \"10\"",
		"3:120 json-syntax ,",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, f := range fs {
		if f.Rule == "json-syntax" && (f.Impact != FileDropped) {
			t.Errorf("%s: impact %q", f, f.Impact)
		}
	}
}

// TestSyntaxDroppedLine: the text output says once that the agent loads
// none of the file's hooks, counting those read past the mistakes.
func TestSyntaxDroppedLine(t *testing.T) {
	defer func(c bool) { color.NoColor = c }(color.NoColor)
	color.NoColor = true
	for _, c := range []struct{ src, want string }{
		{"{\n  // c\n  \"a\": {\"Stop\": []},\n  \"b\": {\"Stop\": []},\n}\n", "hooks.json: the agent loads none of this file's 2 hooks (first cause: 2:3)"},
		{"{\n  // c\n  \"a\": {\"Stop\": [}\n}\n", "hooks.json: the agent loads none of this file's hooks (first cause: 2:3)"},
	} {
		run := &Run{fs: newFSCache()}
		run.lintSource(Target{Path: "hooks.json"}, []byte(c.src), nil)
		var b bytes.Buffer
		if err := (&TextPrinter{NoSource: true}).Print(&b, &Result{Findings: run.out, Files: run.Files, Dropped: run.dropped}); err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(b.String(), "the agent loads none"); n != 1 || !strings.Contains(b.String(), c.want+"\n") {
			t.Errorf("output of %q:\n%s\nwant the line %q once", c.src, b.String(), c.want)
		}
	}
}

// TestSyntaxFixWorse: --fix refuses fixes that would leave the file worse
// JSON than it was: the check counts the syntax mistakes of a file read
// past them.
func TestSyntaxFixWorse(t *testing.T) {
	read := func(s string) *schema.Config { return schema.ParseRecovering("hooks.json", []byte(s)) }
	for _, c := range []struct {
		before, after string
		worse         bool
	}{
		{`{"a": 1}`, `{"a": 2}`, false},
		{`{"a": 1}`, `{"a": 2,}`, true},
		{"{\"a\": 1, // c\n}", "{\"a\": 1,\n}", false},
		{"{\"a\": 1, // c\n}", "{\"a\": 1\n}", false},
		{"{\"a\": 1 // c\n}", "{\"a\": 1 // c\n// d\n}", true},
		{"{\"a\": 1 // c\n}", "{\"a\": 1 // c\n", true},
	} {
		if got := worseJSON(read(c.before), read(c.after)); got != c.worse {
			t.Errorf("%q to %q: worse %v, want %v", c.before, c.after, got, c.worse)
		}
	}
}
