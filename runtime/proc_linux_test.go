package runtime

import (
	"errors"
	"os/exec"
	"testing"
	"time"
)

// BenchmarkFinish measures what the end of a handler that left nothing
// behind costs: the signal to its empty group and the look for orphans
// among this process's children, alone (a library's dispatch), alone with
// the orphans claimed (hookctl run, which looks again once no handler
// runs), and while another handler's shell runs (handlers in parallel).
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
	b.Run("alone-claimed", func(b *testing.B) {
		// Benchmarks run once every test is over: no other test's child
		// can be taken for an orphan meanwhile.
		claimed.Store(true)
		defer claimed.Store(false)
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

// TestEnvironmentNotKnownYet: a process whose environment reads empty (as
// every process does while it is inside execve) is not taken for a
// stranger at once; finish looks at it again. A process with the marker is
// recognised, one without it is not.
func TestEnvironmentNotKnownYet(t *testing.T) {
	t.Parallel()
	marker := []string{"HOOKCTL_HOOK=env-test"}
	start := func(env []string) *exec.Cmd {
		c := exec.Command("sleep", "60")
		c.Env = env
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Process.Kill(); _ = c.Wait() })
		return c
	}
	for _, tc := range []struct {
		name         string
		env          []string
		match, known bool
	}{
		{"marked", append([]string{"PATH=/usr/bin:/bin"}, marker...), true, true},
		{"another hook's", []string{"PATH=/usr/bin:/bin", "HOOKCTL_HOOK=other"}, false, true},
		{"empty, as inside execve", []string{}, false, false},
	} {
		c := start(tc.env)
		// The environment is there once the exec is over: wait for it.
		var match, known bool
		for i := 0; i < 200; i++ {
			match, known = hasEnv(c.Process.Pid, marker)
			if known || len(tc.env) == 0 && i > 20 {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		if match != tc.match || known != tc.known {
			t.Errorf("%s: hasEnv = %v, %v; want %v, %v", tc.name, match, known, tc.match, tc.known)
		}
	}
}

// noSubreaper keeps this process from becoming a child subreaper, as a
// kernel or a seccomp filter that refuses the prctl would.
func noSubreaper() {
	subreaper.once.Do(func() { subreaper.err = errors.New("no child subreaper in this test") })
}
