package scaffold

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/shellcmd"
	"github.com/hookctl/hookctl/templates"

	"github.com/hookctl/hookctl/internal/lazyre"
)

// Plan is everything init will write, computed before anything is.
type Plan struct {
	Answers
	// Template is the chosen template.
	Template templates.Template

	// Config is the hooks.json; Created tells that it does not exist yet.
	Config    string
	Created   bool
	ConfigOut []byte
	// ConfigIn is what hooks.json holds, nil when it does not exist.
	ConfigIn []byte

	// Script is the handler script's path, Command how hooks.json names it
	// (relative to the folder that holds hooks.json, where handlers run).
	Script    string
	Command   string
	ScriptOut []byte
	// Overwrite tells that Script exists and --force replaces it; ScriptIn
	// is what it holds.
	Overwrite bool
	ScriptIn  []byte

	// Case is the test case for the new hook, nil when none fits its
	// matcher; TestsOut is the new hooks.test.json, nil when it is not to
	// change.
	Case     *schema.TestCase
	Tests    string
	TestsOut []byte
	// TestsIn is what hooks.test.json holds, nil when it does not exist.
	TestsIn []byte
	// OnlyCase tells that Case is the file's only case.
	OnlyCase bool

	// Hook is the new entry of hooks.json.
	Hook NamedHook
	// VSCode is the schema's association, nil without --vscode.
	VSCode *VSCodePlan
	// Notes are remarks for the person: a case that could not be added...
	Notes []string
}

// VSCodePlan is the association of the schema in VS Code's settings.
type VSCodePlan struct {
	Settings    string
	SettingsOut []byte // nil when the settings already associate the schema
	Schema      string
	SchemaOut   []byte
	// SettingsIn and SchemaIn are what the files hold, nil when they do not
	// exist.
	SettingsIn, SchemaIn []byte
}

// TestsPath returns the hooks.test.json beside a hooks.json.
func TestsPath(config string) string {
	return filepath.Join(filepath.Dir(config), "hooks.test.json")
}

