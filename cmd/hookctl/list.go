package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/fatih/color"
	"github.com/urfave/cli/v2"

	"github.com/hookctl/hookctl/internal/paint"
	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/scope"
)

// listOptions are the answers of the list command's flags.
type listOptions struct {
	json      bool
	event     string
	tool      string
	workspace string
	configs   []string
	home      string
	// trusted decides whether a workspace file's hooks may run.
	trusted func(*runtime.Source) (bool, string)
}

// newListCommand is hookctl list. runF, when given, is called in place of
// listRun.
func newListCommand(f *factory, runF func(*listOptions) error) *cli.Command {
	s := f.streams
	return &cli.Command{
		Name:  "list",
		Usage: "list the hooks of the user's and the workspace's hooks.json, in the order they run",
		Description: "Shows every hook of ~/.gemini/config/hooks.json and .agents/hooks.json in config order\n" +
			"(the user's first): where it stands, whether it is enabled and trusted, and for each\n" +
			"handler its event, matcher, timeout and command. Invalid parts and files that cannot\n" +
			"be read are listed with their place, never left out.\n\n" +
			"With --event (and --tool for PreToolUse and PostToolUse) it shows what would run for\n" +
			"that event, deciding each handler as hookctl run does and saying why the others\n" +
			"would not:\n" +
			"  hookctl list --tool run_command\n" +
			"  hookctl list --event Stop --json\n\n" +
			"Exit status: 0 when the list was printed, even with invalid parts; 2 for a bad flag\n" +
			"or a --config that does not exist.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print a JSON array with one object per handler, hook or invalid part"},
			&cli.StringFlag{Name: "event", Usage: "show what would run for `EVENT` (PreToolUse with --tool)"},
			&cli.StringFlag{Name: "tool", Usage: "show what would run for a call to the tool `NAME`"},
			&cli.StringFlag{Name: "workspace", Usage: "the workspace `DIR` (default: found from the current folder upward)"},
			&cli.GenericFlag{Name: "config", Value: &pathList{}, Usage: "list the hooks.json `FILE` instead of the user's and the workspace's (repeatable)"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageErrorf("hookctl list takes no arguments, not %q: name files with --config, a workspace with --workspace", c.Args().First())
			}
			configs := *c.Generic("config").(*pathList)
			home, err := f.userHome()
			if err != nil && len(configs) == 0 {
				// The user's gates are not listed: say so, as run does.
				fmt.Fprintf(s.err, "hookctl: %s\n", schema.VisibleText(err.Error()))
			}
			opts := &listOptions{
				json:      c.Bool("json"),
				event:     c.String("event"),
				tool:      c.String("tool"),
				workspace: c.String("workspace"),
				configs:   configs,
				home:      home,
				trusted:   f.trusted(),
			}
			if runF != nil {
				return runF(opts)
			}
			return listRun(s, *opts)
		},
	}
}

func listRun(s streams, opts listOptions) error {
	var event schema.Event
	if opts.event != "" {
		e, err := parseEvent(opts.event)
		if err != nil {
			return err
		}
		event = e
	}
	if opts.tool != "" {
		if event == "" {
			event = schema.PreToolUse
		}
		if !event.IsTool() {
			return usageErrorf("--tool is for PreToolUse and PostToolUse; a %s payload names no tool", event)
		}
		if note := schema.UnknownToolNote(opts.tool); note != "" {
			fmt.Fprintf(s.err, "hookctl: %s\n", note)
		}
	}
	found, err := scope.Choose(opts.workspace)
	if err != nil {
		return usageErrorf("%v", err)
	}
	l, err := runtime.List(runtime.ListOptions{Event: event, Tool: opts.tool, Configs: opts.configs, Home: opts.home, Workspace: found.Root, Trusted: opts.trusted})
	if err != nil {
		return usageErrorf("%v", err)
	}
	if opts.json {
		entries := l.Entries
		if entries == nil {
			entries = []runtime.Entry{}
		}
		enc := json.NewEncoder(s.out)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(entries)
	}
	return printList(s.out, l)
}

// Colours of the list, made when used: color.NoColor (set from --color)
// decides.
func listHead() *color.Color    { return paint.New(color.Bold) }
func listBad() *color.Color     { return paint.New(color.FgRed) }
func listOff() *color.Color     { return paint.New(color.Faint) }
func listRunning() *color.Color { return paint.New(color.FgGreen) }

// printList writes the list as a table per file, the columns lined up
// across files.
func printList(w io.Writer, l *runtime.Listing) error {
	head := l.Head()
	rows := make([][]string, len(l.Entries))
	for i, e := range l.Entries {
		rows[i] = e.Cells(l.Plan != nil)
	}
	widths := make([]int, len(head))
	for i, h := range head {
		widths[i] = utf8.RuneCountInString(h)
	}
	for _, r := range rows {
		for i := range head {
			widths[i] = max(widths[i], utf8.RuneCountInString(r[i]))
		}
	}
	line := func(cells []string, tail string, tint func(i int, s string) string) string {
		var b strings.Builder
		b.WriteString("  ")
		for i, c := range cells {
			b.WriteString(tint(i, c))
			b.WriteString(strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c)+2))
		}
		b.WriteString(tail)
		return strings.TrimRight(b.String(), " ") + "\n"
	}
	bw := &listWriter{w: w}
	for _, src := range l.Sources {
		bw.printf("%s\n", listHead().Sprint(src.Title()))
		if why, ok := src.AgentDrops(); ok {
			bw.printf("  %s\n", listBad().Sprintf("the agent (agy) loads none of this file's hooks (%s:%s): 'hookctl lint %s' says why", schema.Visible(src.Path), schema.Visible(why), schema.Visible(src.Path)))
		}
		mine := l.Of(src)
		if len(mine) == 0 {
			continue
		}
		bw.printf("%s", line(head, "COMMAND", func(_ int, s string) string { return s }))
		for _, i := range mine {
			bw.printf("%s", line(rows[i][:len(head)], paintTail(l.Entries[i], rows[i][len(head)]), func(col int, s string) string {
				return paintCell(head[col], s)
			}))
		}
		for _, note := range l.LookAlikes(mine) {
			bw.printf("  %s\n", listBad().Sprint(note))
		}
	}
	bw.printf("%s\n", l.Summary())
	return bw.err
}

func paintCell(col, s string) string {
	switch {
	case col == "ENABLED" && s == "no", col == "TRUSTED" && s == "no":
		return listBad().Sprint(s)
	case col == "RUNS" && s == "run":
		return listRunning().Sprint(s)
	case col == "RUNS" && s == "fail":
		return listBad().Sprint(s)
	case col == "RUNS":
		return listOff().Sprint(s)
	}
	return s
}

func paintTail(e runtime.Entry, s string) string {
	switch {
	case e.Invalid != "":
		return listBad().Sprint(s)
	case !e.Enabled || e.State == "skip" || e.State == "same":
		return listOff().Sprint(s)
	}
	return s
}

// listWriter keeps the first write error, so that a listing is written
// without checking each line.
type listWriter struct {
	w   io.Writer
	err error
}

func (e *listWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}
