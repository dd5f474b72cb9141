//go:build linux

// Package memtest measures the peak memory of hookctl lint and hookctl run
// on hostile hooks.json files, for the benchmarks of package main: it
// writes the files, builds hookctl and runs it through the small program
// peakrss, which reports the command's peak resident size.
package memtest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/schema"
)

// Input is a hooks.json written to cost memory.
type Input struct {
	Name string
	Src  func() []byte
	// Files are more files of the workspace, by their path in it: the
	// scripts and the .shellcheckrc written to cost ShellCheck memory.
	Files map[string]string
}

// Inputs are the hostile files: dense values, repeated keys, deep nesting,
// a huge command, each of up to 16 MiB, what hookctl reads; and the largest
// files of hooks, handlers and matchers that the bound on values lets
// through, with one past it. Their hooks match run_command, so that a
// dispatch of another tool reads and plans them all and starts nothing.
func Inputs() []Input {
	const size = 15 << 20
	return []Input{
		{"ones-15MiB", func() []byte { return repeatIn("[", "1", ",", "]", size) }, nil},
		{"dupkeys-7MiB", func() []byte { return repeatIn("{", `"a":1`, ",", "}", 7<<20) }, nil},
		{"deep-15MiB", func() []byte {
			return repeatIn("[", string(bytes.Repeat([]byte("["), 990))+string(bytes.Repeat([]byte("]"), 990)), ",", "]", size)
		}, nil},
		{"string-15MiB", func() []byte {
			return []byte(`{"h": {"Stop": [{"command": "echo ` + string(bytes.Repeat([]byte("a"), size)) + `"}]}}`)
		}, nil},
		// The same, one quoted word: shell syntax, where the one above is
		// plain words.
		{"quoted-15MiB", func() []byte {
			return []byte(`{"h": {"Stop": [{"command": "echo \"` + string(bytes.Repeat([]byte("a"), size)) + `\""}]}}`)
		}, nil},
		// Comments, which lint reads past, up to schema.MaxSyntaxErrors.
		{"comments-15MiB", func() []byte { return []byte("{\n" + strings.Repeat("// c\n", size/5) + "}\n") }, nil},
		// A hook of this shape holds 16 values and keys; the object
		// around them one.
		{"hooks-most", func() []byte { return hooks((schema.MaxValues - 1) / 16) }, nil},
		// The same behind a comment, which lint reads past to check them
		// all.
		{"hooks-most-commented", func() []byte { return append([]byte("// gates\n"), hooks((schema.MaxValues-1)/16)...) }, nil},
		{"hooks-past", func() []byte { return hooks(schema.MaxValues/16 + 1) }, nil},
		// Handlers of one group: 10 values around them, 3 each.
		{"handlers-most", func() []byte {
			return group("run_command", (schema.MaxValues-10)/3, func(i int) string { return "./h.sh " + strconv.Itoa(i) })
		}, nil},
		{"handlers-same-most", func() []byte {
			return group("run_command", (schema.MaxValues-10)/3, func(int) string { return "./h.sh" })
		}, nil},
		// Groups of one handler each, every matcher a different
		// expression: 8 values a group, 5 around them.
		{"matchers-most", func() []byte { return matchers((schema.MaxValues - 5) / 8) }, nil},
		// Ten commands of 50,000 nested subshells, 100 KB each, and ten
		// of a pipeline as long: shell the parser reads by recursion, and
		// a tree as deep that it builds without.
		{"subshells-10x100KB", func() []byte { return Nested(10) }, nil},
		{"pipelines-10x100KB", func() []byte {
			return commands(10, func(i int) string { return strings.Repeat("a|", 50000) + "x" + strconv.Itoa(i) })
		}, nil},
		// The worst of ShellCheck found: a script of 50,000 nested
		// subshells (100 KB; 10 KB cost it 4.5 GB), a .shellcheckrc
		// turning external sources on with a script sourcing /dev/zero
		// (past 3 GB), 300 assignments from unset variables (3 KB: 402
		// MB), in a script, in an inline command and in eight scripts at
		// once (as many ShellChecks as processors).
		{"sc-subshells-script", scripts(1), map[string]string{
			".agents/hooks/s0.sh": "#!/bin/sh\n" + strings.Repeat("(", 50000) + "x" + strings.Repeat(")", 50000) + "\n",
		}},
		{"sc-rc-devzero", scripts(1), map[string]string{
			".shellcheckrc":       "external-sources=true\nsource-path=/dev\n",
			".agents/hooks/s0.sh": "#!/bin/sh\n. /dev/zero\necho \"$1\"\n",
		}},
		{"sc-assignments-script", scripts(1), map[string]string{".agents/hooks/s0.sh": Assignments(300, "\n")}},
		{"sc-assignments-inline", func() []byte {
			return commands(1, func(int) string { return strings.TrimPrefix(Assignments(300, ";"), "#!/bin/sh\n") })
		}, nil},
		{"sc-assignments-8-scripts", scripts(8), func() map[string]string {
			m := map[string]string{}
			for i := range 8 {
				m[".agents/hooks/s"+strconv.Itoa(i)+".sh"] = Assignments(300+i, "\n")
			}
			return m
		}()},
	}
}

