package convert

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tailscale/hujson"

	"github.com/hookctl/hookctl/scaffold"
	"github.com/hookctl/hookctl/schema"
)

// FormatError says why a file cannot be imported: it cannot be read, it is
// not JSON, or it is no hook configuration hookctl knows.
type FormatError struct {
	// Path is the file as named.
	Path string
	// Pos is where the problem is, when it is at one place.
	Pos schema.Pos
	// Msg says what is wrong, or what the file looks like instead.
	Msg string
	// Syntax is set when the file is not JSON (or is past the bounds on
	// what is read), so nothing of it was read.
	Syntax bool
}

func (e *FormatError) Error() string {
	if e.Pos.IsValid() {
		return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Pos.Line, e.Pos.Col, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Path, e.Msg)
}

// Shape is how a source file holds its hooks.
type Shape int

const (
	// Wrapped files hold events under a top-level "hooks" object, as every
	// other agent writes them.
	Wrapped Shape = iota
	// Named files are hooks.json files of this format whose named hooks hold
	// other agents' events or tool names.
	Named
)

// Source is a hook configuration read for conversion.
type Source struct {
	// Path is the file as named; Abs its absolute path.
	Path string
	Abs  string
	// Dir is the folder a relative Path starts from, the working folder of
	// the command line that named it: the report shows paths from there.
	Dir  string
	Src  []byte
	Root *schema.Node
	// Agent is the agent whose configuration the file is.
	Agent schema.Agent
	// DetectedBy says how Agent was chosen: "--from", "its path" or "its
	// content".
	DetectedBy string
	Shape      Shape
	// Events is the object that maps event names to entries in a Wrapped
	// file.
	Events *schema.Node
}

// Read reads and recognises the hook configuration at path, which starts
// from the folder dir when it is relative (dir is an absolute path, the
// working folder of the command line that named path). from names the
// agent, or is "" to detect it from the file's path and content.
func Read(dir, path string, from schema.Agent) (*Source, error) {
	if strings.EqualFold(filepath.Ext(path), ".toml") {
		return nil, &FormatError{Path: path, Msg: "hooks in a TOML file (Codex's config.toml [hooks] tables) are not read: move them to .codex/hooks.json, which has the same events in JSON, and import that"}
	}
	// A workspace's file: a FIFO or a device in its place is not read, and
	// nor is one of many megabytes.
	abs := absPath(dir, path)
	src, err := scaffold.ReadRegular(abs)
	var nr *scaffold.NotRegularError
	switch {
	case errors.As(err, &nr) && nr.Mode.IsDir():
		return nil, &FormatError{Path: path, Msg: "it is a folder: name the settings file, such as .claude/settings.json"}
	case errors.As(err, &nr):
		return nil, &FormatError{Path: path, Msg: "it is " + nr.What() + ", not a regular file, so it is not read"}
	case errors.Is(err, fs.ErrNotExist):
		return nil, &FormatError{Path: path, Msg: "no such file"}
	case errors.Is(err, fs.ErrPermission):
		return nil, &FormatError{Path: path, Msg: "permission denied"}
	case err != nil:
		return nil, &FormatError{Path: path, Msg: strings.TrimPrefix(err.Error(), "cannot read "+abs+": ")}
	}
	return Parse(dir, path, src, from)
}

// absPath is path from the folder dir, when it is relative.
func absPath(dir, path string) string {
	if filepath.IsAbs(path) || dir == "" {
		return filepath.Clean(path)
	}
	return filepath.Join(dir, path)
}

// Parse recognises src as the hook configuration at path, which starts
// from the folder dir when it is relative (see Read).
func Parse(dir, path string, src []byte, from schema.Agent) (*Source, error) {
	s := &Source{Path: path, Abs: absPath(dir, path), Dir: dir, Src: src}
	root, _, serr := schema.ParseJSONWithin(src, schema.MaxOtherValues)
	if serr != nil && !serr.Bound && !schema.MayHold(src, schema.MaxOtherValues) {
		// Gemini CLI and Cursor read their settings with comments and
		// trailing commas allowed; blanking them keeps every line and
		// column. (hujson builds a tree of its own, so only for a file
		// within the bounds, its nesting included: it calls itself once a
		// level.)
		if berr := schema.BoundJSONC(src, 0); berr != nil {
			serr = berr
		} else if std, err := hujson.Standardize(append([]byte(nil), src...)); err == nil {
			root, _, serr = schema.ParseJSONWithin(std, schema.MaxOtherValues)
		}
	}
	if serr != nil && serr.Bound {
		return nil, &FormatError{Path: path, Pos: serr.Pos, Msg: serr.Msg, Syntax: true}
	}
	if serr != nil {
		return nil, &FormatError{Path: path, Pos: serr.Pos, Msg: "not valid JSON: " + serr.Msg, Syntax: true}
	}
	s.Root = root
	if root.Kind != schema.Object {
		return nil, &FormatError{Path: path, Pos: root.Span.Start, Msg: fmt.Sprintf("the top level is %s, not an object: a hook configuration is an object such as {\"hooks\": {\"PreToolUse\": [...]}}", root.Describe())}
	}
	if err := s.recognise(); err != nil {
		return nil, err
	}
	switch {
	case from != "":
		s.Agent, s.DetectedBy = from, "--from"
	default:
		if a := agentOfPath(s.Abs); a != "" {
			s.Agent, s.DetectedBy = a, "its path"
		} else if a := s.agentOfContent(); a != "" {
			s.Agent, s.DetectedBy = a, "its content"
		} else {
			return nil, s.unknownEvents()
		}
	}
	return s, nil
}