// NewPlan checks complete answers and computes every file's new content.
// Its errors say what to change; nothing is written.
func NewPlan(opts Options, x *Existing) (*Plan, error) {
	a := opts.Answers
	if err := a.Validate(x); err != nil {
		return nil, err
	}
	t, _ := templates.Lookup(a.Template)
	lang, _ := templates.LookupLanguage(a.Lang)
	p := &Plan{Answers: a, Template: t, Config: x.Path, Created: x.Src == nil, ConfigIn: x.Src}

	bounds, err := NewBounds(a.Scope, opts.Dir, opts.Home)
	if err != nil {
		return nil, err
	}
	if _, err := bounds.Check(x.Path); err != nil {
		return nil, err
	}
	dir := filepath.Dir(x.Path)
	p.Command = "./hooks/" + a.Name + lang.Ext
	if a.Trace {
		// The name is a slug and the event a word: nothing to quote.
		p.Command = shellcmd.TraceLine(a.Name, a.Event, p.Command)
	}
	p.Script = filepath.Join(dir, "hooks", a.Name+lang.Ext)
	if _, err := bounds.Check(p.Script); err != nil {
		return nil, err
	}
	switch fi, err := os.Lstat(p.Script); {
	case err == nil && !opts.Force && !a.Overwrite:
		return nil, fmt.Errorf("%s already exists: pass --force to overwrite it, or pick another name", p.Script)
	case err == nil && fi.IsDir():
		return nil, fmt.Errorf("%s is a folder, not a script: pick another name", p.Script)
	case err == nil:
		p.Overwrite = true
		if p.ScriptIn, err = readFile(p.Script); err != nil {
			return nil, err
		}
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("cannot check %s: %v", p.Script, unwrapPath(err))
	}
	script, err := t.Script(a.Lang, a.Name)
	if err != nil {
		return nil, err
	}
	p.ScriptOut = script

	handler := schema.Handler{Type: "command", Command: p.Command, Timeout: a.Timeout}
	p.Hook = NamedHook{Name: a.Name}
	switch a.Event {
	case schema.PreToolUse, schema.PostToolUse:
		m := a.Matcher
		p.Hook.Def.SetGroups(a.Event, []schema.MatcherGroup{{Matcher: &m, Hooks: []schema.Handler{handler}}})
	default:
		p.Hook.Def.SetHandlers(a.Event, []schema.Handler{handler})
	}
	src := x.Src
	if src == nil {
		src = []byte("{}\n")
	}
	if p.ConfigOut, err = AddHooks(src, p.Hook); err != nil {
		return nil, fmt.Errorf("%s: %v", x.Path, err)
	}

	p.Tests = TestsPath(x.Path)
	if _, err := bounds.Check(p.Tests); err != nil {
		return nil, err
	}
	if p.TestsIn, err = readFile(p.Tests); err != nil {
		return nil, err
	}
	p.Case = CaseFor(t, a)
	if p.Case == nil {
		p.Notes = append(p.Notes, fmt.Sprintf("no test case was added: the matcher %q selects no tool name that init can make up", a.Matcher))
	} else {
		if call, ok := p.Case.Payload["toolCall"].(schema.ToolCall); ok && !schema.IsKnownTool(call.Name) {
			p.Notes = append(p.Notes, fmt.Sprintf("the matcher %q selects none of the documented tools: the test case calls it %q, a name it selects; make sure the agent has such a tool (an MCP server's, or one newer than the documentation)", a.Matcher, call.Name))
		}
		out, added, err := addTestCase(p.Tests, p.TestsIn, *p.Case)
		if err != nil {
			return nil, err
		}
		p.OnlyCase = countCases(out) == 1
		if added {
			p.TestsOut = out
		} else {
			p.Notes = append(p.Notes, fmt.Sprintf("%s already has a case named %q; it was left as it is", p.Tests, p.Case.Name))
		}
	}

	if opts.VSCode {
		if a.Scope != Workspace {
			return nil, errors.New("--vscode associates the schema in a workspace's .vscode/settings.json: use it with --scope workspace")
		}
		if p.VSCode, err = planVSCode(opts.Dir, bounds); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// CaseFor returns the test case for a hook made from a template: the
// template's first case that the hook's matcher selects, or a neutral one
// for a tool it selects (see SampleTool). It is nil when the matcher
// selects no name that can be made.
func CaseFor(t templates.Template, a Answers) *schema.TestCase {
	m, _ := schema.CompileMatcher(a.Matcher)
	tc := &schema.TestCase{Event: a.Event}
	for _, c := range t.Cases {
		if c.Tool == "" || m.Match(c.Tool) {
			tc.Name = a.Name + ": " + c.Name
			tc.Payload = c.EventPayload()
			if len(c.Expect) > 0 {
				tc.Expect = c.Expect
			}
			return tc
		}
	}
	tool, ok := SampleTool(a.Matcher)
	if !ok {
		return nil
	}
	tc.Name = fmt.Sprintf("%s: answers a %s call", a.Name, tool)
	tc.Payload = map[string]any{"toolCall": schema.ToolCall{Name: tool, Args: map[string]any{}}}
	if a.Event == schema.PreToolUse {
		// The gates leave what they have no opinion on to the user's
		// settings.
		tc.Expect = map[string]any{"decision": "ask"}
	}
	return tc
}

// readFile reads a file to edit (see Tx.ReadFile), nil when it does not
// exist.
func readFile(path string) ([]byte, error) {
	src, err := ReadRegular(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return src, err
}

func addTestCase(path string, src []byte, c schema.TestCase) ([]byte, bool, error) {
	if src == nil {
		src = []byte("{}\n")
	}
	out, added, err := AddTestCase(src, c)
	if err != nil {
		return nil, false, fmt.Errorf("%s; fix it and run init again", located(path, err))
	}
	return out, added, nil
}

// Where says what the hook runs on, as init reports it: its event, and
// for a tool event the tools its matcher selects ("PreToolUse on every
// tool").
func (p *Plan) Where() string {
	where := string(p.Event)
	if p.Event.IsTool() {
		m := p.Matcher
		if m == "" || m == "*" {
			m = "every tool"
		}
		where += " on " + m
	}
	return where
}

// Apply writes the plan through tx: the script (mode 0755), the test case,
// the schema association, and hooks.json last, so that the hook never
// names a script that is not there yet. Every write is atomic, and refused
// when its file changed since NewPlan read it. A step that fails undoes
// the ones before it: the files are as they were, so the same command can
// be run again.
func (p *Plan) Apply(tx *Tx) error {
	edits := []Edit{{Path: p.Script, Old: p.ScriptIn, New: p.ScriptOut, Perm: 0o755, Exec: true}}
	if p.TestsOut != nil {
		edits = append(edits, Edit{Path: p.Tests, Old: p.TestsIn, New: p.TestsOut, Perm: 0o644})
	}
	if v := p.VSCode; v != nil {
		edits = append(edits, Edit{Path: v.Schema, Old: v.SchemaIn, New: v.SchemaOut, Perm: 0o644})
		if v.SettingsOut != nil {
			edits = append(edits, Edit{Path: v.Settings, Old: v.SettingsIn, New: v.SettingsOut, Perm: 0o644})
		}
	}
	var configIn []byte
	if !p.Created {
		configIn = p.ConfigIn
	}
	edits = append(edits, Edit{Path: p.Config, Old: configIn, New: p.ConfigOut, Perm: 0o644})
	for _, e := range edits {
		if err := tx.Write(e); err != nil {
			return rollback(tx, err)
		}
	}
	return nil
}

// rollback undoes tx's writes after err and says so.
func rollback(tx *Tx, err error) error {
	if rerr := tx.Rollback(); rerr != nil {
		return fmt.Errorf("%v; %v", err, rerr)
	}
	var changed *ChangedError
	if errors.As(err, &changed) {
		return err // it says what was kept
	}
	return fmt.Errorf("%v; every file was left as it was", err)
}

// Rollback undoes tx's writes after err, for a caller whose step after
// writing failed, and returns err saying what was kept.
func Rollback(tx *Tx, err error) error { return rollback(tx, err) }

// countCases counts the cases of a hooks.test.json.
func countCases(src []byte) int {
	root, _, err := schema.ParseJSON(src)
	if err != nil || root.Kind != schema.Object {
		return 0
	}
	if m := root.Get("tests"); m != nil {
		return len(m.Value.Elems)
	}
	return 0
}

// hujsonPlace is where the JSONC parser says its error is.
var hujsonPlace = lazyre.New(`^hujson: line (\d+), column (\d+): `)

// located names the file of an error about its content as file:line:col
// when the error has a place.
func located(path string, err error) string {
	msg := err.Error()
	if m := hujsonPlace().FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("%s:%s:%s: %s", path, m[1], m[2], msg[len(m[0]):])
	}
	if c := msg[0]; c >= '0' && c <= '9' {
		return path + ":" + msg // line:col: message
	}
	return path + ": " + msg
}
