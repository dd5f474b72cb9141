package scaffold

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/scope"
	"github.com/hookctl/hookctl/templates"
)

// Loader reads the hooks.json of a scope.
type Loader func(scope string) (*Existing, error)

// Matcher choices offered for tool events.
const (
	matcherEvery  = "every tool"
	matcherPick   = "choose tools from the list"
	matcherRegexp = "type a regular expression"
)

// Ask asks through p every question that a leaves unanswered, in the order
// scope, event, template, name, matcher, language, timeout, trace, each
// with a default, and returns the complete answers and the scope's hooks.json.
// Nothing is written; ErrInterrupted tells that the person stopped.
func Ask(p Prompter, a Answers, load Loader, dir string) (Answers, *Existing, error) {
	if a.Scope == "" {
		i, err := p.Select("Where should the hook live?", scope.Choices, []string{
			"in " + ConfigPath(Workspace, dir, "") + ", shared with everyone who clones the workspace",
			"in ~/.gemini/config/hooks.json, for you in every workspace",
		}, 0)
		if err != nil {
			return a, nil, err
		}
		a.Scope = scope.Choices[i]
	}
	x, err := load(a.Scope)
	if err != nil {
		return a, nil, err
	}

	if a.Event == "" {
		if t, ok := templates.Lookup(a.Template); ok {
			a.Event = t.Event
		} else {
			var desc []string
			for _, e := range schema.Events {
				desc = append(desc, e.Summary())
			}
			// PreToolUse is what most hooks are for; SessionStart comes
			// first in the list because it fires first.
			i, err := p.Select("Which event should it handle?", schema.EventNames(), desc, slices.Index(schema.Events, schema.PreToolUse))
			if err != nil {
				return a, nil, err
			}
			a.Event = schema.Events[i]
		}
	}

	if a.Template == "" {
		ts := templates.ForEvent(a.Event)
		var ids, desc []string
		for _, t := range ts {
			ids = append(ids, t.ID)
			desc = append(desc, t.Summary)
		}
		i, err := p.Select("What should it do?", ids, desc, 0)
		if err != nil {
			return a, nil, err
		}
		a.Template = ts[i].ID
	}
	t, ok := templates.Lookup(a.Template)
	if !ok || t.Event != a.Event {
		// Validate says what is wrong with the pair.
		return a, x, nil
	}

	if a.Name == "" {
		a.Name, err = p.Input("Name of the hook:", "The hook's key in hooks.json; its script is hooks/NAME.sh.",
			x.FreeName(t.ID), func(s string) error {
				if err := ValidateName(s); err != nil {
					return err
				}
				if pos, taken := x.Taken(s); taken {
					return fmt.Errorf("line %d of %s already has a hook named %q", pos.Line, x.Path, s)
				}
				return nil
			})
		if err != nil {
			return a, nil, err
		}
	}

	if a.Event.IsTool() && !a.MatcherSet {
		if a.Matcher, err = askMatcher(p, t); err != nil {
			return a, nil, err
		}
		a.MatcherSet = true
	}

	if a.Lang == "" {
		var ids, desc []string
		def := 0
		for i, l := range templates.Languages {
			ids = append(ids, l.ID)
			d := l.Name
			if l.ID == "sh" && t.NeedsJQ {
				d += ", reads its input with jq"
				if !onPath("jq") {
					d += " (not installed: apt-get install jq or brew install jq)"
				}
			}
			if l.ID == DefaultLanguage(t) {
				def = i
			}
			desc = append(desc, d)
		}
		i, err := p.Select("Which language should the script be in?", ids, desc, def)
		if err != nil {
			return a, nil, err
		}
		a.Lang = ids[i]
	}

	if l, ok := templates.LookupLanguage(a.Lang); ok {
		script := filepath.Join(filepath.Dir(x.Path), "hooks", a.Name+l.Ext)
		if _, err := os.Lstat(script); err == nil {
			ok, err := p.Confirm(script+" already exists. Overwrite it?", false)
			if err != nil {
				return a, nil, err
			}
			if !ok {
				return a, nil, fmt.Errorf("%s already exists and was kept: run init again with another name", script)
			}
			a.Overwrite = true
		}
	}

	if a.Timeout == 0 {
		s, err := p.Input("Timeout in seconds:", "The agent stops the handler after this long.",
			strconv.Itoa(t.Timeout), ValidateTimeout)
		if err != nil {
			return a, nil, err
		}
		a.Timeout, _ = parseTimeout(s)
	}

	if !a.TraceSet {
		if a.Trace, err = p.Confirm(TraceQuestion, false); err != nil {
			return a, nil, err
		}
		a.TraceSet = true
	}
	return a, x, nil
}

// TraceQuestion asks whether the handler's command goes through hookctl
// trace.
const TraceQuestion = "Record each run of the handler with hookctl trace (see them with hookctl log)?"

// askMatcher offers the template's matcher, every tool, a list to pick
// from, or a regular expression checked by the runtime's own rule.
func askMatcher(p Prompter, t templates.Template) (string, error) {
	def := t.Matcher
	if def == "" || def == "*" {
		def = matcherEvery
	}
	options := []string{def}
	if def != matcherEvery {
		options = append(options, matcherEvery)
	}
	options = append(options, matcherPick, matcherRegexp)
	i, err := p.Select("Which tools should it run for?", options, nil, 0)
	if err != nil {
		return "", err
	}
	switch options[i] {
	case matcherEvery:
		if t.Matcher == "" {
			return "", nil
		}
		return "*", nil
	case matcherPick:
		m, _ := schema.CompileMatcher(t.Matcher)
		var names, desc []string
		var defaults []int
		for i, tool := range schema.Tools {
			names = append(names, tool.Name)
			desc = append(desc, tool.Summary)
			if m.Match(tool.Name) && !m.MatchesAll() {
				defaults = append(defaults, i)
			}
		}
		// The browser tools are a family the documentation does not list one
		// by one.
		names = append(names, schema.BrowserPrefix+".*")
		desc = append(desc, "Every browser tool ("+schema.BrowserPrefix+"click, ...).")
		picked, err := p.MultiSelect("Which tools?", names, desc, defaults)
		if err != nil {
			return "", err
		}
		var chosen []string
		for _, i := range picked {
			chosen = append(chosen, names[i])
		}
		return strings.Join(chosen, "|"), nil
	case matcherRegexp:
		for {
			// Checked as it is typed, as hookctl lint checks it: a glob, a
			// case or spelling mistake, another agent's tool are refused
			// with what to write instead.
			m, err := p.Input("Regular expression, matched against the whole tool name:",
				"RE2 syntax, anchored at both ends: run_command|view_file, browser_.*", t.Matcher, ValidateMatcher)
			if err != nil {
				return "", err
			}
			// A name that resembles no tool may be an MCP server's: the
			// person decides.
			unknown := UnknownTools(m)
			if len(unknown) == 0 {
				return m, nil
			}
			keep, err := p.Confirm(strings.Join(unknown, "; ")+". Keep this matcher?", false)
			if err != nil {
				return "", err
			}
			if keep {
				return m, nil
			}
		}
	}
	return t.Matcher, nil
}
