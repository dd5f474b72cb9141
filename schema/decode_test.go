package schema

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
)

func TestDecodeSeedExample(t *testing.T) {
	c, err := Load("testdata/seed-example.json")
	if err != nil {
		t.Fatal(err)
	}
	if c.Syntax != nil || len(c.Problems) > 0 {
		t.Fatalf("syntax %v, problems %+v", c.Syntax, c.Problems)
	}
	hooks := c.File.Hooks
	if len(hooks) != 3 || hooks[0].Name != "my-linter-hook" || hooks[1].Name != "safety-gate" || hooks[2].Name != "reminder" {
		t.Fatalf("hooks not in file order: %v", hookNames(hooks))
	}
	lint := hooks[0]
	if !lint.IsEnabled() || lint.Pos != (Pos{Offset: 4, Line: 2, Col: 3}) {
		t.Errorf("my-linter-hook enabled=%v at %+v", lint.IsEnabled(), lint.Pos)
	}
	g := lint.PostToolUse[0]
	if g.MatcherText() != "run_command" || g.MatcherPos != (Pos{Offset: strings.Index(string(c.Src), `"run_command"`), Line: 5, Col: 20}) || g.Pos.Line != 4 || g.Pos.Col != 7 {
		t.Errorf("group %+v", g)
	}
	h := g.Hooks[0]
	if h.Command != "./scripts/lint.sh" || h.Timeout != 10 || h.TimeoutSeconds() != 10 || h.Pos.Line != 7 || h.Pos.Col != 11 {
		t.Errorf("handler %+v", h)
	}
	if hooks[1].IsEnabled() {
		t.Error("safety-gate is disabled")
	}
	r := hooks[2].PreInvocation
	if len(r) != 1 || r[0].Command != "./scripts/reminder.sh" || r[0].TimeoutSeconds() != DefaultTimeout {
		t.Errorf("reminder %+v", r)
	}
	if c.Dir == "" || !strings.HasSuffix(c.Dir, "testdata") {
		t.Errorf("Dir %q", c.Dir)
	}
}

func hookNames(hs []*HookDefinition) []string {
	var n []string
	for _, h := range hs {
		n = append(n, h.Name)
	}
	return n
}

