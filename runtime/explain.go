package runtime

import (
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"
)

// Explain writes what the plan would do, without running anything: each
// file, each handler that would run with its file and line, and why each
// other hook or handler would not.
func (p *Plan) Explain(w io.Writer) error {
	head := string(p.Event)
	if p.Event.IsTool() {
		head += " for tool " + p.Payload.Tool
	}
	if _, err := fmt.Fprintf(w, "%s in workspace %s\n", head, p.Workspace); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	runs, fails := 0, 0
	for _, src := range p.Sources {
		status := "handlers run in " + src.Dir
		switch {
		case !src.Exists:
			status = "not found"
		case !src.Trusted:
			status = "untrusted"
		case src.Err != nil:
			status = "cannot be read"
		}
		fmt.Fprintf(tw, "%s file %s (%s)\n", src.Scope, src.Path, status)
		for _, s := range p.Steps {
			if s.Source != src {
				continue
			}
			name := s.Hook
			if name == "" {
				name = "-"
			}
			detail := s.Why
			switch s.State {
			case Run:
				runs++
				detail = p.describe(s)
			case Broken:
				fails++
			case Same:
				detail = p.describe(s) + ": " + s.Why
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", s.State, name, s.Where(), detail)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	how := "in parallel"
	if p.opts.Sequential {
		how = "one after another"
	}
	summary := fmt.Sprintf("%s would run %s", plural(runs, "handler"), how)
	if runs < 2 {
		summary = fmt.Sprintf("%s would run", plural(runs, "handler"))
	}
	if fails > 0 {
		summary += fmt.Sprintf("; %s would be reported", plural(fails, "failure"))
	}
	_, err := fmt.Fprintln(w, summary+".")
	return err
}

// describe says what a handler runs.
func (p *Plan) describe(s *Step) string {
	d := fmt.Sprintf("%s (timeout %s", s.Handler.Command, seconds(s.Timeout()))
	if p.Event.IsTool() {
		if s.Matcher == "" || s.Matcher == "*" {
			d += ", every tool"
		} else {
			d += ", matcher " + strconv.Quote(s.Matcher)
		}
	}
	return d + ")"
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
