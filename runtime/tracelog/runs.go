package tracelog

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hookctl/hookctl/schema"
)

// HookRun is one recorded run of a hook's handler.
type HookRun struct {
	At    time.Time
	Event string
	// Failed says why it failed, "" when it did not.
	Failed string
	// ID is the record's.
	ID string
}

// RunsOf returns the recorded runs of a hook of the file at path, whose
// handlers run in dir, oldest first. A record is the hook's when it ran
// one of the hook's commands in dir (a trace record: the wrapped command,
// in Dir) or names the hook, command and file (a hookctl run record's
// handler): two hooks of one name in the user's and the workspace's file
// are told apart.
func RunsOf(recs []*Record, hook *schema.HookDefinition, path, dir string) []HookRun {
	var cmds []string
	for _, hd := range hook.AllHandlers() {
		cmds = append(cmds, hd.Command)
	}
	var out []HookRun
	for _, r := range recs {
		if r.Kind == KindTrace {
			if r.Hook != "" && r.Hook != hook.Name || r.Dir != "" && !schema.SameFile(r.Dir, dir) || len(r.Command) == 0 {
				continue
			}
			wrapped := strings.Join(r.Command, " ")
			for _, c := range cmds {
				if c == wrapped || strings.HasSuffix(c, " "+wrapped) {
					out = append(out, HookRun{At: r.Time, Event: r.Event, Failed: traceFailure(r), ID: r.ID})
					break
				}
			}
			continue
		}
		for _, h := range r.Handlers {
			if h.Hook != hook.Name || !slices.Contains(cmds, h.Command) || h.Where != "" && !schema.SameFile(whereFile(h.Where), path) {
				continue
			}
			run := HookRun{At: r.Time, Event: r.Event, ID: r.ID}
			if h.Outcome == "failed" {
				run.Failed = h.Cause
				if run.Failed == "" {
					run.Failed = "failed"
				}
			}
			out = append(out, run)
		}
	}
	return out
}

// traceFailure says why a traced run failed: an exit status other than 0
// and 2 (2 is a block), a signal, a command that could not start.
func traceFailure(r *Record) string {
	switch {
	case r.Error != "":
		return r.Error
	case r.Signal != "":
		return "killed by " + r.Signal
	case r.Exit != nil && *r.Exit != 0 && *r.Exit != 2:
		return fmt.Sprintf("exit status %d", *r.Exit)
	}
	return ""
}

// whereFile is the file of a FILE:LINE or FILE:LINE:COL.
func whereFile(w string) string {
	for i := 0; i < 2; i++ {
		j := strings.LastIndexByte(w, ':')
		if j < 0 || strings.Trim(w[j+1:], "0123456789") != "" {
			break
		}
		w = w[:j]
	}
	return w
}