func TestDecodeProblems(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string // "RULE LINE:COL DROPPED"
		run  string   // the hooks that still run, with their events
	}{
		{"root array", `[{"PreToolUse": []}]`, []string{"root-shape 1:1 file"}, ""},
		{"hook not object", `{"a": [], "b": {"Stop": [{"command": "x"}]}}`, []string{"root-shape 1:7 hook"}, "b:Stop"},
		{"schema key ignored", `{"$schema": "https://x", "a": {}}`, nil, "a:"},
		{"schema key not string", `{"$schema": 1}`, []string{"root-shape 1:13 hook"}, ""},
		{"unknown event", `{"a": {"pre_tool_use": [], "Stop": [{"command": "x"}]}}`, []string{"unknown-event 1:8 "}, "a:Stop"},
		{"key in another case", `{"a": {"stop": [{"Command": "x"}]}}`, []string{"key-case 1:8 ", "key-case 1:18 "}, "a:Stop"},
		{"enabled string", `{"a": {"enabled": "false", "Stop": [{"command": "x"}]}}`, []string{"enabled-type 1:19 hook"}, ""},
		{"event not array", `{"a": {"Stop": {"command": "x"}}}`, []string{"event-shape 1:16 event"}, "a:"},
		{"tool event holds handler", "{\"a\": {\"PreToolUse\": [\n {\"command\": \"x\"}]}}", []string{"event-shape 2:2 group"}, "a:"},
		{"group without hooks", `{"a": {"PreToolUse": [{"matcher": "x"}]}}`, []string{"event-shape 1:23 group"}, "a:"},
		{"group with command (top-level events)", `{"a": {"PreToolUse": [{"matcher": "run_command", "command": "x"}]}}`, []string{"event-shape 1:23 group"}, "a:"},
		{"stop holds groups", `{"a": {"Stop": [{"hooks": [{"command": "x"}]}]}}`, []string{"event-shape 1:17 handler"}, "a:"},
		{"hooks not array", `{"a": {"PostToolUse": [{"hooks": {"command": "x"}}]}}`, []string{"event-shape 1:34 group"}, "a:"},
		{"group entry string", `{"a": {"PostToolUse": ["x"]}}`, []string{"event-shape 1:24 group"}, "a:"},
		{"handler string", `{"a": {"Stop": ["./x.sh"]}}`, []string{"event-shape 1:17 handler"}, "a:"},
		{"bad matcher", `{"a": {"PreToolUse": [{"matcher": "(?!x)", "hooks": [{"command": "x"}]}, {"hooks": [{"command": "y"}]}]}}`, []string{"matcher-syntax 1:35 group"}, "a:PreToolUse"},
		{"matcher not string", `{"a": {"PreToolUse": [{"matcher": ["x"], "hooks": [{"command": "x"}]}]}}`, []string{"matcher-syntax 1:35 group"}, "a:"},
		{"unknown group field", `{"a": {"PreToolUse": [{"matcher": "x", "description": "d", "hooks": [{"command": "x"}]}]}}`, []string{"unknown-field 1:40 "}, "a:PreToolUse"},
		{"unknown handler field", `{"a": {"Stop": [{"command": "x", "timeoutMs": 5}]}}`, []string{"unknown-field 1:34 "}, "a:Stop"},
		{"handler type", `{"a": {"Stop": [{"type": "prompt", "command": "x"}]}}`, []string{"handler-type 1:26 handler"}, "a:"},
		{"no command", `{"a": {"Stop": [{"type": "command"}]}}`, []string{"missing-command 1:17 handler"}, "a:"},
		{"empty command", `{"a": {"Stop": [{"command": "  "}]}}`, []string{"missing-command 1:29 handler"}, "a:"},
		{"command not string", `{"a": {"Stop": [{"command": ["x"]}]}}`, []string{"missing-command 1:29 handler"}, "a:"},
		{"timeout string", `{"a": {"Stop": [{"command": "x", "timeout": "10"}]}}`, []string{"timeout-value 1:45 handler"}, "a:"},
		{"timeout zero", `{"a": {"Stop": [{"command": "x", "timeout": 0}]}}`, []string{"timeout-value 1:45 handler"}, "a:"},
		{"timeout fraction", `{"a": {"Stop": [{"command": "x", "timeout": 1.5}]}}`, []string{"timeout-value 1:45 handler"}, "a:"},
		{"timeout float form", `{"a": {"Stop": [{"command": "x", "timeout": 10.0}]}}`, []string{"timeout-value 1:45 handler"}, "a:"},
		{"timeout large ok", `{"a": {"Stop": [{"command": "x", "timeout": 30000}]}}`, nil, "a:Stop"},
		{"duplicate hook keeps last", `{"a": {"Stop": [{"command": "x"}]}, "a": {"PreInvocation": [{"command": "y"}]}}`, nil, "a:PreInvocation"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Parse("hooks.json", []byte(tt.src))
			if c.Syntax != nil {
				t.Fatal(c.Syntax)
			}
			var got []string
			for _, p := range c.Problems {
				got = append(got, fmt.Sprintf("%s %s %s", p.Rule, p.Span.Start, p.Dropped))
				if p.Msg == "" {
					t.Errorf("%s: no message", p.Rule)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			var run []string
			for _, h := range c.File.Hooks {
				var evs []string
				for _, e := range Events {
					if h.HasEvent(e) {
						evs = append(evs, string(e))
					}
				}
				run = append(run, h.Name+":"+strings.Join(evs, ","))
			}
			if strings.Join(run, " ") != tt.run {
				t.Errorf("runs %q, want %q", strings.Join(run, " "), tt.run)
			}
		})
	}
}

func TestDecodeProblemEvents(t *testing.T) {
	c := Parse("hooks.json", []byte(`{"a": {"enabled": 1, "PreToolUse": [], "Stop": []}, "b": {"PostToolUse": [{"hooks": [{}]}]}}`))
	if len(c.Problems) != 2 {
		t.Fatalf("%+v", c.Problems)
	}
	if p := c.Problems[0]; p.Hook != "a" || fmt.Sprint(p.Events) != "[PreToolUse Stop]" {
		t.Errorf("dropped hook: %+v", p)
	}
	if p := c.Problems[1]; p.Hook != "b" || fmt.Sprint(p.Events) != "[PostToolUse]" || p.Context != "handler" {
		t.Errorf("dropped handler: %+v", p)
	}
}

