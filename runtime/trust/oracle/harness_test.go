package oracle

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookctl/hookctl/internal/testenv"
	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/runtime/trust"
	"github.com/hookctl/hookctl/schema"
)

// The long run: every realworld command and many generated combinations
// (docs/trust.md, "Checking trust against what runs").
var long = os.Getenv("HOOKCTL_ORACLE") == "long"

var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

// TestMain puts the real python3 first on PATH (testenv.Main): a version
// manager's shim would start a shell and a dozen programs before every
// Python the commands run, each of them traced.
func TestMain(m *testing.M) { testenv.Main(wrapped{m}) }

// wrapped runs the tests, then writes the report and removes the hookctl
// built for them.
type wrapped struct{ m *testing.M }

func (w wrapped) Run() int {
	code := w.m.Run()
	if p := os.Getenv("HOOKCTL_ORACLE_REPORT"); p != "" {
		sort.Strings(allFound)
		if err := os.WriteFile(p, []byte(strings.Join(allFound, "\n")+"\n"), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			code = 1
		}
	}
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	return code
}

// hookctlDir builds ./cmd/hookctl once for the whole test binary and
// returns the folder that holds it, which the commands find first on
// PATH.
func hookctlDir(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "hookctl-oracle-")
		if err != nil {
			buildErr = err
			return
		}
		binDir = dir
		out, err := exec.Command("go", "build", "-ldflags=-s -w", "-o", filepath.Join(dir, "hookctl"), "github.com/hookctl/hookctl/cmd/hookctl").CombinedOutput()
		if err != nil {
			buildErr = errors.New(string(out))
		}
	})
	if buildErr != nil {
		t.Fatalf("building hookctl: %v", buildErr)
	}
	return binDir
}

// need skips the test when a tool is missing, and fails it under
// HOOKCTL_CI=1, where .ci/run installs every one.
func need(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		testenv.Need(t, tool)
	}
}

var (
	straceOnce sync.Once
	straceErr  error
)

// needStrace is need for strace, which must also be allowed to trace
// here (a container without ptrace is not); -short leaves the commands
// unrun.
func needStrace(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs hook commands under strace")
	}
	need(t, "strace")
	straceOnce.Do(func() {
		if out, err := exec.Command("strace", "-f", "-qq", "-o", "/dev/null", "true").CombinedOutput(); err != nil {
			straceErr = fmt.Errorf("strace cannot trace here: %v: %s", err, out)
		}
	})
	if straceErr != nil {
		if testenv.CI() {
			t.Fatal(straceErr)
		}
		t.Skip(straceErr)
	}
}

// oracleCase is a workspace and one of its commands, to run for real.
type oracleCase struct {
	name string
	// form is the way of running code the case is about, as the known
	// failures list it.
	form string
	// files are written under the workspace root: content by path. A
	// content starting with "@link:" makes a symbolic link to the rest; one
	// ending with "/" a folder. Files starting with #! and files in a bin/
	// folder are executable. {{ROOT}} in a content is the root's path.
	files map[string]string
	// hooks is .agents/hooks.json; "" means one hook "h" with command on
	// event (Stop by default), "-" that files hold it.
	hooks   string
	command string
	event   schema.Event
	tool    string
	payload map[string]any
	// partial, when set, is the whole payload before the common fields
	// are filled in.
	partial map[string]any
	// data are the files shown to be data for the command (path.Match
	// patterns), with the reason in a comment where they are set.
	data  []string
	needs []string
	// setup runs after the files are written, before the snapshot.
	setup func(t *testing.T, root string)
	// noGaps: trust must name nothing "not covered" for the command (the
	// templates' promise), but what runs says, once, at any line.
	noGaps bool
	// runs is what a template runs that the project decides, which trust
	// names in the template's words (templates.Template.Runs).
	runs string
	// long: the case runs in the long run only.
	long bool
}

// notCovered is the file of a finding that a review names something "not
// covered" where nothing may be.
const notCovered = "(Not covered)"

