package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/hookctl/hookctl/schema"
)

// DefaultMaxContinues is the loop guard's default: a Stop continue is
// refused once the payload's executionNum exceeds it.
const DefaultMaxContinues = 8

// Options configure a dispatch. The zero value dispatches as the agent
// does: discovery from the home folder and the workspace, failures deny,
// handlers in parallel.
type Options struct {
	// Configs, when not empty, are the hooks.json files to use instead of
	// discovery. Each must exist.
	Configs []string
	// Workspace is the workspace folder; "" means the payload's first
	// workspacePaths entry, else the workspace found from Dir upward as
	// every hookctl command finds it (scope.Find): the nearest folder that
	// holds .agents, else the git top level, else Dir.
	Workspace string
	// Home is the user's home folder, whose .gemini/config/hooks.json is the
	// user file; "" means $HOME. When it is not an absolute path (HOME
	// unset, empty or relative), the user file is not read, and that counts
	// as one failed handler: a gate that may be there could not be
	// consulted.
	Home string
	// Dir is the current folder; "" means the process's.
	Dir string
	// Env is the handlers' environment before the HOOKCTL_ variables are
	// added; nil means the process's environment.
	Env []string
	// OnError says what a failed PreToolUse handler adds to the answer.
	OnError OnError
	// MaxContinues is the loop guard (see DefaultMaxContinues): 0 means the
	// default, a negative value refuses every continue.
	MaxContinues int
	// Sequential runs the handlers one after another in config order,
	// stopping a PreToolUse dispatch at the first deny and passing each
	// handler the earlier overwrites applied to toolCall.args.
	Sequential bool
	// Trusted decides whether a workspace file's hooks may run, and if not,
	// says why. nil trusts every file. User files and named files are
	// always trusted.
	Trusted func(src *Source) (bool, string)
	// NeverTrusted, when set, says before a workspace file larger than
	// UnreadSize is read that its workspace was never trusted: the file is
	// then not parsed at all (its hooks would not run, whatever it holds),
	// so a cloned repository's huge file costs a dispatch a stat, not a
	// parse. Leave it nil where the untrusted file's hooks are shown
	// (explain, list).
	NeverTrusted func(path string) bool
	// Grace is the time between SIGTERM and SIGKILL when a handler is
	// stopped; 0 means Grace.
	Grace time.Duration

	// homeless says why the user file cannot be found, "" when it can.
	homeless string
}

func (o Options) withDefaults() Options {
	o.Home, o.homeless = userHome(o.Home)
	if o.Dir == "" {
		o.Dir = cwd()
	}
	if o.Env == nil {
		o.Env = os.Environ()
	}
	switch {
	case o.MaxContinues == 0:
		o.MaxContinues = DefaultMaxContinues
	case o.MaxContinues < 0:
		o.MaxContinues = 0
	}
	if o.Grace <= 0 {
		o.Grace = Grace
	}
	return o
}

// UserHome returns the home folder whose .gemini/config/hooks.json is the
// user file, from $HOME; or "" and why it cannot be used, in the words run
// reports, for a command that reads the user file without dispatching.
func UserHome() (string, error) {
	home, why := userHome("")
	if why != "" {
		return "", homelessUserFile(why).Err
	}
	return home, nil
}

// userHome returns the home folder to find the user file in: home, else
// $HOME; or "" and why neither is usable. A relative path would be taken
// from the current folder, which may be a repository's: it is refused.
func userHome(home string) (string, string) {
	env, set := os.LookupEnv("HOME")
	switch {
	case home != "" && filepath.IsAbs(home):
		return home, ""
	case home != "" && home == env:
		return "", fmt.Sprintf("HOME is %q, not an absolute path", home)
	case home != "":
		return "", fmt.Sprintf("the home folder %q is not an absolute path", home)
	case !set:
		return "", "HOME is not set"
	case env == "":
		return "", "HOME is empty"
	case !filepath.IsAbs(env):
		return "", fmt.Sprintf("HOME is %q, not an absolute path", env)
	}
	return env, ""
}

// Result is a dispatch's outcome: the merged answer, how each handler
// ended, and the lines to report on stderr.
type Result struct {
	// Plan is what the dispatch considered.
	Plan *Plan
	// Answer is the merged answer, compact JSON with the fields in the
	// documented order.
	Answer json.RawMessage
	// Outcomes are the handlers that ran (or were due to run) and the parts
	// that could not, in config order, followed by the user's handlers run
	// again on arguments an overwrite changed (Outcome.Again).
	Outcomes []*Outcome
	// Notes are the lines to report on stderr, without a "hookctl: "
	// prefix: skipped untrusted files, failures, ignored keys, replaced
	// overwrites, a refused continue.
	Notes []string
}

// Dispatch runs the hooks of an event for a payload, as the agent would,
// and returns the merged answer. Its error is for an invocation that cannot
// be dispatched (see NewPlan); failures of handlers are in the result.
func Dispatch(ctx context.Context, e schema.Event, payload []byte, opts Options) (*Result, error) {
	p, err := NewPlan(e, payload, opts)
	if err != nil {
		return nil, err
	}
	return p.Run(ctx), nil
}

