package schema

import (
	"strconv"
	"strings"
	"testing"
)

// TestMaxValues: a hooks.json of MaxValues values and keys loads; one more is a
// syntax error at the value past the bound, before its tree is built.
// Payloads and answers (ParseJSON) have bounds of their own.
func TestMaxValues(t *testing.T) {
	// The array is a value: MaxValues-1 elements make MaxValues.
	at := func(n int) string { return "[" + strings.Repeat("1,", n-1) + "1]" }
	if c := Parse("hooks.json", []byte(at(MaxValues-1))); c.Syntax != nil {
		t.Fatalf("%d values: %v", MaxValues, c.Syntax)
	}
	c := Parse("hooks.json", []byte(at(MaxValues)))
	if c.Syntax == nil {
		t.Fatalf("%d values loaded", MaxValues+1)
	}
	want := "1:" + strconv.Itoa(2*MaxValues) + ": the file holds more than 524288 JSON values and keys"
	if got := c.Syntax.Error(); !strings.HasPrefix(got, want) {
		t.Errorf("error %q, want it to start %q", got, want)
	}
	if root, _, err := ParseJSON([]byte(at(MaxValues))); err != nil || len(root.Elems) != MaxValues {
		t.Errorf("ParseJSON: %v", err)
	}
}
