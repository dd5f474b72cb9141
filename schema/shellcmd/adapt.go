package shellcmd

import (
	"fmt"
	"path"
	"strings"
)

// AdaptUsage is the command line of hookctl adapt.
const AdaptUsage = "hookctl adapt --from claude|gemini|cursor|codex [--event EVENT] -- COMMAND [ARG...]"

// AdaptArgs are the arguments of hookctl adapt as it reads them.
type AdaptArgs struct {
	// From is the agent the handler was written for; Event that agent's
	// name for the event, "" when not given.
	From, Event string
	// Command is COMMAND and its arguments: what adapt runs.
	Command []string
}

// ParseAdapt reads the arguments of hookctl adapt, the words after
// "adapt": --from and --event, in any order, each as --flag VALUE or
// --flag=VALUE (one dash or two), up to "--" or the first word that is not
// a flag, which starts COMMAND. --from is required.
func ParseAdapt(args []string) (AdaptArgs, error) {
	var a AdaptArgs
	i := 0
	for i < len(args) {
		w := args[i]
		if w == "--" {
			i++
			break
		}
		if !strings.HasPrefix(w, "-") || w == "-" {
			break
		}
		name, value, hasValue := strings.Cut(strings.TrimPrefix(w[1:], "-"), "=")
		if name != "from" && name != "event" {
			return a, fmt.Errorf("unknown flag %s: adapt takes --from and --event, then -- and the command", w)
		}
		if !hasValue {
			if i+1 >= len(args) {
				return a, fmt.Errorf("--%s needs a value", name)
			}
			i++
			value = args[i]
		}
		if value == "" {
			return a, fmt.Errorf("--%s needs a value", name)
		}
		if name == "from" {
			a.From = value
		} else {
			a.Event = value
		}
		i++
	}
	if a.From == "" {
		return a, fmt.Errorf("--from names the agent the handler was written for: %s", AdaptUsage)
	}
	if i >= len(args) || args[i] == "" {
		return a, fmt.Errorf("no command to run: %s", AdaptUsage)
	}
	a.Command = args[i:]
	return a, nil
}

// Adapted reports whether the command runs its program through hookctl
// adapt, and for which agent: such a handler reads another agent's
// payload and answers in its way on purpose. A word known only when the
// command runs stands as "?".
func (c *Command) Adapted() (agent string, ok bool) {
	for _, call := range c.Calls {
		for i, w := range call.Args {
			if !w.Lit {
				break
			}
			if path.Base(w.Text) != "hookctl" || i+1 >= len(call.Args) || call.Args[i+1].Text != "adapt" {
				continue
			}
			words := make([]string, 0, len(call.Args)-i-2)
			for _, a := range call.Args[i+2:] {
				if a.Lit {
					words = append(words, a.Text)
				} else {
					words = append(words, "?")
				}
			}
			if a, err := ParseAdapt(words); err == nil {
				return a.From, true
			}
		}
	}
	return "", false
}
