package schema

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
)

// ProjectConfig is .hookctl.json: hookctl's settings for one repository,
// kept at the workspace root beside .agents/ and found by looking upward
// from the linted hooks.json.
type ProjectConfig struct {
	// Associates a JSON Schema with this file for editors (hookctl schema
	// config prints it).
	Schema string `json:"$schema,omitempty"`

	// Which rules hookctl lint runs on this repository's hooks.json files,
	// and how serious their findings are. The flags --disable and --enable
	// win over it.
	Lint *LintConfig `json:"lint,omitempty"`
}

// LintConfig is the choice of hookctl lint's rules (hookctl lint --rules lists
// them).
type LintConfig struct {
	// Rules that do not run, such as ["platform-specific"].
	Disable []string `json:"disable,omitempty"`

	// A severity per rule, replacing the rule's own for every finding it
	// makes: "error", "warning" or "info", or "off" to disable it. Findings
	// at or above --fail-on (default error) make hookctl lint exit 1.
	Severity map[string]RuleLevel `json:"severity,omitempty"`
}

// RuleLevel is the severity a rule's findings get, or "off" for a rule
// that does not run.
type RuleLevel string

// The levels of a rule in .hookctl.json.
const (
	LevelError   RuleLevel = "error"
	LevelWarning RuleLevel = "warning"
	LevelInfo    RuleLevel = "info"
	LevelOff     RuleLevel = "off"
)

// RuleLevels lists the levels, from the most serious.
var RuleLevels = []RuleLevel{LevelError, LevelWarning, LevelInfo, LevelOff}

// ConfigFileName is the name of the file that holds a repository's
// settings.
const ConfigFileName = ".hookctl.json"

// ConfigSchemaID is the $id of the .hookctl.json schema.
const ConfigSchemaID = "https://hookctl.dev/schema/hookctl.schema.json"

// maxConfigSize bounds .hookctl.json: a few rule names need a few hundred
// bytes, and a workspace controls the file.
const maxConfigSize = 1 << 20

// ConfigError is a .hookctl.json that cannot be used, and where.
type ConfigError struct {
	Path string
	// Pos is where the mistake is; zero when the file cannot be read.
	Pos Pos
	Msg string
}

func (e *ConfigError) Error() string {
	if !e.Pos.IsValid() {
		return e.Path + ": " + e.Msg
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Pos.Line, e.Pos.Col, e.Msg)
}

// RuleSetting is one rule named in .hookctl.json.
type RuleSetting struct {
	// Rule is the rule's ID as written, and Span where it is written.
	Rule string
	Span Span
	// Level is what the file sets it to: off for a rule in "disable".
	Level RuleLevel
}

// LoadedConfig is a .hookctl.json as read.
type LoadedConfig struct {
	// Path is the file.
	Path string
	// Rules are the rules it names, in file order: those of "disable",
	// then those of "severity".
	Rules []RuleSetting
}

// FindConfig returns the .hookctl.json that governs a file in dir: the
// first found in dir or a folder above it, up to the file system's root;
// "" when there is none. For a relative dir the path is relative to the
// working folder too ("../.hookctl.json"), as messages show it.
func FindConfig(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for {
		p := filepath.Join(abs, ConfigFileName)
		if _, err := os.Lstat(p); err == nil {
			if !filepath.IsAbs(dir) {
				if wd, err := os.Getwd(); err == nil {
					if r, err := filepath.Rel(wd, p); err == nil {
						return r
					}
				}
			}
			return p
		}
		parent := filepath.Dir(abs)
		if parent == abs {
			return ""
		}
		abs = parent
	}
}

// LoadConfig reads the .hookctl.json at path. The file is a workspace's,
// so it is read as hostile input: a regular file (links followed) of at
// most 1 MiB, strict JSON, no key that the format does not have. Every
// error is a *ConfigError that says where and what to write instead.
func LoadConfig(path string) (*LoadedConfig, error) {
	src, err := ReadFile(path, maxConfigSize)
	if err != nil {
		var tl *TooLargeError
		if errors.As(err, &tl) {
			return nil, &ConfigError{Path: path, Msg: tl.Reason()}
		}
		if errors.Is(err, fs.ErrNotExist) {
			return nil, &ConfigError{Path: path, Msg: "is a link to a file that does not exist"}
		}
		return nil, &ConfigError{Path: path, Msg: ReadReason(err)}
	}
	return ParseConfig(path, src)
}

