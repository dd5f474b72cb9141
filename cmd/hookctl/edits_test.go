package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookctl/hookctl/internal/filelock"
	"github.com/hookctl/hookctl/scaffold"
	"github.com/hookctl/hookctl/schema"
)

// built are the programs the tests build once per run, by package.
var built sync.Map // package path -> *build

type build struct {
	once sync.Once
	path string
	err  error
}

// builtProgram builds the Go program of a package (a path, or an import
// path) once per test run, with CGO_ENABLED=0, and returns its file, for
// tests that run it as separate processes.
func builtProgram(t testing.TB, name, pkg string) string {
	t.Helper()
	v, _ := built.LoadOrStore(pkg, &build{})
	b := v.(*build)
	b.once.Do(func() {
		dir, err := os.MkdirTemp("", name+"-bin")
		if err != nil {
			b.err = err
			return
		}
		b.path = filepath.Join(dir, name)
		if goruntime.GOOS == "windows" {
			b.path += ".exe"
		}
		cmd := exec.Command("go", "build", "-o", b.path, pkg)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.err = errors.New(string(out))
		}
	})
	if b.err != nil {
		t.Fatalf("building %s: %v", name, b.err)
	}
	return b.path
}

// minwrapBinary builds runtime/tracelog/testdata/minwrap, the least a
// wrapper written in Go can do, once per test run.
func minwrapBinary(tb testing.TB) string {
	return builtProgram(tb, "minwrap", "../../runtime/tracelog/testdata/minwrap")
}

// hookctlBinary builds hookctl once per test run.
func hookctlBinary(t testing.TB) string {
	return builtProgram(t, "hookctl", "github.com/hookctl/hookctl/cmd/hookctl")
}

