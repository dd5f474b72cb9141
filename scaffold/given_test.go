package scaffold

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCheckGiven names the flag of each answer that cannot be right, and
// takes a language's other name for its ID.
func TestCheckGiven(t *testing.T) {
	for _, c := range []struct {
		a    Answers
		want string
	}{
		{Answers{Scope: "team"}, `--scope "team": use workspace (.agents/hooks.json) or user (~/.gemini/config/hooks.json)`},
		{Answers{Event: "PreTool"}, `--event: unknown event "PreTool" (the events are SessionStart, PreToolUse`},
		{Answers{Template: "block-dangerus"}, `--template: unknown template "block-dangerus": did you mean "block-dangerous"?`},
		{Answers{Template: "block-dangerous", Event: "Stop"}, "--template block-dangerous is for PreToolUse, not Stop: leave --event out, or pick a template for Stop"},
		{Answers{Lang: "cobol"}, `--lang "cobol": the languages are `},
		{Answers{Name: "PreToolUse"}, "--name: "},
		{Answers{Matcher: "(", MatcherSet: true}, `--matcher "(": `},
	} {
		err := c.a.CheckGiven()
		if err == nil || len(err.Error()) < len(c.want) || err.Error()[:len(c.want)] != c.want {
			t.Errorf("%+v: %v, want %s", c.a, err, c.want)
		}
	}
	a := Answers{Scope: User, Event: "PreToolUse", Template: "block-dangerous", Lang: "python", Name: "gate", Matcher: "run_command", MatcherSet: true}
	if err := a.CheckGiven(); err != nil || a.Lang != "py" {
		t.Errorf("good answers: %v, language %q", err, a.Lang)
	}
}

// TestPlace fills in the workspace and the home folder, and refuses a
// --dir that is no folder, an .agents folder, and the user's scope
// without a home.
func TestPlace(t *testing.T) {
	root, home := t.TempDir(), t.TempDir()
	o := Options{}
	if err := o.Place(root, home); err != nil || o.Dir != root || o.Home != home {
		t.Errorf("defaults: %+v, %v", o, err)
	}
	agents := filepath.Join(root, ".agents")
	if err := os.Mkdir(agents, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(root, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		o    Options
		home string
		want string
	}{
		{Options{Dir: file}, home, "--dir " + file + ": not a folder"},
		{Options{Dir: agents}, home, agents + " is an .agents folder, not a workspace's root: run init from " + root + ", or pass --dir " + root},
		{Options{Answers: Answers{Scope: User}}, "", "--scope user: cannot tell the home folder; set HOME"},
	} {
		if err := c.o.Place(root, c.home); err == nil || err.Error() != c.want {
			t.Errorf("%+v: %v, want %s", c.o, err, c.want)
		}
	}
	o = Options{Answers: Answers{Scope: User}, Dir: agents, Home: "/h"}
	if err := o.Place(root, home); err != nil || o.Dir != agents || o.Home != "/h" {
		t.Errorf("the user's scope from an .agents folder: %+v, %v", o, err)
	}
}
