package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	goruntime "runtime"
	"strings"
	"testing"

	sjs "github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v4"

	"github.com/hookctl/hookctl/internal/testenv"
)

// actionFile is the repository's GitHub Action.
var actionFile = filepath.Join("..", "..", "action.yml")

// action is the part of action.yml that the tests read.
type action struct {
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Runs struct {
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

type actionStep struct {
	ID    string            `yaml:"id"`
	If    string            `yaml:"if"`
	Uses  string            `yaml:"uses"`
	Shell string            `yaml:"shell"`
	Run   string            `yaml:"run"`
	Env   map[string]string `yaml:"env"`
	With  map[string]any    `yaml:"with"`
}

func readAction(t *testing.T) ([]byte, action) {
	t.Helper()
	src, err := os.ReadFile(actionFile)
	if err != nil {
		t.Fatal(err)
	}
	var a action
	if err := yaml.Unmarshal(src, &a); err != nil {
		t.Fatal(err)
	}
	return src, a
}

// TestActionMetadata validates action.yml against the published schema of
// GitHub Action metadata (testdata/github-action.schema.json, from
// SchemaStore), and checks that every expression names a declared input
// and that no script holds an expression, which GitHub would paste into
// the script unquoted.
func TestActionMetadata(t *testing.T) {
	src, a := readAction(t)
	c := sjs.NewCompiler()
	sch, err := c.Compile(filepath.Join("testdata", "github-action.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	asJSON := func(src []byte) any {
		t.Helper()
		var v any
		if err := yaml.Unmarshal(src, &v); err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := sjs.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		return doc
	}
	if err := sch.Validate(asJSON(src)); err != nil {
		t.Errorf("action.yml is not valid GitHub Action metadata: %v", err)
	}
	// The schema does reject what is not an action.
	bad := bytes.Replace(src, []byte("using: composite"), []byte("using: compose"), 1)
	if sch.Validate(asJSON(bad)) == nil {
		t.Error(`the schema accepts "using: compose"`)
	}

	expr := regexp.MustCompile(`\$\{\{\s*inputs\.([a-z-]+)`)
	for _, m := range expr.FindAllSubmatch(src, -1) {
		if _, ok := a.Inputs[string(m[1])]; !ok {
			t.Errorf("action.yml uses inputs.%s, which it does not declare", m[1])
		}
	}
	for _, s := range a.Runs.Steps {
		if strings.Contains(s.Run, "${{") {
			t.Errorf("step %q: its script holds an expression; pass it in env instead", s.ID)
		}
		if s.Run != "" && s.Shell != "bash" {
			t.Errorf("step %q: shell %q, want bash", s.ID, s.Shell)
		}
	}

	// ShellCheck finds nothing in the scripts.
	sc := testenv.Need(t, "shellcheck")
	for _, s := range a.Runs.Steps {
		if s.Run == "" {
			continue
		}
		cmd := exec.Command(sc, "--shell=bash", "-")
		cmd.Stdin = strings.NewReader(s.Run)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("step %q: shellcheck: %v\n%s", s.ID, err, out)
		}
	}
}

// stepRunner runs action.yml's script steps as the runner does: bash with
// -e and pipefail, the step's env with its expressions evaluated (inputs,
// the action's path, ref and repository, the server's address, earlier
// steps' outputs), and the files of GITHUB_PATH and GITHUB_OUTPUT, on a
// runner of this machine's system.
type stepRunner struct {
	t          *testing.T
	a          action
	inputs     map[string]string
	temp, path string
	actionPath string
	// server is the address that stands for https://github.com.
	server string
	// outputs are each step's outputs, by step id.
	outputs map[string]map[string]string
	// last is the output file of the step that ran last.
	last string
}

func newStepRunner(t *testing.T, a action, inputs map[string]string) *stepRunner {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	r := &stepRunner{t: t, a: a, inputs: inputs, temp: t.TempDir(), actionPath: root, server: "http://127.0.0.1:9", outputs: map[string]map[string]string{}}
	r.path = filepath.Join(r.temp, "github_path")
	return r
}

var stepExpr = regexp.MustCompile(`\$\{\{\s*([a-z_.|' -]+?)\s*\}\}`)

// eval evaluates the expressions of an env value: inputs, the action's
// path, ref and repository, the server, steps' outputs, and a || b.
func (r *stepRunner) eval(v string) string {
	return stepExpr.ReplaceAllStringFunc(v, func(m string) string {
		for _, name := range strings.Split(stepExpr.FindStringSubmatch(m)[1], "||") {
			if v := r.value(strings.TrimSpace(name)); v != "" {
				return v
			}
		}
		return ""
	})
}

func (r *stepRunner) value(name string) string {
	switch {
	case strings.HasPrefix(name, "inputs."):
		in := strings.TrimPrefix(name, "inputs.")
		if v, ok := r.inputs[in]; ok {
			return v
		}
		return r.a.Inputs[in].Default
	case strings.HasPrefix(name, "steps."):
		f := strings.Split(name, ".")
		if len(f) != 4 || f[2] != "outputs" {
			r.t.Fatalf("an expression the test does not know: %s", name)
		}
		return r.outputs[f[1]][f[3]]
	case name == "github.action_path":
		return r.actionPath
	case name == "github.action_ref":
		return "v0.0.0-action-test"
	case name == "github.action_repository":
		return "hookctl/hookctl"
	case name == "github.server_url":
		return r.server
	}
	r.t.Fatalf("an expression the test does not know: %s", name)
	return ""
}

// runnerOS and runnerArch are RUNNER_OS and RUNNER_ARCH on this machine.
func runnerOS() string {
	return map[string]string{"linux": "Linux", "darwin": "macOS", "windows": "Windows"}[goruntime.GOOS]
}

func runnerArch() string {
	return map[string]string{"amd64": "X64", "arm64": "ARM64"}[goruntime.GOARCH]
}

// run runs the step with the id in dir, and returns its output and exit
// status; its outputs are kept for the steps after it.
func (r *stepRunner) run(id, dir string) (string, int) {
	r.t.Helper()
	var step *actionStep
	for i := range r.a.Runs.Steps {
		if r.a.Runs.Steps[i].ID == id {
			step = &r.a.Runs.Steps[i]
		}
	}
	if step == nil || step.Run == "" {
		r.t.Fatalf("action.yml has no script step %q", id)
	}
	script := filepath.Join(r.temp, id+".sh")
	if err := os.WriteFile(script, []byte(step.Run), 0o644); err != nil {
		r.t.Fatal(err)
	}
	r.last = filepath.Join(r.temp, id+".output")
	os.Remove(r.last)
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
	cmd.Dir = dir
	env := os.Environ()
	if b, err := os.ReadFile(r.path); err == nil {
		for _, p := range strings.Fields(string(b)) {
			env = append(env, "PATH="+p+string(os.PathListSeparator)+os.Getenv("PATH"))
		}
	}
	env = append(env, "RUNNER_TEMP="+r.temp, "RUNNER_OS="+runnerOS(), "RUNNER_ARCH="+runnerArch(),
		"GITHUB_PATH="+r.path, "GITHUB_OUTPUT="+r.last)
	for k, v := range step.Env {
		env = append(env, k+"="+r.eval(v))
	}
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		r.t.Fatal(err)
	}
	outputs := map[string]string{}
	for _, line := range strings.Split(r.output(), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			outputs[k] = v
		}
	}
	r.outputs[id] = outputs
	return string(out), code
}

