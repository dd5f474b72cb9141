package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/fatih/color"

	"github.com/hookctl/hookctl/schema"

	"github.com/hookctl/hookctl/internal/capture"
	"github.com/hookctl/hookctl/internal/lazyre"
)

// What hookctl knows of the agent's outputs is read defensively: none of
// them is documented, and each version may print them otherwise. What
// cannot be read is said, never guessed at. docs/agent.md records, version
// by version, what each output was seen to hold.

// agentVersion is a version of agy, as "agy --version" prints it.
type agentVersion struct {
	major, minor, patch int
	text                string
}

var versionRE = lazyre.New(`(?:^|[^0-9.])(\d+)\.(\d+)\.(\d+)(?:$|[^0-9.])`)

// parseAgentVersion finds the first x.y.z in what agy --version printed.
func parseAgentVersion(out string) (agentVersion, bool) {
	m := versionRE().FindStringSubmatch(out)
	if m == nil {
		return agentVersion{}, false
	}
	a, _ := strconv.Atoi(m[1])
	b, _ := strconv.Atoi(m[2])
	c, _ := strconv.Atoi(m[3])
	return agentVersion{a, b, c, m[1] + "." + m[2] + "." + m[3]}, true
}

// atLeast reports whether v is the version "x.y.z" or later.
func (v agentVersion) atLeast(s string) bool {
	w, ok := parseAgentVersion(s)
	if !ok {
		return true
	}
	switch {
	case v.major != w.major:
		return v.major > w.major
	case v.minor != w.minor:
		return v.minor > w.minor
	}
	return v.patch >= w.patch
}

// runAgent runs the agent with args in the folder dir ("" for the current
// one: the agent loads the workspace hooks of the folder it runs in), in
// its own process group, and stops the whole group at the timeout: a
// hanging agent must not hang doctor. Its output is bounded.
func runAgent(ctx context.Context, prog, dir string, timeout time.Duration, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, prog, args...)
	cmd.Dir = dir
	killGroupOnCancel(cmd)
	cmd.WaitDelay = time.Second
	cmd.Stdin = nil
	out := capture.New(1 << 20)
	cmd.Stdout, cmd.Stderr = out, out
	err := cmd.Run()
	if ctx.Err() == context.DeadlineExceeded {
		return out.String(), errAgentTimeout
	}
	return out.String(), err
}

var errAgentTimeout = errors.New("timed out")

// agentHooks reads the names of the hooks in agy's answer to "/hooks":
// every array under a key "hooks" anywhere in the JSON, whose entries are
// names, or objects with a "name". ok is false when the answer holds no
// JSON at all, or no such array.
func agentHooks(out string) (names []string, ok bool) {
	// The JSON may follow a banner: start at the first { or [.
	i := strings.IndexAny(out, "{[")
	if i < 0 {
		return nil, false
	}
	var v any
	dec := json.NewDecoder(strings.NewReader(out[i:]))
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if strings.EqualFold(k, "hooks") {
					if arr, isArr := x.([]any); isArr {
						ok = true
						for _, e := range arr {
							switch e := e.(type) {
							case string:
								names = append(names, e)
							case map[string]any:
								if n, isStr := e["name"].(string); isStr {
									names = append(names, n)
								}
							}
						}
					}
				}
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(v)
	return names, ok
}

// The lines of the agent's log that hookctl reads (docs/agent.md cites
// each): a file it could not parse, "failed to parse hooks.json at PATH:
// MESSAGE" (PATH may hold spaces; it ends at the file's name); a plugin
// whose hooks it could not parse, "Failed to parse hooks for plugin NAME:
// MESSAGE"; how many hooks it loaded, "loaded N named hooks from M
// hooks.json file(s)". A MESSAGE is Go's decoding error, or the agent's
// own check of a hook, `invalid hook "NAME": command hook must specify
// 'command'`. A line may start with a time, RFC 3339 or glog's, and
// nothing else: the same words later in a line (what a command printed, or
// the user typed, logged in the middle of it) are not the agent's.
var (
	logParseFailed  = lazyre.New(logPrefix + `failed to parse hooks\.json at (.+?\.json|\S+?):? (.*)$`)
	logPluginFailed = lazyre.New(logPrefix + `[Ff]ailed to parse hooks for plugin (.+?): (.*)$`)
	logLoaded       = lazyre.New(logPrefix + `loaded (\d+) named hooks? from (\d+) hooks\.json file`)
	logInvalidHook  = lazyre.New(`invalid hook "((?:[^"\\]|\\.)*)"`)
	goTypeError     = lazyre.New(`json: cannot unmarshal (\w+)(?: ([^ ]+))? into (?:Go struct field (\S+)|(\.\S*)|Go value) of type (\S+)`)
	logRFC3339      = lazyre.New(`^\[?(\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?)`)
	logGlog         = lazyre.New(`^[IWEF](\d\d)(\d\d) (\d\d:\d\d:\d\d(?:\.\d+)?) `)
)

