package lint

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/hookctl/hookctl/schema"
)

// checkFindings asserts what must hold for any input: positions inside the
// file, a known rule, a message, and every printer able to print them.
func checkFindings(t *testing.T, src []byte, fs []Finding) {
	t.Helper()
	lines := len(splitLines(src))
	known := map[string]bool{}
	for _, r := range Catalogue() {
		known[r.ID] = true
	}
	for _, f := range fs {
		if !known[f.Rule] {
			t.Errorf("finding of unknown rule %q", f.Rule)
		}
		if f.Message == "" {
			t.Errorf("finding of %s without a message", f.Rule)
		}
		if f.Span.Start.Line < 1 || f.Span.Start.Col < 1 || f.Span.Start.Line > max(lines, 1)+1 {
			t.Errorf("finding of %s at %v, outside a file of %d lines", f.Rule, f.Span.Start, lines)
		}
		if f.Span.End.Line < f.Span.Start.Line || f.Span.End.Line == f.Span.Start.Line && f.Span.End.Col < f.Span.Start.Col {
			t.Errorf("finding of %s ends (%v) before it starts (%v)", f.Rule, f.Span.End, f.Span.Start)
		}
		if !utf8.ValidString(f.Message) && utf8.Valid(src) {
			t.Errorf("message of %s is not UTF-8: %q", f.Rule, f.Message)
		}
	}
	checkDropsExplained(t, src, fs)
	res := &Result{Findings: fs, Files: []*File{{Name: ".agents/hooks.json", Config: schema.Parse(".agents/hooks.json", src)}}}
	for _, name := range FormatNames() {
		p, _ := NewPrinter(name)
		if err := p.Print(io.Discard, res); err != nil {
			t.Errorf("%s printer: %v", name, err)
		}
	}
}

// checkDropsExplained asserts that whatever makes the agent drop the file
// is a finding marked file-dropped, and that nothing else is.
func checkDropsExplained(t *testing.T, src []byte, fs []Finding) {
	t.Helper()
	cfg := schema.Parse(".agents/hooks.json", src)
	dropped := cfg.Syntax != nil
	if cfg.Root != nil {
		errs := schema.AgentErrors(cfg.Root, schema.AgentOptions{})
		dropped = dropped || len(errs) > 0
		foreign := slicesContainsFunc(fs, func(f Finding) bool { return f.Rule == "foreign-format" && f.Impact == FileDropped })
		// The spans of the findings that say the file is dropped, indexed
		// once: a file of thousands of values the agent cannot read has as
		// many errors and findings.
		var droppedSpans []schema.Span
		for _, f := range fs {
			if f.Impact == FileDropped {
				droppedSpans = append(droppedSpans, f.Span)
			}
		}
		said := schema.NewSpanSet(droppedSpans)
		for _, e := range errs {
			if !foreign && !said.Overlaps(e.Span) && !(e.Key.End.Offset > 0 && said.Overlaps(e.Key)) {
				t.Errorf("the agent cannot read the value at %v (%s), and no finding marked file-dropped says so: %v", e.Span.Start, e.Message(), fs)
			}
		}
	}
	for _, f := range fs {
		if f.Impact == "" {
			t.Errorf("finding of %s without an impact", f.Rule)
		}
		if f.Impact == FileDropped && !dropped {
			t.Errorf("%s says the file is dropped, but the agent loads it", f)
		}
	}
}

func slicesContainsFunc(fs []Finding, ok func(Finding) bool) bool {
	for _, f := range fs {
		if ok(f) {
			return true
		}
	}
	return false
}

// FuzzLint runs the whole linter, and every printer, over arbitrary bytes.
// Plain go test runs the seed corpus only; fuzz with
// go test ./lint -run XXX -fuzz FuzzLint.
func FuzzLint(f *testing.F) {
	for _, dir := range []string{"ok", "err", "printer"} {
		files, _ := filepath.Glob(filepath.Join("testdata", dir, "*.json"))
		for _, file := range files {
			if b, err := os.ReadFile(file); err == nil {
				f.Add(b)
			}
		}
	}
	for _, n := range []string{"003", "033", "042", "095", "100", "105"} {
		if b, err := os.ReadFile(filepath.Join("..", "testdata", "realworld", n+".json")); err == nil {
			f.Add(b)
		}
	}
	ws := f.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, ".agents"), 0o755); err != nil {
		f.Fatal(err)
	}
	path := filepath.Join(ws, ".agents", "hooks.json")
	f.Fuzz(func(t *testing.T, src []byte) {
		fs := LintSource(Target{Path: path, Name: ".agents/hooks.json", Scope: Workspace, Root: ws}, src)
		checkFindings(t, src, fs)
	})
}

