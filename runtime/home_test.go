//go:build unix

package runtime

import (
	"os"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/scope"
)

// TestUnusableHome changes HOME, so it does not run in parallel with the
// other tests.
func TestUnusableHome(t *testing.T) {
	const notRead = "; the user's hooks ~/.gemini/config/hooks.json were not read (set HOME to the absolute path of your home folder)"
	check := func(t *testing.T, home, env string, unset bool, says string) {
		t.Setenv("HOME", env)
		if unset {
			os.Unsetenv("HOME")
		}
		e := newEnv(t)
		e.workspace(hooks(hookEntry{name: "w", event: pre, command: `echo '{"decision":"allow","reason":"workspace"}'`}))
		opts := Options{Home: home, Workspace: e.ws}
		res := e.dispatch(pre, e.payload(pre, "run_command"), opts)
		want := says + notRead
		if got := string(res.Answer); got != `{"decision":"deny","reason":`+string(quote(want))+`}` {
			t.Errorf("answer %s, want a deny that says %q", got, want)
		}
		if !contains(res.Notes, want) {
			t.Errorf("notes %q, want %q", res.Notes, want)
		}
		opts.OnError = OnErrorIgnore
		if res := e.dispatch(pre, e.payload(pre, "run_command"), opts); string(res.Answer) != `{"decision":"allow","reason":"workspace"}` || !contains(res.Notes, want) {
			t.Errorf("--on-error ignore: answer %s notes %q", res.Answer, res.Notes)
		}
		// Files named by the caller replace discovery: no user file is
		// missed.
		named := Options{Home: home, Configs: []string{scope.WorkspaceFile(e.ws)}}
		if res := e.dispatch(schema.Stop, e.payload(schema.Stop, ""), named); len(res.Notes) != 0 {
			t.Errorf("with named configs: notes %q, want none", res.Notes)
		}
		plan, err := NewPlan(pre, e.payload(pre, "run_command"), Options{Home: home, Workspace: e.ws})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := plan.Explain(&b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "user file ~/.gemini/config/hooks.json (not read: no home folder)\n  fail  -  ") || !strings.Contains(b.String(), want) {
			t.Errorf("explain:\n%s", b.String())
		}
	}
	t.Run("HOME unset", func(t *testing.T) { check(t, "", "", true, "HOME is not set") })
	t.Run("HOME empty", func(t *testing.T) { check(t, "", "", false, "HOME is empty") })
	t.Run("HOME relative", func(t *testing.T) { check(t, "", "home", false, `HOME is "home", not an absolute path`) })
	t.Run("Options.Home relative", func(t *testing.T) {
		check(t, "home", "/root", false, `the home folder "home" is not an absolute path`)
	})
}
