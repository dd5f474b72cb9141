package lint

import (
	"runtime"
	"strings"
	"testing"
)

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestValuesPastTheBoundCostNoTree: a file, or an answer a command
// prints, of a million values is read no further than the bound on a
// hooks.json's values, so linting it allocates a few times its size, not
// the hundreds of bytes a value its tree would take.
func TestValuesPastTheBoundCostNoTree(t *testing.T) {
	many := strings.Repeat("1,", 1<<20) + "1"
	for name, src := range map[string]string{
		// The reading goes past the trailing comma and stops at the
		// bound, without the tree.
		"trailing comma": "[[1,]," + many + "]",
		"echo":           `{"gate": {"PreToolUse": [{"matcher": "run_command", "hooks": [{"command": "echo '[` + many + `]'"}]}]}}`,
	} {
		t.Run(name, func(t *testing.T) {
			var got []Finding
			n := allocated(func() {
				got = lintText(t, src)
			})
			if limit := uint64(16 * len(src)); n > limit {
				t.Errorf("linting %d bytes allocated %d, more than %d", len(src), n, limit)
			}
			if name == "trailing comma" && (len(got) != 2 || got[0].Fix == nil || !strings.Contains(got[1].Message, "more than 16384 JSON values")) {
				t.Errorf("findings %+v, want the trailing comma's, with its fix, and the bound's", got)
			}
		})
	}
}

func lintText(t *testing.T, src string) []Finding {
	t.Helper()
	return LintSource(Target{Path: "hooks.json"}, []byte(src))
}