// logPrefix is what may stand before the agent's message on a line of its
// log: a time in RFC 3339 (perhaps in brackets) with a level word, or
// glog's header (W0902 10:12:03.104512 4242 hooks.go:73]).
const logPrefix = `^(?:\[?\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?\]? +(?:[A-Za-z]+:? +)?|[IWEF]\d{4} \d\d:\d\d:\d\d(?:\.\d+)? +\d+ +[\w.-]+:\d+\] +)?`

// logTime reads the time a log line starts with; zero when it has none
// hookctl can read. glog's times carry no year: the log's own
// modification year is taken, or the year before when that puts the line
// in the future.
func logTime(line string, modified time.Time) time.Time {
	if m := logRFC3339().FindStringSubmatch(line); m != nil {
		v := strings.Replace(m[1], " ", "T", 1)
		for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02T15:04:05.999999999Z0700"} {
			if t, err := time.Parse(layout, v); err == nil {
				return t
			}
		}
		return time.Time{}
	}
	if m := logGlog().FindStringSubmatch(line); m != nil && !modified.IsZero() {
		t, err := time.ParseInLocation("2006-01-02 15:04:05.999999999", fmt.Sprintf("%d-%s-%s %s", modified.Year(), m[1], m[2], m[3]), time.Local)
		if err != nil {
			return time.Time{}
		}
		if t.After(modified.Add(24 * time.Hour)) {
			t = t.AddDate(-1, 0, 0)
		}
		return t
	}
	return time.Time{}
}

// agentLog is what the agent's log says of hooks.json files, its latest
// lines of each kind.
type agentLog struct {
	// Failed is the latest "failed to parse" line's file and message, and
	// its line number in the log.
	FailedPath, FailedMsg string
	FailedLine            int
	// FailedAt is the time the failure's line starts with, zero when it
	// has none.
	FailedAt time.Time
	// Loaded is the latest "loaded N named hooks from M files" line, and
	// its line number; -1 when there is none. LoadedAt is the time the
	// line starts with, zero when it has none.
	Loaded, LoadedFiles, LoadedLine int
	LoadedAt                        time.Time
	// Plugin is the latest "Failed to parse hooks for plugin" line's
	// plugin and message, and its line number.
	Plugin, PluginMsg string
	PluginLine        int
	// Tail is, when the log was too long for its lines to be counted from
	// its start, the size of the end they are counted in; else 0.
	Tail int
	// Modified is when the log was last written: no line of it is newer.
	Modified time.Time
}

// maxLogTail is how much of the end of the agent's log doctor reads.
const maxLogTail = 4 << 20

// maxLogCount is how much of a log before its tail doctor reads to count
// its lines, so that a line it names is the line an editor shows. Past
// it, lines are named within the tail.
const maxLogCount = 1 << 30

// readAgentLog reads the end of the agent's log, bounded, and finds its
// latest lines about hooks.json files.
func readAgentLog(path string) (*agentLog, error) {
	f, info, err := schema.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	start := max(info.Size()-maxLogTail, 0)
	before := 0 // lines ending before the text read
	cut := false
	if start > 0 {
		if start <= maxLogCount {
			if before, err = countLines(f, start); err != nil {
				return nil, err
			}
		}
		if _, err := f.Seek(start, io.SeekStart); err != nil {
			return nil, err
		}
		// The text read starts inside a line unless the byte before it
		// ends one: that line's start is not read, so it is left out.
		prev := make([]byte, 1)
		if _, err := f.ReadAt(prev, start-1); err != nil {
			return nil, err
		}
		cut = prev[0] != '\n'
	}
	var buf bytes.Buffer
	if _, err := schema.CopyBounded(&buf, f, path, maxLogTail+64<<10); err != nil {
		return nil, err
	}
	text := buf.String()
	if cut {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			i = len(text) - 1
		}
		text = text[i+1:]
		before++
	}
	l := parseAgentLog(text, info.ModTime())
	l.Modified = info.ModTime()
	if start > maxLogCount {
		l.Tail = maxLogTail
	} else {
		for _, n := range []*int{&l.FailedLine, &l.LoadedLine, &l.PluginLine} {
			if *n > 0 {
				*n += before
			}
		}
	}
	return l, nil
}

