package hooktest

import (
	"runtime"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/schema"
)

// TestTestFilePastTheBound: a test file of more values than
// schema.MaxOtherValues is refused at the value past the bound, without
// the tree it would cost (some 120 bytes a value), and not called invalid.
func TestTestFilePastTheBound(t *testing.T) {
	src := []byte(`{"tests": [` + strings.Repeat("1,", 2*schema.MaxOtherValues) + "1]}")
	var ps Problems
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, ps = Parse("hooks.test.json", src)
	runtime.ReadMemStats(&after)
	if n, limit := after.TotalAlloc-before.TotalAlloc, uint64(4*len(src)); n > limit {
		t.Errorf("reading %d bytes allocated %d, more than %d", len(src), n, limit)
	}
	if len(ps) != 1 || !strings.Contains(ps[0].Msg, "more than 262144 JSON values and keys") || strings.Contains(ps[0].Msg, "not valid JSON") {
		t.Errorf("problems %v, want the bound", ps)
	}
}
