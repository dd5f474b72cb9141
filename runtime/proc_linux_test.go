package runtime

import (
	"os/exec"
	"testing"
)

// BenchmarkFinish measures what the end of a handler that left nothing
// behind costs: the signal to its empty group and the look for orphans
// among this process's children, alone (the usual hookctl run) and while
// another handler's shell runs (handlers in parallel).
func BenchmarkFinish(b *testing.B) {
	done := exec.Command("true")
	if err := done.Run(); err != nil {
		b.Fatal(err)
	}
	b.Run("alone", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			(&family{pgid: done.Process.Pid}).finish()
		}
	})
	b.Run("beside-another-handler", func(b *testing.B) {
		other := exec.Command("sleep", "60")
		f, err := startFamily(other)
		if err != nil {
			b.Fatal(err)
		}
		defer func() {
			_ = other.Process.Kill()
			_ = other.Wait()
			f.shellReaped()
			f.finish()
		}()
		b.ReportAllocs()
		for b.Loop() {
			(&family{pgid: done.Process.Pid}).finish()
		}
	})
}
