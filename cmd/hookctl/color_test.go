//go:build unix

package main

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	expect "github.com/Netflix/go-expect"
	"github.com/creack/pty"
	"github.com/hinshun/vt10x"

	"github.com/hookctl/hookctl/scaffold"
)

// TestColourOnATerminal runs hookctl lint with a real terminal as its
// standard output: --color auto colours it unless NO_COLOR is set, and an
// explicit --color wins over NO_COLOR.
func TestColourOnATerminal(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"x": {"Stpo": []}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		color, noColor string
		want           bool
	}{
		{"auto", "", true},
		{"auto", "1", false},
		{"never", "", false},
		{"never", "1", false},
		{"always", "", true},
		{"always", "1", true},
	} {
		ptmx, tty, err := pty.Open()
		if err != nil {
			t.Skipf("no pseudo-terminal: %v", err)
		}
		t.Setenv("NO_COLOR", c.noColor)
		var got bytes.Buffer
		done := make(chan struct{})
		go func() { io.Copy(&got, ptmx); close(done) }()
		var errb bytes.Buffer
		code := run([]string{"hookctl", "--color", c.color, "lint", bad}, streams{strings.NewReader(""), tty, &errb})
		tty.Close()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("the terminal's output never ended")
		}
		ptmx.Close()
		if code != exitFindings || !strings.Contains(got.String(), "unknown-event") {
			t.Fatalf("--color %s, NO_COLOR=%q: exit %d, terminal %q, stderr %q", c.color, c.noColor, code, got.String(), errb.String())
		}
		if coloured := strings.Contains(got.String(), "\x1b["); coloured != c.want {
			t.Errorf("--color %s, NO_COLOR=%q: coloured %v, want %v:\n%q", c.color, c.noColor, coloured, c.want, got.String())
		}
	}
}

// TestLintOutputFileColour runs hookctl lint --output with a terminal as
// its standard output: --color auto colours a terminal, and the findings'
// file is none, so it gets plain text; an explicit --color always still
// colours it.
func TestLintOutputFileColour(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bad.json"), []byte(`{"x": {"Stpo": []}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	t.Setenv("NO_COLOR", "")
	for _, c := range []struct {
		color string
		want  bool
	}{{"auto", false}, {"always", true}} {
		ptmx, tty, err := pty.Open()
		if err != nil {
			t.Skipf("no pseudo-terminal: %v", err)
		}
		var errb bytes.Buffer
		code := run([]string{"hookctl", "--color", c.color, "lint", "--output", "findings.txt", "bad.json"}, streams{strings.NewReader(""), tty, &errb})
		tty.Close()
		ptmx.Close()
		got, err := os.ReadFile(filepath.Join(dir, "findings.txt"))
		if code != exitFindings || err != nil || !strings.Contains(string(got), "unknown-event") {
			t.Fatalf("--color %s: exit %d, %v, file %q, stderr %q", c.color, code, err, got, errb.String())
		}
		if coloured := strings.Contains(string(got), "\x1b["); coloured != c.want {
			t.Errorf("--color %s: the findings' file coloured %v, want %v:\n%q", c.color, coloured, c.want, got)
		}
	}
}

// TestColoursAreMadeThroughPaint keeps every colour following --color: a
// colour made by color.New while NO_COLOR is set stays colourless for good,
// so colours are made by paint, when used.
func TestColoursAreMadeThroughPaint(t *testing.T) {
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			if strings.Contains(line, "color.New(") && strings.TrimSpace(line) != "c := color.New(attrs...)" {
				t.Errorf("%s:%d: make colours with paint, which follows --color: %s", path, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestInitWizardColour runs the wizard of hookctl init in a terminal, in a
// process of its own (the prompts' library decides on colour once per
// process and prompt): --color never and NO_COLOR keep its prompts plain.
func TestInitWizardColour(t *testing.T) {
	bin := filepath.Join(hookctlOnPath(t), "hookctl")
	sgr := regexp.MustCompile(`\x1b\[[0-9;]+m`)
	for _, c := range []struct {
		color, noColor string
		want           bool
	}{
		{"auto", "", true},
		{"always", "", true},
		{"never", "", false},
		{"auto", "1", false},
	} {
		ptm, tty, err := pty.Open()
		if err != nil {
			t.Skipf("no pseudo-terminal: %v", err)
		}
		var raw bytes.Buffer
		term := vt10x.New(vt10x.WithWriter(tty), vt10x.WithSize(100, 40))
		con, err := expect.NewConsole(expect.WithStdin(ptm), expect.WithStdout(term, &raw), expect.WithCloser(ptm, tty),
			expect.WithDefaultTimeout(20*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, "--color", c.color, "init", "--dir", t.TempDir())
		cmd.Stdin, cmd.Stdout, cmd.Stderr = con.Tty(), con.Tty(), con.Tty()
		var env []string
		for _, kv := range os.Environ() {
			// survey takes CLICOLOR_FORCE, even empty, as forcing colour.
			if !strings.HasPrefix(kv, "CLICOLOR_FORCE=") && !strings.HasPrefix(kv, "NO_COLOR=") {
				env = append(env, kv)
			}
		}
		cmd.Env = append(env, "HOME="+t.TempDir(), "NO_COLOR="+c.noColor)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		waited := make(chan error, 1)
		go func() { waited <- cmd.Wait() }()
		// Enter at every question takes its default.
		for _, q := range []string{"Where should the hook live?", "Which event should it handle?", "What should it do?",
			"Name of the hook:", "Which tools should it run for?", "Which language should the script be in?", "Timeout in seconds:", scaffold.TraceQuestion} {
			expectString(t, con, q)
			con.SendLine("")
		}
		expectString(t, con, "Next steps:")
		select {
		case <-waited:
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("hookctl init did not end; it printed:\n%q", raw.String())
		}
		con.Close()
		if got := sgr.MatchString(raw.String()); got != c.want {
			t.Errorf("--color %s, NO_COLOR=%q: coloured %v, want %v:\n%q", c.color, c.noColor, got, c.want, raw.String())
		}
	}
}
