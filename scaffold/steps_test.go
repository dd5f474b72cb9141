package scaffold

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/hookctl/hookctl/schema/scope"
	"github.com/hookctl/hookctl/schema/shellcmd"
)

func guideFor(t *testing.T, dir string, a Answers) (Guide, *Plan) {
	t.Helper()
	opts := Options{Answers: a, Dir: dir, Home: t.TempDir()}
	p, err := planFor(t, opts)
	if err != nil {
		t.Fatal(err)
	}
	return Guide{Options: opts, Cwd: dir, Here: scope.Found{Root: dir}}, p
}

func TestNextStepsOfAToolHook(t *testing.T) {
	dir := t.TempDir()
	g, p := guideFor(t, dir, Answers{Scope: Workspace, Name: "gate", Template: "block-dangerous", Lang: "sh", MatcherSet: true, Matcher: "run_command"})
	got := g.NextSteps(p, &Trust{Renew: false})
	want := []Step{
		{"trust it", "hookctl trust"},
		{"try it", `hookctl run PreToolUse --tool run_command --args '{"CommandLine":"sudo rm -rf /"}'`},
		{"test it", "hookctl test"},
		{"check it", "hookctl test --contract --hook gate"},
		{"edit it", filepath.Join(".agents", "hooks", "gate.sh")},
	}
	if !slices.Equal(got, want) {
		t.Errorf("steps:\n got %q\nwant %q", got, want)
	}
	// A workspace that runs the hook at once needs no trust step.
	if got := g.NextSteps(p, &Trust{Renew: true}); got[0].What != "try it" {
		t.Errorf("a trusted workspace's first step is %q, want try it", got[0].What)
	}
}

func TestContractCommandNamesTheFile(t *testing.T) {
	dir := t.TempDir()
	g, p := guideFor(t, dir, Answers{Scope: Workspace, Name: "gate", Template: "block-dangerous", Lang: "sh"})
	if got, want := g.ContractCommand(p), `hookctl test --contract --hook gate`; got != want {
		t.Errorf("here: %s, want %s", got, want)
	}
	g.Here = scope.Found{Root: t.TempDir()}
	if got, want := g.ContractCommand(p), "hookctl test --contract --hook gate --workspace "+shellcmd.Quote(dir); got != want {
		t.Errorf("elsewhere: %s, want %s", got, want)
	}
	g.Scope = User
	if got, want := g.ContractCommand(p), `hookctl test --contract --hook gate --user`; got != want {
		t.Errorf("user: %s, want %s", got, want)
	}
	if c := g.Contract(p); c.Workspace != filepath.Dir(p.Config) || !slices.Equal(c.Hooks, []string{"gate"}) {
		t.Errorf("a user's hook is checked in %s for %q, want its own folder %s", c.Workspace, c.Hooks, filepath.Dir(p.Config))
	}
}

func TestIgnoreCommandEndsTheLastLine(t *testing.T) {
	dir := t.TempDir()
	g, p := guideFor(t, dir, Answers{Scope: Workspace, Name: "audit", Template: "audit-log", Lang: "sh"})
	if got, want := mustIgnore(t, g, p), "echo /.agents/audit.jsonl >> .gitignore"; got != want {
		t.Errorf("no .gitignore: %s, want %s", got, want)
	}
	write(t, filepath.Join(dir, ".gitignore"), "node_modules", 0o644)
	if got, want := mustIgnore(t, g, p), `printf '\n%s\n' /.agents/audit.jsonl >> .gitignore`; got != want {
		t.Errorf("unended .gitignore: %s, want %s", got, want)
	}
	write(t, filepath.Join(dir, ".gitignore"), "node_modules\r\n/.agents/audit.jsonl\r\n", 0o644)
	if cmd, ok := g.IgnoreCommand(p); ok {
		t.Errorf("a .gitignore naming the file got %s", cmd)
	}
}