// countLines counts the line ends in the first n bytes of f.
func countLines(f *os.File, n int64) (int, error) {
	buf := make([]byte, 256<<10)
	count := 0
	for off := int64(0); off < n; {
		m, err := f.ReadAt(buf[:min(int64(len(buf)), n-off)], off)
		count += bytes.Count(buf[:m], []byte{'\n'})
		off += int64(m)
		if err != nil && off < n {
			return 0, err
		}
	}
	return count, nil
}

// line names line n of the log in a message: "line 12", or, when the log
// is too long for its lines to be counted, "line 12 of its last 4 MiB".
func (l *agentLog) line(n int) string {
	if l.Tail > 0 {
		return fmt.Sprintf("line %d of its last %d MiB", n, l.Tail>>20)
	}
	return fmt.Sprintf("line %d", n)
}

// failedBefore reports whether the failure's line was written before t:
// by the time it starts with, else by the log's own modification time,
// which no line of it is newer than.
func (l *agentLog) failedBefore(t time.Time) bool {
	at := l.FailedAt
	if at.IsZero() {
		at = l.Modified
	}
	return !at.IsZero() && !t.IsZero() && at.Before(t)
}

// lineData is line n of the log for --json: nil when it is counted
// within the tail only.
func (l *agentLog) lineData(n int) any {
	if l.Tail > 0 {
		return nil
	}
	return n
}

// parseAgentLog finds the latest lines about hooks.json files in the text
// of the agent's log, last modified at modified.
func parseAgentLog(text string, modified time.Time) *agentLog {
	l := &agentLog{Loaded: -1}
	for n, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, "\r")
		if m := logParseFailed().FindStringSubmatch(line); m != nil {
			l.FailedPath, l.FailedMsg, l.FailedLine = m[1], strings.TrimSpace(m[2]), n+1
			l.FailedAt = logTime(line, modified)
		}
		if m := logPluginFailed().FindStringSubmatch(line); m != nil {
			l.Plugin, l.PluginMsg, l.PluginLine = m[1], strings.TrimSpace(m[2]), n+1
		}
		if m := logLoaded().FindStringSubmatch(line); m != nil {
			l.Loaded, _ = strconv.Atoi(m[1])
			l.LoadedFiles, _ = strconv.Atoi(m[2])
			l.LoadedLine = n + 1
			l.LoadedAt = logTime(line, modified)
		}
	}
	return l
}

// invalidHookStands reports whether an `invalid hook "NAME"` message
// still holds of a parsed file: the hook is there, and one of its
// handlers has no command.
func invalidHookStands(cfg *schema.Config, msg string) bool {
	if _, ok := invalidHookIn(cfg, msg); !ok {
		return false
	}
	name, _ := hookNamed(msg)
	for _, p := range cfg.Problems {
		if p.Hook == name && (p.Rule == schema.RuleMissingCommand || p.Rule == schema.RuleEventShape) {
			return true
		}
	}
	return false
}

// hookNamed reads the NAME of an `invalid hook "NAME"` message.
func hookNamed(msg string) (string, bool) {
	m := logInvalidHook().FindStringSubmatch(msg)
	if m == nil {
		return "", false
	}
	name, err := strconv.Unquote(`"` + m[1] + `"`)
	if err != nil {
		name = m[1]
	}
	return name, true
}

// invalidHookIn finds the hook an `invalid hook "NAME"` message names in
// a parsed file: its key's span.
func invalidHookIn(cfg *schema.Config, msg string) (schema.Span, bool) {
	name, ok := hookNamed(msg)
	if !ok || cfg == nil || cfg.Root == nil || cfg.Root.Kind != schema.Object {
		return schema.Span{}, false
	}
	for i := len(cfg.Root.Members) - 1; i >= 0; i-- {
		if cfg.Root.Members[i].Key == name {
			return cfg.Root.Members[i].KeySpan, true
		}
	}
	return schema.Span{}, false
}

// jsonSyntaxError matches the messages of Go's encoding/json for text
// that is not JSON.
var jsonSyntaxError = lazyre.New(`^(?:json: )?(?:unexpected end of JSON input|invalid character )`)

