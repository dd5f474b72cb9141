package scaffold

import (
	"errors"
	"io/fs"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/hookctl/hookctl/lint"
	"github.com/hookctl/hookctl/runtime/hooktest"
	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/scope"
	"github.com/hookctl/hookctl/schema/shellcmd"
)

// Guide is what init tells once a plan is written: where each file is,
// seen from the current folder, and the commands that try, test, check and
// edit the new hook.
type Guide struct {
	Options
	// Cwd is the current folder, for showing paths relative to it.
	Cwd string
	// Here is the workspace the commands of the next steps find from the
	// current folder: they name the workspace only when it is another.
	Here scope.Found
}

// Step is one of the next steps: what it does and its command line.
type Step struct {
	What, Command string
}

// Rel shows path as the person reads it from the current folder: relative
// to it, else to the workspace above it (../.agents/hooks.json), else to
// the home folder (~/...), else whole.
func (g Guide) Rel(path string) string {
	if r, err := filepath.Rel(g.Cwd, path); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	if r, err := filepath.Rel(g.Here.Root, path); err == nil && !strings.HasPrefix(r, "..") {
		return g.Here.Rel(path)
	}
	if g.Home != "" {
		if r, err := filepath.Rel(g.Home, path); err == nil && !strings.HasPrefix(r, "..") {
			return filepath.Join("~", r)
		}
	}
	return path
}

// Lint lints the hooks.json the plan wrote as hookctl lint would, naming
// it as Rel shows it.
func (g Guide) Lint(p *Plan) (*lint.Result, error) {
	tg := lint.TargetOf(p.Config, g.Home)
	tg.Name = g.Rel(p.Config)
	return lint.Lint(lint.Request{Files: []lint.Target{tg}})
}

// LacksJQ tells that the plan's script reads its input with jq, and jq is
// not installed here.
func (p *Plan) LacksJQ() bool {
	if p.Lang != "sh" || !p.Template.NeedsJQ {
		return false
	}
	_, err := exec.LookPath("jq")
	return err != nil
}

// NextSteps are the commands that try, test and edit the hook just
// written, each checked to work for it: a step that would not is left out.
// t is what init did about the workspace's trust, nil for the user's
// scope.
func (g Guide) NextSteps(p *Plan, t *Trust) []Step {
	var steps []Step
	if t != nil && !t.Renew {
		// Until then hookctl run skips the workspace's hooks.
		cmd := "hookctl trust"
		if g.Dir != g.Here.Root {
			cmd += " " + shellcmd.Quote(g.Dir)
		}
		steps = append(steps, Step{"trust it", cmd})
	}
	if cmd, ok := g.TryCommand(p); ok {
		steps = append(steps, Step{"try it", cmd})
	}
	if p.Case != nil {
		cmd := "hookctl test"
		if !p.OnlyCase {
			// Only the new hook's case: the file's others are not init's.
			cmd += " --run " + shellcmd.Quote("^"+regexp.QuoteMeta(p.Case.Name)+"$")
		}
		if p.Tests != filepath.Join(g.Here.Root, filepath.FromSlash(scope.TestFile)) {
			cmd += " " + shellcmd.QuoteHome(g.Rel(p.Tests))
		}
		steps = append(steps, Step{"test it", cmd})
	}
	steps = append(steps, Step{"check it", g.ContractCommand(p)})
	if p.Trace {
		steps = append(steps, Step{"watch it", "hookctl log --hook " + p.Name})
	}
	if cmd, ok := g.IgnoreCommand(p); ok {
		steps = append(steps, Step{"ignore it", cmd})
	}
	return append(steps, Step{"edit it", g.Rel(p.Script)})
}

