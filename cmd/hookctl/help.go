package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/hookctl/hookctl/schema"
)

// newHelpCommand is "hookctl help [COMMAND [SUBCOMMAND]]": the same help as
// "hookctl COMMAND SUBCOMMAND --help", which it runs.
func newHelpCommand(f *factory) *cli.Command {
	s := f.streams
	return &cli.Command{
		Name:            "help",
		Usage:           "show the help of hookctl, or of a command (hookctl help schema input)",
		ArgsUsage:       "[COMMAND [SUBCOMMAND]]",
		HideHelpCommand: true,
		Action: func(c *cli.Context) error {
			return showHelp(s, c, nil, c.Args().Slice())
		},
	}
}

// subHelpCommand is "hookctl CMD help [SUBCOMMAND]" for a command that has
// subcommands, in place of the CLI library's own, so that every help
// reads the same.
func subHelpCommand(s streams, parent *cli.Command) *cli.Command {
	return &cli.Command{
		Name:            "help",
		Usage:           fmt.Sprintf("show the help of hookctl %s, or of one of its commands", parent.Name),
		ArgsUsage:       "[COMMAND]",
		HideHelpCommand: true,
		Action: func(c *cli.Context) error {
			return showHelp(s, c, []string{parent.Name}, c.Args().Slice())
		},
	}
}

// showHelp prints the help of the command that parent and names lead to,
// by running it with --help.
func showHelp(s streams, c *cli.Context, parent, names []string) error {
	path, err := commandPath(c.App.Commands, parent, names)
	if err != nil {
		return err
	}
	args := append([]string{"hookctl", "--color", c.String("color")}, path...)
	if code := run(append(args, "--help"), s); code != exitOK {
		return &exitError{code: code}
	}
	return nil
}

// commandPath checks that names (after parent) name a command and its
// subcommands, and returns the whole path.
func commandPath(cmds []*cli.Command, parent, names []string) ([]string, error) {
	path := append([]string(nil), parent...)
	for _, p := range parent {
		cmds = findCommand(cmds, p).Subcommands
	}
	for _, name := range names {
		where := strings.Join(append([]string{"hookctl"}, path...), " ")
		var known []string
		for _, c := range cmds {
			known = append(known, c.Name)
		}
		if len(known) == 0 {
			return nil, usageErrorf("%s has no commands of its own, so there is no help for %q\nRun '%s --help' for its usage.", where, name, where)
		}
		cmd := findCommand(cmds, name)
		if cmd == nil {
			msg := fmt.Sprintf("%s has no command %q", where, name)
			if near := schema.Nearest(name, known); near != "" {
				msg += fmt.Sprintf(": did you mean %q?", near)
			}
			return nil, usageErrorf("%s\nThe commands are %s.", msg, strings.Join(known, ", "))
		}
		path = append(path, cmd.Name)
		cmds = cmd.Subcommands
	}
	return path, nil
}

func findCommand(cmds []*cli.Command, name string) *cli.Command {
	for _, c := range cmds {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}
