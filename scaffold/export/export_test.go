package export

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/tailscale/hujson"

	"github.com/hookctl/hookctl/schema"
)

var allEvents = schema.Events

// decodeSettings reads settings written with or without comments.
func decodeSettings(t *testing.T, src []byte) map[string]any {
	t.Helper()
	std, err := hujson.Standardize(append([]byte(nil), src...))
	if err != nil {
		t.Fatalf("not valid: %v\n%s", err, src)
	}
	var m map[string]any
	if err := json.Unmarshal(std, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// commands lists the commands of an agent's hooks for one event.
func commands(t *testing.T, a schema.Agent, settings map[string]any, event string) []string {
	t.Helper()
	hooks, _ := settings["hooks"].(map[string]any)
	list, _ := hooks[event].([]any)
	var out []string
	for _, e := range list {
		obj := e.(map[string]any)
		if a == schema.Cursor {
			if c, ok := obj["command"].(string); ok {
				out = append(out, c)
			}
			continue
		}
		hs, _ := obj["hooks"].([]any)
		for _, h := range hs {
			if c, ok := h.(map[string]any)["command"].(string); ok {
				out = append(out, c)
			}
		}
	}
	return out
}

// TestRealSettings: on each agent's real settings files, export adds one
// entry per event, keeps every byte it was not asked to change (removing
// what it added gives the file back exactly), changes nothing the second
// time, and the agent's own hooks stay.
func TestRealSettings(t *testing.T) {
	files, err := filepath.Glob("testdata/*.json")
	if err != nil || len(files) == 0 {
		t.Fatal(files, err)
	}
	for _, f := range files {
		agent := schema.Agent(strings.SplitN(filepath.Base(f), "-", 2)[0])
		t.Run(filepath.Base(f), func(t *testing.T) {
			old, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			before := decodeSettings(t, old)
			r, err := Add(agent, old, allEvents)
			if err != nil {
				t.Fatal(err)
			}
			after := decodeSettings(t, r.New)
			for _, x := range schema.ExportedEvents {
				if x.Agent != agent || x.Foreign == "" {
					continue
				}
				got := commands(t, agent, after, x.Foreign)
				want := append(commands(t, agent, before, x.Foreign), Command(agent, x.Foreign))
				if strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("%s: commands %q, want %q", x.Foreign, got, want)
				}
			}
			for k, v := range before {
				if k == "hooks" {
					continue
				}
				if b1, _ := json.Marshal(v); true {
					b2, _ := json.Marshal(after[k])
					if string(b1) != string(b2) {
						t.Errorf("%s changed: %s → %s", k, b1, b2)
					}
				}
			}
			again, err := Add(agent, r.New, allEvents)
			if err != nil || again.Changed() || len(again.Added) != 0 {
				t.Errorf("second export changed the file (%v): added %v", err, again.Added)
			}
			back, err := Remove(agent, r.New, r.Record("f"))
			if err != nil {
				t.Fatal(err)
			}
			if string(back.New) != string(old) {
				t.Errorf("remove did not give the file back:\n--- got\n%s\n--- want\n%s", back.New, old)
			}
			if len(back.Removed) != len(r.Added) {
				t.Errorf("removed %v, added %v", back.Removed, r.Added)
			}
		})
	}
}

func TestNewFile(t *testing.T) {
	r, err := Add(schema.Cursor, nil, []schema.Event{schema.PreToolUse, schema.Stop})
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "version": 1,
  "hooks": {
    "preToolUse": [
      {
        "command": "hookctl run --from cursor preToolUse"
      }
    ],
    "stop": [
      {
        "command": "hookctl run --from cursor stop"
      }
    ]
  }
}
`
	if string(r.New) != want {
		t.Errorf("new cursor file:\n%s\nwant\n%s", r.New, want)
	}
	r, err = Add(schema.Claude, nil, []schema.Event{schema.PreToolUse, schema.PreInvocation, schema.PostInvocation})
	if err != nil {
		t.Fatal(err)
	}
	want = `{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "*",
        "hooks": [
          {
            "type": "command",
            "command": "hookctl run --from claude PreToolUse"
          }
        ]
      }
    ],
    "UserPromptSubmit": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "hookctl run --from claude UserPromptSubmit"
          }
        ]
      }
    ]
  }
}
`
	if string(r.New) != want {
		t.Errorf("new claude file:\n%s\nwant\n%s", r.New, want)
	}
	if len(r.Notes) != 2 || !strings.Contains(r.Notes[1], "PostInvocation is not wired: Claude Code has no event after each model call") {
		t.Errorf("notes %q", r.Notes)
	}
	// Nothing to wire: no file.
	r, _ = Add(schema.Claude, nil, []schema.Event{schema.PostInvocation})
	if r.New != nil || r.Changed() {
		t.Errorf("a file with nothing in it: %q", r.New)
	}
}

// TestRemoveKeepsTheUsers: a handler the user put beside export's in one
// group stays, and so does a hook that runs the same command another way.
func TestRemoveKeepsTheUsers(t *testing.T) {
	src := []byte(`{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "*",
        "hooks": [
          {"type": "command", "command": "hookctl run --from claude PreToolUse"},
          {"type": "command", "command": "./audit.sh"}
        ]
      },
      {
        "matcher": "Bash",
        "hooks": [{"type": "command", "command": "hookctl run --from claude PreToolUse --on-error ask"}]
      }
    ]
  }
}
`)
	r, err := Remove(schema.Claude, src, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := decodeSettings(t, r.New)
	if cmds := commands(t, schema.Claude, got, "PreToolUse"); strings.Join(cmds, "|") != "./audit.sh|hookctl run --from claude PreToolUse --on-error ask" {
		t.Errorf("left %q:\n%s", cmds, r.New)
	}
}

func TestRefusals(t *testing.T) {
	for src, want := range map[string]string{
		`[]`:                            "1:1: the top level is not a JSON object",
		"{\n  \"hooks\": []\n}":         `2:12: "hooks" is not an object of events: fix it by hand first, as export edits only what it understands`,
		`{"hooks": {"PreToolUse": {}}}`: `1:26: "PreToolUse" is not an array of entries: fix it by hand first, as export edits only what it understands`,
		"{\n  \"a\": 1,,\n}":            "2:10: not valid JSON: invalid character ',' at start of value",
	} {
		_, err := Add(schema.Claude, []byte(src), allEvents)
		if err == nil || err.Error() != want {
			t.Errorf("%q: %v, want %q", src, err, want)
		}
	}
}

// TestDeepSettings: a settings file of a million nested [ is refused at the
// bracket past the bound for every agent, adding and removing, before hujson
// (which calls itself once a level) reads it. A small stack makes the test
// die as the command died with Go's whole gigabyte when that was not so.
func TestDeepSettings(t *testing.T) {
	defer debug.SetMaxStack(debug.SetMaxStack(64 << 20))
	for _, src := range []string{strings.Repeat("[", 1_000_000), "// settings\n{\"hooks\": " + strings.Repeat("{\"a\": ", 20_000)} {
		want := "1:10001: arrays and objects nest more than 10000 levels deep here, more than any settings file needs, so it is not read further"
		if src[0] == '/' {
			want = "2:60005: arrays and objects nest more than 10000 levels deep here, more than any settings file needs, so it is not read further"
		}
		for _, a := range []schema.Agent{schema.Claude, schema.Gemini, schema.Cursor, schema.Codex} {
			if _, err := Add(a, []byte(src), allEvents); err == nil || err.Error() != want {
				t.Errorf("Add %s: %v, want %q", a, err, want)
			}
			if _, err := Remove(a, []byte(src), &Record{File: "x", Made: []string{"/hooks"}}); err == nil || err.Error() != want {
				t.Errorf("Remove %s: %v, want %q", a, err, want)
			}
		}
	}
}

// crlf writes src with Windows line endings.
func crlf(src string) string { return strings.ReplaceAll(src, "\n", "\r\n") }

// checkEndings fails when out mixes line endings that src does not: a
// file of "\r\n" keeps "\r\n" on every line, one of "\n" gets no "\r".
func checkEndings(t *testing.T, src, out []byte) {
	t.Helper()
	lf := bytes.Count(out, []byte("\n"))
	cr := bytes.Count(out, []byte("\r\n"))
	switch {
	case bytes.Contains(out, []byte("\r\r")):
		t.Errorf("a doubled carriage return:\n%q", out)
	case bytes.Contains(src, []byte("\r\n")) && cr != lf:
		t.Errorf("%d of %d lines end in \\n alone in a file of \\r\\n:\n%q", lf-cr, lf, out)
	case !bytes.Contains(src, []byte("\r")) && bytes.Contains(out, []byte("\r")):
		t.Errorf("a carriage return in a file of \\n:\n%q", out)
	}
}

// TestRoundTripLayouts: for every agent, on files written every way a
// user writes them (one line, indented, CRLF, an empty "hooks" or event
// list of their own, Cursor's version or none), export then --remove gives
// the file back byte for byte, with its line endings.
func TestRoundTripLayouts(t *testing.T) {
	real, _ := filepath.Glob("testdata/*.json")
	for _, a := range []schema.Agent{schema.Claude, schema.Gemini, schema.Cursor, schema.Codex} {
		first := ""
		for _, x := range schema.ExportedEvents {
			if x.Agent == a && x.Foreign != "" {
				first = x.Foreign
				break
			}
		}
		srcs := []string{
			`{"model":"opus"}`,
			`{"model":"opus","hooks":{}}`,
			"{\n  \"model\": \"opus\"\n}\n",
			"{\n  \"model\": \"opus\",\n  \"hooks\": {}\n}\n",
			"{\n  \"hooks\": {},\n  \"model\": \"opus\"\n}\n",
			"{\n  \"hooks\": {\n    \"" + first + "\": []\n  }\n}\n",
			"{\n\t\"hooks\": {\n\t\t\"" + first + "\": [\n\t\t]\n\t}\n}",
			"{}\n",
			"{\n}\n",
		}
		if a == schema.Cursor {
			srcs = append(srcs, "{\n  \"version\": 1\n}\n", "{\n  \"version\": 1,\n  \"hooks\": {}\n}\n")
		}
		for _, f := range real {
			if strings.HasPrefix(filepath.Base(f), string(a)+"-") {
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				srcs = append(srcs, string(b))
			}
		}
		for _, src := range srcs {
			for _, src := range []string{src, crlf(src)} {
				r, err := Add(a, []byte(src), allEvents)
				if err != nil {
					t.Fatalf("%s %q: %v", a, src, err)
				}
				if len(r.Added) == 0 {
					t.Fatalf("%s %q: nothing added", a, src)
				}
				checkEndings(t, []byte(src), r.New)
				decodeSettings(t, r.New)
				back, err := Remove(a, r.New, r.Record("f"))
				if err != nil {
					t.Fatal(err)
				}
				if string(back.New) != src {
					t.Errorf("%s: export then --remove of\n%q\ngives\n%q\n(made %q, exported %q)", a, src, back.New, r.Made, r.New)
				}
				checkEndings(t, []byte(src), back.New)
			}
		}
	}
}

// TestCursorVersion: Cursor refuses a hooks.json without a version, so
// export gives one to every file that lacks it, keeps a version of the
// user's, and takes out on removal only the one it added, once no hook is
// left that needs it.
func TestCursorVersion(t *testing.T) {
	pre := []schema.Event{schema.PreToolUse}
	r, err := Add(schema.Cursor, []byte("{}\n"), pre)
	if err != nil {
		t.Fatal(err)
	}
	if m := decodeSettings(t, r.New); m["version"] != 1.0 {
		t.Errorf("an existing {} got no version:\n%s", r.New)
	}
	if !slices.Contains(r.Made, "/version") {
		t.Errorf("made %q", r.Made)
	}

	mine := "{\n  \"hooks\": {\n    \"stop\": [{\"command\": \"./mine.sh\"}]\n  }\n}\n"
	r, _ = Add(schema.Cursor, []byte(mine), pre)
	back, _ := Remove(schema.Cursor, r.New, r.Record("f"))
	want := "{\n  \"hooks\": {\n    \"stop\": [{\"command\": \"./mine.sh\"}]\n  },\n  \"version\": 1\n}\n"
	if string(back.New) != want {
		t.Errorf("the user's hooks lost the version they need:\n%s", back.New)
	}
	if len(back.Notes) != 1 || !strings.Contains(back.Notes[0], `"version": 1 stays`) {
		t.Errorf("notes %q", back.Notes)
	}

	r, _ = Add(schema.Cursor, []byte(`{"version": "1"}`), pre)
	if !strings.HasPrefix(string(r.New), `{"version": "1", "hooks"`) || slices.Contains(r.Made, "/version") {
		t.Errorf("a version of the user's changed: %s (made %q)", r.New, r.Made)
	}
	if len(r.Notes) != 1 || r.Notes[0] != `"version" (line 1, column 13) is "1", and Cursor reads only the number 1: it is left as you wrote it, and Cursor may refuse the file` {
		t.Errorf("notes %q", r.Notes)
	}

	// A file export creates keeps its version after a removal: a Cursor
	// hooks.json without one is an error in Cursor.
	r, _ = Add(schema.Cursor, nil, pre)
	back, _ = Remove(schema.Cursor, r.New, r.Record("f"))
	if string(back.New) != "{\n  \"version\": 1\n}\n" {
		t.Errorf("a new file after removal: %q", back.New)
	}
}

// TestRemoveWithoutRecord: with no record of what export created, the
// event lists and "hooks" object the removal empties go, and a version
// stays.
func TestRemoveWithoutRecord(t *testing.T) {
	src := "{\n  \"version\": 1,\n  \"hooks\": {\n    \"stop\": [{\"command\": \"hookctl run --from cursor stop\"}]\n  }\n}\n"
	r, err := Remove(schema.Cursor, []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(r.New) != "{\n  \"version\": 1\n}\n" {
		t.Errorf("got %q", r.New)
	}
}

// TestNextRecord: a record carries what earlier exports created while their
// entries are in the file, and is forgotten once they are gone.
func TestNextRecord(t *testing.T) {
	first, _ := Add(schema.Claude, []byte("{}\n"), []schema.Event{schema.PreToolUse})
	prev := &Record{File: "/w/.claude/settings.json", Made: first.Made}
	// The workspace gains a Stop hook: a second export adds its list into
	// the "hooks" object the first one created.
	second, _ := Add(schema.Claude, first.New, []schema.Event{schema.PreToolUse, schema.Stop})
	next := NextRecord(schema.Claude, prev, second, prev.File)
	if strings.Join(next.Made, " ") != "/hooks/Stop /hooks /hooks/PreToolUse" {
		t.Errorf("made %q", next.Made)
	}
	back, _ := Remove(schema.Claude, second.New, next)
	if string(back.New) != "{}\n" {
		t.Errorf("after both exports: %q", back.New)
	}
	// The user took export's entries out by hand and wrote an empty
	// "hooks" of their own: the old record no longer speaks for it.
	third, _ := Add(schema.Claude, []byte("{\n  \"hooks\": {}\n}\n"), []schema.Event{schema.Stop})
	next = NextRecord(schema.Claude, &Record{File: prev.File, Made: []string{"/hooks", "/hooks/PreToolUse"}}, third, prev.File)
	if strings.Join(next.Made, " ") != "/hooks/Stop" {
		t.Errorf("made %q", next.Made)
	}
}

// TestRecord: a record is read back for its own file only, and one that
// is not a record is an error that says to delete it.
func TestRecord(t *testing.T) {
	env := map[string]string{"XDG_STATE_HOME": t.TempDir()}
	path, err := RecordPath(func(k string) string { return env[k] }, "/w/.claude/settings.json")
	if err != nil || !strings.HasPrefix(path, env["XDG_STATE_HOME"]+"/hookctl/export/") {
		t.Fatal(path, err)
	}
	if r, err := LoadRecord(path, "/w/.claude/settings.json"); r != nil || err != nil {
		t.Errorf("no record: %v %v", r, err)
	}
	rec := &Record{File: "/w/.claude/settings.json", Made: []string{}}
	if err := rec.Save(path); err != nil {
		t.Fatal(err)
	}
	if r, err := LoadRecord(path, "/w/.claude/settings.json"); err != nil || r == nil || r.Made == nil || len(r.Made) != 0 {
		t.Errorf("read back: %v %v", r, err)
	}
	if r, _ := LoadRecord(path, "/v/.claude/settings.json"); r != nil {
		t.Errorf("another file's record was taken: %v", r)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode: %v %v", fi, err)
	}
	_ = os.WriteFile(path, []byte("[]"), 0o600)
	if _, err := LoadRecord(path, "/w/.claude/settings.json"); err == nil || !strings.HasSuffix(err.Error(), "is not one hookctl export wrote: delete it") {
		t.Errorf("a broken record: %v", err)
	}
	if err := DeleteRecord(path); err != nil {
		t.Fatal(err)
	}
	if err := DeleteRecord(path); err != nil {
		t.Errorf("deleting a record that is not there: %v", err)
	}
}
