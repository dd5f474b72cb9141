package shellcmd

import (
	"fmt"
	"path"
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
// a flag, which starts COMMAND. --from is required. hookctl adapt runs
// what it returns; the readers of a handler's command see through the
// wrapper with adaptStart, which finds COMMAND the same way and, to cover
// what may run, past flags it does not know too.
func ParseAdapt(args []string) (AdaptArgs, error) {
	var a AdaptArgs
	start, err := adaptFlags(len(args), func(i int) (string, bool) { return args[i], true }, &a)
	if err != nil {
		return a, err
	}
	a.Command = args[start:]
	return a, nil
}

// adaptFlags reads adapt's flags from the n words text gives, into a, and
// returns the index of COMMAND's first word.
func adaptFlags(n int, text func(int) (string, bool), a *AdaptArgs) (int, error) {
	start, err := wrapperFlags(n, text, wrapper{
		values: []string{"from", "event"}, unknown: "adapt takes --from and --event, then -- and the command", usage: AdaptUsage,
		set: func(name, value string) {
			if name == "from" {
				a.From = value
			} else {
				a.Event = value
			}
		},
	})
	if err == nil && a.From == "" {
		return 0, fmt.Errorf("--from names the agent the handler was written for: %s", AdaptUsage)
	}
	return start, err
}

// Adapted reports whether the command runs its program through hookctl
// adapt, and for which agent: such a handler reads another agent's
// payload and answers in its way on purpose. A word known only when the
// command runs stands as "?".
func (c *Command) Adapted() (agent string, ok bool) {
	for _, call := range c.Calls {
		args := call.Args
		for i := range args {
			if !args[i].Lit {
				break
			}
			if path.Base(args[i].Text) != "hookctl" {
				continue
			}
			v := hookctlVerb(args, i)
			if v < 0 || !args[v].Lit || args[v].Text != "adapt" {
				continue
			}
			words := make([]string, 0, len(args)-v-1)
			for _, w := range args[v+1:] {
				if w.Lit {
					words = append(words, w.Text)
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
