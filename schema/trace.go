package schema

import (
	"path"
	"strings"
)

// UnwrapTrace recognises a handler's command written through hookctl
// trace, given as the words a shell would split it into:
//
//	hookctl trace [--log FILE] [--payload] [--hook NAME] [--event EVENT] -- COMMAND [ARG...]
//
// and returns COMMAND ARG..., the command trace runs, as a sub-slice of
// words. "hookctl" may be a
// path (/usr/local/bin/hookctl), flags may be written --flag VALUE,
// --flag=VALUE or with one dash (--payload=true and =false too), and the "--" may be left out when COMMAND
// does not start with a dash, as hookctl trace itself accepts. It returns
// false for any other command, and for a trace line hookctl trace would
// refuse (an unknown flag, a flag without its value, no COMMAND).
func UnwrapTrace(words []string) (inner []string, ok bool) {
	if len(words) < 3 || path.Base(words[0]) != "hookctl" || words[1] != "trace" {
		return nil, false
	}
	args := words[2:]
	for len(args) > 0 {
		a := args[0]
		if a == "--" {
			args = args[1:]
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			break
		}
		name, value, hasValue := strings.Cut(strings.TrimPrefix(a[1:], "-"), "=")
		switch name {
		case "log", "hook", "event":
			if !hasValue {
				if len(args) < 2 {
					return nil, false
				}
				args = args[1:]
				value = args[0]
			}
			if value == "" {
				return nil, false
			}
		case "payload":
			if hasValue && value != "true" && value != "false" {
				return nil, false
			}
		default:
			return nil, false
		}
		args = args[1:]
	}
	if len(args) == 0 || args[0] == "" {
		return nil, false
	}
	return args, true
}
