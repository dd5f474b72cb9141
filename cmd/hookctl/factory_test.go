package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/hookctl/hookctl/editors"
	"github.com/hookctl/hookctl/lint"
	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/runtime/tracelog"
	"github.com/hookctl/hookctl/schema"
)

// world is a factory of fixed folders and a fixed clock, with its output
// kept.
type world struct {
	*factory
	out, errOut bytes.Buffer
	wd, home    string
}

// fixedNow is the fixed clock's time.
var fixedNow = time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)

// fixedWorld returns a world whose working folder and home are new empty
// folders, whose environment is empty, whose clock stands at fixedNow,
// whose log of runs is runs.jsonl in the home and whose trust store
// trusts nothing.
func fixedWorld(t *testing.T) *world {
	t.Helper()
	w := &world{wd: t.TempDir(), home: t.TempDir()}
	w.factory = &factory{
		streams:    streams{in: strings.NewReader(""), out: &w.out, err: &w.errOut},
		getwd:      func() (string, error) { return w.wd, nil },
		homeDir:    func() (string, error) { return w.home, nil },
		userHome:   func() (string, error) { return w.home, nil },
		getenv:     func(string) string { return "" },
		now:        func() time.Time { return fixedNow },
		trustStore: func() (string, error) { return filepath.Join(w.home, "trust.json"), nil },
		defaultLog: func() (*tracelog.Log, error) { return &tracelog.Log{Path: filepath.Join(w.home, "runs.jsonl")}, nil },
		trusted: func() func(*runtime.Source) (bool, string) {
			return func(*runtime.Source) (bool, string) { return false, "not trusted here" }
		},
	}
	return w
}

// parse runs hookctl with args as main does in the world w, cmd (a command built with a
// runF) in place of the command of that name, and returns what run
// returned: runF's error, or the usage error of the arguments.
func parse(t *testing.T, w *world, cmd *cli.Command, args ...string) error {
	t.Helper()
	app := newApp(w.factory)
	for i, c := range app.Commands {
		if c.Name == cmd.Name {
			cmd.OnUsageError = onUsageError
			app.Commands[i] = cmd
		}
	}
	return app.Run(permuteArgs(app, append([]string{"hookctl"}, args...)))
}

// optionsInto runs hookctl with args as parse does, with the command
// newCmd builds given a runF that keeps its options in *got, and returns
// what parse returned.
func optionsInto[O any](t *testing.T, w *world, newCmd func(*factory, func(*O) error) *cli.Command, got **O, args ...string) error {
	t.Helper()
	return parse(t, w, newCmd(w.factory, func(o *O) error { *got = o; return nil }), args...)
}

func TestVersionRun(t *testing.T) {
	w := fixedWorld(t)
	if err := versionRun(w.factory, &versionOptions{version: "v1.2.3 (commit 1a2b3c4d5e6f) go1.26.8"}); err != nil {
		t.Fatal(err)
	}
	if got, want := w.out.String(), "hookctl v1.2.3 (commit 1a2b3c4d5e6f) go1.26.8\n"; got != want {
		t.Errorf("version printed %q, want %q", got, want)
	}
}

func TestVersionOptions(t *testing.T) {
	var got *versionOptions
	err := optionsInto(t, fixedWorld(t), newVersionCommand, &got, "version")
	if err != nil {
		t.Fatal(err)
	}
	if got == nil || got.version != newApp(fixedWorld(t).factory).Version {
		t.Errorf("version options %+v", got)
	}
	err = parse(t, fixedWorld(t), newVersionCommand(nil, func(*versionOptions) error { t.Error("runF called with an argument"); return nil }), "version", "x")
	if err == nil || err.Error() != "hookctl version takes no arguments" {
		t.Errorf("version x: %v", err)
	}
}