// recognise sets the shape, or says what the file looks like instead.
func (s *Source) recognise() error {
	root := s.Root
	hooks := root.Get("hooks")
	f, foreign := schema.DetectForeign(root)
	switch {
	case hooks != nil && hooks.Value.Kind == schema.Array:
		return &FormatError{Path: s.Path, Pos: hooks.KeySpan.Start, Msg: fmt.Sprintf("it holds a list under \"hooks\" (%s), which is the hook configuration of none of Claude Code, Gemini CLI, Cursor or Codex: those map event names to entries, as in {\"hooks\": {\"PreToolUse\": [...]}}; create the hooks with hookctl init instead", describeList(hooks.Value))}
	case foreign && hooks != nil && hooks.Value.Kind == schema.Object:
		s.Shape, s.Events = Wrapped, hooks.Value
		return nil
	case foreign:
		// Cursor's "version" key without a hooks object.
		return &FormatError{Path: s.Path, Pos: f.Span.Start, Msg: fmt.Sprintf("it has %s but no \"hooks\" object of events: there is nothing to import", f.Reason)}
	case hooks != nil && hooks.Value.Kind != schema.Object && root.Get("version") == nil && len(root.Members) > 1:
		// A Claude Code settings.json whose "hooks" is not an object.
		return &FormatError{Path: s.Path, Pos: hooks.Value.Span.Start, Msg: fmt.Sprintf("\"hooks\" is %s, not an object of events such as {\"PreToolUse\": [...]}", hooks.Value.Describe())}
	}
	if hooks == nil && !hasHookKeys(root) {
		return &FormatError{Path: s.Path, Msg: fmt.Sprintf("it has no \"hooks\" object (its keys are %s): a Claude Code, Gemini CLI, Cursor or Codex configuration holds its hooks under \"hooks\"", keyList(root))}
	}
	if !s.hasForeignParts() {
		return &FormatError{Path: s.Path, Msg: "it is already a hooks.json of this format, with no other agent's events or tool names: there is nothing to import (check it with hookctl lint)"}
	}
	s.Shape = Named
	return nil
}

// hasHookKeys reports whether some top-level value looks like a hook
// definition: an object with event keys.
func hasHookKeys(root *schema.Node) bool {
	for _, m := range root.Members {
		if m.Value.Kind != schema.Object {
			continue
		}
		for _, em := range m.Value.Members {
			if _, ok := schema.LookupForeignEvent(em.Key); ok || schema.Event(em.Key).Valid() {
				return true
			}
		}
	}
	return false
}

// hasForeignParts reports whether a file of this format's shape holds
// another agent's events, matcher groups on lifecycle events, or tool names.
func (s *Source) hasForeignParts() bool {
	for _, m := range s.Root.Members {
		if m.Value.Kind != schema.Object {
			continue
		}
		for _, em := range m.Value.Members {
			if em.Key == "enabled" {
				continue
			}
			e := schema.Event(em.Key)
			if !e.Valid() {
				if _, ok := schema.LookupForeignEvent(em.Key); ok {
					return true
				}
				continue
			}
			for _, entry := range em.Value.Elems {
				if !e.IsTool() && entry.Get("hooks") != nil {
					return true
				}
				if mm := entry.Get("matcher"); e.IsTool() && mm != nil && mm.Value.Kind == schema.String && len(foreignToolsIn(mm.Value.Str)) > 0 {
					return true
				}
			}
		}
	}
	return false
}