func TestMatcher(t *testing.T) {
	tests := []struct {
		matcher string
		match   []string
		miss    []string
	}{
		{"", []string{"run_command", "anything"}, nil},
		{"*", []string{"run_command", "browser_click"}, nil},
		{"run_command", []string{"run_command"}, []string{"run_command2", "xrun_command"}},
		{"run", nil, []string{"run_command"}},
		{"run_command|view_file", []string{"run_command", "view_file"}, []string{"list_dir"}},
		{"browser_.*", []string{"browser_click", "browser_"}, []string{"xbrowser_click"}},
		{".*", []string{"run_command"}, nil},
		{"^run_command$", []string{"run_command"}, []string{"view_file"}},
	}
	for _, tt := range tests {
		m, err := CompileMatcher(tt.matcher)
		if err != nil {
			t.Fatalf("%q: %v", tt.matcher, err)
		}
		for _, n := range tt.match {
			if !m.Match(n) {
				t.Errorf("%q does not match %q", tt.matcher, n)
			}
		}
		for _, n := range tt.miss {
			if m.Match(n) {
				t.Errorf("%q matches %q", tt.matcher, n)
			}
		}
	}
	for matcher, says := range map[string]string{
		"(?=run)":      "lookahead",
		"(?<!x)y":      "lookbehind",
		`(a)\1`:        "backreference",
		"*_file":       "not a glob",
		"run_command(": "missing closing )",
		"[a-":          "missing closing ]",
	} {
		_, err := CompileMatcher(matcher)
		if err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("%q: error %v does not say %q", matcher, err, says)
		}
	}
}

// TestLiteralMatchersAgreeWithTheRule checks the matchers decided without a
// regular expression against the rule itself, ^(?:matcher)$ in RE2, on
// every pair.
func TestLiteralMatchersAgreeWithTheRule(t *testing.T) {
	texts := []string{
		"run_command", "run", "run_command|view_file", "browser_.*", "mcp__.*|run_command", "run_comman.", ".*",
		"view_file|", "run_.*_file", "Run_Command", "run_command.*", "list_dir|find_by_name|grep_search", "browser_",
		"a.b", "x|y.*|z", "run_command+", "view_file?", "mcp__github__.*", "|", "a||b",
	}
	tools := []string{"run_command", "run_command2", "view_file", "browser_click", "browser_", "mcp__github__create_issue",
		"Run_Command", "run", "", "list_dir", "axb", "a.b", "y", "yy", "browser_a\nb", "x|y", "run_commandd", "view_fil"}
	for _, m := range texts {
		got, err := CompileMatcher(m)
		if err != nil {
			t.Fatalf("%q: %v", m, err)
		}
		rule := regexp.MustCompile("^(?:" + m + ")$")
		for _, tool := range tools {
			if got.Match(tool) != rule.MatchString(tool) {
				t.Errorf("matcher %q, tool %q: %v, the rule says %v", m, tool, got.Match(tool), rule.MatchString(tool))
			}
		}
	}
}

func TestValidateMatcherAgreesWithCompile(t *testing.T) {
	for _, m := range []string{"", "*", "run_command", "a|b", "(?=x)", "(?<!x)y", `(a)\1`, "*_file", "[a-", "a{1001}",
		"a)|(b", "(?i)RUN_command", `\pL+`, "x{2,1}", "((((a))))", "a**", "(?P<n>x)", `\Q.*\E`} {
		_, cerr := CompileMatcher(m)
		verr := ValidateMatcher(m)
		if (cerr == nil) != (verr == nil) || (cerr != nil && cerr.Error() != verr.Error()) {
			t.Errorf("%q: compile %v, validate %v", m, cerr, verr)
		}
	}
}

func TestNearest(t *testing.T) {
	events := EventNames()
	for word, want := range map[string]string{
		"PretoolUse":     "PreToolUse",
		"pre_tool_use":   "PreToolUse",
		"postInvocation": "PostInvocation",
		"PreToolUsse":    "PreToolUse",
		"stop":           "Stop",
		"Stp":            "Stop",
		"SessionStart":   "SessionStart",
		"sessionStart":   "SessionStart",
		"SessionEnd":     "",
		"BeforeTool":     "",
		"x":              "",
		"ToolUsePre":     "PreToolUse",
		"invocation_pre": "PreInvocation",
		"start_session":  "SessionStart",
	} {
		if got := Nearest(word, events); got != want {
			t.Errorf("Nearest(%q) = %q, want %q", word, got, want)
		}
	}
	for word, want := range map[string]string{
		"run_comand":  "run_command",
		"file_write":  "write_to_file",
		"fileWrite":   "write_to_file",
		"command_run": "run_command",
		"name_find":   "find_by_name",
		"search_grep": "grep_search",
		"file_edit":   "edit_file",
		"write":       "",
		"file":        "",
		"to_file":     "",
		"shell_run":   "",
	} {
		if got := Nearest(word, ToolNames()); got != want {
			t.Errorf("Nearest(%q) = %q, want %q", word, got, want)
		}
	}
}

