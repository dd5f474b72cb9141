//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/hookctl/hookctl/internal/testenv"
	"github.com/hookctl/hookctl/schema"
)

// The cases of testdata/agentcases come from the agents' own material:
// each is a real payload of the agent, a handler that does what the
// agent's example or test does (its source is named in the case), and what
// that agent does with the handler's answer. TestAgentCases runs each two
// ways, as users would:
//
//   - through run --from: the agent's settings are imported (hookctl import
//     --write), the agent's payload goes to hookctl run --from AGENT EVENT,
//     and the reply, read as the agent reads it, must be the agent's own
//     outcome;
//   - through the imported handler alone: this agent's payload for the same
//     call (without "from", as this agent sends it) goes to hookctl run, and
//     the decision must be the one the agent would reach.
//
// A case says where this format cannot give the agent's outcome, and why:
// carry (the answer has no equivalent here: the decision stays none),
// with what this format gives instead when it is not none (here), policy
// (the agent goes on after a failed handler, hookctl denies), or imported
// (this agent's payload lacks what the handler decides on).

// agentCase is one case as its file describes it.
type agentCase struct {
	name   string
	fields map[string]string
	files  []txtar.File
	// want is the agent's outcome.
	want caseOutcome
}

// caseOutcome is what an agent, or this format, makes of an answer: a kind
// (deny, allow, ask, none, context, continue, or an outcome this format
// has no place for: block, stop-agent, message), its text, and the
// rewritten input.
type caseOutcome struct {
	kind, text string
	rewrite    map[string]any
}

func (o caseOutcome) String() string {
	s := o.kind
	if o.text != "" {
		s += " " + strings.SplitN(o.text, "\n", 2)[0]
	}
	if o.rewrite != nil {
		b, _ := json.Marshal(o.rewrite)
		s += " rewrite " + string(b)
	}
	return s
}

func readAgentCases(t *testing.T) []agentCase {
	t.Helper()
	paths, err := filepath.Glob("testdata/agentcases/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatal("no cases", err)
	}
	var out []agentCase
	for _, p := range paths {
		a, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		c := agentCase{name: strings.TrimSuffix(filepath.Base(p), ".txtar"), fields: map[string]string{}, files: a.Files}
		for _, line := range strings.Split(strings.TrimSpace(string(a.Comment)), "\n") {
			k, v, ok := strings.Cut(line, ": ")
			if !ok {
				t.Fatalf("%s: %q is not key: value", p, line)
			}
			c.fields[k] = v
		}
		for _, k := range []string{"source", "agent", "event", "command", "outcome"} {
			if c.fields[k] == "" {
				t.Fatalf("%s: no %s", p, k)
			}
		}
		kind, text, _ := strings.Cut(c.fields["outcome"], " ")
		c.want = caseOutcome{kind: kind, text: text}
		if rw := c.fields["rewrite"]; rw != "" {
			if err := json.Unmarshal([]byte(rw), &c.want.rewrite); err != nil {
				t.Fatalf("%s: rewrite: %v", p, err)
			}
		}
		out = append(out, c)
	}
	return out
}

// settingsOf writes the agent's settings that run the case's handler.
func settingsOf(c agentCase) (string, []byte) {
	a, event, cmd, matcher := schema.Agent(c.fields["agent"]), c.fields["event"], c.fields["command"], c.fields["matcher"]
	handler := map[string]any{"type": "command", "command": cmd}
	var entry map[string]any
	switch a {
	case schema.Cursor:
		entry = map[string]any{"command": cmd}
		if matcher != "" {
			entry["matcher"] = matcher
		}
	case schema.Gemini:
		handler["name"] = c.name
		fallthrough
	default:
		entry = map[string]any{"hooks": []any{handler}}
		if matcher != "" {
			entry["matcher"] = matcher
		}
	}
	settings := map[string]any{"hooks": map[string]any{event: []any{entry}}}
	path := map[schema.Agent]string{schema.Claude: ".claude/settings.json", schema.Gemini: ".gemini/settings.json",
		schema.Cursor: ".cursor/hooks.json", schema.Codex: ".codex/hooks.json"}[a]
	if a == schema.Cursor {
		settings["version"] = 1
	}
	b, _ := json.MarshalIndent(settings, "", "  ")
	return path, b
}

// caseEnv is an environment of the case's own: hookctl first on PATH, a
// home and a log of its own, and none of the agents' variables.
func caseEnv(bin, ws string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(k, "CLAUDE_"), strings.HasPrefix(k, "GEMINI_"), strings.HasPrefix(k, "CURSOR_"), strings.HasPrefix(k, "HOOKCTL_"),
			k == "HOME", k == "PATH", strings.HasPrefix(k, "XDG_"):
			continue
		}
		env = append(env, kv)
	}
	return append(env, "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"), "HOME="+filepath.Join(ws, ".home"),
		"XDG_STATE_HOME="+filepath.Join(ws, ".home", "state"), "XDG_CONFIG_HOME="+filepath.Join(ws, ".home", "config"),
		"HOOKCTL_LOG="+filepath.Join(ws, ".home", "runs.jsonl"))
}

