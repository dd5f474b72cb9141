package lazyre

import "testing"

// TestNew: the expression is compiled once, on first use, and matches as
// regexp.MustCompile's would.
func TestNew(t *testing.T) {
	re := New(`^a+b$`)
	first := re()
	if first != re() {
		t.Error("a second call compiled the expression again")
	}
	if !first.MatchString("aab") || first.MatchString("ab c") {
		t.Error("the expression does not match as written")
	}
}
