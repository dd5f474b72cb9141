package paint

import (
	"testing"

	"github.com/fatih/color"
)

// TestNew: color.NoColor alone decides, whatever NO_COLOR says, and it is
// read when the colour is made.
func TestNew(t *testing.T) {
	saved := color.NoColor
	t.Cleanup(func() { color.NoColor = saved })
	for _, c := range []struct {
		noColorEnv string
		noColor    bool
		want       string
	}{
		{"", false, "\x1b[31;1mx\x1b[0;22m"},
		{"1", false, "\x1b[31;1mx\x1b[0;22m"},
		{"", true, "x"},
		{"1", true, "x"},
	} {
		t.Setenv("NO_COLOR", c.noColorEnv)
		color.NoColor = c.noColor
		if got := New(color.FgRed, color.Bold).Sprint("x"); got != c.want {
			t.Errorf("NO_COLOR=%q, color.NoColor %v: got %q, want %q", c.noColorEnv, c.noColor, got, c.want)
		}
	}
	// What New is for: color.New alone stays plain under NO_COLOR, even
	// with color.NoColor false (--color always).
	t.Setenv("NO_COLOR", "1")
	color.NoColor = false
	if got := color.New(color.FgRed).Sprint("x"); got != "x" {
		t.Errorf("color.New under NO_COLOR gave %q: New may no longer be needed", got)
	}
}