// output is what the step that ran last wrote to GITHUB_OUTPUT.
func (r *stepRunner) output() string {
	b, _ := os.ReadFile(r.last)
	return string(b)
}

// actionRepo is a repository whose .agents/hooks.json holds one mistake,
// at line 3.
func actionRepo(t *testing.T) string {
	t.Helper()
	repo := t.TempDir()
	if err := os.MkdirAll(filepath.Join(repo, ".agents"), 0o755); err != nil {
		t.Fatal(err)
	}
	hooks := "{\n  \"gate\": {\n    \"pre_tool_use\": []\n  }\n}\n"
	if err := os.WriteFile(filepath.Join(repo, ".agents", "hooks.json"), []byte(hooks), 0o644); err != nil {
		t.Fatal(err)
	}
	return repo
}

// TestActionScripts runs the action's scripts against a repository of its
// own: hookctl is built from this checkout, lints with annotations, writes
// SARIF, and the last step fails on findings; inputs are never run as
// shell code.
func TestActionScripts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds hookctl")
	}
	_, a := readAction(t)
	repo := actionRepo(t)

	r := newStepRunner(t, a, map[string]string{"sarif": "hookctl.sarif", "args": "--disable key-case $(touch pwned) *"})
	// No release anywhere (the server does not answer): hookctl is built.
	out, code := r.run("release", repo)
	if code != 0 || r.outputs["release"]["installed"] != "false" || !strings.Contains(out, "in the release v0.0.0-action-test: building hookctl from the action's own files") {
		t.Fatalf("release: exit %d, outputs %q:\n%s", code, r.output(), out)
	}
	out, code = r.run("install", repo)
	if code != 0 || !strings.Contains(out, "v0.0.0-action-test") {
		t.Fatalf("install: exit %d:\n%s", code, out)
	}
	out, code = r.run("lint", repo)
	if code == 0 || !strings.Contains(r.output(), "status=2") || !strings.Contains(out, "hookctl: $(touch: no such file or folder") {
		t.Errorf("lint with hostile args: exit %d, outputs %q:\n%s", code, r.output(), out)
	}
	if _, err := os.Stat(filepath.Join(repo, "pwned")); err == nil {
		t.Fatal("an input ran as shell code")
	}

	r.inputs = map[string]string{"sarif": "hookctl.sarif", "paths": ".\n.agents/hooks.json"}
	out, code = r.run("lint", repo)
	if code != 0 || !strings.Contains(r.output(), "status=1") {
		t.Fatalf("lint: exit %d, outputs %q:\n%s", code, r.output(), out)
	}
	want := `::error file=.agents/hooks.json,line=3,col=5,endLine=3,endColumn=19,title=unknown-event::"pre_tool_use" is not an event`
	if !strings.Contains(out, want) {
		t.Errorf("no annotation %s in:\n%s", want, out)
	}
	sarif, err := os.ReadFile(filepath.Join(repo, "hookctl.sarif"))
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Version string
		Runs    []struct{ Results []struct{ RuleID string } }
	}
	if err := json.Unmarshal(sarif, &log); err != nil || log.Version != "2.1.0" || len(log.Runs) != 1 || len(log.Runs[0].Results) == 0 {
		t.Errorf("hookctl.sarif: %v %+v", err, log)
	}
	if out, code := r.run("result", repo); code != 1 || !strings.Contains(out, "findings at or above error") {
		t.Errorf("the result step: exit %d:\n%s", code, out)
	}

	// A clean repository passes, and a missing path stops the step.
	if err := os.WriteFile(filepath.Join(repo, ".agents", "hooks.json"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, code := r.run("lint", repo); code != 0 || !strings.Contains(r.output(), "status=0") {
		t.Errorf("a clean repository: exit %d, outputs %q:\n%s", code, r.output(), out)
	}
	r.inputs = map[string]string{"paths": "missing"}
	if out, code := r.run("lint", repo); code == 0 || !strings.Contains(r.output(), "status=2") || !strings.Contains(out, "hookctl: missing: no such file or folder") {
		t.Errorf("a missing path: exit %d:\n%s", code, out)
	}
}

// TestActionSARIFThroughALink: a pull request that commits its SARIF file's
// name as a link to the job's hookctl neither overwrites hookctl nor turns
// the next lint into a pass. And a hookctl that no longer runs (an empty
// file runs as an empty script, with status 0) fails the step with status
// 2, never 0.
func TestActionSARIFThroughALink(t *testing.T) {
	if testing.Short() {
		t.Skip("builds hookctl")
	}
	_, a := readAction(t)
	repo := actionRepo(t)
	r := newStepRunner(t, a, map[string]string{"sarif": "hookctl.sarif"})
	if out, code := r.run("install", repo); code != 0 {
		t.Fatalf("install: exit %d:\n%s", code, out)
	}
	bin := r.outputs["install"]["path"]
	before, err := os.ReadFile(bin)
	if err != nil || len(before) == 0 {
		t.Fatalf("the installed hookctl %s: %v", bin, err)
	}
	if err := os.Symlink(bin, filepath.Join(repo, "hookctl.sarif")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	for i := range 2 {
		out, code := r.run("lint", repo)
		if code != 0 || r.outputs["lint"]["status"] != "1" {
			t.Fatalf("lint %d: exit %d, outputs %q:\n%s", i+1, code, r.output(), out)
		}
		if after, err := os.ReadFile(bin); err != nil || !bytes.Equal(after, before) {
			t.Fatalf("lint %d changed the installed hookctl (%d bytes, was %d): %v", i+1, len(after), len(before), err)
		}
		if info, err := os.Lstat(filepath.Join(repo, "hookctl.sarif")); err != nil || !info.Mode().IsRegular() {
			t.Fatalf("lint %d: hookctl.sarif is not a file of its own: %v %v", i+1, info, err)
		}
	}

	// hookctl overwritten by an empty file.
	if err := os.WriteFile(bin, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	out, code := r.run("lint", repo)
	if code == 0 || r.outputs["lint"]["status"] != "2" || !strings.Contains(out, "does not run: lint did not run") {
		t.Errorf("lint with an empty hookctl: exit %d, outputs %q:\n%s", code, r.output(), out)
	}
}
