package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hookctl/hookctl/schema"
)

// Choice says which rules run on a file and how serious their findings
// are: each rule's defaults, changed by the repository's .hookctl.json,
// changed by --disable and --enable on the command line, which win. The
// zero Choice, and a nil one, keep every default.
type Choice struct {
	rules map[string]ruleChoice
}

type ruleChoice struct {
	off bool
	// level replaces the severity of every finding when set.
	level    Severity
	hasLevel bool
	// from names what changed the rule: the .hookctl.json's path, or the
	// flag.
	from string
}

// NewChoice applies a .hookctl.json (nil for none) and then the rules
// named by --enable and --disable. Every name must be a rule's ID: the
// error of a name in the file says where it stands.
func NewChoice(cfg *schema.LoadedConfig, enable, disable []string) (*Choice, error) {
	c := &Choice{rules: map[string]ruleChoice{}}
	if cfg != nil {
		for _, s := range cfg.Rules {
			if err := CheckRule(s.Rule); err != nil {
				return nil, &schema.ConfigError{Path: cfg.Path, Pos: s.Span.Start, Msg: err.Error()}
			}
			rc := ruleChoice{from: cfg.Path}
			if s.Level == schema.LevelOff {
				rc.off = true
			} else {
				sev, _ := ParseSeverity(string(s.Level))
				rc.level, rc.hasLevel = sev, true
			}
			c.rules[s.Rule] = rc
		}
	}
	for _, id := range disable {
		if err := CheckRule(id); err != nil {
			return nil, fmt.Errorf("--disable: %v", err)
		}
		for _, e := range enable {
			if e == id {
				return nil, fmt.Errorf("--enable and --disable both name %s: name it once", id)
			}
		}
		c.rules[id] = ruleChoice{off: true, from: "--disable"}
	}
	for _, id := range enable {
		if err := CheckRule(id); err != nil {
			return nil, fmt.Errorf("--enable: %v", err)
		}
		// On again, at the rule's own severity; a rule that is on keeps
		// what the file set.
		if c.rules[id].off {
			c.rules[id] = ruleChoice{from: "--enable"}
		}
	}
	return c, nil
}

// ChoiceFor is the Choice for files in dir: the .hookctl.json found from
// dir upward, then the flags.
func ChoiceFor(dir string, enable, disable []string) (*Choice, error) {
	cfg, err := loadConfigFor(dir, nil)
	if err != nil {
		return nil, err
	}
	return NewChoice(cfg, enable, disable)
}

// loadConfigFor finds and reads the .hookctl.json that governs dir; nil
// when there is none. cache, when not nil, keeps each file read once.
func loadConfigFor(dir string, cache map[string]*schema.LoadedConfig) (*schema.LoadedConfig, error) {
	path := schema.FindConfig(dir)
	if path == "" {
		return nil, nil
	}
	return loadConfig(path, cache)
}

// loadConfig reads the .hookctl.json at path and checks the rules it
// names.
func loadConfig(path string, cache map[string]*schema.LoadedConfig) (*schema.LoadedConfig, error) {
	if c, ok := cache[path]; ok {
		return c, nil
	}
	c, err := schema.LoadConfig(path)
	if err != nil {
		return nil, err
	}
	if _, err := NewChoice(c, nil, nil); err != nil {
		return nil, err // a name that is not a rule
	}
	if cache != nil {
		cache[path] = c
	}
	return c, nil
}

// RuleIDs lists the IDs of every rule, in catalogue order.
func RuleIDs() []string {
	var ids []string
	for _, r := range Catalogue() {
		ids = append(ids, r.ID)
	}
	return ids
}

// CheckRule says, when id is not a rule, which rule it may have meant.
func CheckRule(id string) error {
	ids := RuleIDs()
	if slices.Contains(ids, id) {
		return nil
	}
	msg := fmt.Sprintf("%q is not a rule", id)
	if near := schema.Nearest(id, ids); near != "" {
		msg += fmt.Sprintf(": did you mean %q?", near)
	}
	return fmt.Errorf("%s (hookctl lint --rules lists them)", msg)
}

// runs reports whether the rule runs.
func (c *Choice) runs(id string) bool {
	return c == nil || !c.rules[id].off
}

// runs reports whether the rule id runs on the file in this run: the run
// is not limited to other rules, and the file's choice keeps it on.
func (f *File) runs(id string) bool {
	return (f.only == nil || f.only[id]) && f.choice.runs(id)
}

// severity is what a finding of the rule that would have sev becomes.
func (c *Choice) severity(id string, sev Severity) Severity {
	if c == nil {
		return sev
	}
	if rc := c.rules[id]; rc.hasLevel {
		return rc.level
	}
	return sev
}

// ChosenRule is a rule as a Choice sets it, for hookctl lint --rules.
type ChosenRule struct {
	RuleInfo
	// Level is what the rule's findings are now: its severities ("error /
	// warning"), the one severity it was given, or "off".
	Level string
	// From names what changed it from its default: a .hookctl.json, or
	// --disable or --enable; "" when it keeps its default.
	From string
}

// Describe lists every rule as the Choice sets it, in catalogue order.
func (c *Choice) Describe() []ChosenRule {
	var out []ChosenRule
	for _, r := range Catalogue() {
		cr := ChosenRule{RuleInfo: r, Level: r.SeverityText()}
		if c != nil {
			rc := c.rules[r.ID]
			switch {
			case rc.off:
				cr.Level = "off"
			case rc.hasLevel:
				cr.Level = rc.level.String()
			}
			cr.From = rc.from
		}
		out = append(out, cr)
	}
	return out
}

// SeverityText names the severities of the rule's findings, most serious
// first: "error", or "error / warning" for a rule whose findings differ.
func (r RuleInfo) SeverityText() string {
	names := make([]string, len(r.Severities))
	for i, s := range r.Severities {
		names[i] = s.String()
	}
	return strings.Join(names, " / ")
}
