package shellcmd

import (
	"slices"
	"strings"
	"testing"
)

// TestParseAdapt reads adapt's flags as hookctl adapt does, and the readers
// of a handler's command see through the same lines.
func TestParseAdapt(t *testing.T) {
	for _, tc := range []struct {
		args        []string
		from, event string
		command     []string
		err         string
	}{
		{[]string{"--from", "claude", "--", "./x.sh", "a"}, "claude", "", []string{"./x.sh", "a"}, ""},
		{[]string{"--event=BeforeTool", "-from=gemini", "node", "x.js"}, "gemini", "BeforeTool", []string{"node", "x.js"}, ""},
		{[]string{"--from", "codex", "--", "--weird"}, "codex", "", []string{"--weird"}, ""},
		{[]string{"--", "./x.sh"}, "", "", nil, "--from names the agent"},
		{[]string{"--from", "claude"}, "", "", nil, "no command to run"},
		{[]string{"--from"}, "", "", nil, "--from needs a value"},
		{[]string{"--from=", "x"}, "", "", nil, "--from needs a value"},
		{[]string{"--from", "claude", "--hook", "h", "x"}, "", "", nil, "unknown flag --hook"},
	} {
		a, err := ParseAdapt(tc.args)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: error %v, want %q", tc.args, err, tc.err)
		case tc.err == "" && (err != nil || a.From != tc.from || a.Event != tc.event || !slices.Equal(a.Command, tc.command)):
			t.Errorf("%q: %+v %v", tc.args, a, err)
		}
	}
	for _, tc := range []struct {
		command, program string
		adapted          bool
	}{
		{"hookctl adapt --from claude --event PreToolUse -- ./hooks/gate.sh", "./hooks/gate.sh", true},
		{"env A=1 /usr/local/bin/hookctl adapt --from=gemini python3 x.py", "python3", true},
		{"hookctl adapt --from \"$AGENT\" -- ./gate.sh", "./gate.sh", true},
		// A line adapt refuses runs nothing but hookctl; the readers
		// still cover what it names past "--".
		{"hookctl adapt --bogus -- ./gate.sh", "./gate.sh", false},
		{"hookctl adapt -- ./gate.sh", "./gate.sh", false},
	} {
		c := Parse(tc.command, "/ws/.agents", "/ws")
		if len(c.Calls) != 1 {
			t.Fatalf("%s: %d calls", tc.command, len(c.Calls))
		}
		args := c.Calls[0].Args
		i, _ := skipWrappers(args)
		if i >= len(args) || args[i].Text != tc.program {
			t.Errorf("%s: the program is word %d of %v, want %s", tc.command, i, args, tc.program)
		}
		if _, ok := c.Adapted(); ok != tc.adapted {
			t.Errorf("%s: adapted %v, want %v", tc.command, ok, tc.adapted)
		}
	}
}
