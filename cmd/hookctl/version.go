package main

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

// versionOptions are what the version command prints.
type versionOptions struct {
	// version is the app's version line without its "hookctl ".
	version string
}

// newVersionCommand is hookctl --version as a command, as git version and
// go version are: the same line, on stdout. runF, when given, is called in
// place of versionRun.
func newVersionCommand(f *factory, runF func(*versionOptions) error) *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print hookctl's version, the commit it was built from and its Go version (as --version)",
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageErrorf("hookctl version takes no arguments")
			}
			opts := &versionOptions{version: c.App.Version}
			if runF != nil {
				return runF(opts)
			}
			return versionRun(f, opts)
		},
	}
}

// versionRun prints the version line, as cli.VersionPrinter does for
// --version: a failed write goes unsaid, as there.
func versionRun(f *factory, opts *versionOptions) error {
	fmt.Fprintln(f.out, "hookctl "+opts.version)
	return nil
}