// ParseConfig reads src as the .hookctl.json at path; see LoadConfig.
func ParseConfig(path string, src []byte) (*LoadedConfig, error) {
	root, dups, serr := ParseJSON(src)
	if serr != nil {
		return nil, &ConfigError{Path: path, Pos: serr.Pos, Msg: serr.Msg}
	}
	fail := func(at Pos, format string, args ...any) error {
		return &ConfigError{Path: path, Pos: at, Msg: fmt.Sprintf(format, args...)}
	}
	if len(dups) > 0 {
		d := dups[0]
		return nil, fail(d.Again.Start, "the key %q is repeated (first at %d:%d): write it once", d.Key, d.First.Start.Line, d.First.Start.Col)
	}
	if root.Kind != Object {
		return nil, fail(root.Span.Start, `the file must be an object, such as {"lint": {"disable": ["platform-specific"]}}, not %s`, root.Describe())
	}
	out := &LoadedConfig{Path: path}
	for i := range root.Members {
		m := &root.Members[i]
		switch m.Key {
		case "$schema":
			if m.Value.Kind != String {
				return nil, fail(m.Value.Span.Start, `"$schema" must be a string, not %s`, m.Value.Describe())
			}
		case "lint":
			if err := out.readLint(m.Value, fail); err != nil {
				return nil, err
			}
		default:
			return nil, fail(m.KeySpan.Start, "%q is not a setting%s: the file holds \"lint\" (and \"$schema\")", m.Key, nearestOf(m.Key, []string{"lint", "$schema"}))
		}
	}
	return out, nil
}

func (c *LoadedConfig) readLint(v *Node, fail func(Pos, string, ...any) error) error {
	if v.Kind != Object {
		return fail(v.Span.Start, `"lint" must be an object, such as {"disable": ["platform-specific"], "severity": {"dangerous-command": "error"}}, not %s`, v.Describe())
	}
	var disabled, levelled []RuleSetting
	for i := range v.Members {
		m := &v.Members[i]
		switch m.Key {
		case "disable":
			if m.Value.Kind != Array {
				return fail(m.Value.Span.Start, `"disable" must be an array of rule names, such as ["platform-specific"], not %s`, m.Value.Describe())
			}
			for _, el := range m.Value.Elems {
				if el.Kind != String {
					return fail(el.Span.Start, `"disable" holds rule names as strings, not %s`, el.Describe())
				}
				disabled = append(disabled, RuleSetting{Rule: el.Str, Span: el.Span, Level: LevelOff})
			}
		case "severity":
			if m.Value.Kind != Object {
				return fail(m.Value.Span.Start, `"severity" must be an object of rule names and levels, such as {"dangerous-command": "error"}, not %s`, m.Value.Describe())
			}
			for j := range m.Value.Members {
				r := &m.Value.Members[j]
				lv := r.Value
				if lv.Kind != String || !slices.Contains(RuleLevels, RuleLevel(lv.Str)) {
					what := lv.Describe()
					near := ""
					if lv.Kind == String {
						what = strconv.Quote(lv.Str)
						near = nearestOf(lv.Str, levelNames())
					}
					return fail(lv.Span.Start, "the level of %q must be \"error\", \"warning\", \"info\" or \"off\", not %s%s", r.Key, what, near)
				}
				levelled = append(levelled, RuleSetting{Rule: r.Key, Span: r.KeySpan, Level: RuleLevel(lv.Str)})
			}
		default:
			return fail(m.KeySpan.Start, "%q is not a setting of \"lint\"%s: it holds \"disable\" and \"severity\"", m.Key, nearestOf(m.Key, []string{"disable", "severity"}))
		}
	}
	for _, l := range levelled {
		for _, d := range disabled {
			if d.Rule == l.Rule && l.Level != LevelOff {
				return fail(l.Span.Start, "%q is in \"disable\" (%d:%d) and given the level %q here: remove one of the two", l.Rule, d.Span.Start.Line, d.Span.Start.Col, l.Level)
			}
		}
	}
	c.Rules = append(append(c.Rules, disabled...), levelled...)
	return nil
}

func levelNames() []string {
	out := make([]string, len(RuleLevels))
	for i, l := range RuleLevels {
		out[i] = string(l)
	}
	return out
}

// nearestOf says " (did you mean X?)" when a candidate is near word.
func nearestOf(word string, candidates []string) string {
	if n := Nearest(word, candidates); n != "" && n != word {
		return fmt.Sprintf(" (did you mean %q?)", n)
	}
	return ""
}
