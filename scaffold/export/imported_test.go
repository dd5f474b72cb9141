package export

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/runtime/adapter"
	"github.com/hookctl/hookctl/scaffold/convert"
	"github.com/hookctl/hookctl/schema"
)

// TestOnError: --on-error is written into each command; an entry there
// with another policy is rewritten in place, and one asked for with none
// keeps its own; --remove takes out every form.
func TestOnError(t *testing.T) {
	pre := []schema.Event{schema.PreToolUse}
	r, err := AddWith(schema.Claude, []byte("{}\n"), pre, AddOptions{OnError: "ignore"})
	if err != nil {
		t.Fatal(err)
	}
	if got := commands(t, schema.Claude, decodeSettings(t, r.New), "PreToolUse"); !slices.Equal(got, []string{"hookctl run --from claude PreToolUse --on-error ignore"}) {
		t.Fatalf("commands %q", got)
	}
	again, _ := Add(schema.Claude, r.New, pre)
	if again.Changed() || !slices.Equal(again.Present, []string{"PreToolUse"}) {
		t.Errorf("an export without --on-error changed the entry:\n%s", again.New)
	}
	deny, _ := AddWith(schema.Claude, r.New, pre, AddOptions{OnError: "deny"})
	if got := commands(t, schema.Claude, decodeSettings(t, deny.New), "PreToolUse"); !slices.Equal(got, []string{"hookctl run --from claude PreToolUse --on-error deny"}) || !slices.Equal(deny.Updated, []string{"PreToolUse"}) {
		t.Errorf("commands %q, updated %q", got, deny.Updated)
	}
	if len(deny.New) != len(r.New)+len("deny")-len("ignore") {
		t.Errorf("more than the command changed:\n%s", deny.New)
	}
	gone, _ := Remove(schema.Claude, deny.New, nil)
	if strings.Contains(string(gone.New), "hookctl run") {
		t.Errorf("--remove left the entry:\n%s", gone.New)
	}
	c, _ := AddWith(schema.Cursor, nil, pre, AddOptions{OnError: "ignore"})
	if got := commands(t, schema.Cursor, decodeSettings(t, c.New), "preToolUse"); !slices.Equal(got, []string{"hookctl run --from cursor preToolUse --on-error ignore"}) {
		t.Errorf("cursor commands %q", got)
	}
}

// TestImported: after hookctl import wrote the settings' hooks into the
// workspace's hooks.json, export would make the agent run each twice: the
// event is not wired, with a note, unless --replace-imported takes the
// original out (a group with a handler import could not carry stays).
func TestImported(t *testing.T) {
	root := t.TempDir()
	settings := filepath.Join(root, ".claude", "settings.json")
	target := filepath.Join(root, ".agents", "hooks.json")
	old := []byte(`{
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "jq -r .tool_input.command | grep -q rm && exit 2 || true"}]}
    ],
    "Stop": [
      {"hooks": [{"type": "command", "command": "./check.sh"}, {"type": "prompt", "prompt": "Done?"}]}
    ]
  }
}
`)
	for _, p := range []string{settings, target} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(settings, old, 0o644); err != nil {
		t.Fatal(err)
	}
	src, err := convert.Read(root, settings, schema.Claude)
	if err != nil {
		t.Fatal(err)
	}
	res := convert.Convert(src, convert.Options{Target: target, Root: root, Adapt: true, Answer: adapter.Literal})
	m, err := res.Merge(target)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(target, m.Src, 0o644); err != nil {
		t.Fatal(err)
	}
	ims, err := FindImported(schema.Claude, settings, old, target, root, adapter.Literal)
	if err != nil || len(ims) != 2 {
		t.Fatalf("imported %+v, %v", ims, err)
	}
	if ims[0].Event != "PreToolUse" || ims[0].Native != schema.PreToolUse || ims[0].Line != 4 || !ims[0].Whole ||
		ims[1].Event != "Stop" || ims[1].Whole {
		t.Errorf("imported %+v", ims)
	}
	events := []schema.Event{schema.PreToolUse, schema.Stop}
	r, err := AddWith(schema.Claude, old, events, AddOptions{Imported: ims})
	if err != nil {
		t.Fatal(err)
	}
	if r.Changed() || !slices.Equal(r.Skipped, []string{"PreToolUse", "Stop"}) || !strings.Contains(strings.Join(r.Notes, "\n"), "would run it twice") {
		t.Errorf("skipped %q, notes %q, new:\n%s", r.Skipped, r.Notes, r.New)
	}
	r, err = AddWith(schema.Claude, old, events, AddOptions{Imported: ims, ReplaceImported: true})
	if err != nil {
		t.Fatal(err)
	}
	got := decodeSettings(t, r.New)
	if cmds := commands(t, schema.Claude, got, "PreToolUse"); !slices.Equal(cmds, []string{"hookctl run --from claude PreToolUse"}) {
		t.Errorf("PreToolUse %q:\n%s", cmds, r.New)
	}
	if cmds := commands(t, schema.Claude, got, "Stop"); !slices.Equal(cmds, []string{"./check.sh"}) || !slices.Equal(r.Skipped, []string{"Stop"}) {
		t.Errorf("Stop %q, skipped %q:\n%s", cmds, r.Skipped, r.New)
	}
	// Settings of which no hook was imported are exported as before.
	none, _ := FindImported(schema.Claude, settings, []byte(`{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./other.sh"}]}]}}`), target, root, adapter.Literal)
	if len(none) != 0 {
		t.Errorf("imported %+v", none)
	}
}
