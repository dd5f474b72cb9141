package tracelog

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/hookctl/hookctl/schema/scope"
)

// CommandLog returns the log a command names, path (--log), else
// $HOOKCTL_LOG, confined to the workspace (Log.Within): a workspace's
// command may name it, and a link planted there after the workspace was
// trusted must not make the record land in ~/.bashrc. The workspace is the
// one given (the dispatch's, $HOOKCTL_WORKSPACE), else the one found from
// the current folder upward (scope.Here). Without either name, the
// default log, the user's own, is returned as it is. getenv reads the
// environment.
func CommandLog(path, workspace string, getenv func(string) string) (*Log, error) {
	if path == "" {
		path = getenv(EnvLog)
	}
	if path == "" {
		p, err := DefaultPath(getenv)
		if err != nil {
			return nil, err
		}
		return &Log{Path: p}, nil
	}
	l := &Log{Path: path}
	if path == os.DevNull {
		return l, nil
	}
	if workspace == "" || !filepath.IsAbs(workspace) {
		found, err := scope.Here()
		if err != nil {
			return nil, fmt.Errorf("%v, to keep the log %s inside the workspace", err, path)
		}
		workspace = found.Root
	}
	l.Within = filepath.Clean(workspace)
	return l, nil
}

// ParseSince reads how far back a reader looks (hookctl log --since): a
// duration as Go writes them (90s, 30m, 1h30m), or a number of days (7d).
func ParseSince(s string) (time.Duration, error) {
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.ParseFloat(days, 64)
		if err != nil || n < 0 {
			return 0, errors.New("write a duration such as 30m, 2h or 7d")
		}
		return time.Duration(n * float64(24*time.Hour)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, errors.New("write a duration such as 30m, 2h or 7d")
	}
	return d, nil
}

// Ran sums up a dispatch's handlers, as hookctl log shows them: the hooks
// that ran ("run: gate,audit", "run: none"), and the exit status of the
// first that did not exit 0, "failed" when it had none, "-" when no
// handler ran.
func (r *Record) Ran() (hooks, exit string) {
	var names []string
	exit = "0"
	if len(r.Handlers) == 0 {
		exit = "-"
	}
	failed := false
	for _, h := range r.Handlers {
		name := h.Hook
		if name == "" {
			name = "(file)"
		}
		if len(names) == 0 || names[len(names)-1] != name {
			names = append(names, name)
		}
		if failed {
			continue
		}
		switch {
		case h.Exit != nil && *h.Exit != 0:
			exit, failed = strconv.Itoa(*h.Exit), true
		case h.Exit == nil && h.Outcome == "failed":
			exit, failed = "failed", true
		}
	}
	if r.HandlersOmitted > 0 {
		names = append(names, fmt.Sprintf("+%d", r.HandlersOmitted))
	}
	if len(names) == 0 {
		return "run: none", exit
	}
	return "run: " + strings.Join(names, ","), exit
}

// NewFilter is the Filter of a reader's choices (hookctl log --hook,
// --event, --since): since, when given, is read by ParseSince and counted
// back from now.
func NewFilter(hook, event, since string, now time.Time) (Filter, error) {
	f := Filter{Hook: hook, Event: event}
	if since != "" {
		d, err := ParseSince(since)
		if err != nil {
			return Filter{}, err
		}
		f.Since = now.Add(-d)
	}
	return f, nil
}

// Empty reports whether the log holds no record at all, so that a reader
// finding none can tell an empty log from a filter that matches nothing.
// A log that cannot be read is empty.
func (l *Log) Empty() bool {
	b, _ := l.Tail(1, Filter{})
	return b == nil || len(b.Records) == 0
}

// ToolPair names in one word the two tool events of one tool ("PreToolUse
// or PostToolUse"): "Pre|PostToolUse"; false when pre and post are not
// such a pair.
func ToolPair(pre, post string) (string, bool) {
	a, okPre := strings.CutPrefix(pre, "Pre")
	b, okPost := strings.CutPrefix(post, "Post")
	if !okPre || !okPost || a != b {
		return "", false
	}
	return "Pre|Post" + b, true
}

// EventName is the record's event in one word: a payload that fit both
// tool events of one tool is ToolPair's "Pre|PostToolUse".
func (r *Record) EventName() string {
	if ev := r.Events(); len(ev) == 2 {
		if both, ok := ToolPair(ev[0], ev[1]); ok {
			return both
		}
	}
	return r.Event
}

// Who says whose run a record is and how it ended: for a dispatch, the
// hooks that ran and the first failure (Ran); for a trace, its hook ("?"
// when the trace was not told it) and its exit (Exited).
func (r *Record) Who() (hook, exit string) {
	switch {
	case r.Kind == KindRun:
		return r.Ran()
	case r.Hook == "" && r.Kind == KindTrace:
		return "?", r.Exited()
	}
	return r.Hook, r.Exited()
}
