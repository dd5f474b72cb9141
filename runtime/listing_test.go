package runtime

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/schema"
)

func listingOf(t *testing.T, src string, opts ListOptions) *Listing {
	t.Helper()
	path := filepath.Join(t.TempDir(), "hooks.json")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	opts.Configs = []string{path}
	l, err := List(opts)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestListCells: each entry's cells as list's table shows them, the
// summary counting hooks, handlers and invalid parts, and the notes on
// names that read as others.
func TestListCells(t *testing.T) {
	l := listingOf(t, `{
  "gаte": {"PreToolUse": [{"matcher": "run_command|view_file|write_to_file|replace_file_content", "hooks": [{"command": "./gаte.sh \u001b[2J", "timeout": 5}]}]},
  "off": {"enabled": false, "Stop": [{"command": "./stop.sh"}], "Sometime": []}
}`, ListOptions{})
	var got []string
	for _, e := range l.Entries {
		got = append(got, strings.Join(e.Cells(false), " | "))
	}
	want := []string{
		"2:109 | gаte | yes | yes | PreToolUse | run_command|view_file|write_to_file|rep… | 5s | ./gаte.sh \\x1b[2J",
		"3:38 | off | no | yes | Stop | - | 30s | ./stop.sh",
		"3:65 | off | no | yes | - | - | - | invalid: \"Sometime\" is not an event: a hook definition holds \"enabled\" and the events SessionStart, PreToolUse, PostToolUse, PreInvocation, PostInvocation, Stop; ignored [unknown-event]",
	}
	if !slices.Equal(got, want) {
		t.Errorf("cells:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got, want := strings.Join(l.Head(), " "), "WHERE HOOK ENABLED TRUSTED EVENT MATCHER TIMEOUT"; got != want {
		t.Errorf("head = %s", got)
	}
	if got, want := l.Summary(), "2 hooks, 2 handlers, 1 invalid part"; got != want {
		t.Errorf("summary = %q, want %q", got, want)
	}
	if got := l.Sources[0].Title(); got != "config file "+l.Sources[0].Path {
		t.Errorf("title = %q", got)
	}
	notes := l.LookAlikes(l.Of(l.Sources[0]))
	wantNotes := []string{
		"the hook gаte (" + l.Sources[0].Path + ":2) " + schema.LookAlike("gаte") + "; it reads as gate",
		"./gаte.sh in the command of gаte (" + l.Sources[0].Path + ":2) " + schema.LookAlike("./gаte.sh") + "; it reads as ./gate.sh",
	}
	if !slices.Equal(notes, wantNotes) {
		t.Errorf("look-alikes:\n%s\nwant\n%s", strings.Join(notes, "\n"), strings.Join(wantNotes, "\n"))
	}
}

// TestListForEvent keeps a tool event's entries when no tool is named,
// and otherwise decides what runs as a dispatch would, the summary saying
// how many.
func TestListForEvent(t *testing.T) {
	src := `{"gate": {"PreToolUse": [{"matcher": "view_file", "hooks": [{"command": "true"}]}, {"matcher": "run_command", "hooks": [{"command": "false"}]}]},
  "stop": {"Stop": [{"command": "./stop.sh"}]}}`
	l := listingOf(t, src, ListOptions{Event: schema.PreToolUse})
	if len(l.Entries) != 2 || l.Entries[0].Hook != "gate" || l.Entries[1].Hook != "gate" || l.Plan != nil {
		t.Fatalf("PreToolUse entries = %+v", l.Entries)
	}
	l = listingOf(t, src, ListOptions{Event: schema.Stop})
	if got, want := l.Summary(), "1 handler would run for Stop"; got != want {
		t.Errorf("summary = %q, want %q", got, want)
	}
	l = listingOf(t, src, ListOptions{Event: schema.PreToolUse, Tool: "run_command"})
	if l.Plan == nil {
		t.Fatal("no plan for a tool")
	}
	var states []string
	for _, e := range l.Entries {
		states = append(states, e.Cells(true)[7])
	}
	if !slices.Equal(states, []string{"skip", "run"}) {
		t.Errorf("RUNS = %q", states)
	}
	if got, want := l.Summary(), "1 handler would run for PreToolUse of run_command"; got != want {
		t.Errorf("summary = %q, want %q", got, want)
	}
	missing := filepath.Join(t.TempDir(), "none.json")
	if _, err := List(ListOptions{Configs: []string{missing}}); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("a config that does not exist: %v", err)
	}
}
