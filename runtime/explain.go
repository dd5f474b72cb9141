package runtime

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/scope"
)

// Explain writes what the plan would do, without running anything: each
// file, each handler that would run with its file and line, and why each
// other hook or handler would not.
func (p *Plan) Explain(w io.Writer) error {
	head := string(p.Event)
	if p.Event.IsTool() {
		head += " for tool " + p.Payload.Tool
	}
	if _, err := fmt.Fprintf(w, "%s in workspace %s\n", schema.Visible(head), schema.Visible(p.Workspace)); err != nil {
		return err
	}
	// Columns line up across files, so that the listing reads as one table.
	var nameW, whereW int
	for _, s := range p.Steps {
		nameW = max(nameW, utf8.RuneCountInString(schema.Visible(stepName(s))))
		whereW = max(whereW, utf8.RuneCountInString(schema.Visible(s.Where())))
	}
	runs, fails, untrusted := 0, 0, 0
	for _, src := range p.Sources {
		status := "handlers run in " + src.Dir
		switch {
		case src.unfound:
			status = "not read: no home folder"
		case !src.Exists:
			status = "not found"
		case !src.Trusted:
			status = "untrusted"
			if src.TrustNote != "" {
				status += ": " + src.TrustNote
			}
			if hint := src.TrustHint(p.Workspace); hint != "" {
				status += "; " + hint
			}
		case src.Err != nil:
			status = "cannot be read"
		}
		if _, err := fmt.Fprintf(w, "%s file %s (%s)\n", src.Scope, schema.Visible(src.Path), schema.Visible(status)); err != nil {
			return err
		}
		if why, ok := src.AgentDrops(); ok {
			if _, err := fmt.Fprintf(w, "  note  the agent (agy) loads none of this file's hooks (%s:%s); hookctl runs its valid parts\n", schema.Visible(src.Path), schema.Visible(why)); err != nil {
				return err
			}
		}
		for _, s := range p.Steps {
			if s.Source != src {
				continue
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
			case Untrusted:
				// The file's header says why and what to do.
				detail = "untrusted"
				if s.Handler != nil {
					untrusted++
					detail = p.describe(s) + ": untrusted"
				}
			}
			// Everything shown comes from files a workspace controls:
			// escape sequences are made visible, never interpreted.
			if _, err := fmt.Fprintf(w, "  %-4s  %s  %s  %s\n", s.State, pad(schema.Visible(stepName(s)), nameW), pad(schema.Visible(s.Where()), whereW), schema.Visible(detail)); err != nil {
				return err
			}
		}
	}
	how := "in parallel"
	if p.opts.Sequential {
		how = "one after another"
	}
	summary := fmt.Sprintf("%s would run %s", schema.Plural(runs, "handler"), how)
	if runs < 2 {
		summary = fmt.Sprintf("%s would run", schema.Plural(runs, "handler"))
	}
	if fails > 0 {
		summary += fmt.Sprintf("; %s would be reported", schema.Plural(fails, "failure"))
	}
	if untrusted > 0 {
		summary += fmt.Sprintf("; %d more would run if the workspace were trusted", untrusted)
	}
	if _, err := fmt.Fprintln(w, summary+"."); err != nil {
		return err
	}
	if n := p.userGates(); n > 0 {
		runs := "1 handler runs"
		if n > 1 {
			runs = fmt.Sprintf("%d handlers run", n)
		}
		_, err := fmt.Fprintf(w, "If the answers' overwrite changes the tool's arguments, the user file's %s again on the new arguments.\n", runs)
		return err
	}
	return nil
}

// userGates counts the user file's handlers that would run for a
// PreToolUse dispatch: the ones run again when an overwrite changes the
// tool's arguments.
func (p *Plan) userGates() int {
	if p.Event != schema.PreToolUse {
		return 0
	}
	n := 0
	for _, s := range p.Steps {
		if s.Source.Scope == scope.User && s.State == Run {
			n++
		}
	}
	return n
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

func stepName(s *Step) string {
	if s.Hook == "" {
		return "-"
	}
	return s.Hook
}

// pad fills s with spaces to width characters.
func pad(s string, width int) string {
	return s + strings.Repeat(" ", max(0, width-utf8.RuneCountInString(s)))
}