func TestSchemaOptions(t *testing.T) {
	for _, c := range []struct {
		args []string
		want schemaOptions
	}{
		{[]string{"schema"}, schemaOptions{}},
		{[]string{"schema", "--out", "s.json"}, schemaOptions{out: "s.json"}},
		{[]string{"schema", "input", "Stop", "-o", "in.json"}, schemaOptions{kind: "input", event: "Stop", out: "in.json"}},
		{[]string{"schema", "output", "--out=o.json", "PreToolUse"}, schemaOptions{kind: "output", event: "PreToolUse", out: "o.json"}},
		{[]string{"schema", "example", "Stop"}, schemaOptions{kind: "example", event: "Stop"}},
		{[]string{"schema", "test"}, schemaOptions{kind: "test"}},
		{[]string{"schema", "config", "-o", "c.json"}, schemaOptions{kind: "config", out: "c.json"}},
	} {
		var got *schemaOptions
		err := optionsInto(t, fixedWorld(t), newSchemaCommand, &got, c.args...)
		if err != nil {
			t.Errorf("%s: %v", strings.Join(c.args, " "), err)
			continue
		}
		if got == nil || *got != c.want {
			t.Errorf("%s: options %+v, want %+v", strings.Join(c.args, " "), got, c.want)
		}
	}
	err := parse(t, fixedWorld(t), newSchemaCommand(nil, func(*schemaOptions) error { t.Error("runF called without an event"); return nil }), "schema", "input")
	if err == nil || !strings.HasPrefix(err.Error(), "hookctl schema input takes one event: ") {
		t.Errorf("schema input: %v", err)
	}
}

func TestSchemaRun(t *testing.T) {
	w := fixedWorld(t)
	out := filepath.Join(w.wd, "test.schema.json")
	if err := schemaRun(w.factory, &schemaOptions{kind: "test", out: out}); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(out); err != nil || !bytes.Equal(b, schema.TestSchema()) {
		t.Errorf("schema test --out wrote %d bytes (%v), not the test schema", len(b), err)
	}
	if w.out.Len() != 0 {
		t.Errorf("schema --out printed %q", w.out.String())
	}
	if err := schemaRun(w.factory, &schemaOptions{kind: "input", event: "Stop"}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(w.out.Bytes(), schema.InputSchema(schema.Stop)) {
		t.Errorf("schema input Stop printed %q", w.out.String())
	}
}

// The example call of a tool event runs in the working folder.
func TestSchemaExampleRun(t *testing.T) {
	w := fixedWorld(t)
	if err := schemaRun(w.factory, &schemaOptions{kind: "example", event: "PreToolUse"}); err != nil {
		t.Fatal(err)
	}
	var p struct {
		ToolCall struct {
			Name string
			Args struct{ CommandLine, Cwd string }
		}
	}
	if err := json.Unmarshal(w.out.Bytes(), &p); err != nil {
		t.Fatalf("%v: %s", err, w.out.String())
	}
	if p.ToolCall.Name != "run_command" || p.ToolCall.Args.CommandLine != runtime.ExampleCommand || p.ToolCall.Args.Cwd != w.wd {
		t.Errorf("example call %+v, want run_command %q in %s", p.ToolCall, runtime.ExampleCommand, w.wd)
	}
}

func TestLintOptions(t *testing.T) {
	w := fixedWorld(t)
	var got *lintOptions
	runF := func(o *lintOptions) error { got = o; return nil }
	err := parse(t, w, newLintCommand(w.factory, runF), "lint", "a.json", "--format", "json", "--fail-on", "warning",
		"--disable", "r1", "--enable", "r2", "--disable", "r3", "b", "--fix", "--diff", "-o", "out.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := lintOptions{format: "json", failOn: lint.Warning, paths: []string{"a.json", "b"}, enable: []string{"r2"},
		disable: []string{"r1", "r3"}, home: w.home, fix: true, diff: true, output: "out.txt", color: "auto"}
	if got == nil || !reflect.DeepEqual(*got, want) {
		t.Errorf("lint options\n got %+v\nwant %+v", got, want)
	}
	if err := parse(t, w, newLintCommand(w.factory, runF), "lint", "--rules", "-f", "json", "--fail-on", "nonsense"); err != nil {
		t.Fatal(err)
	}
	if want := (lintOptions{format: "json", rules: true}); !reflect.DeepEqual(*got, want) {
		t.Errorf("lint --rules options\n got %+v\nwant %+v", got, want)
	}
	got = nil
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"lint", "--diff"}, "--diff shows what --fix would change: use it with --fix"},
		{[]string{"lint", "--fail-on", "never"}, "--fail-on: "},
		{[]string{"lint", "--rules", "x.json"}, "--rules lists the rules and lints nothing: it takes no PATH"},
	} {
		err := parse(t, w, newLintCommand(w.factory, runF), c.args...)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", strings.Join(c.args, " "), err, c.want)
		}
	}
	if got != nil {
		t.Errorf("runF was called with %+v after a usage error", got)
	}
}

