// Package scaffold creates hooks: it asks for (or takes) the answers, writes
// the handler script from a template, adds the hook to hooks.json without
// touching the rest of the file, adds a test case to hooks.test.json, and
// can associate the schema in VS Code's settings.
//
// Every file's new content is computed first (NewPlan) and written last
// (Plan.Apply), so a question left unanswered or a refused edit writes
// nothing.
package scaffold

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os/exec"
	"strconv"
	"strings"

	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/scope"
	"github.com/hookctl/hookctl/templates"
)

// The scopes a hook can be created in, by the names of scope.Workspace and
// scope.User that init --scope and import --scope take.
const (
	// Workspace is <root>/.agents/hooks.json, shared with everyone who
	// clones the workspace.
	Workspace = "workspace"
	// User is ~/.gemini/config/hooks.json, the user's own hooks for every
	// workspace.
	User = "user"
)

// Answers are what hookctl init asks. A zero field is unanswered.
type Answers struct {
	Scope    string
	Name     string
	Event    schema.Event
	Matcher  string
	Template string
	Lang     string
	Timeout  int

	// MatcherSet tells an answered matcher from an unanswered one: "" is a
	// valid matcher (every tool).
	MatcherSet bool

	// Overwrite is the person's consent to replace a script that exists,
	// as --force gives it.
	Overwrite bool

	// Trace writes the handler's command through hookctl trace, so that
	// each run is recorded for hookctl log; TraceSet tells that it was
	// answered (no is an answer too). Left unanswered, it is no.
	Trace    bool
	TraceSet bool
}

// Options are the answers and where to write.
type Options struct {
	Answers
	// Dir is the workspace's root folder.
	Dir string
	// Home is the user's home folder.
	Home string
	// Force overwrites an existing handler script.
	Force bool
	// VSCode associates the schema in Dir/.vscode/settings.json.
	VSCode bool
}

// ConfigPath returns the hooks.json of a scope.
func ConfigPath(sc, dir, home string) string {
	if sc == User {
		return scope.UserFile(home)
	}
	return scope.WorkspaceFile(dir)
}

// reserved are names that would make the file look like something else:
// an event or a hook's own key at the top level, or another agent's format.
var reserved = append(append([]string{"enabled", "hooks", "version", "matcher", "command"}, schema.EventNames()...), "$schema")

// ValidateName checks a hook name: a short slug of letters, digits, dots,
// dashes and underscores that is no reserved word.
func ValidateName(name string) error {
	switch {
	case name == "":
		return errors.New("the name is empty: give the hook a short name such as block-dangerous")
	case len(name) > 64:
		return fmt.Errorf("the name is %d characters long: keep it to 64", len(name))
	case !templates.NamePattern().MatchString(name):
		return fmt.Errorf("%q is not a good hook name: use letters, digits, '-', '_' and '.', starting with a letter or digit", name)
	}
	for _, r := range reserved {
		if strings.EqualFold(name, r) {
			return fmt.Errorf("%q would be read as a key of the format, not as a hook name: pick another", name)
		}
	}
	return nil
}

// ValidateTimeout checks a timeout answer: whole seconds, from 1 to
// schema.MaxTimeout.
func ValidateTimeout(s string) error {
	_, err := parseTimeout(s)
	return err
}

func parseTimeout(s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 1 || n > schema.MaxTimeout {
		return 0, fmt.Errorf("the timeout %q is not a whole number of seconds from 1 to %d (about 68 years)", s, schema.MaxTimeout)
	}
	return n, nil
}

// Existing is what a scope's hooks.json holds now.
type Existing struct {
	Path string
	// Src is the file's content, nil when it does not exist.
	Src []byte
	// Config is the parsed file, nil when it does not exist or is empty.
	Config *schema.Config
}

// LoadExisting reads a scope's hooks.json. A file that cannot be read, is
// not valid JSON or whose top level is not an object is an error that says
// where it goes wrong: init never edits a file it cannot understand.
func LoadExisting(path string) (*Existing, error) {
	src, err := ReadRegular(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &Existing{Path: path}, nil
	}
	if err != nil {
		return nil, err
	}
	return parseExisting(path, src)
}

// parseExisting parses a hooks.json to edit; src is nil when the file does
// not exist.
func parseExisting(path string, src []byte) (*Existing, error) {
	if src == nil {
		return &Existing{Path: path}, nil
	}
	if len(bytes.TrimSpace(src)) == 0 {
		// Nothing to keep: init fills an empty file as it would create one.
		return &Existing{Path: path, Src: src}, nil
	}
	c := schema.Parse(path, src)
	if c.Syntax != nil {
		return nil, fmt.Errorf("%s: %s; fix the file (hookctl lint %s shows every problem) and run init again", c.Where(c.Syntax.Pos), c.Syntax.Msg, path)
	}
	if c.Root.Kind != schema.Object {
		return nil, fmt.Errorf("%s: the top level is %s, not an object of hooks; fix the file and run init again", c.Where(c.Root.Span.Start), c.Root.Describe())
	}
	return &Existing{Path: path, Src: src, Config: c}, nil
}

// Load reads a scope's hooks.json to edit, refusing a workspace's that
// leads out of the workspace (see Bounds) before anything is asked.
func Load(scope, dir, home string) (*Existing, error) {
	path := ConfigPath(scope, dir, home)
	b, err := NewBounds(scope, dir, home)
	if err != nil {
		return nil, err
	}
	if _, err := b.Check(path); err != nil {
		return nil, err
	}
	return LoadExisting(path)
}

