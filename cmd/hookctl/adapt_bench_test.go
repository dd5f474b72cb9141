//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkAdaptOverhead times, as the agent pays it, hookctl adapt in
// front of /bin/true beside /bin/true alone and minwrap in front of it, the
// three run in turn in each iteration so that the machine's drift is
// shared. The metric x-minwrap is adapt's overhead over /bin/true divided
// by minwrap's (docs/performance.md).
func BenchmarkAdaptOverhead(b *testing.B) {
	bin, minwrap := hookctlBinary(b), minwrapBinary(b)
	payload := []byte(`{"toolCall":{"name":"run_command","args":{"CommandLine":"ls","Cwd":"/tmp"}},"stepIdx":0,"conversationId":"c","workspacePaths":["/tmp"],"transcriptPath":"","artifactDirectoryPath":"","modelName":""}`)
	env := append(os.Environ(), "HOOKCTL_LOG="+filepath.Join(b.TempDir(), "runs.jsonl"))
	run := func(argv ...string) time.Duration {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Stdin, cmd.Env = bytes.NewReader(payload), env
		start := time.Now()
		if err := cmd.Run(); err != nil {
			b.Fatalf("%q: %v", argv, err)
		}
		return time.Since(start)
	}
	var alone, wrapped, adapted time.Duration
	for b.Loop() {
		alone += run("/bin/true")
		wrapped += run(minwrap, "/bin/true")
		adapted += run(bin, "adapt", "--from", "claude", "--event", "PreToolUse", "--", "/bin/true")
	}
	n := float64(b.N)
	b.ReportMetric(float64(alone)/n/1e6, "true-ms")
	b.ReportMetric(float64(wrapped)/n/1e6, "minwrap-ms")
	b.ReportMetric(float64(adapted)/n/1e6, "adapt-ms")
	b.ReportMetric(float64(adapted-alone)/float64(wrapped-alone), "x-minwrap")
}