// Assignments writes a script of n lines, each assigning a variable from
// another never set, separated by sep: a few kilobytes on which ShellCheck
// 0.9.0 takes hundreds of megabytes.
func Assignments(n int, sep string) string {
	var b strings.Builder
	b.WriteString("#!/bin/sh\n")
	for i := range n {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString("a" + strconv.Itoa(i) + "=$b" + strconv.Itoa(i))
	}
	return b.String() + "\n"
}

// scripts returns a hooks.json of n hooks, the i-th running
// hooks/s<i>.sh.
func scripts(n int) func() []byte {
	return func() []byte { return commands(n, func(i int) string { return "./hooks/s" + strconv.Itoa(i) + ".sh" }) }
}

// Nested writes n hooks, each running one command of 50,000 nested
// subshells, 100 KB.
func Nested(n int) []byte {
	return commands(n, func(i int) string {
		return strings.Repeat("(", 50000) + "x" + strconv.Itoa(i) + strings.Repeat(")", 50000)
	})
}

// commands writes n hooks, the i-th running command(i) on Stop.
func commands(n int, command func(i int) string) []byte {
	var b bytes.Buffer
	b.WriteString("{\n")
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `  "h%d": {"Stop": [{"command": %q}]}`, i, command(i))
	}
	b.WriteString("\n}\n")
	return b.Bytes()
}

// repeatIn writes open, then elem separated by sep until about size bytes,
// then closer.
func repeatIn(open, elem, sep, closer string, size int) []byte {
	var b bytes.Buffer
	b.Grow(size + len(elem) + 2)
	b.WriteString(open)
	for b.Len() < size {
		if b.Len() > len(open) {
			b.WriteString(sep)
		}
		b.WriteString(elem)
	}
	b.WriteString(closer)
	return b.Bytes()
}

// hooks writes n real-looking hooks, a gate each, about 150 bytes a hook.
func hooks(n int) []byte {
	var b bytes.Buffer
	b.WriteString("{\n")
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `  "gate-%d": {"PreToolUse": [{"matcher": "run_command", "hooks": [{"type": "command", "command": "./hooks/gate.sh %d", "timeout": 10}]}]}`, i, i)
	}
	b.WriteString("\n}\n")
	return b.Bytes()
}

// group writes one hook of one group matching matcher with n handlers,
// the i-th running command(i).
func group(matcher string, n int, command func(i int) string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"h":{"PreToolUse":[{"matcher":%q,"hooks":[`, matcher)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"command":%q}`, command(i))
	}
	b.WriteString("]}]}}\n")
	return b.Bytes()
}

// matchers writes one hook of n groups, each with its own matcher.
func matchers(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"h":{"PreToolUse":[`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"matcher":"run_command|t%d","hooks":[{"command":"./h.sh"}]}`, i)
	}
	b.WriteString("]}}\n")
	return b.Bytes()
}

// Workspace writes src as root/.agents/hooks.json, with the scripts the
// inputs name, and returns its path.
func Workspace(tb testing.TB, root string, src []byte) string {
	tb.Helper()
	path := filepath.Join(root, ".agents", "hooks.json")
	script := []byte("#!/bin/sh\necho '{}'\n")
	for _, p := range []string{path, filepath.Join(root, ".agents", "h.sh"), filepath.Join(root, ".agents", "hooks", "gate.sh")} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		data, mode := script, os.FileMode(0o755)
		if p == path {
			data, mode = src, 0o644
		}
		if err := os.WriteFile(p, data, mode); err != nil {
			tb.Fatal(err)
		}
	}
	return path
}

// WriteFiles writes files, by their path in root, as executables.
func WriteFiles(tb testing.TB, root string, files map[string]string) {
	tb.Helper()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			tb.Fatal(err)
		}
	}
}

