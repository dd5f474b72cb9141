package main

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
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
