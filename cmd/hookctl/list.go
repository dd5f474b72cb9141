package main

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fatih/color"
	"github.com/urfave/cli/v2"

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
	ws := found.Root

	var (
		srcs    []*runtime.Source
		entries []runtime.Entry
		plan    *runtime.Plan
	)
	if event != "" && (!event.IsTool() || opts.tool != "") {
		plan, err = listPlan(event, ws, opts)
		if err != nil {
			return err
		}
		srcs = plan.Sources
		entries = plan.Entries()
	} else {
		srcs, err = runtime.Discover(opts.configs, opts.home, ws)
		if err != nil {
			return usageErrorf("%v", err)
		}
		for _, src := range srcs {
			if src.Scope == scope.Workspace && src.Exists && opts.trusted != nil {
				src.Trusted, src.TrustNote = opts.trusted(src)
			}
			for _, e := range runtime.Inventory(src) {
				if event == "" || e.Event == string(event) || e.Hook == "" || e.Event == "" && e.Invalid != "" {
					entries = append(entries, e)
				}
			}
		}
	}
	if opts.json {
		if entries == nil {
			entries = []runtime.Entry{}
		}
		enc := json.NewEncoder(s.out)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(entries)
	}
	return printList(s.out, srcs, entries, plan)
}

// listPlan decides, as hookctl run would, what runs for the event.
func listPlan(e schema.Event, ws string, opts listOptions) (*runtime.Plan, error) {
	var partial []byte
	if opts.tool != "" {
		p, err := runtime.ToolPayload(opts.tool, "")
		if err != nil {
			return nil, usageErrorf("--tool: %v", err)
		}
		partial = p
	}
	payload, err := runtime.CompletePayload(e, partial, ws, opts.home)
	if err != nil {
		return nil, usageErrorf("%v", err)
	}
	plan, err := runtime.NewPlan(e, payload, runtime.Options{Configs: opts.configs, Workspace: ws, Home: opts.home, Trusted: opts.trusted})
	if err != nil {
		return nil, usageErrorf("%v", err)
	}
	return plan, nil
}

// Colours of the list, made when used: color.NoColor (set from --color)
// decides.
func listHead() *color.Color    { return paint(color.Bold) }
func listBad() *color.Color     { return paint(color.FgRed) }
func listOff() *color.Color     { return paint(color.Faint) }
func listRunning() *color.Color { return paint(color.FgGreen) }

// printList writes the list as a table per file, the columns lined up
// across files.
func printList(w io.Writer, srcs []*runtime.Source, entries []runtime.Entry, plan *runtime.Plan) error {
	head := []string{"WHERE", "HOOK", "ENABLED", "TRUSTED", "EVENT", "MATCHER", "TIMEOUT"}
	if plan != nil {
		head = append(head, "RUNS")
	}
	rows := make([][]string, len(entries))
	for i, e := range entries {
		rows[i] = listCells(e, plan != nil)
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
	line := func(cells []string, tail string, paint func(i int, s string) string) string {
		var b strings.Builder
		b.WriteString("  ")
		for i, c := range cells {
			b.WriteString(paint(i, c))
			b.WriteString(strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c)+2))
		}
		b.WriteString(tail)
		return strings.TrimRight(b.String(), " ") + "\n"
	}
	bw := &listWriter{w: w}
	hooks, handlers, invalid := 0, 0, 0
	seen := map[string]bool{}
	for _, src := range srcs {
		bw.printf("%s\n", listHead().Sprint(sourceTitle(src)))
		if why, ok := src.AgentDrops(); ok {
			bw.printf("  %s\n", listBad().Sprintf("the agent (agy) loads none of this file's hooks (%s:%s): 'hookctl lint %s' says why", schema.Visible(src.Path), schema.Visible(why), schema.Visible(src.Path)))
		}
		var mine []int
		for i, e := range entries {
			if e.Source == src {
				mine = append(mine, i)
			}
		}
		if len(mine) == 0 {
			continue
		}
		bw.printf("%s", line(head, "COMMAND", func(_ int, s string) string { return s }))
		for _, i := range mine {
			e := entries[i]
			switch {
			case e.Invalid != "":
				invalid++
			case e.Command != "":
				handlers++
			}
			if key := src.Path + "\x00" + e.Hook; e.Hook != "" && !seen[key] {
				seen[key] = true
				hooks++
			}
			bw.printf("%s", line(rows[i][:len(head)], paintTail(e, rows[i][len(head)]), func(col int, s string) string {
				return paintCell(head[col], s)
			}))
		}
		for _, note := range lookAlikes(entries, mine) {
			bw.printf("  %s\n", listBad().Sprint(note))
		}
	}
	bw.printf("%s\n", listSummary(hooks, handlers, invalid, entries, plan))
	return bw.err
}

// maxMatcherWidth keeps a long alternation of tool names from pushing the
// commands off the screen; --json has it whole.
const maxMatcherWidth = 40

