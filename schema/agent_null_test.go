package schema

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestDecodeNullAsAgent holds Decode to what encoding/json puts into the
// agent's types when a field is null: the field is left out (a hook stays
// enabled, a handler keeps the default timeout, a group matches every
// tool), and a null after an earlier key of a string or number field
// changes nothing.
func TestDecodeNullAsAgent(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		// want is what runs: enabled, handlers of g's first event, the
		// first handler's timeout and command, the first group's matcher.
		enabled  bool
		handlers int
		timeout  int
		command  string
		matcher  string
	}{
		{"enabled null", `{"g":{"enabled":null,"Stop":[{"command":"a"}]}}`, true, 1, DefaultTimeout, "a", ""},
		{"timeout null", `{"g":{"Stop":[{"command":"a","timeout":null}]}}`, true, 1, DefaultTimeout, "a", ""},
		{"type null", `{"g":{"Stop":[{"type":null,"command":"a"}]}}`, true, 1, DefaultTimeout, "a", ""},
		{"matcher null", `{"g":{"PreToolUse":[{"matcher":null,"hooks":[{"command":"a"}]}]}}`, true, 1, DefaultTimeout, "a", ""},
		{"null after a timeout", `{"g":{"Stop":[{"command":"a","timeout":5,"Timeout":null}]}}`, true, 1, 5, "a", ""},
		{"null after a command", `{"g":{"Stop":[{"command":"a","COMMAND":null}]}}`, true, 1, DefaultTimeout, "a", ""},
		{"null after a matcher", `{"g":{"PreToolUse":[{"matcher":"run_command","Matcher":null,"hooks":[{"command":"a"}]}]}}`, true, 1, DefaultTimeout, "a", "run_command"},
		{"null after an event empties it", `{"g":{"Stop":[{"command":"a"}],"stop":null}}`, true, 0, 0, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var m map[string]agentHook
			if err := json.Unmarshal([]byte(tc.src), &m); err != nil {
				t.Fatal(err)
			}
			a := m["g"]
			var agentRun []agentHandler
			agentMatcher := ""
			if len(a.PreToolUse) > 0 {
				agentRun, agentMatcher = a.PreToolUse[0].Hooks, a.PreToolUse[0].Matcher
			} else {
				agentRun = a.Stop
			}
			if (a.Enabled == nil || *a.Enabled) != tc.enabled || len(agentRun) != tc.handlers || agentMatcher != tc.matcher {
				t.Fatalf("the table disagrees with encoding/json: %+v", a)
			}

			root, _, serr := ParseJSON([]byte(tc.src))
			if serr != nil {
				t.Fatal(serr)
			}
			if errs := AgentErrors(root, AgentOptions{}); len(errs) > 0 {
				t.Fatalf("AgentErrors %+v on a file the agent loads", errs)
			}
			f, probs := Decode(root)
			for _, p := range probs {
				if p.Dropped != "" && p.Dropped != "event" {
					t.Errorf("%s drops the %s: %s", p.Rule, p.Dropped, p.Msg)
				}
			}
			if len(f.Hooks) != 1 {
				t.Fatalf("%d hooks, want 1 (%+v)", len(f.Hooks), probs)
			}
			h := f.Hooks[0]
			if h.IsEnabled() != tc.enabled {
				t.Errorf("enabled %v, want %v", h.IsEnabled(), tc.enabled)
			}
			var hs []Handler
			matcher := ""
			if gs := h.Groups(PreToolUse); len(gs) > 0 {
				hs, matcher = gs[0].Hooks, gs[0].MatcherText()
			} else {
				hs = h.Handlers(Stop)
			}
			if len(hs) != tc.handlers || matcher != tc.matcher {
				t.Fatalf("handlers %+v, matcher %q; want %d, %q (%+v)", hs, matcher, tc.handlers, tc.matcher, probs)
			}
			if tc.handlers > 0 {
				if hs[0].TimeoutSeconds() != tc.timeout || hs[0].Command != tc.command {
					t.Errorf("handler %+v, want timeout %d, command %q", hs[0], tc.timeout, tc.command)
				}
				if agentRun[0].Command != tc.command || agentRun[0].Timeout != 0 && agentRun[0].Timeout != tc.timeout {
					t.Errorf("the table disagrees with encoding/json: %+v", agentRun[0])
				}
			}
		})
	}
}

// TestParseAsAgentDecoder holds ParseJSON to encoding/json where the two
// used to differ: invalid UTF-8 in a string is read as U+FFFD, and nesting
// is refused from 10001 levels on, not before.
func TestParseAsAgentDecoder(t *testing.T) {
	src := []byte("{\"g\":{\"Stop\":[{\"command\":\"echo a\xffb\"}]}}")
	var m map[string]agentHook
	if err := json.Unmarshal(src, &m); err != nil {
		t.Fatal(err)
	}
	root, _, serr := ParseJSON(src)
	if serr != nil {
		t.Fatalf("refused what the agent loads: %v", serr)
	}
	f, _ := Decode(root)
	if got, want := f.Hooks[0].Handlers(Stop)[0].Command, m["g"].Stop[0].Command; got != want || !strings.ContainsRune(got, utf8.RuneError) {
		t.Errorf("command %q, encoding/json reads %q", got, want)
	}
	spans := AgentReplaced(src)
	if len(spans) != 1 || spans[0].Start.Offset != 32 || spans[0].Start.Line != 1 || spans[0].Start.Col != 33 {
		t.Errorf("AgentReplaced = %+v, want one byte at 1:33 (offset 32)", spans)
	}
	if AgentReplaced([]byte(`{"é":1}`)) != nil {
		t.Error("AgentReplaced reports valid UTF-8")
	}

	for _, depth := range []int{1000, 5000, MaxDepth - 1, MaxDepth} {
		// depth levels in all: the top-level object, the hook, and arrays
		// in an unknown key, which the agent skips unread.
		inner := depth - 2
		doc := []byte(`{"g":{"x":` + strings.Repeat("[", inner) + strings.Repeat("]", inner) + `}}`)
		var m map[string]agentHook
		jerr := json.Unmarshal(doc, &m)
		_, _, perr := ParseJSON(doc)
		if jerr != nil || perr != nil {
			t.Errorf("%d levels: encoding/json says %v, ParseJSON %v", depth, jerr, perr)
		}
		deeper := []byte(`{"g":{"x":` + strings.Repeat("[", inner+1) + strings.Repeat("]", inner+1) + `}}`)
		jerr = json.Unmarshal(deeper, &m)
		_, _, perr = ParseJSON(deeper)
		if wantFail := depth == MaxDepth; (jerr != nil) != wantFail || (perr != nil) != wantFail {
			t.Errorf("%d levels: encoding/json says %v, ParseJSON %v", depth+1, jerr, perr)
		}
		if perr != nil && (!strings.Contains(perr.Msg, "exceeded max depth") || perr.Pos.Offset != 10+inner) {
			t.Errorf("%d levels: %v at offset %d", depth+1, perr.Msg, perr.Pos.Offset)
		}
	}
}
