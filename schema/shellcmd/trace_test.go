package shellcmd

import (
	"strings"
	"testing"

	"github.com/hookctl/hookctl/schema"
)

func TestTraceCommand(t *testing.T) {
	for in, want := range map[string]string{
		"hookctl trace -- ./hooks/gate.py":                                   "./hooks/gate.py",
		"hookctl trace -- python3 hooks/gate.py --strict":                    "python3 hooks/gate.py --strict",
		"/usr/local/bin/hookctl trace -- ./x.sh a b":                         "./x.sh a b",
		"../bin/hookctl trace ./x.sh -- -v":                                  "./x.sh -- -v",
		"hookctl trace --log /tmp/l.jsonl --payload --hook gate -- ./g.sh":   "./g.sh",
		"hookctl trace --log=/tmp/l --event=PreToolUse -hook g -payload ./g": "./g",
		"hookctl trace --event E --hook N --payload --log F ./g a":           "./g a",
		"hookctl trace --payload=false -- -dash-command":                     "-dash-command",
	} {
		words := strings.Fields(in)
		i, ok := TraceCommand(words)
		if !ok || strings.Join(words[i:], " ") != want {
			t.Errorf("TraceCommand(%q) = %d, %v; want %q", in, i, ok, want)
		}
		args, err := ParseTrace(words[2:])
		if err != nil || strings.Join(args.Command, " ") != want {
			t.Errorf("ParseTrace(%q) = %q, %v; want %q", in, args.Command, err, want)
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
		words := strings.Fields(in)
		if i, ok := TraceCommand(words); ok {
			t.Errorf("TraceCommand(%q) = %q, want no match", in, words[i:])
		}
	}
	if _, ok := TraceCommand([]string{"hookctl", "trace", "--log=", "--", "./x"}); ok {
		t.Error("an empty --log= was accepted")
	}
	args, err := ParseTrace([]string{"--hook=gate", "-event", "Stop", "--log", "f", "--payload", "./x"})
	if err != nil || args.Log != "f" || !args.Payload || args.Hook != "gate" || args.Event != "Stop" || strings.Join(args.Command, " ") != "./x" {
		t.Errorf("ParseTrace's flags: %+v, %v", args, err)
	}
}

// TestTraceSeenThrough: the files a traced command names are those of
// the command behind the wrapper, whatever the form of the trace line.
func TestTraceSeenThrough(t *testing.T) {
	for _, in := range []string{
		"hookctl trace -- ./hooks/gate.py",
		"hookctl trace ./hooks/gate.py",
		"hookctl trace --hook gate --event PreToolUse ./hooks/gate.py",
		"hookctl trace --event=PreToolUse --payload --log \"$HOME/runs.jsonl\" -- ./hooks/gate.py",
		"env A=1 /usr/local/bin/hookctl trace -- ./hooks/gate.py",
		"hookctl trace -- env A=1 ./hooks/gate.py",
		"timeout 5 hookctl trace --hook=gate ./hooks/gate.py",
		"cd sub && hookctl trace -- ../hooks/gate.py",
	} {
		refs, gaps := Parse(in, "/w/.agents", "/w").Refs()
		var runs []string
		for _, r := range refs {
			if r.Role.Runs() {
				runs = append(runs, r.Path)
			}
		}
		if len(runs) != 1 || !strings.HasSuffix(runs[0], "/hooks/gate.py") || len(gaps) != 0 {
			t.Errorf("%s: runs %q, gaps %v", in, runs, gaps)
		}
	}
	// A trace line trace refuses runs no script.
	if m, ok := Parse("hookctl trace --bogus ./hooks/gate.py", "/w", "/w").Main(); ok {
		t.Errorf("refused trace line: main %+v", m)
	}
}

// TestTraceLineReadBack: what TraceLine writes, the readers read back as
// the hook, the event and the command it was given.
func TestTraceLineReadBack(t *testing.T) {
	line := TraceLine("gate", schema.PreToolUse, "./hooks/gate.sh")
	if line != "hookctl trace --hook gate --event PreToolUse -- ./hooks/gate.sh" {
		t.Fatalf("TraceLine = %q", line)
	}
	words := strings.Fields(line)
	args, err := ParseTrace(words[2:])
	if err != nil || args.Hook != "gate" || args.Event != "PreToolUse" || strings.Join(args.Command, " ") != "./hooks/gate.sh" {
		t.Errorf("ParseTrace read %+v, %v", args, err)
	}
	if i, ok := TraceCommand(words); !ok || strings.Join(words[i:], " ") != "./hooks/gate.sh" {
		t.Errorf("TraceCommand read %d, %v", i, ok)
	}
}
