package scaffold

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/shellcmd"
	"github.com/hookctl/hookctl/templates"
)

// CheckGiven rejects the answers given as flags that cannot be right,
// before any question is asked, each named by its flag; it takes a
// language's other name for its ID.
func (a *Answers) CheckGiven() error {
	if a.Scope != "" && a.Scope != Workspace && a.Scope != User {
		return fmt.Errorf("--scope %q: use workspace (.agents/hooks.json) or user (~/.gemini/config/hooks.json)", a.Scope)
	}
	if a.Event != "" {
		if _, err := schema.ParseEvent(string(a.Event)); err != nil {
			return fmt.Errorf("--event: %v", err)
		}
	}
	if a.Template != "" {
		t, ok := templates.Lookup(a.Template)
		if !ok {
			msg := fmt.Sprintf("--template: unknown template %q", a.Template)
			if near := schema.Nearest(a.Template, templates.IDs()); near != "" {
				msg += fmt.Sprintf(": did you mean %q?", near)
			}
			return fmt.Errorf("%s (the templates are %s)", msg, strings.Join(templates.IDs(), ", "))
		}
		if a.Event != "" && t.Event != a.Event {
			return fmt.Errorf("--template %s is for %s, not %s: leave --event out, or pick a template for %s", t.ID, t.Event, a.Event, a.Event)
		}
	}
	if a.Lang != "" {
		l, ok := templates.LookupLanguage(a.Lang)
		if !ok {
			return fmt.Errorf("--lang %q: the languages are %s", a.Lang, strings.Join(templates.LanguageIDs(), ", "))
		}
		a.Lang = l.ID
	}
	if a.Name != "" {
		if err := ValidateName(a.Name); err != nil {
			return fmt.Errorf("--name: %v", err)
		}
	}
	if a.MatcherSet {
		if err := ValidateMatcher(a.Matcher); err != nil {
			return fmt.Errorf("--matcher %q: %v", a.Matcher, err)
		}
	}
	return nil
}

// Place fills in the folders: Dir, the workspace's root, is root (the one
// found from the current folder) unless --dir named one, which must be a
// folder and not an .agents folder; Home is home unless set, and the
// user's scope needs one.
func (o *Options) Place(root, home string) error {
	if o.Dir == "" {
		o.Dir = root
	} else {
		fi, err := os.Stat(o.Dir)
		if err != nil || !fi.IsDir() {
			return fmt.Errorf("--dir %s: not a folder", o.Dir)
		}
		if o.Dir, err = filepath.Abs(o.Dir); err != nil {
			return fmt.Errorf("--dir: %v", err)
		}
	}
	if filepath.Base(o.Dir) == ".agents" && o.Scope != User {
		// The hook would land in .agents/.agents/hooks.json, which the
		// agent never reads.
		return fmt.Errorf("%s is an .agents folder, not a workspace's root: run init from %s, or pass --dir %s",
			o.Dir, filepath.Dir(o.Dir), shellcmd.Quote(filepath.Dir(o.Dir)))
	}
	if o.Home == "" {
		o.Home = home
	}
	if o.Home == "" && o.Scope == User {
		return fmt.Errorf("--scope user: cannot tell the home folder; set HOME")
	}
	return nil
}
