package schema

import (
	"strings"
	"testing"
)

func TestUnwrapTrace(t *testing.T) {
	for in, want := range map[string]string{
		"hookctl trace -- ./hooks/gate.py":                                   "./hooks/gate.py",
		"hookctl trace -- python3 hooks/gate.py --strict":                    "python3 hooks/gate.py --strict",
		"/usr/local/bin/hookctl trace -- ./x.sh a b":                         "./x.sh a b",
		"../bin/hookctl trace ./x.sh -- -v":                                  "./x.sh -- -v",
		"hookctl trace --log /tmp/l.jsonl --payload --hook gate -- ./g.sh":   "./g.sh",
		"hookctl trace --log=/tmp/l --event=PreToolUse -hook g -payload ./g": "./g",
		"hookctl trace --payload=false -- -dash-command":                     "-dash-command",
	} {
		got, ok := UnwrapTrace(strings.Fields(in))
		if !ok || strings.Join(got, " ") != want {
			t.Errorf("UnwrapTrace(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{
		"hookctl trace",
		"hookctl trace --",
		"hookctl trace --log",
		"hookctl trace --log -- ",
		"hookctl trace --verbose -- ./x",
		"hookctl trace --help",
		"hookctl trace ---log f -- ./x",
		"hookctl trace --payload=yes -- ./x",
		"hookctl run PreToolUse",
		"hookctl-dev trace -- ./x",
		"./hooks/gate.py",
		"trace -- ./x",
	} {
		if got, ok := UnwrapTrace(strings.Fields(in)); ok {
			t.Errorf("UnwrapTrace(%q) = %q, want no match", in, got)
		}
	}
	if got, ok := UnwrapTrace([]string{"hookctl", "trace", "--log=", "--", "./x"}); ok {
		t.Errorf("an empty --log= was accepted: %q", got)
	}
}
