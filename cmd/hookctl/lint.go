package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/hookctl/hookctl/lint"
)

// lintOptions are the answers of the lint command's flags.
type lintOptions struct {
	format string
	failOn lint.Severity
	paths  []string
	// home is the user's home folder, "" when unknown.
	home string
}

func init() { register(20, lintCommand) }

func lintCommand(s streams) *cli.Command {
	return &cli.Command{
		Name:      "lint",
		Usage:     "find the mistakes in hooks.json files and their handler scripts",
		ArgsUsage: "[PATH...]",
		Description: "PATH is a hooks.json, or a folder whose .agents/hooks.json is linted. Without\n" +
			"a PATH, lint reads ./.agents/hooks.json and ~/.gemini/config/hooks.json,\n" +
			"whichever exist. Relative script paths resolve against the folder that holds\n" +
			"the hooks.json, where handlers run.\n\n" +
			"Exit status: 0 clean, 1 a finding at or above --fail-on, 2 a PATH that cannot\n" +
			"be read. The rules are listed in docs/rules.md.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "output `FORMAT`: text, json, sarif or github (workflow commands)"},
			&cli.StringFlag{Name: "fail-on", Value: "error", Usage: "exit 1 when a finding is at or above `SEVERITY`: error, warning or info"},
		},
		Action: func(c *cli.Context) error {
			sev, err := lint.ParseSeverity(c.String("fail-on"))
			if err != nil {
				return usageErrorf("--fail-on: %v", err)
			}
			home, _ := os.UserHomeDir()
			return lintRun(s, lintOptions{format: c.String("format"), failOn: sev, paths: c.Args().Slice(), home: home})
		},
	}
}

func lintRun(s streams, opts lintOptions) error {
	printer, err := lint.NewPrinter(opts.format)
	if err != nil {
		return usageErrorf("--format: %v", err)
	}
	if sp, ok := printer.(lint.SARIFPrinter); ok {
		sp.Version = buildVersion()
		printer = sp
	}
	req, err := lintRequest(opts)
	if err != nil {
		return err
	}
	res, err := lint.Lint(req)
	if err != nil {
		return usageErrorf("%v", err)
	}
	if err := printer.Print(s.out, res); err != nil {
		return err
	}
	if worst, ok := lint.Max(res.Findings); ok && worst >= opts.failOn {
		return &exitError{code: exitFindings}
	}
	return nil
}

// userFile is the user's hooks.json under home.
func userFile(home string) string {
	return filepath.Join(home, ".gemini", "config", "hooks.json")
}

// lintRequest turns the command line's paths into what to lint: files,
// workspaces to search for misplaced configurations, and the user's file to
// compare hook names with.
func lintRequest(opts lintOptions) (lint.Request, error) {
	var req lint.Request
	target := func(path string) lint.Target {
		scope, root := lint.ScopeOf(path, opts.home)
		return lint.Target{Path: path, Scope: scope, Root: root}
	}
	userContext := func() {
		if opts.home != "" && isFile(userFile(opts.home)) {
			req.Context = append(req.Context, target(userFile(opts.home)))
		}
	}
	if len(opts.paths) == 0 {
		ws := filepath.Join(".agents", "hooks.json")
		var looked []string
		for _, p := range []string{ws, userFile(opts.home)} {
			if opts.home == "" && p != ws {
				continue
			}
			looked = append(looked, p)
			if isFile(p) {
				req.Files = append(req.Files, target(p))
			}
		}
		if len(req.Files) == 0 {
			return req, usageErrorf("no hooks.json to lint: looked for %s; name a file or folder to lint", strings.Join(looked, " and "))
		}
		req.Workspaces = []lint.Place{{Dir: ".", Name: ""}}
		if opts.home != "" {
			req.Home = &lint.Place{Dir: opts.home, Name: opts.home}
		}
		return req, nil
	}
	for _, p := range opts.paths {
		info, err := os.Stat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return req, usageErrorf("%s: no such file or folder", p)
		case err != nil:
			return req, usageErrorf("%s: %v", p, unwrapPathError(err))
		case info.IsDir():
			f := filepath.Join(p, ".agents", "hooks.json")
			if !isFile(f) {
				return req, usageErrorf("%s: no .agents/hooks.json in this folder (workspace hooks live in FOLDER/.agents/hooks.json)", p)
			}
			req.Files = append(req.Files, target(f))
			req.Workspaces = append(req.Workspaces, lint.Place{Dir: p, Name: p})
			if len(req.Context) == 0 {
				userContext()
			}
		default:
			fh, err := os.Open(p)
			if err != nil {
				return req, usageErrorf("%s: %v", p, unwrapPathError(err))
			}
			fh.Close()
			req.Files = append(req.Files, target(p))
		}
	}
	return req, nil
}

func isFile(p string) bool {
	info, err := os.Stat(p)
	return err == nil && !info.IsDir()
}

// unwrapPathError drops the path from an error that the message already
// names.
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return fmt.Errorf("%w", err)
}