// result is what one case found.
type result struct {
	// verdicts are every file taken in, findings the failures among them.
	verdicts []Finding
	findings []Finding
	trace    *Trace
	cmd      trust.Command
}

// workspaceDir makes a workspace folder, an absolute real path.
func workspaceDir(t *testing.T) (root, home string) {
	t.Helper()
	dir := t.TempDir()
	if os.Getenv("HOOKCTL_ORACLE_KEEP") != "" {
		// Keep the workspace and strace's log to look at.
		d, err := os.MkdirTemp("", "oracle-case-")
		if err != nil {
			t.Fatal(err)
		}
		dir = d
	}
	base, err := trust.Key(dir)
	if err != nil {
		t.Fatal(err)
	}
	root = filepath.Join(base, "ws")
	home = filepath.Join(base, "home")
	for _, d := range []string{root, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return root, home
}

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		content := strings.ReplaceAll(files[n], "{{ROOT}}", root)
		p := filepath.Join(root, filepath.FromSlash(n))
		if strings.HasSuffix(n, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if target, ok := strings.CutPrefix(content, "@link:"); ok {
			if err := os.Symlink(target, p); err != nil {
				t.Fatal(err)
			}
			continue
		}
		mode := os.FileMode(0o644)
		if strings.HasPrefix(content, "#!") || filepath.Base(filepath.Dir(p)) == "bin" {
			mode = 0o755
		}
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
		// WriteFile keeps the mode of a file that was there.
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
	}
}