// IgnoreCommand appends the file a workspace's new handler writes (the
// audit log) to the workspace's .gitignore, anchored there: the record is
// this machine's, not the repository's. false for the user's scope, a
// handler that writes nothing, a .gitignore that already names the file,
// one hookctl cannot read, or one the appending command would write out of
// the workspace through a link (its bounds are init's own). A .gitignore
// whose last line has no end gets one first, so that the two lines stay
// two.
func (g Guide) IgnoreCommand(p *Plan) (string, bool) {
	if g.Scope != Workspace || p.Template.Writes == "" {
		return "", false
	}
	written := filepath.Join(filepath.Dir(p.Config), p.Template.Writes)
	in, err := filepath.Rel(g.Dir, written)
	if err != nil || !filepath.IsLocal(in) {
		return "", false
	}
	pattern := "/" + filepath.ToSlash(in)
	ignore := filepath.Join(g.Dir, ".gitignore")
	bounds, err := NewBounds(Workspace, g.Dir, g.Home)
	if err != nil {
		return "", false
	}
	if _, err := bounds.Check(ignore); err != nil {
		return "", false
	}
	src, err := schema.ReadFile(ignore, 1<<20)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return "", false
	case slices.Contains(strings.Split(strings.ReplaceAll(string(src), "\r\n", "\n"), "\n"), pattern):
		return "", false
	}
	line := "echo " + shellcmd.Quote(pattern)
	if len(src) > 0 && src[len(src)-1] != '\n' {
		line = "printf '\\n%s\\n' " + shellcmd.Quote(pattern)
	}
	return line + " >> " + shellcmd.Quote(g.Rel(ignore)), true
}

// TryCommand is a hookctl run command line that sends the test case's
// payload through the new hook; false when there is no payload the hook
// is sure to receive.
func (g Guide) TryCommand(p *Plan) (string, bool) {
	if p.Case == nil {
		return "", false
	}
	cmd := "hookctl run " + string(p.Event)
	if g.Scope == Workspace && g.Dir != g.Here.Root {
		cmd += " --workspace " + shellcmd.Quote(g.Dir)
	}
	if p.Event.IsTool() {
		call, ok := p.Case.Payload["toolCall"].(schema.ToolCall)
		if !ok {
			return "", false
		}
		if m, err := schema.CompileMatcher(p.Matcher); err != nil || !m.Match(call.Name) {
			return "", false
		}
		cmd += " --tool " + shellcmd.Quote(call.Name)
		if len(call.Args) > 0 {
			cmd += " --args " + shellcmd.Quote(compactJSON(call.Args))
		}
		return cmd, true
	}
	return "echo " + shellcmd.Quote(compactJSON(p.Case.Payload)) + " | " + cmd, true
}

// compactJSON is v as one line of JSON, with <, > and & as they are.
func compactJSON(v any) string {
	b, _ := schema.Marshal(v)
	return string(b)
}

// ContractCommand is the hookctl test command line that checks the hook
// init wrote, from the current folder.
func (g Guide) ContractCommand(p *Plan) string {
	cmd := "hookctl test --contract --hook " + shellcmd.Quote(p.Name)
	switch {
	case g.Scope == User:
		cmd += " --user"
	case g.Dir != g.Here.Root:
		cmd += " --workspace " + shellcmd.Quote(g.Dir)
	}
	return cmd
}

// Contract is the contract check init runs on the hook it wrote, as
// hookctl test --contract --hook NAME runs it. Every check holds but the
// budget: a script's first runs are cold (an interpreter loaded from disk,
// Python compiling it) and a busy machine slows them, so that speed
// measured here says little of the hook; the check ContractCommand names
// measures it.
func (g Guide) Contract(p *Plan) hooktest.ContractOptions {
	// A user's hook is sent payloads that name the folder of the user's
	// hooks.json, not the current folder: that may be a clone nobody
	// trusted, whose git configuration a hook running git would run.
	ws := filepath.Dir(p.Config)
	if g.Scope == Workspace {
		ws = g.Dir
	}
	return hooktest.ContractOptions{Configs: []string{p.Config}, Workspace: ws, Home: g.Home, Hooks: []string{p.Name},
		// No budget: the handler's timeout is the limit.
		Budget: schema.MaxTimeout * time.Second}
}

// ContractWithheld says why init does not run the contract check on the
// hook it wrote, ending where the command that runs it goes, "" when it
// may. The check runs the hook, and the hook runs in the workspace: a
// module committed beside it (.agents/hooks/json.py for the json a Python
// handler imports) or the repository's own settings (git's core.fsmonitor,
// which git status runs) would run with it. So init runs it only for the
// user's own hooks (t is nil) and in a workspace the user had trusted
// before init and that is still trusted: not in one init trusted itself
// because it had no hooks yet, since nobody looked at the rest of it.
func ContractWithheld(t *Trust) string {
	switch {
	case t == nil:
		return ""
	case !t.Renew:
		return "the workspace is not trusted, and the check runs its code; trust it (see the next steps), then run"
	case !t.Before:
		return "the check runs code of the workspace, which you had not trusted before init; once you are sure of it, run"
	}
	return ""
}
