package schema

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Types shaped as the agent's: what its decoder fills. The test holds
// AgentErrors to encoding/json decoding into them.
type (
	agentHandler struct {
		Type    string `json:"type"`
		Command string `json:"command"`
		Timeout int    `json:"timeout"`
	}
	agentGroup struct {
		Matcher string         `json:"matcher"`
		Hooks   []agentHandler `json:"hooks"`
	}
	agentHook struct {
		Enabled        *bool          `json:"enabled"`
		SessionStart   []agentHandler `json:"SessionStart"`
		PreToolUse     []agentGroup   `json:"PreToolUse"`
		PostToolUse    []agentGroup   `json:"PostToolUse"`
		PreInvocation  []agentHandler `json:"PreInvocation"`
		PostInvocation []agentHandler `json:"PostInvocation"`
		Stop           []agentHandler `json:"Stop"`
	}
	oldAgentHook struct {
		Enabled        *bool          `json:"enabled"`
		PreToolUse     []agentGroup   `json:"PreToolUse"`
		PostToolUse    []agentGroup   `json:"PostToolUse"`
		PreInvocation  []agentHandler `json:"PreInvocation"`
		PostInvocation []agentHandler `json:"PostInvocation"`
		Stop           []agentHandler `json:"Stop"`
	}
)

// agree checks AgentErrors against encoding/json on src, a valid JSON
// document: both fail or neither does, at the same value and field.
func agree(t *testing.T, name string, src []byte) {
	t.Helper()
	root, _, serr := ParseJSON(src)
	if serr != nil {
		return
	}
	for _, old := range []bool{false, true} {
		var err error
		if old {
			var m map[string]oldAgentHook
			err = json.Unmarshal(src, &m)
		} else {
			var m map[string]agentHook
			err = json.Unmarshal(src, &m)
		}
		errs := AgentErrors(root, AgentOptions{NoSessionStart: old})
		if (err != nil) != (len(errs) > 0) {
			t.Errorf("%s (old agent %v): encoding/json says %v, AgentErrors %+v", name, old, err, errs)
			continue
		}
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) {
			continue
		}
		first := errs[0]
		if int64(first.Offset()) != te.Offset || first.Field != te.Field {
			t.Errorf("%s (old agent %v): encoding/json fails at %d on %q (%v), AgentErrors first at %d on %q",
				name, old, te.Offset, te.Field, err, first.Offset(), first.Field)
		}
		if want := strings.TrimPrefix(te.Type.String(), "schema."); !strings.Contains(want, "agent") && want != first.Type && !(te.Field == "" && first.Type != "") {
			t.Errorf("%s: type %q, want %q", name, first.Type, want)
		}
	}
}

var agentCases = []string{
	`{"g":{"pretooluse":[{"MATCHER":"x","Hooks":[{"COMMAND":"a","Timeout":3}]}]}}`,
	`{"g":{"PreToolUse":[{"hooks":[{"command":"a","timeout":"5"}]}]},"h":{"Stop":[{"command":1}]}}`,
	`{"g":{"PreToolUse":[{"hooks":[{"command":"a","timeout":1e1}]}]}}`,
	`{"g":{"PreToolUse":[{"hooks":[{"command":"a","timeout":5.0}]}]}}`,
	`{"g":{"PreToolUse":[{"hooks":[{"command":"a","timeout":-3}]}]}}`,
	`{"g":{"enabled":null,"Stop":null},"h":{"Stop":[{"command":null,"timeout":null}]}}`,
	`{"$schema":"x","g":{}}`,
	`{"g":{"Stop":[{"command":"a"}],"stop":[{"command":"b"}]}}`,
	`{"g":{"Stop":[{"command":"a","timeout":99999999999999999999}]}}`,
	`{"g":{"Stop":"x"}}`,
	`{"g":{"PreToolUse":[{"hooks":{"command":"a"}}]}}`,
	`{"g":{"enabled":"false"}}`,
	`{"g":{"ſtop":[{"command":"a"}]}}`,
	`{"g":{"SessionStart":[{"command":5}]}}`,
	`{"g":{"unknown":{"x":[1,"2"]},"cmd":5}}`,
	`{"g":{"Stop":[{"cmd":5,"timeoutMs":"x"}]}}`,
	`{"g":{"Stop":["./x.sh"]}}`,
	`{"g":{"PreToolUse":[{"matcher":5,"hooks":[]}]}}`,
	`{"g":{"Stop":[{"matcher":5,"hooks":5}]}}`,
	`[]`, `"x"`, `null`, `{}`, `{"g":null}`, `{"g":[]}`,
	`{"g":{"Stop":[{"type":["command"]}]},"h":{"enabled":1}}`,
	`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"x"}]}]}}`,
	`{"version":1,"hooks":{}}`,
}

func TestAgentErrorsAgreeWithEncodingJSON(t *testing.T) {
	for _, c := range agentCases {
		agree(t, c, []byte(c))
	}
	// Every real file, and every file of the linter's corpus.
	var files []string
	for _, glob := range []string{"../testdata/realworld/*.json", "../lint/testdata/*/*.json", "testdata/*.json"} {
		m, _ := filepath.Glob(glob)
		files = append(files, m...)
	}
	if len(files) < 100 {
		t.Fatalf("only %d files", len(files))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		agree(t, f, b)
	}
}

func FuzzAgentErrors(f *testing.F) {
	for _, c := range agentCases {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, src string) {
		agree(t, "fuzz", []byte(src))
	})
}