func TestSeedExampleMatchesFormatDocument(t *testing.T) {
	// The example must stay a byte-exact copy of the documented one.
	b, err := os.ReadFile("testdata/seed-example.json")
	if err != nil || !strings.Contains(string(b), `"my-linter-hook"`) {
		t.Fatal(err)
	}
}

// TestDecodeReadsWhatDoesNotRun: the inside of a part that does not run is
// read for its mistakes, which drop nothing more, and never runs.
func TestDecodeReadsWhatDoesNotRun(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string // "RULE LINE:COL DROPPED UNREACHED"
	}{
		{"enabled string", `{"a": {"enabled": "false", "Stop": [{"command": "x", "timeout": "10"}]}}`,
			[]string{"enabled-type 1:19 hook false", "timeout-value 1:65  true"}},
		{"unknown event near miss", `{"a": {"PreInvocaton": [{"command": "x", "cmd": "y"}]}}`,
			[]string{"unknown-event 1:8  false", "unknown-field 1:42  true"}},
		{"another agent's event", `{"a": {"BeforeTool": [{"matcher": 1, "hooks": [{"command": ""}]}]}}`,
			[]string{"unknown-event 1:8  false", "matcher-syntax 1:35  true", "missing-command 1:60  true"}},
		{"unknown event meaning nothing", `{"a": {"Whatever": [{"command": ""}]}}`,
			[]string{"unknown-event 1:8  false"}},
		{"handler type and more", `{"a": {"Stop": [{"type": "prompt", "timeout": 0}]}}`,
			[]string{"handler-type 1:26 handler false", "missing-command 1:17  true", "timeout-value 1:47  true"}},
		{"tool event holds handler", `{"a": {"PreToolUse": [{"matcher": "x", "command": "y", "timeout": "5"}]}}`,
			[]string{"event-shape 1:23 group false", "timeout-value 1:67  true"}},
		{"stop holds groups", `{"a": {"Stop": [{"hooks": [{"command": "x", "timeout": "5"}]}]}}`,
			[]string{"event-shape 1:17 handler false", "timeout-value 1:56  true"}},
		{"event not array", `{"a": {"Stop": {"command": "x", "timeout": "5"}}}`,
			[]string{"event-shape 1:16 event false", "timeout-value 1:44  true"}},
		{"hooks not array", `{"a": {"PostToolUse": [{"hooks": {"command": "x", "timeout": "5"}}]}}`,
			[]string{"event-shape 1:34 group false", "timeout-value 1:62  true"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Parse("hooks.json", []byte(tt.src))
			if c.Syntax != nil {
				t.Fatal(c.Syntax)
			}
			var got []string
			for _, p := range c.Problems {
				got = append(got, fmt.Sprintf("%s %s %s %v", p.Rule, p.Span.Start, p.Dropped, p.Unreached))
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			for _, h := range c.File.Hooks {
				for _, e := range Events {
					if h.HasEvent(e) {
						t.Errorf("%s runs %s", h.Name, e)
					}
				}
			}
		})
	}
}

func TestEventMeant(t *testing.T) {
	for key, want := range map[string]Event{
		"PreToolUse": PreToolUse, "pretooluse": PreToolUse, "PretoolUse": PreToolUse, "pre_tool_use": PreToolUse,
		"PreToolUes": PreToolUse, "BeforeTool": PreToolUse, "beforeShellExecution": PreToolUse, "AfterAgent": Stop,
		"UserPromptSubmit": PreInvocation, "PreInvocaton": PreInvocation,
		"enabled": "", "Enabled": "", "enabeld": "", "Notification": "", "description": "",
	} {
		got, ok := EventMeant(key)
		if got != want || ok != (want != "") {
			t.Errorf("EventMeant(%q) = %q, %v; want %q", key, got, ok, want)
		}
	}
}