// agentOfPath recognises the places the agents keep their hooks.
func agentOfPath(abs string) schema.Agent {
	dir := filepath.Base(filepath.Dir(abs))
	switch dir {
	case ".claude":
		return schema.Claude
	case ".gemini":
		return schema.Gemini
	case ".cursor":
		return schema.Cursor
	case ".codex":
		return schema.Codex
	case "hooks":
		plugin := filepath.Dir(filepath.Dir(abs))
		if isDir(filepath.Join(plugin, ".claude-plugin")) {
			return schema.Claude
		}
		if isDir(filepath.Join(plugin, ".cursor-plugin")) {
			return schema.Cursor
		}
		if isDir(filepath.Join(plugin, ".codex-plugin")) {
			return schema.Codex
		}
		if exists(filepath.Join(plugin, "gemini-extension.json")) {
			return schema.Gemini
		}
	}
	return ""
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// agentOfContent weighs what only one agent writes: its own event names
// and tool names, Cursor's "version", Gemini CLI's millisecond timeouts and
// handler names, Codex's timeout_ms.
func (s *Source) agentOfContent() schema.Agent {
	votes := map[schema.Agent]int{}
	known := false
	if v := s.Root.Get("version"); v != nil && v.Value.Kind == schema.Number {
		votes[schema.Cursor] += 3
	}
	s.eachEvent(func(key string, entries *schema.Node) {
		if fe, ok := schema.LookupForeignEvent(key); ok {
			known = true
			if len(fe.Agents) == 1 {
				votes[fe.Agents[0]] += 2
			}
		} else if schema.Event(key).Valid() {
			known = true
		}
		walkObjects(entries, func(n *schema.Node) {
			if m := n.Get("matcher"); m != nil && m.Value.Kind == schema.String {
				for _, t := range foreignToolsIn(m.Value.Str) {
					if ft, _ := schema.LookupForeignTool(t); len(ft.Agents) == 1 {
						votes[ft.Agents[0]]++
					}
				}
			}
			if n.Get("timeout_ms") != nil {
				votes[schema.Codex]++
			}
			if n.Get("sequential") != nil || (n.Get("command") != nil && n.Get("name") != nil) {
				votes[schema.Gemini]++
			}
			if t := n.Get("timeout"); t != nil && t.Value.Kind == schema.Number && n.Get("command") != nil {
				if ms, ok := number(t.Value); ok && ms >= 1000 {
					votes[schema.Gemini] += 2
				}
			}
		})
	})
	if !known {
		return ""
	}
	best, bestVotes := schema.Claude, 0
	for _, a := range schema.Agents {
		if votes[a] > bestVotes {
			best, bestVotes = a, votes[a]
		}
	}
	return best
}

// eachEvent calls f with every event key of the file and its entries.
func (s *Source) eachEvent(f func(key string, entries *schema.Node)) {
	if s.Shape == Wrapped {
		for _, m := range s.Events.Members {
			f(m.Key, m.Value)
		}
		return
	}
	for _, h := range s.Root.Members {
		if h.Value.Kind != schema.Object {
			continue
		}
		for _, m := range h.Value.Members {
			if m.Key != "enabled" {
				f(m.Key, m.Value)
			}
		}
	}
}

// unknownEvents explains a wrapped file whose events belong to no agent.
func (s *Source) unknownEvents() error {
	var names []string
	pos := schema.Pos{}
	s.eachEvent(func(key string, _ *schema.Node) {
		names = append(names, key)
	})
	if s.Shape == Wrapped && len(s.Events.Members) > 0 {
		pos = s.Events.Members[0].KeySpan.Start
	}
	msg := "its \"hooks\" object is empty: there is nothing to import"
	if len(names) > 0 {
		msg = fmt.Sprintf("its events (%s) are events of none of Claude Code, Gemini CLI, Cursor or Codex", strings.Join(names, ", "))
		for _, n := range names {
			if isGitHook(n) {
				msg += fmt.Sprintf("; %s is a git hook, which belongs in .git/hooks or a pre-commit configuration, not in an agent's hooks", n)
				break
			}
		}
		msg += "; pass --from to read it as one of those agents' files anyway"
	}
	return &FormatError{Path: s.Path, Pos: pos, Msg: msg}
}

func isGitHook(name string) bool {
	switch strings.ReplaceAll(name, "_", "-") {
	case "pre-commit", "commit-msg", "pre-push", "post-commit", "prepare-commit-msg", "post-merge", "post-checkout", "pre-rebase":
		return true
	}
	return false
}

// walkObjects calls f with every object in n, n included.
func walkObjects(n *schema.Node, f func(*schema.Node)) {
	if n == nil {
		return
	}
	switch n.Kind {
	case schema.Object:
		f(n)
		for _, m := range n.Members {
			walkObjects(m.Value, f)
		}
	case schema.Array:
		for _, e := range n.Elems {
			walkObjects(e, f)
		}
	}
}

// describeList names the keys the entries of a list use.
func describeList(n *schema.Node) string {
	seen := map[string]bool{}
	var keys []string
	for _, e := range n.Elems {
		for _, m := range e.Members {
			if !seen[m.Key] {
				seen[m.Key] = true
				keys = append(keys, m.Key)
			}
		}
	}
	if len(keys) == 0 {
		return schema.Plural(len(n.Elems), "entry", "entries")
	}
	return schema.Plural(len(n.Elems), "entry", "entries") + " with the keys " + strings.Join(keys, ", ")
}

func keyList(n *schema.Node) string {
	var keys []string
	for _, m := range n.Members {
		keys = append(keys, m.Key)
	}
	sort.Strings(keys)
	if len(keys) == 0 {
		return "none"
	}
	if len(keys) > 8 {
		keys = append(keys[:8], "...")
	}
	return strings.Join(keys, ", ")
}
