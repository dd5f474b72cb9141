package main

import (
	_ "embed"
	"strings"

	"github.com/urfave/cli/v2"
)

// The scripts ask "hookctl __complete" for the candidates, so they need no
// change when a command, flag, event, tool or template is added.
var (
	//go:embed completions/hookctl.bash
	bashCompletion string
	//go:embed completions/hookctl.zsh
	zshCompletion string
	//go:embed completions/hookctl.fish
	fishCompletion string
)

// shells are the shells hookctl completes in.
var shells = []struct {
	name, desc, script string
}{
	{"bash", "source <(hookctl completion bash)", bashCompletion},
	{"zsh", "source <(hookctl completion zsh)", zshCompletion},
	{"fish", "hookctl completion fish | source", fishCompletion},
}

// completionOptions are the completion command's arguments.
type completionOptions struct {
	shell string
}

// shellNames are the names of the shells completion knows.
func shellNames() string {
	var names []string
	for _, sh := range shells {
		names = append(names, sh.name)
	}
	return strings.Join(names, ", ")
}

// newCompletionCommand is hookctl completion. runF, when given, is called
// in place of completionRun.
func newCompletionCommand(f *factory, runF func(*completionOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print the shell completion script for bash, zsh or fish",
		ArgsUsage: "bash|zsh|fish",
		Description: "The script completes commands, flags, event names, tool names after --tool,\n" +
			"template names after --template and formats after --format.\n\n" +
			"  bash  for this shell:      source <(hookctl completion bash)\n" +
			"        for every new shell: hookctl completion bash > ~/.local/share/bash-completion/completions/hookctl\n" +
			"                             (with the bash-completion package), or put the line above in ~/.bashrc\n" +
			"  zsh   for this shell:      source <(hookctl completion zsh)   (after compinit)\n" +
			"        for every new shell: hookctl completion zsh > \"${fpath[1]}/_hookctl\"\n" +
			"  fish  for this shell:      hookctl completion fish | source\n" +
			"        for every new shell: hookctl completion fish > ~/.config/fish/completions/hookctl.fish",
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageErrorf("hookctl completion takes one shell: %s", shellNames())
			}
			opts := &completionOptions{shell: c.Args().First()}
			if runF != nil {
				return runF(opts)
			}
			return completionRun(f, opts)
		},
	}
}

// completionRun prints the completion script of opts.shell.
func completionRun(f *factory, opts *completionOptions) error {
	for _, sh := range shells {
		if sh.name == opts.shell {
			_, err := f.out.Write([]byte(sh.script))
			return err
		}
	}
	return usageErrorf("hookctl completion knows %s, not %q", shellNames(), opts.shell)
}
