package main

import "github.com/urfave/cli/v2"

// versionCommand is hookctl --version as a command, as git version and go
// version are: the same line, on stdout.
func versionCommand(s streams) *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print hookctl's version, the commit it was built from and its Go version (as --version)",
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageErrorf("hookctl version takes no arguments")
			}
			cli.VersionPrinter(c)
			return nil
		},
	}
}