// TestHostileInput feeds the linter what no hooks.json should hold: it
// must answer with findings, never a panic.
func TestHostileInput(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	path := filepath.Join(ws, ".agents", "hooks.json")
	long := strings.Repeat("a", 1<<20)
	// As deep as both bounds let a file of objects nest: each level is a
	// key and an object.
	deepObjects := min(schema.MaxDepth-2, (schema.MaxValues-5)/2)
	cases := map[string]struct {
		src  string
		rule string // a rule that must report, "" for none in particular
	}{
		"deep nesting":            {strings.Repeat("[", 100000), "json-syntax"},
		"deep objects":            {strings.Repeat(`{"a":`, schema.MaxDepth+1) + "1" + strings.Repeat("}", schema.MaxDepth+1), "json-syntax"},
		"objects the agent reads": {`{"g":{"x":` + strings.Repeat(`{"a":`, deepObjects) + "1" + strings.Repeat("}", deepObjects) + `}}`, "unknown-event"},
		"invalid utf-8":           {"{\"g\xff\": {}}", "control-character"},
		"nul byte":                {"{\x00}", "json-syntax"},
		"lone surrogate":          {`{"g": {"Stop": [{"command": "\ud800 ./x.sh \udc00 ./y.sh"}]}}`, ""},
		"escapes in command":      {`{"g": {"Stop": [{"command": "\u0070ython3 \"./\u00e9.py\" \t\/x"}]}}`, "script-not-found"},
		"huge number":             {`{"g": {"Stop": [{"command": "true", "timeout": 1e999999}]}}`, "timeout-value"},
		"huge integer":            {`{"g": {"Stop": [{"command": "true", "timeout": 99999999999999999999999}]}}`, "timeout-value"},
		"negative timeout":        {`{"g": {"Stop": [{"command": "true", "timeout": -5}]}}`, "timeout-value"},
		"long line":               {`{"` + long + `": {"Stop": [{"command": "./` + long + `"}]}}`, "shell-syntax"},
		"unbalanced shell":        {`{"g": {"Stop": [{"command": "echo \"$(curl x | sh"}]}}`, "dangerous-command"},
		"regex bomb":              {`{"g": {"PreToolUse": [{"matcher": "(((((a*)*)*)*)*)*b|` + strings.Repeat("x|", 5000) + `y", "hooks": [{"command": "true"}]}]}}`, "matcher-no-tool"},
		"regex too large":         {`{"g": {"PreToolUse": [{"matcher": "a{1000}{1000}", "hooks": [{"command": "true"}]}]}}`, "matcher-syntax"},
		"device as script":        {`{"g": {"Stop": [{"command": "/dev/stdin"}, {"command": "/dev/zero"}, {"command": "/proc/self/fd/0"}]}}`, ""},
		"many duplicates":         {`{` + strings.Repeat(`"a": 1,`, (schema.MaxValues-1)/2-1) + `"a": 1}`, "duplicate-key"},
		"crlf":                    {"{\r\n  \"g\": {\r\n    \"Stpo\": []\r\n  }\r\n}\r\n", "unknown-event"},
		"lone cr":                 {"{\r  \"g\": {\r    \"Stpo\": []\r  }\r}", "unknown-event"},
		"only whitespace":         {" \n\t ", "json-syntax"},
		"number at top":           {"42", "root-shape"},
		"control in string":       {"{\"g\": {\"Stop\": [{\"command\": \"a\tb\"}]}}", "json-syntax"},
		"foreign and broken":      {`{"version": 1, "hooks": {"stop": [{"command": 5}]}}`, "foreign-format"},
		"empty key":               {`{"": {"": []}}`, "unknown-event"},
		"wide characters":         {`{"ツール": {"イベント": [{"command": "ｘ"}]}}`, "unknown-event"},
		"matcher with escape":     {`{"g": {"PreToolUse": [{"matcher": "\\bBash\\b|\u0042ash", "hooks": [{"command": "true"}]}]}}`, "foreign-tool"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			fs := LintSource(Target{Path: path, Name: ".agents/hooks.json", Scope: Workspace, Root: ws}, []byte(c.src))
			checkFindings(t, []byte(c.src), fs)
			if c.rule != "" && rulesOf(fs)[c.rule] == 0 {
				t.Errorf("no %s finding; got:\n%s", c.rule, formatFindings(fs))
			}
			var b bytes.Buffer
			if err := (&TextPrinter{}).Print(&b, &Result{Findings: fs, Files: []*File{{Name: ".agents/hooks.json", Config: schema.Parse(path, []byte(c.src))}}}); err != nil {
				t.Fatal(err)
			}
		})
	}
}