// lint --output writes inside the factory's working folder, whatever the
// process's is.
func TestLintRunOutput(t *testing.T) {
	w := fixedWorld(t)
	file := filepath.Join(w.wd, "hooks.json")
	if err := os.WriteFile(file, []byte(`{"hooks": {"Stop": []}}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := lintRun(w.factory, &lintOptions{format: "json", failOn: lint.Error, paths: []string{file}, home: w.home, output: "findings.json"})
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != exitFindings {
		t.Fatalf("lint: %v, want exit status %d", err, exitFindings)
	}
	b, err := os.ReadFile(filepath.Join(w.wd, "findings.json"))
	if err != nil {
		t.Fatal(err)
	}
	var findings []struct {
		File, Rule   string
		Line, Column int
	}
	if err := json.Unmarshal(b, &findings); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	if len(findings) != 1 || findings[0].Rule != "foreign-format" || findings[0].Line != 1 || findings[0].Column != 2 {
		t.Errorf("findings %+v, want foreign-format at 1:2", findings)
	}
	if w.out.Len() != 0 {
		t.Errorf("lint --output printed %q", w.out.String())
	}
}

// lint --rules lists every rule, and lints nothing.
func TestLintRunRules(t *testing.T) {
	w := fixedWorld(t)
	if err := lintRun(w.factory, &lintOptions{format: "json", rules: true}); err != nil {
		t.Fatal(err)
	}
	var rules []struct{ ID string }
	if err := json.Unmarshal(w.out.Bytes(), &rules); err != nil {
		t.Fatalf("%v: %s", err, w.out.String())
	}
	if len(rules) != len(lint.RuleIDs()) {
		t.Errorf("lint --rules listed %d rules, want %d", len(rules), len(lint.RuleIDs()))
	}
}

func TestCompletionRun(t *testing.T) {
	w := fixedWorld(t)
	var got *completionOptions
	if err := optionsInto(t, w, newCompletionCommand, &got, "completion", "fish"); err != nil {
		t.Fatal(err)
	}
	if got == nil || got.shell != "fish" {
		t.Errorf("completion options %+v", got)
	}
	if err := completionRun(w.factory, &completionOptions{shell: "fish"}); err != nil {
		t.Fatal(err)
	}
	if w.out.String() != fishCompletion {
		t.Errorf("completion fish printed %d bytes, not the fish script", w.out.Len())
	}
	err := completionRun(w.factory, &completionOptions{shell: "tcsh"})
	if err == nil || err.Error() != `hookctl completion knows bash, zsh, fish, not "tcsh"` {
		t.Errorf("completion tcsh: %v", err)
	}
}

func TestLspOptions(t *testing.T) {
	w := fixedWorld(t)
	for _, c := range []struct {
		args []string
		want lspOptions
	}{
		{[]string{"lsp"}, lspOptions{home: w.home}},
		{[]string{"lsp", "--setup", "helix"}, lspOptions{setup: "helix", setupSet: true}},
		{[]string{"lsp", "--setup="}, lspOptions{setupSet: true}},
	} {
		var got *lspOptions
		if err := optionsInto(t, w, newLspCommand, &got, c.args...); err != nil {
			t.Fatal(err)
		}
		if got == nil || *got != c.want {
			t.Errorf("%s: options %+v, want %+v", strings.Join(c.args, " "), got, c.want)
		}
	}
	if err := lspRun(w.factory, &lspOptions{setup: "Helix", setupSet: true}); err != nil {
		t.Fatal(err)
	}
	if w.out.String() != editors.Helix {
		t.Errorf("lsp --setup Helix printed %q", w.out.String())
	}
}

func TestLogOptions(t *testing.T) {
	w := fixedWorld(t)
	var got *logOptions
	err := optionsInto(t, w, newLogCommand, &got,
		"log", "-n", "5", "--hook", "gate", "--event=Stop", "--since", "2h", "--json", "--log", "x.jsonl", "-f")
	if err != nil {
		t.Fatal(err)
	}
	want := logOptions{log: "x.jsonl", n: 5, follow: true, hook: "gate", event: "Stop", since: "2h", json: true}
	if got == nil || *got != want {
		t.Errorf("log options\n got %+v\nwant %+v", got, want)
	}
	if err := optionsInto(t, w, newLogCommand, &got, "log"); err != nil {
		t.Fatal(err)
	}
	if want := (logOptions{n: 20}); *got != want {
		t.Errorf("log options %+v, want %+v", *got, want)
	}
}

// --since counts back from the factory's clock, in the factory's log.
func TestLogRunSince(t *testing.T) {
	w := fixedWorld(t)
	l, _ := w.defaultLog()
	for _, r := range []struct {
		id, hook string
		ago      time.Duration
	}{{"old00000aaaaaaaa", "old", 3 * time.Hour}, {"new00000aaaaaaaa", "recent", time.Hour}} {
		if err := l.Append(&tracelog.Record{ID: r.id, Time: fixedNow.Add(-r.ago), Kind: tracelog.KindTrace, Hook: r.hook,
			Event: "Stop", Exit: tracelog.Int(0)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := logRun(context.Background(), w.factory, &logOptions{n: 20, since: "2h", json: true}); err != nil {
		t.Fatalf("%v: %s", err, w.errOut.String())
	}
	var hooks []string
	for _, line := range strings.Split(strings.TrimSpace(w.out.String()), "\n") {
		var r tracelog.Record
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%v: %q", err, line)
		}
		hooks = append(hooks, r.Hook)
	}
	if len(hooks) != 1 || hooks[0] != "recent" {
		t.Errorf("log --since 2h showed the runs of %q, want the recent one only", hooks)
	}
}

func TestRunOptions(t *testing.T) {
	w := fixedWorld(t)
	var got *runOptions
	err := optionsInto(t, w, newRunCommand, &got,
		"run", "--config", "a.json", "PreToolUse", "--config", "b,c.json", "--tool", "view_file", "--args", "{}",
		"--on-error", "ask", "--max-continues", "3", "--sequential", "--explain", "--log", "l.jsonl", "--log-payload", "--workspace", "ws")
	if err != nil {
		t.Fatal(err)
	}
	want := runOptions{event: "PreToolUse", configs: []string{"a.json", "b,c.json"}, workspace: "ws", onError: "ask", maxContinues: 3,
		sequential: true, explain: true, tool: "view_file", args: "{}", argsSet: true, logFile: "l.jsonl", logPayload: true}
	if got == nil || !reflect.DeepEqual(*got, want) {
		t.Errorf("run options\n got %+v\nwant %+v", got, want)
	}
	got = nil
	err = optionsInto(t, w, newRunCommand, &got, "run", "Stop", "extra")
	if err == nil || err.Error() != "hookctl run takes one event, not 2 arguments: the payload goes on stdin" || got != nil {
		t.Errorf("run Stop extra: %v, options %+v", err, got)
	}
}

// The payload run builds names the factory's home, as the agent would.
func TestRunPrintPayload(t *testing.T) {
	w := fixedWorld(t)
	err := runRun(w.factory, &runOptions{event: "PreToolUse", tool: "view_file", args: `{"AbsolutePath": "/etc/hosts"}`, argsSet: true,
		printPayload: true, workspace: w.wd, onError: "deny"})
	if err != nil {
		t.Fatal(err)
	}
	var p struct {
		ToolCall struct {
			Name string
			Args map[string]string
		}
		WorkspacePaths []string
		TranscriptPath string
	}
	if err := json.Unmarshal(w.out.Bytes(), &p); err != nil {
		t.Fatalf("%v: %s", err, w.out.String())
	}
	if p.ToolCall.Name != "view_file" || p.ToolCall.Args["AbsolutePath"] != "/etc/hosts" {
		t.Errorf("tool call %+v", p.ToolCall)
	}
	if len(p.WorkspacePaths) != 1 || p.WorkspacePaths[0] != w.wd {
		t.Errorf("workspacePaths %q, want [%s]", p.WorkspacePaths, w.wd)
	}
	if !strings.HasPrefix(p.TranscriptPath, w.home+string(filepath.Separator)) {
		t.Errorf("transcriptPath %s is not in the home %s", p.TranscriptPath, w.home)
	}
}

func TestTestOptions(t *testing.T) {
	w := fixedWorld(t)
	var got *testOptions
	err := optionsInto(t, w, newTestCommand, &got,
		"test", "--contract", "--budget", "2s", "--hook", "gate", "--hook", "a,b", "--user", "--format", "json", "x.test.json")
	if err != nil {
		t.Fatal(err)
	}
	want := testOptions{files: []string{"x.test.json"}, configs: []string{}, format: "json", onError: "deny", contract: true, budget: "2s",
		hooks: []string{"gate", "a,b"}, user: true, set: map[string]bool{"contract": true, "budget": true, "hook": true, "user": true, "format": true}}
	if got == nil || !reflect.DeepEqual(*got, want) {
		t.Errorf("test options\n got %+v\nwant %+v", got, want)
	}
}

// test --contract --user checks the hooks.json of the factory's home.
func TestContractRunUserFile(t *testing.T) {
	w := fixedWorld(t)
	err := testRun(w.factory, &testOptions{contract: true, user: true, format: "text", onError: "deny", set: map[string]bool{"user": true}})
	want := filepath.Join(w.home, ".gemini", "config", "hooks.json") + ": no such file: the user has no hooks.json"
	if err == nil || err.Error() != want {
		t.Errorf("test --contract --user: %v, want %q", err, want)
	}
}

func TestInitOptions(t *testing.T) {
	w := fixedWorld(t)
	var got *initOptions
	err := optionsInto(t, w, newInitCommand, &got,
		"init", "--name", "gate", "--event", "PreToolUse", "--matcher", "", "--template", "block-rm", "--timeout", "30", "-y", "--trace=false", "--dir", "ws")
	if err != nil {
		t.Fatal(err)
	}
	if got == nil || got.Name != "gate" || got.Event != schema.PreToolUse || got.Matcher != "" || !got.MatcherSet ||
		got.Template != "block-rm" || got.Timeout != 30 || !got.yes || got.Trace || !got.TraceSet || got.Dir != "ws" {
		t.Errorf("init options %+v", got)
	}
	got = nil
	err = optionsInto(t, w, newInitCommand, &got, "init", "--timeout", "0")
	if err == nil || !strings.HasPrefix(err.Error(), "--timeout 0: give a whole number of seconds from 1 to ") || got != nil {
		t.Errorf("init --timeout 0: %v, options %+v", err, got)
	}
}

// init asks for nothing it was not given without a terminal, and names
// the working folder as the workspace: the factory's.
func TestInitRunWorkspace(t *testing.T) {
	w := fixedWorld(t)
	if err := os.Mkdir(filepath.Join(w.wd, ".agents"), 0o755); err != nil {
		t.Fatal(err)
	}
	opts := &initOptions{}
	opts.Scope = "workspace"
	opts.Dir = filepath.Join(w.wd, ".agents")
	err := initRun(w.factory, opts)
	want := filepath.Join(w.wd, ".agents") + " is an .agents folder, not a workspace's root: run init from " + w.wd
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("init --dir .agents: %v, want %q", err, want)
	}
	if opts.cwd != w.wd {
		t.Errorf("init took %q as the current folder, not %s", opts.cwd, w.wd)
	}
}

func TestTrustOptions(t *testing.T) {
	w := fixedWorld(t)
	var got *trustOptions
	if err := optionsInto(t, w, newTrustCommand, &got, "trust", "--revoke", "ws"); err != nil {
		t.Fatal(err)
	}
	if got == nil || !got.revoke || got.list || got.diff || got.yes || got.dir != "ws" || got.store != filepath.Join(w.home, "trust.json") || !got.now().Equal(fixedNow) {
		t.Errorf("trust options %+v", got)
	}
	got = nil
	err := optionsInto(t, w, newTrustCommand, &got, "trust", "--list", "--diff")
	if err == nil || err.Error() != "--revoke, --list and --diff go one at a time" || got != nil {
		t.Errorf("trust --list --diff: %v, options %+v", err, got)
	}
}

// trust --list reads the factory's trust store.
func TestTrustRunList(t *testing.T) {
	w := fixedWorld(t)
	store, _ := w.trustStore()
	if err := trustRun(w.streams, trustOptions{list: true, store: store, now: w.now}); err != nil {
		t.Fatal(err)
	}
	if got := w.out.String(); got != "No workspace is trusted.\n" {
		t.Errorf("trust --list printed %q", got)
	}
}

func TestImportOptions(t *testing.T) {
	w := fixedWorld(t)
	var got *importOptions
	err := optionsInto(t, w, newImportCommand, &got,
		"import", ".claude/settings.json", "--from", "claude", "-w", "--dir", "ws", "--scope", "user", "--no-adapt")
	if err != nil {
		t.Fatal(err)
	}
	want := importOptions{file: ".claude/settings.json", from: schema.Claude, write: true, dir: "ws", scope: "user", noAdapt: true, home: w.home}
	if got == nil || *got != want {
		t.Errorf("import options\n got %+v\nwant %+v", got, want)
	}
}

func TestExportOptions(t *testing.T) {
	w := fixedWorld(t)
	var got *exportOptions
	err := optionsInto(t, w, newExportCommand, &got,
		"export", "ws", "--to", "codex", "--check", "--on-error", "ignore")
	if err != nil {
		t.Fatal(err)
	}
	if got == nil || got.to != schema.Codex || !got.check || got.write || got.onError != "ignore" || got.dir != "ws" || got.home != w.home || got.getenv == nil {
		t.Errorf("export options %+v", got)
	}
	got = nil
	err = optionsInto(t, w, newExportCommand, &got, "export", "--to", "codex", "--check", "-w")
	if err == nil || err.Error() != "--check writes nothing: it goes without --write" || got != nil {
		t.Errorf("export --check --write: %v, options %+v", err, got)
	}
}

func TestListOptions(t *testing.T) {
	w := fixedWorld(t)
	var got *listOptions
	err := optionsInto(t, w, newListCommand, &got,
		"list", "--json", "--event", "PreToolUse", "--tool", "run_command", "--workspace", "ws", "--config", "a,b.json")
	if err != nil {
		t.Fatal(err)
	}
	if got == nil || !got.json || got.event != "PreToolUse" || got.tool != "run_command" || got.workspace != "ws" ||
		!reflect.DeepEqual(got.configs, []string{"a,b.json"}) || got.home != w.home || got.trusted == nil {
		t.Errorf("list options %+v", got)
	}
}

// list reads the user's hooks.json in the factory's home, and asks the
// factory's trust store about the workspace's.
func TestListRunFactory(t *testing.T) {
	w := fixedWorld(t)
	for path, hooks := range map[string]string{
		filepath.Join(w.home, ".gemini", "config", "hooks.json"): `{"mine": {"Stop": [{"type": "command", "command": "true"}]}}`,
		filepath.Join(w.wd, ".agents", "hooks.json"):             `{"theirs": {"Stop": [{"type": "command", "command": "false"}]}}`,
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(hooks+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := parse(t, w, newListCommand(w.factory, nil), "list", "--json", "--workspace", w.wd); err != nil {
		t.Fatalf("%v: %s", err, w.errOut.String())
	}
	var entries []struct {
		Scope, File, Hook string
		Trusted           bool
	}
	if err := json.Unmarshal(w.out.Bytes(), &entries); err != nil {
		t.Fatalf("%v: %s", err, w.out.String())
	}
	if len(entries) != 2 || entries[0].Hook != "mine" || entries[0].File != filepath.Join(w.home, ".gemini", "config", "hooks.json") || !entries[0].Trusted ||
		entries[1].Hook != "theirs" || entries[1].Trusted {
		t.Errorf("list: %+v", entries)
	}
}

func TestDoctorOptions(t *testing.T) {
	w := fixedWorld(t)
	var got *doctorOptions
	err := optionsInto(t, w, newDoctorCommand, &got,
		"doctor", "--offline", "--format", "json", "-v", "--agent-timeout", "3s", "--workspace", "ws")
	if err != nil {
		t.Fatal(err)
	}
	if got == nil || !got.offline || got.format != "json" || !got.verbose || got.timeout != 3*time.Second || got.workspace != "ws" ||
		got.home != w.home || got.getenv == nil {
		t.Errorf("doctor options %+v", got)
	}
	got = nil
	err = optionsInto(t, w, newDoctorCommand, &got, "doctor", "here")
	if err == nil || err.Error() != "hookctl doctor takes no arguments; name the workspace with --workspace DIR" || got != nil {
		t.Errorf("doctor here: %v, options %+v", err, got)
	}
}
