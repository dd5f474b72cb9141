package convert

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/schema"
)

// TestSettingsPastTheBound: another agent's settings of more values than
// schema.MaxOtherValues are refused at the value past the bound, without
// the tree (or hujson's, for a file with comments) they would cost.
func TestSettingsPastTheBound(t *testing.T) {
	many := strings.Repeat("1,", 2*schema.MaxOtherValues) + "1"
	for name, src := range map[string]string{
		"valid":         `{"hooks": {"PreToolUse": [` + many + `]}}`,
		"with comments": "// settings\n" + `{"hooks": {"PreToolUse": [` + many + `]}}`,
	} {
		t.Run(name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, err := Parse("/w", "settings.json", []byte(src), schema.Claude)
			runtime.ReadMemStats(&after)
			if n, limit := after.TotalAlloc-before.TotalAlloc, uint64(4*len(src)); n > limit {
				t.Errorf("reading %d bytes allocated %d, more than %d", len(src), n, limit)
			}
			var fe *FormatError
			if !errors.As(err, &fe) || !strings.Contains(fe.Msg, "more than 262144 JSON values") && !strings.Contains(fe.Msg, "not valid JSON") {
				t.Errorf("error %v, want the bound or invalid JSON", err)
			}
		})
	}
}
