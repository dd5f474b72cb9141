package schema

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestForeignTablesAreConsistent(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range ForeignEvents {
		if seen[e.Name] {
			t.Errorf("event %s listed twice", e.Name)
		}
		seen[e.Name] = true
		if e.Event != "" && !e.Event.Valid() {
			t.Errorf("%s maps to %q, not an event", e.Name, e.Event)
		}
		if e.Event == "" && e.Note == "" {
			t.Errorf("%s has no equivalent and no reason", e.Name)
		}
		if e.Matcher != "" {
			checkToolExpr(t, e.Name, e.Matcher)
		}
		if _, ok := LookupForeignSource(e.Source); !ok {
			t.Errorf("event %s cites no known source (%q)", e.Name, e.Source)
		}
	}
	seen = map[string]bool{}
	for _, ft := range ForeignTools {
		if seen[ft.Name] {
			t.Errorf("tool %s listed twice", ft.Name)
		}
		seen[ft.Name] = true
		// A row under this format's own name only renames arguments.
		if IsKnownTool(ft.Name) && ft.Tool != ft.Name {
			t.Errorf("%s is a tool of this format", ft.Name)
		}
		if _, ok := LookupForeignSource(ft.Source); !ok {
			t.Errorf("tool %s cites no known source (%q)", ft.Name, ft.Source)
		}
		checkArgs(t, ft, ft.Args)
		if ft.Tool == "" && ft.Note == "" {
			t.Errorf("%s has no equivalent and no reason", ft.Name)
		}
		if ft.Tool != "" {
			checkToolExpr(t, ft.Name, ft.Tool)
		}
	}
	for name, want := range map[string]string{"Bash": "run_command", "Write": "write_to_file", "Edit": "replace_file_content",
		"MultiEdit": "multi_replace_file_content", "Read": "view_file", "Grep": "grep_search", "Glob": "find_by_name", "LS": "list_dir",
		"WebFetch": "read_url_content", "WebSearch": "search_web", "Task": "invoke_subagent", "run_shell_command": "run_command",
		"write_file": "write_to_file", "replace": "replace_file_content", "read_file": "view_file", "shell": "run_command"} {
		if ft, ok := LookupForeignTool(name); !ok || ft.Tool != want {
			t.Errorf("%s maps to %q, want %q", name, ft.Tool, want)
		}
	}
	for name, want := range map[string]Event{"UserPromptSubmit": PreInvocation, "BeforeAgent": PreInvocation, "beforeSubmitPrompt": PreInvocation,
		"AfterAgent": Stop, "AfterModel": PostInvocation, "TeammateIdle": "", "BeforeTool": PreToolUse, "stop": Stop, "SessionStart": SessionStart, "SessionEnd": ""} {
		if e, ok := LookupForeignEvent(name); !ok || e.Event != want {
			t.Errorf("%s maps to %q, want %q", name, e.Event, want)
		}
	}
}

// checkArgs requires every argument a row maps to to be one of its tool's
// documented arguments.
func checkArgs(t *testing.T, ft ForeignTool, args []ForeignArg) {
	t.Helper()
	tool, ok := LookupTool(ft.Tool)
	if !ok {
		if len(args) > 0 {
			t.Errorf("%s maps arguments but not to one documented tool (%q)", ft.Name, ft.Tool)
		}
		return
	}
	known := argNames(tool.Args)
	for _, a := range args {
		if !known[a.To] {
			t.Errorf("%s maps %s to %s, which %s does not take", ft.Name, a.From, a.To, ft.Tool)
		}
	}
}

// checkToolExpr requires a mapping's matcher to name documented tools only.
func checkToolExpr(t *testing.T, name, expr string) {
	t.Helper()
	for _, tool := range strings.Split(expr, "|") {
		if _, ok := LookupTool(tool); !ok {
			t.Errorf("%s maps to %q, which names no documented tool", name, expr)
		}
	}
}

func TestExportedEventsCoverEveryEvent(t *testing.T) {
	for _, a := range Agents {
		for _, e := range Events {
			x, ok := LookupExportedEvent(a, e)
			if !ok {
				t.Errorf("%s: no export row for %s", a, e)
				continue
			}
			if x.Foreign == "" {
				if x.Note == "" {
					t.Errorf("%s: %s is not wired and no reason is given", a, e)
				}
				continue
			}
			fe, ok := LookupAgentEvent(a, x.Foreign)
			if !ok || fe.Event != e {
				t.Errorf("%s: %s is wired to %s, which the event table maps to %q", a, e, x.Foreign, fe.Event)
			}
		}
	}
}

func TestLookupForeignCall(t *testing.T) {
	// Codex names its shell Bash in its hooks, as Claude Code does.
	if ft, ok := LookupForeignCall(Codex, "Bash"); !ok || ft.Tool != "run_command" || ft.Args[0].To != "CommandLine" {
		t.Errorf("Codex's Bash: %+v %v", ft, ok)
	}
	// Gemini CLI's grep_search has this format's name but its own
	// arguments; it is no foreign name in a matcher.
	if ft, ok := LookupForeignCall(Gemini, "grep_search"); !ok || ft.Args[0].To != "Query" {
		t.Errorf("Gemini's grep_search: %+v %v", ft, ok)
	}
	if _, ok := LookupForeignTool("grep_search"); ok {
		t.Error("grep_search is taken for another agent's tool name in a matcher")
	}
	if _, ok := LookupAgentEvent(Claude, "preToolUse"); ok {
		t.Error("preToolUse is taken for a Claude Code event")
	}
}

