package agy

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/hookctl/hookctl/internal/lazyre"
	"github.com/hookctl/hookctl/schema"
)

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

// Log is what the agent's log says of hooks.json files, its latest lines
// of each kind.
type Log struct {
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

// MaxLogTail is how much of the end of the agent's log [ReadLog] reads.
const MaxLogTail = 4 << 20

// maxLogCount is how much of a log before its tail ReadLog reads to count
// its lines, so that a line it names is the line an editor shows. Past
// it, lines are named within the tail.
const maxLogCount = 1 << 30

// ReadLog reads the end of the agent's log, bounded, and finds its latest
// lines about hooks.json files.
func ReadLog(path string) (*Log, error) {
	f, info, err := schema.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	start := max(info.Size()-MaxLogTail, 0)
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
	if _, err := schema.CopyBounded(&buf, f, path, MaxLogTail+64<<10); err != nil {
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
	l := ParseLog(text, info.ModTime())
	l.Modified = info.ModTime()
	if start > maxLogCount {
		l.Tail = MaxLogTail
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

// Line names line n of the log in a message: "line 12", or, when the log
// is too long for its lines to be counted, "line 12 of its last 4 MiB".
func (l *Log) Line(n int) string {
	if l.Tail > 0 {
		return fmt.Sprintf("line %d of its last %d MiB", n, l.Tail>>20)
	}
	return fmt.Sprintf("line %d", n)
}

// FailedBefore reports whether the failure's line was written before t:
// by the time it starts with, else by the log's own modification time,
// which no line of it is newer than.
func (l *Log) FailedBefore(t time.Time) bool {
	at := l.FailedAt
	if at.IsZero() {
		at = l.Modified
	}
	return !at.IsZero() && !t.IsZero() && at.Before(t)
}

// LineData is line n of the log for a report in JSON: nil when it is
// counted within the tail only.
func (l *Log) LineData(n int) any {
	if l.Tail > 0 {
		return nil
	}
	return n
}

// ParseLog finds the latest lines about hooks.json files in the text of
// the agent's log, last modified at modified.
func ParseLog(text string, modified time.Time) *Log {
	l := &Log{Loaded: -1}
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

// InvalidHookStands reports whether an `invalid hook "NAME"` message
// still holds of a parsed file: the hook is there, and one of its
// handlers has no command.
func InvalidHookStands(cfg *schema.Config, msg string) bool {
	if _, ok := InvalidHookIn(cfg, msg); !ok {
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

// InvalidHookIn finds the hook an `invalid hook "NAME"` message names in
// a parsed file: its key's span.
func InvalidHookIn(cfg *schema.Config, msg string) (schema.Span, bool) {
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

// LogCause finds what a decoding error from the agent's log means in cfg
// as it is now. A syntax error ("unexpected end of JSON input") is the
// file's syntax error; a type error ("json: cannot unmarshal string into
// Go struct field handler.PreToolUse.hooks.timeout of type int") is the
// first value the emulated decoder cannot read with the same last field
// name and the same kind of value: the path before that name takes
// another shape with each Go release agy may be built with (see
// loggedField). stands is false when the file as it is now has no such
// cause. A message of another shape stands, at no position (pos is nil).
func LogCause(cfg *schema.Config, msg string) (pos *schema.Pos, stands bool) {
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
