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
	want := "1:" + strconv.Itoa(2*MaxValues) + ": the file holds more than 16384 JSON values and keys"
	if got := c.Syntax.Error(); !strings.HasPrefix(got, want) {
		t.Errorf("error %q, want it to start %q", got, want)
	}
	if root, _, err := ParseJSON([]byte(at(MaxValues))); err != nil || len(root.Elems) != MaxValues {
		t.Errorf("ParseJSON: %v", err)
	}
}

// TestMaxValuesNoTree: a file past the bound is refused without its tree
// (a handful of allocations, not one per chunk of values), and a syntax
// error before the bound is still the one reported, with its message whole.
func TestMaxValuesNoTree(t *testing.T) {
	big := []byte("[" + strings.Repeat("1,", MaxValues+10) + "1]")
	if n := testing.AllocsPerRun(2, func() { Parse("hooks.json", big) }); n > 50 {
		t.Errorf("%v allocations refusing %d values, want a handful", n, MaxValues+10)
	}
	early := Parse("hooks.json", []byte(`[{"key" 1}, `+strings.Repeat("1,", MaxValues+10)+"1]"))
	want := `1:9: expected ':' after the key "key", found '1'`
	if early.Syntax == nil || early.Syntax.Error() != want {
		t.Errorf("error %v, want %q", early.Syntax, want)
	}
	// Many bytes but few values: read whole.
	long := Parse("hooks.json", []byte(`{"k": "`+strings.Repeat("a", 2*MaxValues)+`"}`))
	if long.Syntax != nil || len(long.Root.Get("k").Value.Str) != 2*MaxValues {
		t.Errorf("a long string: %v", long.Syntax)
	}
}
