package shellcmd

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/hookctl/hookctl/schema"
)

// TraceUsage is the command line of hookctl trace.
const TraceUsage = "hookctl trace [--log FILE] [--payload] [--hook NAME] [--event EVENT] -- COMMAND [ARG...]"

// TraceArgs are the arguments of hookctl trace as it reads them.
type TraceArgs struct {
	Log     string
	Payload bool
	Hook    string
	Event   string
	// Command is COMMAND and its arguments: what trace runs.
	Command []string
}

// ParseTrace reads the arguments of hookctl trace, the words after
// "trace": its flags, in any order, up to "--" or the first word that is
// not a flag, which starts COMMAND. A flag may be written --flag VALUE,
// --flag=VALUE or with one dash, and --payload may be =true or =false.
// It is the one reader of a trace line: hookctl trace runs what it
// returns, and every reader of a handler's command (lint, trust, list,
// run, import, doctor) sees through the wrapper with TraceCommand, which
// reads the words the same way.
func ParseTrace(args []string) (TraceArgs, error) {
	var t TraceArgs
	start, err := traceFlags(len(args), func(i int) (string, bool) { return args[i], true }, &t)
	if err != nil {
		return t, err
	}
	t.Command = args[start:]
	return t, nil
}

// TraceLine is the command of a handler run through hookctl trace, which
// tells the record the hook's name and event: the agent tells a handler
// neither. It is the one writer of a trace line; ParseTrace and
// TraceCommand read it.
func TraceLine(hook string, event schema.Event, command string) string {
	return "hookctl trace --hook " + hook + " --event " + string(event) + " -- " + command
}

// TraceCommand recognises a call of hookctl trace, given as the words a
// shell splits it into, the program first ("hookctl", or a path to it:
// /usr/local/bin/hookctl), and returns the index of the word that starts
// COMMAND. It returns false for any other call and for a trace line that
// hookctl trace refuses (an unknown flag, a flag without its value, no
// COMMAND), which runs nothing but hookctl.
func TraceCommand(words []string) (int, bool) {
	return traceStart(len(words), func(i int) (string, bool) { return words[i], true })
}

// traceStart is TraceCommand over words that may be known only when the
// command runs: text returns a word's text and whether it is literal. A
// word that is not literal where a flag may stand is taken to start
// COMMAND, as its value cannot be a flag of trace's own that changes what
// runs.
func traceStart(n int, text func(int) (string, bool)) (int, bool) {
	if n < 3 {
		return 0, false
	}
	prog, lit := text(0)
	verb, vlit := text(1)
	if !lit || !vlit || path.Base(prog) != "hookctl" || verb != "trace" {
		return 0, false
	}
	var t TraceArgs
	start, err := traceFlags(n-2, func(i int) (string, bool) { return text(i + 2) }, &t)
	if err != nil {
		return 0, false
	}
	return start + 2, true
}

// traceFlags reads trace's flags from the n words text gives, into t, and
// returns the index of COMMAND's first word.
func traceFlags(n int, text func(int) (string, bool), t *TraceArgs) (int, error) {
	return wrapperFlags(n, text, wrapper{
		values: []string{"log", "hook", "event"}, bools: []string{"payload"},
		unknown: "trace takes --log, --payload, --hook and --event, then -- and the command", usage: TraceUsage,
		set: func(name, value string) {
			switch name {
			case "log":
				t.Log = value
			case "hook":
				t.Hook = value
			case "event":
				t.Event = value
			case "payload":
				t.Payload = value == "true"
			}
		},
	})
}

// wrapper describes the flags of a wrapper of hookctl's (trace, adapt):
// those that take a value (--flag VALUE, --flag=VALUE), those that are
// on or off (--flag, --flag=true, --flag=false), what to say of an unknown
// one, the command's usage, and what to do with each flag read.
type wrapper struct {
	values, bools []string
	unknown       string
	usage         string
	set           func(name, value string)
}

// wrapperFlags reads a wrapper's flags from the n words text gives, in any
// order, each with one dash or two, up to "--" or the first word that is
// not a flag, and returns the index of COMMAND's first word. A word not
// literal where a flag may stand starts COMMAND; one where a value stands
// is taken as a value that is not empty.
func wrapperFlags(n int, text func(int) (string, bool), w wrapper) (int, error) {
	i := 0
	for i < n {
		a, lit := text(i)
		if !lit {
			break
		}
		if a == "--" {
			i++
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			break
		}
		name, value, hasValue := strings.Cut(strings.TrimPrefix(a[1:], "-"), "=")
		switch {
		case slices.Contains(w.values, name):
			if !hasValue {
				if i+1 >= n {
					return 0, fmt.Errorf("--%s needs a value", name)
				}
				i++
				var vlit bool
				if value, vlit = text(i); !vlit {
					// Known when the command runs; not empty as far as
					// can be told.
					value = "?"
				}
			}
			if value == "" {
				return 0, fmt.Errorf("--%s needs a value", name)
			}
		case slices.Contains(w.bools, name):
			if hasValue && value != "true" && value != "false" {
				return 0, fmt.Errorf("--%s takes no value, or =true or =false, not %q", name, value)
			}
			if !hasValue {
				value = "true"
			}
		default:
			return 0, fmt.Errorf("unknown flag %s: %s", a, w.unknown)
		}
		w.set(name, value)
		i++
	}
	if i >= n {
		return 0, fmt.Errorf("no command to run: %s", w.usage)
	}
	if first, lit := text(i); lit && first == "" {
		return 0, fmt.Errorf("no command to run: %s", w.usage)
	}
	return i, nil
}