// Taken reports whether the file already has a hook of that name, and
// where.
func (x *Existing) Taken(name string) (schema.Pos, bool) {
	if x == nil || x.Config == nil {
		return schema.Pos{}, false
	}
	if m := x.Config.Root.Get(name); m != nil {
		return m.KeySpan.Start, true
	}
	return schema.Pos{}, false
}

// FreeName returns base, or base-2, base-3... whichever the file does not
// use yet.
func (x *Existing) FreeName(base string) string {
	name := base
	for i := 2; ; i++ {
		if _, taken := x.Taken(name); !taken {
			return name
		}
		name = fmt.Sprintf("%s-%d", base, i)
	}
}

// Fill gives every unanswered question its default: the workspace, the
// first event, the event's first template, the template's name, matcher and
// timeout, and shell.
func (a *Answers) Fill(x *Existing) {
	if a.Scope == "" {
		a.Scope = Workspace
	}
	if a.Event == "" {
		if t, ok := templates.Lookup(a.Template); ok {
			a.Event = t.Event
		} else {
			a.Event = schema.PreToolUse
		}
	}
	if a.Template == "" {
		if ts := templates.ForEvent(a.Event); len(ts) > 0 {
			a.Template = ts[0].ID
		}
	}
	t, _ := templates.Lookup(a.Template)
	if a.Name == "" {
		a.Name = x.FreeName(t.ID)
	}
	if !a.MatcherSet && a.Event.IsTool() {
		a.Matcher, a.MatcherSet = t.Matcher, true
	}
	if a.Lang == "" {
		a.Lang = DefaultLanguage(t)
	}
	if a.Timeout == 0 {
		a.Timeout = t.Timeout
	}
	a.TraceSet = true
}

// DefaultLanguage is the language a template's script is written in when
// none is asked for: shell, unless the shell version needs jq and jq is not
// installed, so that the defaults always make a hook that works here.
func DefaultLanguage(t templates.Template) string {
	if !t.NeedsJQ || onPath("jq") {
		return templates.Languages[0].ID
	}
	for _, l := range []struct{ id, program string }{{"py", "python3"}, {"node", "node"}} {
		if onPath(l.program) {
			return l.id
		}
	}
	return templates.Languages[0].ID
}

func onPath(program string) bool {
	_, err := exec.LookPath(program)
	return err == nil
}

// Missing lists the flags of the questions that are still unanswered.
func (a *Answers) Missing() []string {
	var m []string
	if a.Scope == "" {
		m = append(m, "--scope")
	}
	if a.Name == "" {
		m = append(m, "--name")
	}
	if a.Event == "" {
		if _, ok := templates.Lookup(a.Template); !ok {
			m = append(m, "--event")
		}
	}
	if a.Template == "" {
		m = append(m, "--template")
	}
	e := a.Event
	if t, ok := templates.Lookup(a.Template); ok && e == "" {
		e = t.Event
	}
	if !a.MatcherSet && (e == "" || e.IsTool()) {
		m = append(m, "--matcher")
	}
	if a.Lang == "" {
		m = append(m, "--lang")
	}
	if a.Timeout == 0 {
		m = append(m, "--timeout")
	}
	return m
}

// Validate checks complete answers against each other and the file.
func (a *Answers) Validate(x *Existing) error {
	if a.Scope != Workspace && a.Scope != User {
		return fmt.Errorf("unknown scope %q: use workspace (.agents/hooks.json) or user (~/.gemini/config/hooks.json)", a.Scope)
	}
	if err := ValidateName(a.Name); err != nil {
		return err
	}
	if pos, taken := x.Taken(a.Name); taken {
		return fmt.Errorf("%s:%d:%d already has a hook named %q: pick another name", x.Path, pos.Line, pos.Col, a.Name)
	}
	if !a.Event.Valid() {
		_, err := schema.ParseEvent(string(a.Event))
		return err
	}
	t, ok := templates.Lookup(a.Template)
	if !ok {
		msg := fmt.Sprintf("unknown template %q", a.Template)
		if near := schema.Nearest(a.Template, templates.IDs()); near != "" {
			msg += fmt.Sprintf(": did you mean %q?", near)
		}
		return fmt.Errorf("%s (the templates for %s are %s)", msg, a.Event, strings.Join(templateIDs(a.Event), ", "))
	}
	if t.Event != a.Event {
		return fmt.Errorf("the template %s is written for %s, not %s (the templates for %s are %s)", t.ID, t.Event, a.Event, a.Event, strings.Join(templateIDs(a.Event), ", "))
	}
	if a.Event.IsTool() {
		if err := ValidateMatcher(a.Matcher); err != nil {
			return fmt.Errorf("matcher %q: %v", a.Matcher, err)
		}
	} else if a.MatcherSet && a.Matcher != "" {
		return fmt.Errorf("%s takes no matcher (only PreToolUse and PostToolUse select tools): leave --matcher out", a.Event)
	}
	if _, ok := templates.LookupLanguage(a.Lang); !ok {
		return fmt.Errorf("unknown language %q (the languages are %s)", a.Lang, strings.Join(templates.LanguageIDs(), ", "))
	}
	if a.Timeout < 1 || a.Timeout > schema.MaxTimeout {
		return fmt.Errorf("the timeout %d is not a whole number of seconds from 1 to %d (about 68 years)", a.Timeout, schema.MaxTimeout)
	}
	return nil
}

func templateIDs(e schema.Event) []string {
	var ids []string
	for _, t := range templates.ForEvent(e) {
		ids = append(ids, t.ID)
	}
	return ids
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
