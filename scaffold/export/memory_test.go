package export

import (
	"strings"
	"testing"

	"github.com/hookctl/hookctl/schema"
)

// TestMemory remembers what an export created across runs, forgets it
// after a removal, and says why there is no record when there is none.
func TestMemory(t *testing.T) {
	env := map[string]string{"XDG_STATE_HOME": t.TempDir()}
	getenv := func(k string) string { return env[k] }
	const file = "/w/.claude/settings.json"
	m := Remember(getenv, file)
	m.Load()
	if m.Record != nil || m.Unrecorded != "no record of what export created in this file (was it exported on another machine?)" {
		t.Fatalf("first run: %+v", m)
	}
	added, err := Add(schema.Claude, []byte("{}\n"), []schema.Event{schema.Stop})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.After(schema.Claude, false, added); err != nil {
		t.Fatal(err)
	}
	m = Remember(getenv, file)
	if m.Load(); m.Record == nil || strings.Join(m.Record.Made, " ") != strings.Join(added.Made, " ") {
		t.Fatalf("second run: %+v", m.Record)
	}
	if err := m.After(schema.Claude, true, nil); err != nil {
		t.Fatal(err)
	}
	m = Remember(getenv, file)
	if m.Load(); m.Record != nil {
		t.Errorf("after removal: %+v", m.Record)
	}
	// Nowhere to keep a record: said at Load, returned by After.
	t.Setenv("HOME", "")
	m = Remember(func(string) string { return "" }, file)
	if m.pathErr == nil {
		t.Skip("a state folder was found without HOME")
	}
	m.Load()
	if !strings.HasPrefix(m.Unrecorded, "cannot find the record of what export created (") || m.After(schema.Claude, false, added) == nil {
		t.Errorf("no state folder: %q", m.Unrecorded)
	}
}