func runIn(t *testing.T, dir string, env []string, stdin []byte, argv ...string) (stdout, stderr []byte, code int) {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatalf("%q: %v", argv, err)
	}
	return out.Bytes(), errb.Bytes(), cmd.ProcessState.ExitCode()
}

// agentReading reads hookctl run --from's reply as the agent reads it.
func agentReading(a schema.Agent, event string, stdout, stderr []byte, code int) caseOutcome {
	stop := event == "Stop" || event == "AfterAgent" || event == "stop"
	if code == 2 && (a == schema.Claude || a == schema.Codex || a == schema.Cursor) {
		if stop {
			return caseOutcome{kind: "continue", text: string(stderr)}
		}
		return caseOutcome{kind: "deny", text: string(stderr)}
	}
	if code != 0 {
		return caseOutcome{kind: "failed", text: string(stderr)}
	}
	var v map[string]any
	if len(bytes.TrimSpace(stdout)) == 0 || json.Unmarshal(stdout, &v) != nil {
		return caseOutcome{kind: "none"}
	}
	hso, _ := v["hookSpecificOutput"].(map[string]any)
	str := func(m map[string]any, k string) string { s, _ := m[k].(string); return s }
	obj := func(m map[string]any, k string) map[string]any { o, _ := m[k].(map[string]any); return o }
	out := caseOutcome{kind: "none"}
	switch a {
	case schema.Claude, schema.Codex:
		if pd := str(hso, "permissionDecision"); pd != "" {
			out = caseOutcome{kind: pd, text: str(hso, "permissionDecisionReason")}
		}
		out.rewrite = obj(hso, "updatedInput")
		if str(v, "decision") == "block" {
			out = caseOutcome{kind: map[bool]string{true: "continue", false: "deny"}[stop], text: str(v, "reason")}
		}
	case schema.Gemini:
		switch d := str(v, "decision"); {
		case (d == "deny" || d == "block") && stop:
			out = caseOutcome{kind: "continue", text: str(v, "reason")}
		case d == "deny" || d == "block":
			out = caseOutcome{kind: "deny", text: str(v, "reason")}
		case d == "allow" || d == "ask":
			out = caseOutcome{kind: d, text: str(v, "reason") + str(v, "systemMessage")}
		}
		out.rewrite = obj(hso, "tool_input")
	case schema.Cursor:
		if p := str(v, "permission"); p != "" {
			out = caseOutcome{kind: p, text: str(v, "agent_message") + " " + str(v, "user_message")}
		}
		out.rewrite = obj(v, "updated_input")
		if f := str(v, "followup_message"); f != "" {
			out = caseOutcome{kind: "continue", text: f}
		}
		if c := str(v, "additional_context"); c != "" {
			out = caseOutcome{kind: "context", text: c}
		}
	}
	if c := str(hso, "additionalContext"); c != "" && out.kind == "none" {
		out = caseOutcome{kind: "context", text: c}
	}
	return out
}

// nativeReading reads this format's answers to the payloads a call became
// (one per file of a patch), the strictest first.
func nativeReading(e schema.Event, answers [][]byte) caseOutcome {
	best := caseOutcome{kind: "none"}
	rank := map[string]int{"none": 0, "allow": 1, "ask": 2, "deny": 3}
	for _, ans := range answers {
		var v struct {
			Decision    string         `json:"decision"`
			Reason      string         `json:"reason"`
			Overwrite   map[string]any `json:"overwrite"`
			InjectSteps []struct {
				EphemeralMessage string `json:"ephemeralMessage"`
			} `json:"injectSteps"`
		}
		if json.Unmarshal(ans, &v) != nil {
			continue
		}
		var o caseOutcome
		switch e {
		case schema.PreToolUse:
			kind := map[string]string{"allow": "allow", "deny": "deny", "force_ask": "ask"}[v.Decision]
			if kind == "" {
				kind = "none"
			}
			o = caseOutcome{kind: kind, text: v.Reason, rewrite: v.Overwrite}
		case schema.Stop:
			o = caseOutcome{kind: "none"}
			if v.Decision == schema.Continue {
				o = caseOutcome{kind: "continue", text: v.Reason}
			}
		default:
			var texts []string
			for _, s := range v.InjectSteps {
				texts = append(texts, s.EphemeralMessage)
			}
			o = caseOutcome{kind: "none"}
			if len(texts) > 0 {
				o = caseOutcome{kind: "context", text: strings.Join(texts, "\n")}
			}
		}
		if rank[o.kind] >= rank[best.kind] || o.kind == "context" || o.kind == "continue" {
			best = o
		}
	}
	return best
}