// The step's command appends through a link as the shell does: one that
// leads out of the workspace (to a file of the home folder, to the user's
// own hooks.json) gets no step, one that stays in it does.
func TestIgnoreCommandStaysInTheWorkspace(t *testing.T) {
	dir := t.TempDir()
	g, p := guideFor(t, dir, Answers{Scope: Workspace, Name: "audit", Template: "audit-log", Lang: "sh"})
	ignore := filepath.Join(dir, ".gitignore")
	outside := filepath.Join(t.TempDir(), ".bashrc")
	write(t, outside, "export A=1\n", 0o644)
	if err := os.Symlink(outside, ignore); err != nil {
		t.Fatal(err)
	}
	if cmd, ok := g.IgnoreCommand(p); ok {
		t.Errorf("a .gitignore linked out of the workspace got %s", cmd)
	}
	userHooks := ConfigPath(User, "", g.Home)
	write(t, userHooks, "{}\n", 0o644)
	os.Remove(ignore)
	if err := os.Symlink(userHooks, ignore); err != nil {
		t.Fatal(err)
	}
	if cmd, ok := g.IgnoreCommand(p); ok {
		t.Errorf("a .gitignore linked to the user's hooks.json got %s", cmd)
	}
	os.Remove(ignore)
	write(t, filepath.Join(dir, "ignore.txt"), "node_modules\n", 0o644)
	if err := os.Symlink("ignore.txt", ignore); err != nil {
		t.Fatal(err)
	}
	if got, want := mustIgnore(t, g, p), "echo /.agents/audit.jsonl >> .gitignore"; got != want {
		t.Errorf("a .gitignore linked in the workspace: %s, want %s", got, want)
	}
}

func mustIgnore(t *testing.T, g Guide, p *Plan) string {
	t.Helper()
	cmd, ok := g.IgnoreCommand(p)
	if !ok {
		t.Fatal("no ignore step")
	}
	return cmd
}

func TestContractWithheld(t *testing.T) {
	for _, c := range []struct {
		t    *Trust
		runs bool
	}{
		{nil, true},
		{&Trust{Renew: true, Before: true}, true},
		{&Trust{Renew: true}, false},
		{&Trust{}, false},
	} {
		if got := ContractWithheld(c.t) == ""; got != c.runs {
			t.Errorf("%+v: runs %v, want %v", c.t, got, c.runs)
		}
	}
}

func TestRelFromTheWorkspaceAbove(t *testing.T) {
	root := t.TempDir()
	home := t.TempDir()
	sub := filepath.Join(root, "sub")
	write(t, filepath.Join(root, ".agents", "hooks.json"), "{}", 0o644)
	write(t, filepath.Join(sub, "a"), "", 0o644)
	here, err := scope.Find(sub)
	if err != nil {
		t.Fatal(err)
	}
	g := Guide{Options: Options{Home: home}, Cwd: sub, Here: here}
	for path, want := range map[string]string{
		filepath.Join(root, "sub", "a"):              "a",
		filepath.Join(root, ".agents", "hooks.json"): filepath.Join("..", ".agents", "hooks.json"),
		filepath.Join(home, ".gemini", "hooks.json"): filepath.Join("~", ".gemini", "hooks.json"),
	} {
		if got := g.Rel(path); got != want {
			t.Errorf("Rel(%s) = %s, want %s", path, got, want)
		}
	}
}

func TestLintNamesTheFileAsShown(t *testing.T) {
	dir := t.TempDir()
	g, p := guideFor(t, dir, Answers{Scope: Workspace, Name: "gate", Template: "block-dangerous", Lang: "sh"})
	if err := apply(t, g.Options, p); err != nil {
		t.Fatal(err)
	}
	res, err := g.Lint(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != 0 {
		t.Errorf("init's own hook has findings: %+v", res.Findings)
	}
	if len(res.Files) != 1 || res.Files[0].Name != filepath.Join(".agents", "hooks.json") {
		t.Errorf("linted %+v, want .agents/hooks.json", res.Files)
	}
}

func TestLacksJQOnlyForShell(t *testing.T) {
	dir := t.TempDir()
	_, p := guideFor(t, dir, Answers{Scope: Workspace, Name: "gate", Template: "block-dangerous", Lang: "py"})
	if p.LacksJQ() {
		t.Error("a Python script needs jq")
	}
	t.Setenv("PATH", t.TempDir())
	_, p = guideFor(t, dir, Answers{Scope: Workspace, Name: "gate", Template: "block-dangerous", Lang: "sh"})
	if !p.Template.NeedsJQ {
		t.Fatal("block-dangerous in shell no longer reads with jq: pick another template")
	}
	if !p.LacksJQ() {
		t.Error("jq found on an empty PATH")
	}
}
