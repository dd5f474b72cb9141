package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/hookctl/hookctl/internal/linediff"
	"github.com/hookctl/hookctl/lint"
	"github.com/hookctl/hookctl/schema"
)

// lintOptions are the answers of the lint command's flags.
type lintOptions struct {
	format string
	failOn lint.Severity
	paths  []string
	// enable and disable are the rules --enable and --disable name.
	enable, disable []string
	// home is the user's home folder, "" when unknown.
	home string
	// fix applies the findings' certain fixes before linting; with diff
	// it prints them as a unified diff and writes nothing.
	fix, diff bool
	// output is the file the findings go to instead of stdout; color is
	// --color, applied to it as to stdout.
	output, color string
	// rules lists the rules instead of linting.
	rules bool
}

// newLintCommand is hookctl lint. runF, when given, is called in place of
// lintRun.
func newLintCommand(f *factory, runF func(*lintOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "lint",
		Usage:     "find the mistakes in hooks.json files and their handler scripts",
		ArgsUsage: "[PATH...]",
		Description: "PATH is a hooks.json, or a folder whose .agents/hooks.json is linted. Without\n" +
			"a PATH, lint reads the workspace's .agents/hooks.json and ~/.gemini/config/hooks.json,\n" +
			"whichever exist; the workspace is the nearest folder from here upward that holds\n" +
			".agents, else the git top level, else this folder. Relative script paths resolve\n" +
			"against the folder that holds the hooks.json, where handlers run.\n\n" +
			"Exit status: 0 clean, 1 a finding at or above --fail-on, 2 a PATH that cannot\n" +
			"be read.\n\n" +
			"Rules: --disable RULE and --enable RULE (both repeatable), and a .hookctl.json\n" +
			"found upward from each linted file, {\"lint\": {\"disable\": [RULE...],\n" +
			"\"severity\": {RULE: \"error|warning|info|off\"}}} (hookctl schema config is its\n" +
			"schema). The flags win over the file.\n\n" +
			"hookctl lint --rules lists every rule, its severity and what it catches.\n\n" +
			"--fix applies every certain fix of the rules that run, keeping every other\n" +
			"byte, each file written whole or not at all, then lints again and exits as\n" +
			"lint does on what is left. --fix --diff prints the fixes as a unified diff\n" +
			"and writes nothing: exit 1 when it would change a file, 0 when there is\n" +
			"nothing to fix.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "output `FORMAT`: text, json, sarif or github (workflow commands)"},
			&cli.StringFlag{Name: "fail-on", Value: "error", Usage: "exit 1 when a finding is at or above `SEVERITY`: error, warning or info"},
			&cli.StringSliceFlag{Name: "disable", Usage: "do not run `RULE` (repeatable), whatever .hookctl.json says"},
			&cli.StringSliceFlag{Name: "enable", Usage: "run `RULE` (repeatable) even when .hookctl.json disables it"},
			&cli.BoolFlag{Name: "fix", Usage: "apply every certain fix, then lint what is left"},
			&cli.BoolFlag{Name: "diff", Usage: "with --fix: print the fixes as a unified diff and write nothing (exit 1 when there is one)"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the findings to `FILE` instead of stdout: a file inside the current folder, written whole or not at all, a link there replaced, never followed"},
			&cli.BoolFlag{Name: "rules", Usage: "list every rule with its severity, as .hookctl.json and the flags set it, and what it catches (as text or json), and lint nothing"},
		},
		Action: func(c *cli.Context) error {
			opts := &lintOptions{format: c.String("format"), enable: c.StringSlice("enable"), disable: c.StringSlice("disable")}
			if opts.rules = c.Bool("rules"); opts.rules {
				if c.NArg() > 0 {
					return usageErrorf("--rules lists the rules and lints nothing: it takes no PATH")
				}
			} else {
				sev, err := lint.ParseSeverity(c.String("fail-on"))
				if err != nil {
					return usageErrorf("--fail-on: %v", err)
				}
				if c.Bool("diff") && !c.Bool("fix") {
					return usageErrorf("--diff shows what --fix would change: use it with --fix")
				}
				opts.home, _ = f.homeDir()
				opts.failOn, opts.paths = sev, c.Args().Slice()
				opts.fix, opts.diff, opts.output = c.Bool("fix"), c.Bool("diff"), c.String("output")
				opts.color = c.String("color")
			}
			if runF != nil {
				return runF(opts)
			}
			return lintRun(f, opts)
		},
	}
}

