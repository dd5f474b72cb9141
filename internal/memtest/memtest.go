//go:build linux

// Package memtest measures the peak memory of reading hostile hooks.json
// files, for the benchmarks of lint, run and list: it writes the files and
// runs the benchmark's own test binary again as a child that does the work
// once and writes its own peak resident size (VmHWM) when it ends.
package memtest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// Input is a hooks.json written to cost memory.
type Input struct {
	Name string
	Src  func() []byte
}

// Inputs are the hostile files: dense values, repeated keys, deep nesting,
// many hooks, a huge string. Each is at most 16 MiB, what hookctl reads.
func Inputs() []Input {
	const size = 15 << 20
	return []Input{
		{"ones-15MiB", func() []byte { return repeatIn("[", "1", ",", "]", size) }},
		{"dupkeys-7MiB", func() []byte { return repeatIn("{", `"a":1`, ",", "}", 7<<20) }},
		{"deep-15MiB", func() []byte {
			return repeatIn("[", string(bytes.Repeat([]byte("["), 990))+string(bytes.Repeat([]byte("]"), 990)), ",", "]", size)
		}},
		{"hooks-30000", func() []byte { return hooks(30000) }},
		{"hooks-15MiB", func() []byte { return hooks(size / 150) }},
		{"string-15MiB", func() []byte {
			return []byte(`{"h": {"Stop": [{"command": "echo ` + string(bytes.Repeat([]byte("a"), size)) + `"}]}}`)
		}},
	}
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

// Workspace writes src as root/.agents/hooks.json and returns its path.
func Workspace(tb testing.TB, root string, src []byte) string {
	tb.Helper()
	path := filepath.Join(root, ".agents", "hooks.json")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, src, 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

const (
	env     = "HOOKCTL_MEMTEST_FILE"
	peakEnv = "HOOKCTL_MEMTEST_PEAK"
)

// Child returns the workspace root the child is to read, "" when this
// process is not a child of Peak. In a child, once the test ends, it
// writes the process's own peak resident size (VmHWM) where Peak reads
// it.
func Child(tb testing.TB) string {
	root := os.Getenv(env)
	if out := os.Getenv(peakEnv); root != "" && out != "" {
		tb.Cleanup(func() {
			if hwm, ok := ownPeak(); ok {
				_ = os.WriteFile(out, []byte(strconv.FormatInt(hwm, 10)), 0o644)
			}
		})
	}
	return root
}

// ownPeak reads this process's peak resident size, in bytes, from
// /proc/self/status.
func ownPeak() (int64, bool) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb * 1024, err == nil
		}
	}
	return 0, false
}

// Peak runs the test named test of this test binary in a child, with
// Child returning root, and returns the child's peak resident size in
// bytes.
//
// The figure is the child's own high-water mark, which it writes when its
// test ends: the kernel's account of a finished child (getrusage's
// ru_maxrss) also holds the parent's resident size, since the child
// shares the parent's memory from fork to exec, so it reads as the
// parent's size (tens of megabytes once the parent holds a 15 MiB input)
// whatever the child does. The account is the fallback where the child
// wrote nothing.
func Peak(tb testing.TB, test, root string) int64 {
	tb.Helper()
	peakFile := filepath.Join(tb.TempDir(), "peak")
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), env+"="+root, peakEnv+"="+peakFile)
	out, err := cmd.CombinedOutput()
	if err != nil {
		tb.Fatalf("child: %v\n%s", err, out)
	}
	if b, err := os.ReadFile(peakFile); err == nil {
		if n, err := strconv.ParseInt(string(b), 10, 64); err == nil && n > 0 {
			return n
		}
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		tb.Skip("no resource usage on this system")
	}
	return ru.Maxrss * 1024 // kilobytes on Linux
}

// Report runs Peak on the workspace root for each benchmark iteration and
// reports the largest peak, the size of its .agents/hooks.json and the
// goal, four times the size plus 30 MB, in megabytes, with the peak's
// share of the goal.
func Report(b *testing.B, test, root string) {
	b.Helper()
	info, err := os.Stat(filepath.Join(root, ".agents", "hooks.json"))
	if err != nil {
		b.Fatal(err)
	}
	var peak int64
	for b.Loop() {
		peak = max(peak, Peak(b, test, root))
	}
	goal := 4*info.Size() + 30e6
	b.ReportMetric(float64(info.Size())/1e6, "file-MB")
	b.ReportMetric(float64(peak)/1e6, "peak-MB")
	b.ReportMetric(float64(goal)/1e6, "goal-MB")
	b.ReportMetric(float64(peak)/float64(goal), "peak/goal")
}