// TestConcurrentEdits runs 20 hookctl init and 4 hookctl import --write at
// once on one workspace, as real processes: every one of them says it
// added its hook, and every hook, script and test case is there in the
// end.
func TestConcurrentEdits(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds hookctl and runs 24 processes")
	}
	bin := hookctlBinary(t)
	ws, home := t.TempDir(), t.TempDir()
	const inits, imports = 20, 4
	for i := range imports {
		settings := fmt.Sprintf(`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo imported-%d >> imported.log"}]}]}}`, i)
		if err := os.WriteFile(filepath.Join(ws, fmt.Sprintf("claude-%d.json", i)), []byte(settings), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	type result struct {
		args           []string
		err            error
		stdout, stderr string
	}
	results := make([]result, inits+imports)
	var wg sync.WaitGroup
	for i := range results {
		args := []string{"init", "--yes", "--template", "notify", "--name", fmt.Sprintf("n%d", i)}
		if i >= inits {
			args = []string{"import", "--from", "claude", "--write", fmt.Sprintf("claude-%d.json", i-inits)}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(bin, args...)
			cmd.Dir = ws
			cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"))
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			results[i] = result{args, err, stdout.String(), stderr.String()}
		}()
	}
	wg.Wait()
	for _, r := range results {
		if r.err != nil {
			t.Errorf("hookctl %s: %v\n%s%s", strings.Join(r.args, " "), r.err, r.stdout, r.stderr)
		}
	}
	c, err := schema.Load(filepath.Join(ws, ".agents", "hooks.json"))
	if err != nil || !c.Usable() {
		t.Fatalf("hooks.json: %v %+v", err, c)
	}
	names := map[string]bool{}
	for _, h := range c.File.Hooks {
		names[h.Name] = true
	}
	for i := range inits {
		name := fmt.Sprintf("n%d", i)
		if !names[name] {
			t.Errorf("the hook %s is lost", name)
		}
		if _, err := os.Stat(filepath.Join(ws, ".agents", "hooks", name+".sh")); err != nil {
			t.Errorf("the script of %s: %v", name, err)
		}
	}
	if len(c.File.Hooks) != inits+imports {
		t.Errorf("hooks.json has %d hooks, want %d: %v", len(c.File.Hooks), inits+imports, names)
	}
	imported := 0
	for _, h := range c.File.Hooks {
		for _, hd := range h.Stop {
			if strings.Contains(hd.Command, "echo imported-") {
				imported++
			}
		}
	}
	if imported != imports {
		t.Errorf("%d imported hooks, want %d", imported, imports)
	}
	tests, err := os.ReadFile(filepath.Join(ws, ".agents", "hooks.test.json"))
	if err != nil {
		t.Fatal(err)
	}
	var tf schema.TestFile
	if err := json.Unmarshal(tests, &tf); err != nil {
		t.Fatal(err)
	}
	if len(tf.Tests) != inits {
		t.Errorf("hooks.test.json has %d cases, want %d", len(tf.Tests), inits)
	}
}

// TestEditsOnAFullDisk runs init and import --write as real processes under
// a limit on the size of the files they may write (ulimit -f), so that the
// large hooks.json, written last, fails as on a full disk once the script,
// the test case or the kept original are written: every one of those is
// undone, exit 2, and the same command succeeds once the limit is lifted.
func TestEditsOnAFullDisk(t *testing.T) {
	if testing.Short() {
		t.Skip("builds hookctl")
	}
	if goruntime.GOOS == "windows" {
		t.Skip("needs a POSIX shell's ulimit -f")
	}
	bin := hookctlBinary(t)
	const limit = 100 // blocks of 512 bytes: 51,200 bytes
	run := func(dir string, limited bool, args ...string) (int, string) {
		script := `exec "$0" "$@"`
		if limited {
			script = fmt.Sprintf("ulimit -f %d && %s", limit, script)
		}
		cmd := exec.Command("sh", append([]string{"-c", script, bin}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "HOME="+filepath.Join(dir, "home"), "XDG_CONFIG_HOME="+filepath.Join(dir, "home", ".config"))
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode(), string(out)
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0, string(out)
	}
	snapshot := func(dir string) map[string]string {
		out := map[string]string{}
		_ = filepath.WalkDir(filepath.Join(dir, ".agents"), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				b, _ := os.ReadFile(p)
				info, _ := d.Info()
				out[p] = info.Mode().String() + " " + string(b)
			}
			return nil
		})
		return out
	}
	check := func(t *testing.T, dir string, args ...string) {
		t.Helper()
		before := snapshot(dir)
		code, out := run(dir, true, args...)
		if code != 2 || !strings.Contains(out, "file too large; every file was left as it was") {
			t.Fatalf("under the limit: exit %d\n%s", code, out[max(0, len(out)-2000):])
		}
		after := snapshot(dir)
		for p, v := range before {
			if after[p] != v {
				t.Errorf("%s changed", p)
			}
		}
		for p := range after {
			if _, ok := before[p]; !ok {
				t.Errorf("%s was left behind", p)
			}
		}
		if code, out := run(dir, false, args...); code != 0 {
			t.Errorf("again without the limit: exit %d\n%s", code, out)
		}
	}

	t.Run("init", func(t *testing.T) {
		dir := t.TempDir()
		var big strings.Builder
		big.WriteString("{\n")
		for i := range 1000 {
			fmt.Fprintf(&big, "  \"h%d\": {\"enabled\": false, \"Stop\": [{\"command\": \"echo %d\"}]},\n", i, i)
		}
		big.WriteString("  \"last\": {}\n}\n")
		writeFile(t, filepath.Join(dir, ".agents", "hooks.json"), big.String())
		writeFile(t, filepath.Join(dir, ".agents", "hooks.test.json"), "{\"tests\": []}\n")
		check(t, dir, "init", "--yes", "--template", "notify", "--name", "late")
	})
	t.Run("import replacing a foreign hooks.json", func(t *testing.T) {
		dir := t.TempDir()
		// Compact, it fits under the limit, and so does the original kept
		// beside it; converted and indented, it does not.
		var foreign strings.Builder
		foreign.WriteString(`{"hooks":{"PreToolUse":[`)
		for i := range 400 {
			if i > 0 {
				foreign.WriteString(",")
			}
			fmt.Fprintf(&foreign, `{"matcher":"Bash","hooks":[{"type":"command","command":"echo %d"}]}`, i)
		}
		foreign.WriteString("]}}")
		writeFile(t, filepath.Join(dir, ".agents", "hooks.json"), foreign.String())
		check(t, dir, "import", "--write", "--from", "claude", ".agents/hooks.json")
	})
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestInitWaitsForTheLock holds the lock of a workspace's .agents as
// another hookctl would, and runs init as a real process: it says that it
// waits, then goes on once the lock is released, or stops on Ctrl-C
// (SIGINT) with status 130, writing nothing.
func TestInitWaitsForTheLock(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds hookctl")
	}
	bin := hookctlBinary(t)
	for _, interrupt := range []bool{false, true} {
		name := "released"
		if interrupt {
			name = "interrupted"
		}
		t.Run(name, func(t *testing.T) {
			if interrupt && goruntime.GOOS == "windows" {
				t.Skip("Windows cannot send Ctrl-C to one process alone")
			}
			ws, home := t.TempDir(), t.TempDir()
			agents := filepath.Join(ws, ".agents")
			if err := os.Mkdir(agents, 0o755); err != nil {
				t.Fatal(err)
			}
			lock, err := os.Open(agents)
			if err != nil {
				t.Fatal(err)
			}
			defer lock.Close()
			release, err := filelock.TryLockDir(lock)
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(bin, "init", "--yes", "--template", "notify")
			cmd.Dir = ws
			cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"))
			stderr, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			var stdout bytes.Buffer
			cmd.Stdout = &stdout
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			r := bufio.NewReader(stderr)
			line, err := r.ReadString('\n')
			if err != nil || !strings.Contains(line, "waiting for another hookctl to finish editing "+agents) {
				t.Fatalf("init's first word on stderr: %q, %v", line, err)
			}
			if interrupt {
				if err := cmd.Process.Signal(os.Interrupt); err != nil {
					t.Fatal(err)
				}
			} else {
				release()
			}
			rest, _ := io.ReadAll(r)
			err = cmd.Wait()
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			}
			entries, _ := os.ReadDir(agents)
			if interrupt {
				if code != exitInterrupted || !strings.Contains(string(rest), "init stopped: nothing was written") {
					t.Errorf("exit %d, stderr %q", code, rest)
				}
				if len(entries) != 0 {
					t.Errorf(".agents holds %d entries after the interrupt", len(entries))
				}
				return
			}
			if code != 0 || !strings.Contains(stdout.String(), `Created .agents/hooks.json with the hook "notify"`) {
				t.Errorf("exit %d\n%s%s", code, stdout.String(), rest)
			}
		})
	}
}