// lintRun lints the files opts names, or lists the rules.
func lintRun(f *factory, opts *lintOptions) error {
	s := f.streams
	if opts.rules {
		choice, err := lint.ChoiceFor(".", opts.enable, opts.disable)
		if err != nil {
			return usageErrorf("%v", err)
		}
		return lintRules(s, opts.format, choice)
	}
	printer, err := lint.NewPrinter(opts.format)
	if err != nil {
		return usageErrorf("--format: %v", err)
	}
	if sp, ok := printer.(lint.SARIFPrinter); ok {
		sp.Version = buildVersion()
		printer = sp
	}
	// The names of the flags are checked before any file is read.
	if _, err := lint.NewChoice(nil, opts.enable, opts.disable); err != nil {
		return usageErrorf("%v", err)
	}
	out := s.out
	var output *lint.Output
	if opts.output != "" {
		cwd, err := f.getwd()
		if err == nil {
			output, err = lint.OpenOutput(cwd, opts.output)
		}
		if err != nil {
			return usageErrorf("--output: %v", err)
		}
		defer output.Close()
		out = &output.Buf
		// --color auto colours a terminal, and the file is none.
		if err := setColor(opts.color, out); err != nil {
			return err
		}
	}
	req, err := lint.NewRequest(opts.paths, opts.home)
	if err != nil {
		return usageErrorf("%v", err)
	}
	req.Enable, req.Disable = opts.enable, opts.disable
	paths := make([]string, 0, len(req.Files))
	for _, t := range req.Files {
		paths = append(paths, t.Path)
	}
	budgetMemory(paths)
	if opts.fix {
		changed, err := lintFix(s, req, opts.diff)
		if err != nil {
			return err
		}
		if opts.diff {
			if changed {
				return &exitError{code: exitFindings}
			}
			return nil
		}
	}
	req.ShellCheck, req.ReportSkipped = lint.FindShellCheck(), opts.failOn == lint.Info
	res, err := lint.Lint(req)
	if err != nil {
		return usageErrorf("%v", err)
	}
	if err := printer.Print(out, res); err != nil {
		return err
	}
	if output != nil {
		if err := output.Write(); err != nil {
			return usageErrorf("--output: %v", err)
		}
	}
	if worst, ok := lint.Max(res.Findings); ok && worst >= opts.failOn {
		return &exitError{code: exitFindings}
	}
	return nil
}

// lintRules prints the rule catalogue as the choice sets it
// (lint.PrintRules).
func lintRules(s streams, format string, choice *lint.Choice) error {
	err := lint.PrintRules(s.out, format, choice.Describe())
	if errors.Is(err, lint.ErrRulesFormat) {
		return usageErrorf("--rules prints text or json, not %q", format)
	}
	return err
}

// lintFix applies the certain fixes of the request's files: it writes
// each changed file atomically, or with diff prints the changes and writes
// nothing. It reports whether a file changed or would.
func lintFix(s streams, req lint.Request, diffOnly bool) (bool, error) {
	fixed, err := lint.FixFiles(req)
	if err != nil {
		return false, usageErrorf("--fix: %v", err)
	}
	changed := false
	for _, ff := range fixed {
		if !ff.Changed() {
			continue
		}
		changed = true
		name := ff.Target.Name
		if name == "" {
			name = ff.Target.Path
		}
		if diffOnly {
			// a/ and b/, as git writes them: patch -p1 applies it.
			d := linediff.Unified("a/"+name, ff.Before, "b/"+name, ff.After)
			for _, line := range strings.SplitAfter(string(d), "\n") {
				if line != "" {
					fmt.Fprint(s.out, schema.VisibleLine(strings.TrimSuffix(line, "\n"))+"\n")
				}
			}
			continue
		}
		if err := ff.Write(); err != nil {
			return changed, usageErrorf("--fix: %v", err)
		}
		fixes := "fixes"
		if ff.Fixes == 1 {
			fixes = "fix"
		}
		fmt.Fprintf(s.err, "hookctl lint: %s: applied %d %s\n", schema.Visible(name), ff.Fixes, fixes)
	}
	return changed, nil
}