func TestDetectForeign(t *testing.T) {
	for src, want := range map[string]string{
		`{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": []}]}}`:              "claude",
		`{"hooks": {"PreToolUse": [{"matcher": "shell|apply_patch", "hooks": []}]}}`: "codex",
		`{"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": []}]}}`: "gemini",
		`{"version": 1, "hooks": {"afterFileEdit": [{"command": "x"}]}}`:             "cursor",
		`{"hooks": {"beforeShellExecution": [{"command": "x"}]}}`:                    "cursor",
		`{"version": 1}`: "cursor",
		`{"hooks": [{"event": "PreToolUse", "command": "x"}]}`:                               "other",
		`{"hooks": {"pre-commit": [{"command": "x"}]}}`:                                      "other",
		`{"permissions": {"allow": []}, "hooks": {"Stop": [{"hooks": [{"command": "x"}]}]}}`: "claude",
		`{"gate": {"PreToolUse": []}}`:                                                       "",
		`{"$schema": "https://json.schemastore.org/claude-code-settings.json", "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": []}]}}`: "claude",
		`{"$schema": "https://example.com/s.json", "hooks": {"Stop": [{"hooks": []}]}}`:                                                      "claude",
		`{"$schema": "./schema.json", "hooks": {"PreToolUse": []}, "gate": {"Stop": []}}`:                                                    "",
		`{"hooks": {"Stop": [{"command": "x"}]}, "gate": {"PreToolUse": []}}`:                                                                "",
		`{"apm": {"SessionStart": [{"hooks": [{"command": "x"}]}]}}`:                                                                         "",
	} {
		root, _, err := ParseJSON([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		f, ok := DetectForeign(root)
		got := ""
		if ok {
			got = string(f.Agent)
			if got == "" {
				got = "other"
			}
		}
		if got != want {
			t.Errorf("%s: detected %q, want %q", src, got, want)
		}
	}
}

// TestDetectForeignRealWorld checks detection against the classes of the
// real files: every file with another agent's wrapper is found, and no file
// of this format is.
func TestDetectForeignRealWorld(t *testing.T) {
	f, err := os.Open("../testdata/realworld/SOURCES.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan()
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		name, class := cols[0], cols[3]
		c, err := Load(filepath.Join("../testdata/realworld", name))
		if err != nil {
			t.Fatal(err)
		}
		if c.Root == nil {
			continue
		}
		found, ok := DetectForeign(c.Root)
		switch class {
		case "native", "mixed":
			if ok {
				t.Errorf("%s (%s): detected as %q: %s", name, class, found.Agent, found.Reason)
			}
		case "claude", "cursor", "gemini":
			if !ok || string(found.Agent) != class {
				t.Errorf("%s (%s): detected %v %q", name, class, ok, found.Agent)
			}
		case "other":
			if !ok || found.Agent != "" {
				t.Errorf("%s (other): detected %v %q", name, ok, found.Agent)
			}
		}
	}
}

// TestParseAgent: an agent's name is read in any case, and an unknown one
// is an error that names the option and every agent.
func TestParseAgent(t *testing.T) {
	for in, want := range map[string]Agent{"claude": Claude, "Gemini": Gemini, "CURSOR": Cursor, "codex": Codex} {
		if got, err := ParseAgent("--from", in); got != want || err != nil {
			t.Errorf("ParseAgent(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for flag, in := range map[string]string{"--from": "copilot", "--to": "", "--x": "claude "} {
		_, err := ParseAgent(flag, in)
		want := flag + ` must be claude, gemini, cursor, codex, not "` + in + `"`
		if err == nil || err.Error() != want {
			t.Errorf("ParseAgent(%q, %q): %v; want %s", flag, in, err, want)
		}
	}
}

// TestFieldName: a field's JSON name, through a pointer and through an
// embedded struct; a field the type lacks is a panic.
func TestFieldName(t *testing.T) {
	if got := FieldName(&StopInput{}, "ConversationID"); got != "conversationId" {
		t.Errorf("an embedded field: %q", got)
	}
	if got := FieldName(PreToolUseOutput{}, "Reason"); got != "reason" {
		t.Errorf("a field with omitempty: %q", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("a missing field did not panic")
		}
	}()
	FieldName(StopInput{}, "Prompt")
}

func TestAgentEvents(t *testing.T) {
	names := func(a Agent) []string {
		var out []string
		for _, e := range AgentEvents(a) {
			out = append(out, e.Name)
		}
		return out
	}
	cursor := names(Cursor)
	if !slices.Contains(cursor, "beforeShellExecution") || slices.Contains(cursor, "PreToolUse") {
		t.Errorf("Cursor's events %q: want beforeShellExecution, not Claude's PreToolUse", cursor)
	}
	if claude := names(Claude); len(claude) == 0 || claude[0] != "PreToolUse" {
		t.Errorf("Claude's events %q, want the table's order, PreToolUse first", claude)
	}
	if got := AgentEvents("nobody"); got != nil {
		t.Errorf("an unknown agent's events: %v", got)
	}
}
