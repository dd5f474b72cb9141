package examples

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/hookctl/hookctl/schema"
)

const root = "../../examples"

// TestExamplesAreTheTemplates fails while a handler of the example
// workspace differs from what its template renders, or the folder holds a
// handler that no template makes: go generate ./templates writes them.
func TestExamplesAreTheTemplates(t *testing.T) {
	dir := filepath.Join(root, ".agents", "hooks")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var onDisk, made []string
	for _, e := range entries {
		onDisk = append(onDisk, e.Name())
	}
	for _, h := range Handlers {
		made = append(made, h.File())
		want, err := h.Script()
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, h.File())
		got, err := os.ReadFile(path)
		switch {
		case err != nil:
			t.Errorf("%v: run go generate ./templates", err)
			continue
		case !bytes.Equal(got, want):
			t.Errorf("%s differs from what hookctl init --template %s --lang %s writes: run go generate ./templates", path, h.Template, h.Lang)
		}
		if info, err := os.Stat(path); err != nil || info.Mode().Perm()&0o111 == 0 {
			t.Errorf("%s is not executable: run go generate ./templates", path)
		}
	}
	for _, name := range onDisk {
		if !slices.Contains(made, name) {
			t.Errorf("%s/%s is made by no template: add it to Handlers, or remove it", dir, name)
		}
	}
}

// TestHandlersAreTheExamples: each hook of examples/.agents/hooks.json
// runs the script made for it, and no other.
func TestHandlersAreTheExamples(t *testing.T) {
	c, err := schema.Load(filepath.Join(root, ".agents", "hooks.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.File.Hooks) != len(Handlers) {
		t.Errorf("%d hooks in the example, %d handlers made", len(c.File.Hooks), len(Handlers))
	}
	for i, hook := range c.File.Hooks {
		if i >= len(Handlers) {
			break
		}
		h := Handlers[i]
		var cmds []string
		for _, x := range hook.AllHandlers() {
			cmds = append(cmds, x.Command)
		}
		if hook.Name != h.Hook || !slices.Equal(cmds, []string{"./hooks/" + h.File()}) {
			t.Errorf("hook %d is %s running %q, want %s running ./hooks/%s", i+1, hook.Name, cmds, h.Hook, h.File())
		}
	}
}