// Tools are the programs a measure needs, built once per benchmark.
type Tools struct {
	// Hookctl is the command as go build makes it, PeakRSS the program
	// that reports its peak.
	Hookctl, PeakRSS string
	// Home is an empty home folder for the commands.
	Home string
}

// Build builds hookctl and peakrss into a temporary folder.
func Build(tb testing.TB) Tools {
	tb.Helper()
	dir := tb.TempDir()
	t := Tools{Hookctl: filepath.Join(dir, "hookctl"), PeakRSS: filepath.Join(dir, "peakrss"), Home: filepath.Join(dir, "home")}
	if err := os.Mkdir(t.Home, 0o700); err != nil {
		tb.Fatal(err)
	}
	for pkg, out := range map[string]string{
		"github.com/hookctl/hookctl/cmd/hookctl":              t.Hookctl,
		"github.com/hookctl/hookctl/internal/memtest/peakrss": t.PeakRSS,
	} {
		cmd := exec.Command("go", "build", "-o", out, pkg)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if b, err := cmd.CombinedOutput(); err != nil {
			tb.Fatalf("go build %s: %v\n%s", pkg, err, b)
		}
	}
	return t
}

// env is the commands' environment: the empty home, nothing of the
// user's.
func (t Tools) env() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k == "HOME" || strings.HasPrefix(k, "XDG_") || strings.HasPrefix(k, "HOOKCTL_") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "HOME="+t.Home, "XDG_STATE_HOME="+filepath.Join(t.Home, "state"), "XDG_CONFIG_HOME="+filepath.Join(t.Home, "config"))
}

// Run runs hookctl with args in dir, for the set-up of a measure, and
// returns its exit status.
func (t Tools) Run(tb testing.TB, dir string, args ...string) int {
	tb.Helper()
	cmd := exec.Command(t.Hookctl, args...)
	cmd.Dir, cmd.Env = dir, t.env()
	err := cmd.Run()
	if cmd.ProcessState == nil {
		tb.Fatalf("hookctl %s: %v", strings.Join(args, " "), err)
	}
	return cmd.ProcessState.ExitCode()
}

// Peak runs hookctl with args in dir, stdin as its input, and returns its
// peak resident size in bytes.
func (t Tools) Peak(tb testing.TB, dir string, stdin []byte, args ...string) int64 {
	tb.Helper()
	cmd := exec.Command(t.PeakRSS, append([]string{t.Hookctl}, args...)...)
	cmd.Dir, cmd.Env = dir, t.env()
	cmd.Stdin = bytes.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		tb.Fatalf("hookctl %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
	if err != nil {
		tb.Fatalf("peakrss printed %q", out)
	}
	return n
}

// Report reports the peak that measure returns at each benchmark
// iteration (the largest), the size of root's .agents/hooks.json and of
// the files (the scripts lint hands ShellCheck), and the goal, four times
// the size plus 30 MB, in megabytes, with the peak's share of the goal.
func Report(b *testing.B, root string, files map[string]string, measure func() int64) {
	b.Helper()
	info, err := os.Stat(filepath.Join(root, ".agents", "hooks.json"))
	if err != nil {
		b.Fatal(err)
	}
	size := info.Size()
	for _, body := range files {
		size += int64(len(body))
	}
	var peak int64
	for b.Loop() {
		peak = max(peak, measure())
	}
	goal := 4*size + 30e6
	b.ReportMetric(float64(size)/1e6, "file-MB")
	b.ReportMetric(float64(peak)/1e6, "peak-MB")
	b.ReportMetric(float64(goal)/1e6, "goal-MB")
	b.ReportMetric(float64(peak)/float64(goal), "peak/goal")
}