// caseEnv is the handlers' environment: this process's, with HOME in the
// case's own folder (no user hooks.json, no trust store of the user's),
// the hookctl just built first on PATH, and no HOOKCTL_ or GIT_ variable
// of the process that runs the tests (a git hook's GIT_DIR would point
// every git of the cases at this repository).
func caseEnv(t *testing.T, home string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case k == "HOME" || k == "XDG_CONFIG_HOME" || k == "PATH" || strings.HasPrefix(k, "HOOKCTL_") || strings.HasPrefix(k, "GIT_"):
			continue
		}
		env = append(env, kv)
	}
	return append(env, "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"PATH="+hookctlDir(t)+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// run writes the case's workspace, takes trust's snapshot of it, runs the
// command under strace and checks what ran against the snapshot.
func (c oracleCase) run(t *testing.T) result {
	t.Helper()
	root, home := workspaceDir(t)
	files := map[string]string{}
	for k, v := range c.files {
		files[k] = v
	}
	event := c.event
	if event == "" {
		event = schema.Stop
	}
	switch c.hooks {
	case "-":
		// hooks.json is among the files.
	case "":
		h := map[string]any{"type": "command", "command": c.command, "timeout": 20}
		var hook map[string]any
		if event.IsTool() {
			m := c.tool
			if m == "" {
				m = "run_command"
			}
			hook = map[string]any{string(event): []any{map[string]any{"matcher": m, "hooks": []any{h}}}}
		} else {
			hook = map[string]any{string(event): []any{h}}
		}
		b, err := json.MarshalIndent(map[string]any{"h": hook}, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		files[trust.HooksFile] = string(b) + "\n"
	default:
		files[trust.HooksFile] = c.hooks
	}
	writeFiles(t, root, files)
	if c.setup != nil {
		c.setup(t, root)
	}
	return check(t, c, root, home, event)
}

// check runs the case's command in the workspace at root, already written.
func check(t *testing.T, c oracleCase, root, home string, event schema.Event) result {
	t.Helper()
	snap, err := trust.Take(root)
	if err != nil {
		t.Fatal(err)
	}
	var cmd *trust.Command
	for i := range snap.Commands {
		if snap.Commands[i].Command == c.command {
			cmd = &snap.Commands[i]
			break
		}
	}
	if cmd == nil {
		t.Fatalf("trust's snapshot has no command %q", c.command)
	}
	before, err := ReadWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	payload := c.payloadFor(t, event, root, home)
	rn := Run{Root: root, Command: c.command, Event: event, Payload: payload, Env: caseEnv(t, home),
		Timeout: 20 * time.Second, Log: filepath.Join(filepath.Dir(root), "strace.log")}
	if os.Getenv("HOOKCTL_ORACLE_KEEP") != "" {
		defer t.Logf("strace log: %s", rn.Log)
	}
	res, err := rn.Do(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range res.Trace.Unread {
		// A call that names no file of the workspace cannot be one that
		// loads it.
		if strings.Contains(u, root) {
			t.Errorf("strace printed a call the oracle cannot read, about the workspace: %s", u)
		} else {
			t.Logf("strace printed a call the oracle cannot read: %s", u)
		}
	}
	if res.Ending == runtime.TimedOut {
		t.Logf("%s: the command timed out", c.name)
	}
	r := result{verdicts: Judge(Input{Snapshot: snap, Command: *cmd, Before: before, Trace: res.Trace, Stdin: payload, Data: c.data}),
		trace: res.Trace, cmd: *cmd}
	if c.noGaps {
		var gaps []string
		for _, g := range cmd.Gaps {
			if c.runs == "" || !strings.HasSuffix(g, " "+c.runs) {
				gaps = append(gaps, g)
			}
		}
		if len(gaps) > 0 || c.runs != "" && len(cmd.Gaps) != 1 {
			r.verdicts = append(r.verdicts, Finding{File: notCovered, Way: "named in the review", By: "trust", Via: strings.Join(cmd.Gaps, "; ")})
		}
	}
	for _, v := range r.verdicts {
		if v.Verdict == "" {
			r.findings = append(r.findings, v)
		} else {
			t.Logf("%s", v)
		}
	}
	return r
}

func (c oracleCase) payloadFor(t *testing.T, e schema.Event, root, home string) []byte {
	t.Helper()
	var partial []byte
	if c.partial != nil {
		partial, _ = json.Marshal(c.partial)
	} else if e.IsTool() {
		tool := c.tool
		if tool == "" {
			tool = "run_command"
		}
		args := runtime.SampleArgs(tool, root)
		p := map[string]any{"toolCall": map[string]any{"name": tool, "args": json.RawMessage(args)}}
		for k, v := range c.payload {
			p[k] = v
		}
		partial, _ = json.Marshal(p)
	} else if c.payload != nil {
		partial, _ = json.Marshal(c.payload)
	}
	b, err := runtime.CompletePayload(e, partial, root, home)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// knownKey names a failure in the known failures' list: the case and the
// file.
func knownKey(caseName, file string) string { return caseName + ": " + file }

// report compares a case's findings with the known failures: a finding
// not in the list fails the test, and so does a known failure the case no
// longer shows (remove it from the list: it is fixed).
func report(t *testing.T, c oracleCase, r result, known map[string]string) {
	t.Helper()
	found := map[string]bool{}
	for _, f := range r.findings {
		k := knownKey(c.name, f.File)
		found[k] = true
		finding(c, f, r.cmd)
		if _, ok := known[k]; ok {
			t.Logf("known failure: %s", f)
			continue
		}
		t.Errorf("%s: %s\n  command: %s\n  trust covers it not, and says: %s", c.name, f, c.command, gapList(r.cmd))
	}
	for k, form := range known {
		if strings.HasPrefix(k, c.name+": ") && !found[k] {
			t.Errorf("%s (%s) no longer fails: remove it from the known failures", k, form)
		}
	}
}

func gapList(cmd trust.Command) string {
	if len(cmd.Gaps) == 0 {
		return "nothing"
	}
	return strings.Join(cmd.Gaps, "; ")
}

// findings gathers every finding of the run, for HOOKCTL_ORACLE_REPORT.
var (
	findingsMu sync.Mutex
	allFound   []string
)

func finding(c oracleCase, f Finding, cmd trust.Command) {
	findingsMu.Lock()
	defer findingsMu.Unlock()
	form := c.form
	if form == "" {
		form = c.name
	}
	line := fmt.Sprintf("%s\t%s\t%s\t%s\tcommand %q\ttrust says: %s", c.name, form, f.File, f, c.command, gapList(cmd))
	allFound = append(allFound, strings.ReplaceAll(line, "\n", `\n`))
}