// noticeWriter tells, on wrote, that something was written to it.
type noticeWriter struct {
	mu    sync.Mutex
	b     bytes.Buffer
	wrote chan struct{}
}

func (w *noticeWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := w.b.Write(p)
	select {
	case w.wrote <- struct{}{}:
	default:
	}
	return n, err
}

// TestWaitNoticeShowsTheFolderVisible: the notice of a wait for another
// hookctl's lock names the folder, whose name may hold escape sequences,
// made visible.
func TestWaitNoticeShowsTheFolderVisible(t *testing.T) {
	defer func(d time.Duration) { waitNotice = d }(waitNotice)
	waitNotice = time.Millisecond
	folder := "/w/a\x1b]0;owned\x07b/.agents"
	w := &noticeWriter{wrote: make(chan struct{}, 1)}
	stopped := errors.New("stopped")
	_, err := beginEdit(streams{strings.NewReader(""), io.Discard, w}, context.Background(), folder, stopped,
		func(context.Context) (*scaffold.Tx, error) {
			<-w.wrote // the lock is held until the notice is out
			return nil, errors.New("no lock")
		})
	w.mu.Lock()
	defer w.mu.Unlock()
	if err == nil || strings.ContainsRune(w.b.String(), '\x1b') || !strings.Contains(w.b.String(), "editing "+schema.Visible(folder)+" (") {
		t.Errorf("beginEdit: %v, stderr %q", err, w.b.String())
	}
}