// logCause finds what a decoding error from the agent's log means in cfg
// as it is now. A syntax error ("unexpected end of JSON input") is the
// file's syntax error; a type error ("json: cannot unmarshal string into
// Go struct field handler.PreToolUse.hooks.timeout of type int") is the
// first value the emulated decoder cannot read with the same last field
// name and the same kind of value: the path before that name takes
// another shape with each Go release agy may be built with (see
// loggedField). stands is false when the file as it is now has no such
// cause. A message of another shape stands, at no position (pos is nil).
func logCause(cfg *schema.Config, msg string) (pos *schema.Pos, stands bool) {
	if cfg == nil {
		return nil, true
	}
	if jsonSyntaxError().MatchString(msg) {
		if cfg.Syntax == nil {
			return nil, false
		}
		return &cfg.Syntax.Pos, true
	}
	m := goTypeError().FindStringSubmatch(msg)
	if m == nil {
		return nil, true
	}
	if cfg.Root == nil {
		return nil, false
	}
	kind, field := m[1], loggedField(m[3]+m[4])
	for _, e := range schema.AgentErrors(cfg.Root, schema.AgentOptions{}) {
		if lastName(e.Field) == field && strings.HasPrefix(e.Value, kind) {
			return &e.Span.Start, true
		}
	}
	return nil, false
}

// loggedField is the last field name of the path in encoding/json's type
// error, "" for a hook definition itself. The path has three shapes,
// after the Go release agy was built with (docs/doctor.md has their
// sources): the struct's name and the last field, "handler.timeout"
// (before the full path); the innermost struct's name and every field,
// "handler.PreToolUse.hooks.timeout"; and, from encoding/json built on
// encoding/json/v2, no struct name and every key and index from the top,
// the hook's name first, ".gate.PreToolUse.0.hooks.0.timeout". Indices are
// not field names.
func loggedField(path string) string {
	if path == "" {
		return "" // "into Go value of type ...": a hook definition
	}
	// The first name is the struct's, or after the leading dot the
	// hook's: neither is a field of the emulated decoder.
	_, rest, ok := strings.Cut(strings.TrimPrefix(path, "."), ".")
	if !ok {
		return ""
	}
	names := strings.Split(rest, ".")
	for len(names) > 0 && strings.Trim(names[len(names)-1], "0123456789") == "" {
		names = names[:len(names)-1]
	}
	if len(names) == 0 {
		return ""
	}
	return names[len(names)-1]
}

// lastName is the last name of a field path: "timeout" of
// "PreToolUse.hooks.timeout".
func lastName(path string) string {
	return path[strings.LastIndexByte(path, '.')+1:]
}

// sameFile reports whether two paths name one file.
func sameFile(a, b string) bool {
	if a == b {
		return true
	}
	ia, err1 := os.Stat(a)
	ib, err2 := os.Stat(b)
	if err1 == nil && err2 == nil {
		return os.SameFile(ia, ib)
	}
	ca, _ := filepath.Abs(a)
	cb, _ := filepath.Abs(b)
	return ca == cb
}

// folderTrust is the agent's trust decision for a folder, from
// ~/.gemini/trustedFolders.json: "trusted", "untrusted", or "" when the
// file says nothing of it. The file maps paths to TRUST_FOLDER (the folder
// and what it holds), TRUST_PARENT (the folder that holds it) or
// DO_NOT_TRUST; the most specific path decides.
func folderTrust(src []byte, dir string) (decision, rule string, ok bool) {
	var m map[string]any
	if err := json.Unmarshal(src, &m); err != nil {
		return "", "", false
	}
	best := -1
	for p, v := range m {
		level, isStr := v.(string)
		if !isStr {
			continue
		}
		scope := filepath.Clean(p)
		if strings.EqualFold(level, "TRUST_PARENT") {
			scope = filepath.Dir(scope)
		}
		if dir != scope && !strings.HasPrefix(dir, scope+string(filepath.Separator)) {
			continue
		}
		if len(scope) <= best {
			continue
		}
		best = len(scope)
		rule = p + ": " + level
		switch strings.ToUpper(level) {
		case "TRUST_FOLDER", "TRUST_PARENT":
			decision = "trusted"
		case "DO_NOT_TRUST":
			decision = "untrusted"
		default:
			decision = ""
		}
	}
	return decision, rule, true
}

// The colours of doctor's marks.
var (
	greenAttr  = color.FgGreen
	yellowAttr = color.FgYellow
	redAttr    = color.FgRed
)

// modTime is when the file at path was last written, zero when it cannot
// be told.
func modTime(path string) time.Time {
	info, err := os.Stat(path)
	if err != nil {
		return time.Time{}
	}
	return info.ModTime()
}