// Run executes the plan: every handler at once (or one by one with
// Options.Sequential), then the merge in config order. Cancelling ctx stops
// every running handler's process group.
//
// For PreToolUse, when the merged overwrite changes the tool's arguments,
// the user file's handlers that ran are run once more on the arguments as
// changed, and their answers join the merge: a workspace cannot rewrite a
// call past the user's gate. They are run again once, never until they
// agree; their outcomes follow the others in Result.Outcomes, with Again
// set.
func (p *Plan) Run(ctx context.Context) *Result {
	res := &Result{Plan: p}
	if p.Refused != "" {
		res.Notes = append(res.Notes, p.Refused)
	}
	for _, src := range p.Sources {
		if !src.Trusted && p.hasUntrustedSteps(src) {
			res.Notes = append(res.Notes, "skipping the hooks of "+src.Path+": "+p.untrustedWhy(src))
		}
	}
	steps := p.Runs()
	outs := p.runSteps(ctx, steps, p.Payload.Raw)
	again, why := p.runUserGatesAgain(ctx, steps, outs)
	outs = append(outs, again...)
	res.Outcomes = outs
	var tally brokenTally
	for _, o := range outs {
		if o.Again && why != "" {
			res.Notes, why = append(res.Notes, why), ""
		}
		for _, n := range o.Notes {
			res.Notes = append(res.Notes, o.Label()+": "+n)
		}
		if o.Kind == Failed && tally.listed(o) {
			res.Notes = append(res.Notes, o.Message())
		}
	}
	res.Notes = append(res.Notes, tally.rest()...)
	answer, notes := Merge(p.Event, outs, MergeOptions{
		OnError:      p.opts.OnError,
		MaxContinues: p.opts.MaxContinues,
		ExecutionNum: p.Payload.ExecutionNum,
	})
	res.Answer = answer
	res.Notes = append(res.Notes, notes...)
	return res
}

// runSteps runs the steps with payload on their stdin, at once or one by
// one, and returns their outcomes in the steps' order.
func (p *Plan) runSteps(ctx context.Context, steps []*Step, payload []byte) []*Outcome {
	outs := make([]*Outcome, len(steps))
	if p.opts.Sequential {
		p.runSequential(ctx, steps, outs, payload)
		return outs
	}
	var wg sync.WaitGroup
	for i, s := range steps {
		if s.State == Broken {
			outs[i] = brokenOutcome(s)
			continue
		}
		wg.Go(func() { outs[i] = p.runStep(ctx, s, payload) })
	}
	wg.Wait()
	return outs
}

// runSequential runs the steps one after another. For PreToolUse each
// handler receives the payload with the earlier overwrites applied, and the
// first deny ends the dispatch.
func (p *Plan) runSequential(ctx context.Context, steps []*Step, outs []*Outcome, raw []byte) {
	var overwrite []keyValue
	denied := false
	for i, s := range steps {
		switch {
		case denied:
			outs[i] = &Outcome{Step: s, Hook: s.Hook, Kind: Skipped, ExitCode: -1}
			continue
		case s.State == Broken:
			outs[i] = brokenOutcome(s)
		default:
			payload := raw
			if len(overwrite) > 0 {
				if b, err := withOverwrite(payload, overwrite); err == nil {
					payload = b
				}
			}
			outs[i] = p.runStep(ctx, s, payload)
		}
		if p.Event != schema.PreToolUse {
			continue
		}
		v, ok := preToolUseVote(outs[i], p.opts.OnError)
		if ok && v.decision == schema.Deny {
			denied = true
		}
		if ok && v.ans != nil {
			for _, kv := range v.ans.overwrite {
				overwrite, _ = setKey(overwrite, kv.Key, kv.Value)
			}
		}
	}
}

// runStep runs one handler with the payload on its stdin.
func (p *Plan) runStep(ctx context.Context, s *Step, payload []byte) *Outcome {
	if err := unsafeScript(s.Handler.Command, s.Source.Dir, p.Workspace); err != nil {
		return &Outcome{Step: s, Hook: s.Hook, Kind: Failed, Cause: err.Error(), ExitCode: -1}
	}
	r := runProc(ctx, procSpec{
		command: s.Handler.Command,
		dir:     s.Source.Dir,
		env:     p.env(s),
		stdin:   payload,
		timeout: s.Timeout(),
		grace:   p.opts.Grace,
	})
	return classify(p.Event, s, r)
}

// env is the handler's environment: the caller's, with the HOOKCTL_
// variables set for this handler. The payload names no event, so one script
// can serve several by reading HOOKCTL_EVENT.
func (p *Plan) env(s *Step) []string {
	set := map[string]string{
		"HOOKCTL_EVENT":     string(p.Event),
		"HOOKCTL_HOOK":      strings.ReplaceAll(s.Hook, "\x00", `\x00`), // no variable carries a NUL
		"HOOKCTL_CONFIG":    s.Source.Path,
		"HOOKCTL_WORKSPACE": p.Workspace,
	}
	env := make([]string, 0, len(p.opts.Env)+len(set))
	for _, kv := range p.opts.Env {
		k, _, _ := strings.Cut(kv, "=")
		if _, ok := set[k]; !ok {
			env = append(env, kv)
		}
	}
	for _, k := range []string{"HOOKCTL_EVENT", "HOOKCTL_HOOK", "HOOKCTL_CONFIG", "HOOKCTL_WORKSPACE"} {
		env = append(env, k+"="+set[k])
	}
	return env
}

func (p *Plan) hasUntrustedSteps(src *Source) bool {
	for _, s := range p.Steps {
		if s.Source == src && s.State == Untrusted {
			return true
		}
	}
	return false
}

func (p *Plan) untrustedWhy(src *Source) string {
	for _, s := range p.Steps {
		if s.Source == src && s.State == Untrusted {
			return s.Why
		}
	}
	return ""
}
