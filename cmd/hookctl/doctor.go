package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/fatih/color"
	"github.com/urfave/cli/v2"

	"github.com/hookctl/hookctl/internal/paint"
	"github.com/hookctl/hookctl/lint/doctor"
	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/scope"
)

// doctorOptions are the answers of the doctor command's flags, and what a
// test replaces.
type doctorOptions struct {
	workspace string
	offline   bool
	format    string
	verbose   bool
	timeout   time.Duration
	home      string
	getenv    func(string) string
}

// newDoctorCommand is hookctl doctor. runF, when given, is called in place
// of doctorRun.
func newDoctorCommand(f *factory, runF func(*doctorOptions) error) *cli.Command {
	s := f.streams
	return &cli.Command{
		Name:      "doctor",
		Usage:     "check why hooks would not run on this machine: the agent, the files, its own view, its log, trust, what handlers need",
		ArgsUsage: " ",
		Description: "One line per check: ok, warn or fail, what was found, and the command that fixes it.\n" +
			"It looks at the agent (agy on PATH, or the program HOOKCTL_AGY names, and its version),\n" +
			"the user's and the workspace's hooks.json as the agent reads them (a file the agent drops\n" +
			"whole is a failure, at its first cause), hooks files where the agent never looks, the\n" +
			"agent's own list of hooks (agy -p \"/hooks\" --output-format json; not with --offline),\n" +
			"its log (~/.gemini/antigravity-cli/cli.log, or HOOKCTL_AGY_LOG), the agent's folder trust\n" +
			"(~/.gemini/trustedFolders.json) and hookctl's, the programs and scripts handlers run,\n" +
			"lint's errors, and the runs hookctl trace and hookctl run recorded.\n\n" +
			"Exit status: 0 no check failed, 1 one did, 2 doctor could not run.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "workspace", Usage: "the workspace `DIR` (default: found from the current folder upward)"},
			&cli.BoolFlag{Name: "offline", Usage: "do not ask the agent for its list of hooks"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "`FORMAT`: text, or json (an array of checks, with what was read in data)"},
			&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "show the details of each check"},
			&cli.DurationFlag{Name: "agent-timeout", Value: doctor.DefaultTimeout, Usage: "how long to wait for the agent to answer: a `DURATION`"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageErrorf("hookctl doctor takes no arguments; name the workspace with --workspace DIR")
			}
			home, _ := f.homeDir()
			opts := &doctorOptions{
				workspace: c.String("workspace"), offline: c.Bool("offline"), format: c.String("format"),
				verbose: c.Bool("verbose"), timeout: c.Duration("agent-timeout"), home: home, getenv: f.getenv,
			}
			if runF != nil {
				return runF(opts)
			}
			return doctorRun(s, *opts)
		},
	}
}

func doctorRun(s streams, opts doctorOptions) error {
	if opts.format != "text" && opts.format != "json" {
		return usageErrorf("--format must be text or json, not %q", opts.format)
	}
	found, err := scope.Choose(opts.workspace)
	if err != nil {
		return usageErrorf("%v", err)
	}
	if info, err := os.Stat(found.Root); err != nil || !info.IsDir() {
		return usageErrorf("--workspace %s: not a folder", opts.workspace)
	}
	facts := doctor.Gather(context.Background(), doctor.Options{
		Found: found, Offline: opts.offline, Timeout: opts.timeout, Home: opts.home, Getenv: opts.getenv})
	report := doctor.Run(facts)
	if opts.format == "json" {
		enc := json.NewEncoder(s.out)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(report); err != nil {
			return err
		}
	} else if err := printDoctor(s.out, report, opts.verbose); err != nil {
		return err
	}
	for _, c := range report {
		if c.Status == doctor.Fail {
			return &exitError{code: exitFindings}
		}
	}
	return nil
}

// The colours of doctor's marks.
var (
	greenAttr  = color.FgGreen
	yellowAttr = color.FgYellow
	redAttr    = color.FgRed
)

// printDoctor writes the report for people: one line per check, its fix
// and, with --verbose, its details; then the count.
func printDoctor(w io.Writer, report []doctor.Result, verbose bool) error {
	var b strings.Builder
	counts := map[string]int{}
	for _, c := range report {
		counts[c.Status]++
		mark := paint.New().Sprint("[✓]")
		switch c.Status {
		case doctor.Warn:
			mark = paint.New(yellowAttr).Sprint("[!]")
		case doctor.Fail:
			mark = paint.New(redAttr).Sprint("[✗]")
		case doctor.OK:
			mark = paint.New(greenAttr).Sprint("[✓]")
		}
		// Messages and fixes name files, hooks and lines of logs that a
		// workspace or the agent wrote: whatever they hold, no escape
		// reaches the terminal (Visible leaves what it made visible as it
		// is).
		fmt.Fprintf(&b, "%s %-14s %s\n", mark, c.Check, schema.Visible(c.Message))
		if c.Fix != "" && c.Status != doctor.OK {
			fmt.Fprintf(&b, "    %-14s fix: %s\n", "", schema.Visible(c.Fix))
		}
		if verbose {
			for _, det := range c.Details {
				fmt.Fprintf(&b, "    %-14s %s\n", "", schema.Visible(det))
			}
		}
	}
	fmt.Fprintf(&b, "%s: %d ok, %s, %d failed\n", schema.Plural(len(report), "check"), counts[doctor.OK], schema.Plural(counts[doctor.Warn], "warning"), counts[doctor.Fail])
	_, err := io.WriteString(w, b.String())
	return err
}