// listCells returns an entry's cells, the last being the command (or what
// is wrong).
func listCells(e runtime.Entry, planned bool) []string {
	where := "-"
	if e.Line > 0 {
		where = fmt.Sprintf("%d:%d", e.Line, e.Column)
	}
	yesNo := func(b bool) string {
		if b {
			return "yes"
		}
		return "no"
	}
	hook, enabled, event, matcher, timeout := e.Hook, yesNo(e.Enabled), e.Event, "-", "-"
	if hook == "" {
		hook, enabled = "-", "-"
	}
	if event == "" {
		event = "-"
	}
	if e.Matcher != nil {
		matcher = *e.Matcher
		if matcher == "" || matcher == "*" {
			matcher = "*"
		}
		if r := []rune(matcher); len(r) > maxMatcherWidth {
			matcher = string(r[:maxMatcherWidth-1]) + "…"
		}
	}
	if e.Timeout > 0 {
		timeout = strconv.Itoa(e.Timeout) + "s"
	}
	trusted := yesNo(e.Trusted)
	// Every string from a hooks.json is shown with its control
	// characters made visible: a command must not hide behind escapes.
	cells := []string{where, schema.Visible(hook), enabled, trusted, event, schema.Visible(matcher), timeout}
	if planned {
		cells = append(cells, e.State)
	}
	tail := e.Command
	switch {
	case e.Invalid != "" && e.Rule != "":
		tail = fmt.Sprintf("invalid: %s [%s]", e.Invalid, e.Rule)
	case e.Invalid != "":
		tail = "invalid: " + e.Invalid
	case e.Note != "":
		tail = fmt.Sprintf("note: %s [%s]", e.Note, e.Rule)
	case tail == "" && e.Why != "":
		tail = "(" + e.Why + ")"
	case e.Why != "" && e.State != "":
		tail += "  (" + e.Why + ")"
	}
	return append(cells, schema.Visible(tail))
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

// sourceTitle names a file and says whether its hooks can run at all.
func sourceTitle(src *runtime.Source) string {
	t := fmt.Sprintf("%s file %s", src.Scope, schema.Visible(src.Path))
	switch {
	case !src.Exists:
		return t + " (not found)"
	case src.Scope != scope.Workspace:
		return t
	case src.Trusted:
		return t + " (trusted)"
	case src.TrustNote != "":
		return fmt.Sprintf("%s (untrusted: %s; run 'hookctl trust %s' to let its hooks run)", t, src.TrustNote, schema.Visible(filepath.Dir(src.Dir)))
	}
	return fmt.Sprintf("%s (untrusted: run 'hookctl trust %s' to let its hooks run)", t, schema.Visible(filepath.Dir(src.Dir)))
}

func listSummary(hooks, handlers, invalid int, entries []runtime.Entry, plan *runtime.Plan) string {
	if plan != nil {
		runs, fails := 0, 0
		for _, e := range entries {
			switch e.State {
			case "run":
				runs++
			case "fail":
				fails++
			}
		}
		what := string(plan.Event)
		if plan.Event.IsTool() {
			what += " of " + plan.Payload.Tool
		}
		s := fmt.Sprintf("%s would run for %s", schema.Plural(runs, "handler"), what)
		if fails > 0 {
			s += fmt.Sprintf("; %s would be reported", schema.Plural(fails, "failure"))
		}
		return s
	}
	s := fmt.Sprintf("%s, %s", schema.Plural(hooks, "hook"), schema.Plural(handlers, "handler"))
	if invalid > 0 {
		s += fmt.Sprintf(", %s", schema.Plural(invalid, "invalid part"))
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

// lookAlikes names the hook names and the words of commands among entries
// (at the indexes mine) that read as others (schema.LookAlike): a
// Cyrillic а in gаte beside the real gate shows the same in the table.
func lookAlikes(entries []runtime.Entry, mine []int) []string {
	var notes []string
	seen := map[string]bool{}
	for _, i := range mine {
		e := entries[i]
		if why := schema.LookAlike(e.Hook); why != "" && !seen["\x00"+e.Hook] {
			seen["\x00"+e.Hook] = true
			notes = append(notes, fmt.Sprintf("the hook %s (%s:%d) %s; it reads as %s", schema.Visible(e.Hook), schema.Visible(e.File), e.Line, why, schema.Visible(schema.LookAlikeAs(e.Hook))))
		}
		for _, word := range strings.Fields(e.Command) {
			if why := schema.LookAlike(word); why != "" && !seen[word] {
				seen[word] = true
				notes = append(notes, fmt.Sprintf("%s in the command of %s (%s:%d) %s; it reads as %s", schema.Visible(word), schema.Visible(e.Hook), schema.Visible(e.File), e.Line, why, schema.Visible(schema.LookAlikeAs(word))))
			}
		}
	}
	return notes
}
