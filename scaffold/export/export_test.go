package export

import (
	"encoding/json"
	"os"
	"path/filepath"
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
			back, err := Remove(agent, r.New)
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
	r, err := Remove(schema.Claude, src)
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