// same reports whether an outcome is the one wanted: the kind, the text
// within it, and the rewritten arguments' values.
func (o caseOutcome) same(want caseOutcome) bool {
	kind := func(k string) string {
		if k == "stop" {
			return "none"
		}
		return k
	}
	if kind(o.kind) != kind(want.kind) || !strings.Contains(o.text, want.text) {
		return false
	}
	for k, v := range want.rewrite {
		found := false
		for gk, gv := range o.rewrite {
			if fmt.Sprint(gv) == fmt.Sprint(v) || gk == k && fmt.Sprint(gv) == fmt.Sprint(v) {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// without returns the payloads --print-payload printed with no "from":
// what this agent itself sends for the call.
func withoutFrom(t *testing.T, printed []byte) [][]byte {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(printed))
	d.UseNumber()
	var out [][]byte
	for d.More() {
		var m map[string]any
		if err := d.Decode(&m); err != nil {
			t.Fatalf("the printed payloads: %v\n%s", err, printed)
		}
		delete(m, "from")
		b, _ := json.Marshal(m)
		out = append(out, b)
	}
	return out
}

func TestAgentCases(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs every case's handlers through real processes")
	}
	for _, tool := range []string{"node", "python3", "jq", "bash"} {
		testenv.Need(t, tool)
	}
	bin := hookctlBinary(t)
	cases := readAgentCases(t)
	var mu sync.Mutex
	tally := map[string][3]int{} // per agent: cases, through run --from, through imported handlers
	t.Cleanup(func() {
		var total [3]int
		var lines []string
		for a, n := range tally {
			lines = append(lines, fmt.Sprintf("%s: %d cases, %d give the agent's outcome through run --from, %d through the imported handlers", a, n[0], n[1], n[2]))
			for i := range total {
				total[i] += n[i]
			}
		}
		slices.Sort(lines)
		lines = append(lines, fmt.Sprintf("all: %d cases, %d through run --from, %d through the imported handlers", total[0], total[1], total[2]))
		t.Log("\n" + strings.Join(lines, "\n"))
		if p := os.Getenv("HOOKCTL_AGENTCASES_REPORT"); p != "" {
			os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
		}
	})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			a, event := schema.Agent(c.fields["agent"]), c.fields["event"]
			fe, ok := schema.LookupAgentEvent(a, event)
			if !ok {
				t.Fatalf("%s has no event %s", a, event)
			}
			ws := t.TempDir()
			var payload []byte
			for _, f := range c.files {
				data := bytes.ReplaceAll(f.Data, []byte("@WORK@"), []byte(ws))
				if f.Name == "payload.json" {
					payload = data
					continue
				}
				p := filepath.Join(ws, f.Name)
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, data, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			settingsPath, settings := settingsOf(c)
			os.MkdirAll(filepath.Join(ws, filepath.Dir(settingsPath)), 0o755)
			if err := os.WriteFile(filepath.Join(ws, settingsPath), settings, 0o644); err != nil {
				t.Fatal(err)
			}
			env := caseEnv(bin, ws)
			if out, errb, code := runIn(t, ws, env, nil, bin, "import", "--write"); code != 0 {
				t.Fatalf("import: %d\n%s%s", code, out, errb)
			}
			hooks, _ := os.ReadFile(filepath.Join(ws, ".agents", "hooks.json"))

			// Through run --from.
			stdout, stderr, code := runIn(t, ws, env, payload, bin, "run", "--from", string(a), event, "--config", ".agents/hooks.json")
			viaFrom := agentReading(a, event, stdout, stderr, code)
			// Through the imported handlers, with this agent's payload.
			printed, errb, pcode := runIn(t, ws, env, payload, bin, "run", "--from", string(a), event, "--print-payload")
			if pcode != 0 {
				t.Fatalf("--print-payload: %d %s", pcode, errb)
			}
			var answers [][]byte
			for _, p := range withoutFrom(t, printed) {
				out, errb, code := runIn(t, ws, env, p, bin, "run", string(fe.Event), "--config", ".agents/hooks.json")
				if code != 0 {
					t.Fatalf("run %s: %d %s", fe.Event, code, errb)
				}
				answers = append(answers, out)
			}
			viaImport := nativeReading(fe.Event, answers)

			want := c.want
			fromWant, importWant := want, want
			switch {
			case c.fields["carry"] != "":
				// What this format gives instead: none, or what the case
				// says (the context Codex keeps beside a blocked prompt).
				here := caseOutcome{kind: "none"}
				if h := c.fields["here"]; h != "" {
					here.kind, here.text, _ = strings.Cut(h, " ")
				}
				fromWant, importWant = here, here
			case c.fields["policy"] != "":
				fromWant, importWant = caseOutcome{kind: "deny"}, caseOutcome{kind: "deny"}
			}
			if !viaFrom.same(fromWant) {
				t.Errorf("through run --from: %s, want %s\nstdout %s\nstderr %s\nhooks.json %s", viaFrom, fromWant, stdout, stderr, hooks)
			}
			if c.fields["imported"] == "" && !viaImport.same(importWant) {
				t.Errorf("through the imported handler: %s, want %s\nanswers %q\nhooks.json %s", viaImport, importWant, answers, hooks)
			}
			t.Logf("the agent: %s; through run --from: %s; through the imported handler: %s", want, viaFrom, viaImport)
			mu.Lock()
			n := tally[string(a)]
			n[0]++
			if viaFrom.same(want) {
				n[1]++
			}
			if viaImport.same(want) {
				n[2]++
			}
			tally[string(a)] = n
			mu.Unlock()
		})
	}
}
