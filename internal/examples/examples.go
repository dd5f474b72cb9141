// Package examples makes the handler scripts of the example workspace,
// examples/.agents/hooks, from the templates that hookctl init writes, so
// that the example shows exactly what init gives. "go generate ./templates"
// writes them after a template changes; a test fails while the example and
// the templates differ.
package examples

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/hookctl/hookctl/templates"
)

// Handler is one hook of examples/.agents/hooks.json and what its script
// is made from: hookctl init --name Hook --template Template --lang Lang.
type Handler struct {
	Hook, Template, Lang string
}

// Handlers are the example's, in the order of its hooks.json.
var Handlers = []Handler{
	{"block-dangerous-commands", "block-dangerous", "py"},
	{"protect-secrets", "protect-paths", "sh"},
	{"audit-log", "audit-log", "sh"},
	{"lint-reminder", "reminder", "sh"},
	{"tests-must-pass", "tests-must-pass", "sh"},
}

// File is the script's file name in examples/.agents/hooks.
func (h Handler) File() string {
	l, _ := templates.LookupLanguage(h.Lang)
	return h.Hook + l.Ext
}

// Script is the script as init writes it.
func (h Handler) Script() ([]byte, error) {
	t, ok := templates.Lookup(h.Template)
	if !ok {
		return nil, fmt.Errorf("no template %q", h.Template)
	}
	return t.Script(h.Lang, h.Hook)
}

// Write writes every handler's script in dir, executable, as init does.
func Write(dir string) error {
	for _, h := range Handlers {
		b, err := h.Script()
		if err != nil {
			return err
		}
		path := filepath.Join(dir, h.File())
		if err := os.WriteFile(path, b, 0o755); err != nil {
			return err
		}
		// WriteFile keeps the mode of a file that is there.
		if err := os.Chmod(path, 0o755); err != nil {
			return err
		}
	}
	return nil
}
