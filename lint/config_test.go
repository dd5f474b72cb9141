package lint

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/schema"
)

// configSchemaFile is the committed schema of .hookctl.json, which names
// every rule: it must follow the catalogue.
var configSchemaFile = filepath.Join("..", "schema", "hookctl.schema.json")

func TestCommittedConfigSchemaIsCurrent(t *testing.T) {
	got := schema.ConfigSchema(RuleIDs())
	if *update {
		if err := os.WriteFile(configSchemaFile, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(configSchemaFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("schema/hookctl.schema.json is out of date with the types and the rules: run go generate ./schema")
	}
}

// choiceWorkspace writes a workspace whose hooks.json gives one finding
// each of timeout-value, platform-specific and dangerous-command (all
// warnings), and a .hookctl.json when cfg is not empty.
func choiceWorkspace(t *testing.T, cfg string) string {
	t.Helper()
	ws := t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, ".agents"), 0o755); err != nil {
		t.Fatal(err)
	}
	src := `{
  "gate": {
    "Stop": [{"command": "true", "timeout": 30000}, {"command": "powershell -File check.ps1"}, {"command": "rm -rf ~"}]
  }
}
`
	if err := os.WriteFile(filepath.Join(ws, ".agents", "hooks.json"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if cfg != "" {
		if err := os.WriteFile(filepath.Join(ws, schema.ConfigFileName), []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return ws
}

// lintChosen lints the workspaces as hookctl lint does, with the flags,
// and returns "RULE SEVERITY" per finding.
func lintChosen(t *testing.T, enable, disable []string, ws ...string) []string {
	t.Helper()
	req, err := NewRequest(ws, "")
	if err != nil {
		t.Fatal(err)
	}
	req.Enable, req.Disable = enable, disable
	res, err := Lint(req)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range res.Findings {
		out = append(out, filepath.Base(filepath.Dir(filepath.Dir(f.File)))+" "+f.Rule+" "+f.Severity.String())
	}
	return out
}

func TestChoosingRules(t *testing.T) {
	plain := choiceWorkspace(t, "")
	configured := choiceWorkspace(t, `{"lint": {"disable": ["platform-specific"], "severity": {"dangerous-command": "error", "timeout-value": "off"}}}`)
	p, c := filepath.Base(plain), filepath.Base(configured)
	for _, tt := range []struct {
		name            string
		enable, disable []string
		ws              []string
		want            []string
	}{
		{"defaults", nil, nil, []string{plain},
			[]string{p + " timeout-value warning", p + " platform-specific warning", p + " dangerous-command warning"}},
		{"the file", nil, nil, []string{configured},
			[]string{c + " dangerous-command error"}},
		{"--disable", nil, []string{"dangerous-command", "timeout-value"}, []string{plain},
			[]string{p + " platform-specific warning"}},
		{"--enable undoes the file's disable and off", []string{"platform-specific", "timeout-value"}, nil, []string{configured},
			[]string{c + " timeout-value warning", c + " platform-specific warning", c + " dangerous-command error"}},
		{"--disable wins over the file's severity", nil, []string{"dangerous-command"}, []string{configured},
			nil},
		{"each file its own .hookctl.json", nil, nil, []string{plain, configured},
			[]string{p + " timeout-value warning", p + " platform-specific warning", p + " dangerous-command warning", c + " dangerous-command error"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := lintChosen(t, tt.enable, tt.disable, tt.ws...)
			sortedWant := append([]string(nil), tt.want...)
			if strings.Join(got, "\n") != strings.Join(sortedWant, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(sortedWant, "\n"))
			}
		})
	}
}

// TestChoosingRulesMisplaced: a rule that reports on other files than the
// linted one (misplaced-config) follows the workspace's .hookctl.json.
func TestChoosingRulesMisplaced(t *testing.T) {
	ws := t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, ".gemini"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, ".gemini", "hooks.json"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := lintChosen(t, nil, nil, ws); len(got) != 1 || !strings.HasSuffix(got[0], "misplaced-config warning") {
		t.Fatalf("without a .hookctl.json: %q", got)
	}
	if err := os.WriteFile(filepath.Join(ws, schema.ConfigFileName), []byte(`{"lint": {"severity": {"misplaced-config": "error"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := lintChosen(t, nil, nil, ws); len(got) != 1 || !strings.HasSuffix(got[0], "misplaced-config error") {
		t.Errorf("with the severity set: %q", got)
	}
	if got := lintChosen(t, nil, []string{"misplaced-config"}, ws); len(got) != 0 {
		t.Errorf("disabled: %q", got)
	}
}

func TestChoosingRulesErrors(t *testing.T) {
	for cfg, want := range map[string]string{
		`{"lint": {"disable": ["platfrom-specific"]}}`:        `.hookctl.json:1:23: "platfrom-specific" is not a rule: did you mean "platform-specific"? (hookctl lint --rules lists them)`,
		"{\"lint\": {\"severity\": {\n  \"nope\": \"off\"}}}": `.hookctl.json:2:3: "nope" is not a rule (hookctl lint --rules lists them)`,
		`{"lint": {"disable": ["x"],}}`:                       `.hookctl.json:1:27: trailing comma`,
	} {
		ws := choiceWorkspace(t, cfg)
		_, err := NewRequest([]string{ws}, "")
		if err == nil || !strings.HasPrefix(err.Error(), filepath.Join(ws, want)) {
			t.Errorf("%s: got %v, want %s", cfg, err, want)
		}
	}
	for _, flags := range []struct{ enable, disable []string }{{[]string{"nope"}, nil}, {nil, []string{"nope"}}} {
		if _, err := NewChoice(nil, flags.enable, flags.disable); err == nil || !strings.Contains(err.Error(), `"nope" is not a rule`) {
			t.Errorf("%v: got %v", flags, err)
		}
	}
}

func TestChoiceDescribe(t *testing.T) {
	cfg := &schema.LoadedConfig{Path: ".hookctl.json", Rules: []schema.RuleSetting{
		{Rule: "platform-specific", Level: schema.LevelOff}, {Rule: "timeout-value", Level: schema.LevelWarning},
	}}
	c, err := NewChoice(cfg, nil, []string{"shadowed-hook"})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range c.Describe() {
		got[r.ID] = r.Level + " " + r.From
	}
	for id, want := range map[string]string{
		"platform-specific": "off .hookctl.json",
		"timeout-value":     "warning .hookctl.json",
		"shadowed-hook":     "off --disable",
		"json-syntax":       "error ",
		"control-character": "error / warning ",
	} {
		if got[id] != want {
			t.Errorf("%s: %q, want %q", id, got[id], want)
		}
	}
}

// TestChoosingRulesInEditors: LintSource, which editors use, follows the
// workspace's .hookctl.json too, and LintSourceRequest names it among the
// files to watch; a broken one leaves the rules as they are.
func TestChoosingRulesInEditors(t *testing.T) {
	ws := choiceWorkspace(t, `{"lint": {"disable": ["timeout-value"], "severity": {"platform-specific": "error"}}}`)
	path := filepath.Join(ws, ".agents", "hooks.json")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tgt := Target{Path: path, Name: ".agents/hooks.json", Scope: Workspace, Root: ws}
	fs, seen, err := LintSourceRequest(SourceRequest{Target: tgt, Src: src})
	if err != nil {
		t.Fatal(err)
	}
	got := rulesOf(fs)
	if got["timeout-value"] != 0 || got["platform-specific"] != 1 || got["dangerous-command"] != 1 {
		t.Errorf("findings %v", got)
	}
	for _, f := range fs {
		if f.Rule == "platform-specific" && f.Severity != Error {
			t.Errorf("%s: the file raises it to error", f)
		}
	}
	if _, ok := seen[filepath.Join(ws, schema.ConfigFileName)]; !ok {
		t.Errorf("the .hookctl.json is not among the files seen: %v", seen)
	}
	if err := os.WriteFile(filepath.Join(ws, schema.ConfigFileName), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := rulesOf(LintSource(tgt, src)); got["timeout-value"] != 1 {
		t.Errorf("with a broken .hookctl.json: %v", got)
	}
}
