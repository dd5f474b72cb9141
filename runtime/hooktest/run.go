package hooktest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hookctl/hookctl/runtime"
)

// Report is how one case went.
type Report struct {
	// Case is the case run.
	Case *Case
	// Result is the dispatch, nil when it could not start (see Err).
	Result *runtime.Result
	// Answer is the merged answer.
	Answer json.RawMessage
	// Duration is how long the dispatch took.
	Duration time.Duration
	// Mismatches are the places where the answer differs from expect and
	// expectReason.
	Mismatches []Mismatch
	// Failures are the handlers (and broken files or parts) that failed,
	// expected or not, in config order.
	Failures []Failure
	// Missing says, for each hook that was expected to fail and did not,
	// what happened instead.
	Missing []string
	// Err is why the case could not be dispatched at all.
	Err error
}

// Failure is a failed handler, or a file or part that could not run.
type Failure struct {
	Outcome *runtime.Outcome
	// Expected is set when the case lists the hook in expectFailures.
	Expected bool
}

// Passed reports whether the case passed: it was dispatched, the answer
// holds what it expects, and exactly the expected hooks failed.
func (r *Report) Passed() bool {
	if r.Err != nil || len(r.Mismatches) > 0 || len(r.Missing) > 0 {
		return false
	}
	for _, f := range r.Failures {
		if !f.Expected {
			return false
		}
	}
	return true
}

// Run sends the case's event through runtime.Dispatch, the same dispatch as
// hookctl run, with the payload completed as the agent sends it for
// opts.Workspace, and compares the merged answer with the case's
// expectations. opts.Workspace must be set; opts.Home "" means $HOME. The
// handlers get HOOKCTL_TEST=1 in their environment (see TestEnv).
func Run(ctx context.Context, c *Case, opts runtime.Options) *Report {
	r := &Report{Case: c}
	opts.Env = testEnv(opts.Env)
	home := opts.Home
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	ws, err := filepath.Abs(opts.Workspace)
	if err != nil {
		r.Err = err
		return r
	}
	opts.Workspace = ws
	payload, err := runtime.CompletePayload(c.Event, c.Payload, ws, home)
	if err != nil {
		r.Err = err
		return r
	}
	start := time.Now()
	res, err := runtime.Dispatch(ctx, c.Event, payload, opts)
	r.Duration = time.Since(start)
	if err != nil {
		r.Err = err
		return r
	}
	r.Result, r.Answer = res, res.Answer
	r.check()
	return r
}

// check compares the result with the case's expectations.
func (r *Report) check() {
	c := r.Case
	got, err := decode(r.Answer)
	if err != nil {
		r.Err = fmt.Errorf("the merged answer is not JSON: %v", err)
		return
	}
	if c.Expect != nil {
		r.Mismatches = Compare(c.Expect, got)
	}
	if c.HasExpectReason {
		obj, _ := got.(map[string]any)
		reason, present := obj["reason"].(string)
		if !strings.Contains(reason, c.ExpectReason) {
			m := Mismatch{Path: "reason", Pos: c.ReasonPos, Want: c.ExpectReason, Missing: !present, Contains: true}
			if present {
				m.Got = reason
			}
			r.Mismatches = append(r.Mismatches, m)
		}
	}
	failed := map[string]bool{}
	for _, o := range r.Result.Outcomes {
		if o.Kind != runtime.Failed {
			continue
		}
		expected := o.Hook != "" && slices.Contains(c.ExpectFailures, o.Hook)
		r.Failures = append(r.Failures, Failure{Outcome: o, Expected: expected})
		failed[o.Hook] = true
	}
	for _, name := range c.ExpectFailures {
		if failed[name] {
			continue
		}
		var kinds []string
		for _, o := range r.Result.Outcomes {
			if o.Hook == name && !slices.Contains(kinds, o.Kind.String()) {
				kinds = append(kinds, o.Kind.String())
			}
		}
		if len(kinds) == 0 {
			r.Missing = append(r.Missing, fmt.Sprintf("hook %q was expected to fail, but no handler of it ran for this %s", name, c.Event))
			continue
		}
		r.Missing = append(r.Missing, fmt.Sprintf("hook %q was expected to fail, but it did not (%s)", name, strings.Join(kinds, ", ")))
	}
}

// Notes are the dispatch's remarks other than the failures, which a report
// shows with their stderr.
func (r *Report) Notes() []string {
	if r.Result == nil {
		return nil
	}
	msgs := map[string]bool{}
	for _, f := range r.Failures {
		msgs[f.Outcome.Message()] = true
	}
	var out []string
	for _, n := range r.Result.Notes {
		if !msgs[n] {
			out = append(out, n)
		}
	}
	return out
}

// Select returns the cases whose names the filter accepts; a nil filter
// accepts every case.
func (s *Suite) Select(match func(name string) bool) []*Case {
	if match == nil {
		return s.Cases
	}
	var out []*Case
	for _, c := range s.Cases {
		if match(c.Name) {
			out = append(out, c)
		}
	}
	return out
}
