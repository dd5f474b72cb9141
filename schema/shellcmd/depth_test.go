package shellcmd

import (
	"errors"
	"runtime"
	"strings"
	"testing"
)

func nested(open, mid, closer string, levels int) string {
	return strings.Repeat(open, levels) + mid + strings.Repeat(closer, levels)
}

// TestTooDeep: a command nested deeper than hookctl reads, by recursion in
// the parser or in the tree it built (a pipeline, a && list), is a
// TooDeepError and a gap of code over all of it, whatever the shape; one
// nested as deep as people write is read.
func TestTooDeep(t *testing.T) {
	deep := map[string]string{
		"subshells":               nested("( ", "./gate.sh", " )", 20000),
		"parentheses":             nested("(", "./gate.sh", ")", 50000),
		"command substitutions":   "echo " + nested("$(", "./gate.sh", ")", 20000),
		"ifs":                     nested("if true; then ", "./gate.sh", "; fi", 5000),
		"arithmetic":              "echo $((" + nested("(", "1", ")", 400) + "))",
		"a pipeline":              strings.Repeat("./gate.sh | ", 300) + "cat",
		"a && list":               strings.Repeat("./gate.sh && ", 300) + "true",
		"nested in double quotes": nested(`"$(`, "./gate.sh", `)"`, 5000),
		"parameter expansions":    "echo " + nested("${a:-", "x", "}", 5000),
	}
	for name, cmd := range deep {
		c := Parse(cmd, "/w", "")
		var td *TooDeepError
		if !errors.As(c.Err, &td) || len(c.Calls) != 0 {
			t.Errorf("%s: err %v, %d calls, want a TooDeepError and none", name, c.Err, len(c.Calls))
			continue
		}
		if len(c.Gaps) != 1 || !c.Gaps[0].Code || c.Gaps[0].Word.From != 0 || c.Gaps[0].Word.To != len(cmd) {
			t.Errorf("%s: gaps %+v, want one of code over the whole command", name, c.Gaps)
		}
	}
	fine := map[string]string{
		"subshells":             nested("( ", "./gate.sh", " )", 40),
		"command substitutions": "echo " + nested("$(", "./gate.sh", ")", 30),
		"ifs":                   nested("if true; then ", "./gate.sh", "; fi", 30),
		"arithmetic":            "echo $((" + nested("(", "1", ")", 20) + ")); ./gate.sh",
		"a pipeline":            strings.Repeat("./gate.sh | ", 60) + "cat",
		"a && list":             strings.Repeat("./gate.sh && ", 60) + "true",
	}
	for name, cmd := range fine {
		c := Parse(cmd, "/w", "")
		gate := false
		for _, call := range c.Calls {
			gate = gate || call.Args[0].Text == "./gate.sh"
		}
		if c.Err != nil || len(c.Gaps) != 0 || !gate {
			t.Errorf("%s: err %v, gaps %+v, %d calls, want it read", name, c.Err, c.Gaps, len(c.Calls))
		}
	}
}

// TestTooDeepInside: code too deep inside sh -c is a gap of the code word,
// and a statement too deep before a line the parser rejects makes all of
// it a gap rather than be walked.
func TestTooDeepInside(t *testing.T) {
	c := Parse(`./first.sh; sh -c '`+nested("( ", "./gate.sh", " )", 3000)+`'`, "/w", "")
	if c.Err != nil || len(c.Calls) != 2 || c.Calls[0].Args[0].Text != "./first.sh" {
		t.Fatalf("err %v, %d calls", c.Err, len(c.Calls))
	}
	if len(c.Gaps) != 1 || !c.Gaps[0].Code || !strings.Contains(c.Gaps[0].Why, "deeper than hookctl reads") {
		t.Errorf("gaps %+v, want the code of sh -c named", c.Gaps)
	}
	src := strings.Repeat("./gate.sh | ", 300) + "cat\n./after.sh\nif then\n"
	s := ParseScript(src, "/w", "", Start{}, nil)
	if len(s.Calls) != 0 || len(s.Gaps) != 1 || s.Gaps[0].Word.From != 0 || !strings.Contains(s.Gaps[0].Why, "deeper than hookctl reads") {
		t.Errorf("calls %d, gaps %+v, want the whole script a gap", len(s.Calls), s.Gaps)
	}
}

// TestTooDeepMemory: reading 50,000 nested subshells, 100 KB, holds no
// deep stack: it cost 270 MB of stack before the parser was bounded.
func TestTooDeepMemory(t *testing.T) {
	cmd := nested("(", "x", ")", 50000)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	Parse(cmd, "/w", "")
	runtime.ReadMemStats(&after)
	if grown := after.StackSys - before.StackSys; grown > 8<<20 {
		t.Errorf("the stacks grew by %d MB", grown>>20)
	}
}
