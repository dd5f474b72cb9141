package main

import (
	"encoding/json"
	"fmt"
	"os"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

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
			"be read.\n\n" +
			"Rules: --disable RULE and --enable RULE (both repeatable), and a .hookctl.json\n" +
			"found upward from each linted file, {\"lint\": {\"disable\": [RULE...],\n" +
			"\"severity\": {RULE: \"error|warning|info|off\"}}} (hookctl schema config is its\n" +
			"schema). The flags win over the file.\n\n" +
			"hookctl lint --rules lists every rule, its severity and what it catches.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "output `FORMAT`: text, json, sarif or github (workflow commands)"},
			&cli.StringFlag{Name: "fail-on", Value: "error", Usage: "exit 1 when a finding is at or above `SEVERITY`: error, warning or info"},
			&cli.StringSliceFlag{Name: "disable", Usage: "do not run `RULE` (repeatable), whatever .hookctl.json says"},
			&cli.StringSliceFlag{Name: "enable", Usage: "run `RULE` (repeatable) even when .hookctl.json disables it"},
			&cli.BoolFlag{Name: "rules", Usage: "list every rule with its severity, as .hookctl.json and the flags set it, and what it catches (as text or json), and lint nothing"},
		},
		Action: func(c *cli.Context) error {
			enable, disable := c.StringSlice("enable"), c.StringSlice("disable")
			if c.Bool("rules") {
				if c.NArg() > 0 {
					return usageErrorf("--rules lists the rules and lints nothing: it takes no PATH")
				}
				choice, err := lint.ChoiceFor(".", enable, disable)
				if err != nil {
					return usageErrorf("%v", err)
				}
				return lintRules(s, c.String("format"), choice)
			}
			sev, err := lint.ParseSeverity(c.String("fail-on"))
			if err != nil {
				return usageErrorf("--fail-on: %v", err)
			}
			home, _ := os.UserHomeDir()
			return lintRun(s, lintOptions{format: c.String("format"), failOn: sev, paths: c.Args().Slice(),
				enable: enable, disable: disable, home: home})
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
	// The names of the flags are checked before any file is read.
	if _, err := lint.NewChoice(nil, opts.enable, opts.disable); err != nil {
		return usageErrorf("%v", err)
	}
	req, err := lint.NewRequest(opts.paths, opts.home)
	if err != nil {
		return usageErrorf("%v", err)
	}
	req.Enable, req.Disable = opts.enable, opts.disable
	req.ShellCheck, req.ReportSkipped = lint.FindShellCheck(), opts.failOn == lint.Info
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

// lintRules prints the rule catalogue as the choice sets it: a table for
// people, or a JSON array.
func lintRules(s streams, format string, choice *lint.Choice) error {
	rules := choice.Describe()
	switch format {
	case "text":
		tw := tabwriter.NewWriter(s.out, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "RULE\tSEVERITY\tCATCHES")
		for _, r := range rules {
			level := r.Level
			if r.From != "" {
				level += " (" + schema.Visible(r.From) + ")"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\n", r.ID, level, r.Summary)
		}
		return tw.Flush()
	case "json":
		type rule struct {
			Rule     string `json:"rule"`
			Severity string `json:"severity"`
			Default  string `json:"default"`
			From     string `json:"from,omitempty"`
			Summary  string `json:"summary"`
		}
		out := make([]rule, len(rules))
		for i, r := range rules {
			out[i] = rule{r.ID, r.Level, r.SeverityText(), r.From, r.Summary}
		}
		enc := json.NewEncoder(s.out)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	return usageErrorf("--rules prints text or json, not %q", format)
}
