package convert

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/schema"
)

// TestConvertMatcher renames tools name by name wherever they stand in the
// regular expression and leaves every other character as written.
func TestConvertMatcher(t *testing.T) {
	cases := []struct {
		in, want string
		nothing  bool
		dropped  string
		unknown  string
	}{
		{in: "Bash", want: "run_command"},
		{in: "Edit|Write", want: "replace_file_content|write_to_file"},
		{in: "Write|Edit|MultiEdit", want: "write_to_file|replace_file_content|multi_replace_file_content"},
		{in: "", want: ""},
		{in: "*", want: "*"},
		{in: ".*", want: ".*"},
		{in: "mcp__.*", want: "mcp__.*"},
		{in: "mcp__github__create_issue|Bash", want: "mcp__github__create_issue|run_command", unknown: "mcp__github__create_issue"},
		// Alternatives that become the same tool are merged.
		{in: "Bash|run_command", want: "run_command"},
		{in: "Bash|shell|exec_command|shell_command", want: "run_command"},
		// Inside groups and anchors.
		{in: "^(?:Bash|Read|Edit)$", want: "^(?:run_command|view_file|replace_file_content)$"},
		{in: "^(Edit|Write)$", want: "^(replace_file_content|write_to_file)$"},
		{in: "^Bash$", want: "^run_command$"},
		// A tool that becomes several inside a longer pattern is grouped.
		{in: "^apply_patch$", want: "^(?:write_to_file|replace_file_content|multi_replace_file_content)$"},
		{in: "apply_patch", want: "write_to_file|replace_file_content|multi_replace_file_content"},
		// Gemini CLI's and Cursor's names.
		{in: "write_file|replace", want: "write_to_file|replace_file_content"},
		{in: "run_shell_command", want: "run_command"},
		{in: "Shell|StrReplace", want: "run_command|replace_file_content"},
		// A tool with no equivalent leaves the alternation; alone, nothing is
		// left and the group goes.
		{in: "Write|StrReplace|EditNotebook", want: "write_to_file|replace_file_content", dropped: "EditNotebook"},
		{in: "NotebookEdit", nothing: true, dropped: "NotebookEdit"},
		{in: "^(TodoWrite|ExitPlanMode)$", nothing: true, dropped: "TodoWrite"},
		// Escapes and classes stay untouched.
		{in: `Bash\b[A-Z]`, want: `run_command\b[A-Z]`},
		{in: "[Bash]", want: "[Bash]"},
		// This format's own names are kept.
		{in: "run_command|view_file", want: "run_command|view_file"},
		{in: "browser_.*", want: "browser_.*"},
	}
	for _, c := range cases {
		ch := convertMatcher(c.in)
		if ch.Nothing != c.nothing {
			t.Errorf("%q: Nothing = %v, want %v", c.in, ch.Nothing, c.nothing)
			continue
		}
		if !c.nothing && ch.Text != c.want {
			t.Errorf("%q becomes %q, want %q", c.in, ch.Text, c.want)
		}
		var dropped []string
		for _, d := range ch.Dropped {
			dropped = append(dropped, d.Name)
		}
		if c.dropped != "" && !strings.Contains(strings.Join(dropped, ","), c.dropped) {
			t.Errorf("%q drops %v, want %s among them", c.in, dropped, c.dropped)
		}
		if got := strings.Join(ch.Unknown, ","); got != c.unknown {
			t.Errorf("%q: unknown %q, want %q", c.in, got, c.unknown)
		}
	}
}

func TestMatcherSlug(t *testing.T) {
	for in, want := range map[string]string{
		"Bash":                              "bash",
		"Edit|Write":                        "edit-write",
		"mcp__github__.*":                   "mcp-github",
		"^(?:Bash|Read|Edit|Write|Grep)$":   "bash-read-edit-more",
		"*":                                 "",
		"write_file|replace":                "write-file-replace",
		"Edit|MultiEdit|Write|NotebookEdit": "edit-multi-edit-write-more",
	} {
		if got := matcherSlug(in); got != want {
			t.Errorf("matcherSlug(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzConvertMatcher: no matcher makes the conversion panic, and one with no
// other agent's tool comes back as written.
func FuzzConvertMatcher(f *testing.F) {
	for _, s := range []string{"Bash", "^(?:Edit|Write)$", "mcp__.*", "[a|b]", `\|`, "((a)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, m string) {
		ch := convertMatcher(m)
		if len(ch.Renamed) == 0 && len(ch.Dropped) == 0 && ch.Text != m {
			t.Errorf("%q changed into %q without a rename", m, ch.Text)
		}
	})
}

// FuzzConvert: no file makes reading or converting panic, and whatever is
// converted is a hooks.json that loads without a problem.
func FuzzConvert(f *testing.F) {
	for _, s := range samples {
		if b, err := os.ReadFile(s.file); err == nil {
			f.Add(b)
		}
	}
	for _, n := range []string{"033", "035", "036", "042", "049", "067", "093", "095"} {
		if b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "realworld", n+".json")); err == nil {
			f.Add(b)
		}
	}
	dir := f.TempDir()
	opts := Options{Target: filepath.Join(dir, ".agents", "hooks.json"), Root: dir}
	f.Fuzz(func(t *testing.T, src []byte) {
		s, err := Parse(workDir(t), filepath.Join(dir, "settings.json"), src, "")
		if err != nil {
			return
		}
		out := Convert(s, opts).JSON()
		if cfg := schema.Parse("hooks.json", out); cfg.Syntax != nil || len(cfg.Problems) > 0 {
			t.Errorf("the conversion does not load: %v %v\n%s", cfg.Syntax, cfg.Problems, out)
		}
	})
}
