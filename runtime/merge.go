package runtime

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hookctl/hookctl/schema"
)

// OnError says what a failed handler adds to a PreToolUse answer.
type OnError uint8

// The choices of --on-error.
const (
	// OnErrorDeny adds "deny", as the agent itself fails closed on a missing
	// or malformed decision.
	OnErrorDeny OnError = iota
	// OnErrorAsk adds "force_ask": the user decides.
	OnErrorAsk
	// OnErrorIgnore adds nothing.
	OnErrorIgnore
)

func (o OnError) String() string {
	switch o {
	case OnErrorAsk:
		return "ask"
	case OnErrorIgnore:
		return "ignore"
	}
	return "deny"
}

// ParseOnError reads a --on-error value: deny, ask or ignore.
func ParseOnError(s string) (OnError, error) {
	switch s {
	case "deny", "":
		return OnErrorDeny, nil
	case "ask":
		return OnErrorAsk, nil
	case "ignore":
		return OnErrorIgnore, nil
	}
	return 0, fmt.Errorf("--on-error must be deny, ask or ignore, not %q", s)
}

// decision returns the decision a failure adds, "" for none.
func (o OnError) decision() schema.Decision {
	switch o {
	case OnErrorDeny:
		return schema.Deny
	case OnErrorAsk:
		return schema.ForceAsk
	}
	return ""
}

// MergeOptions are the settings that shape a merged answer.
type MergeOptions struct {
	// OnError says what a failed PreToolUse handler adds.
	OnError OnError
	// MaxContinues is the loop guard: a Stop continue is refused when
	// ExecutionNum exceeds it.
	MaxContinues int
	// ExecutionNum is the Stop payload's executionNum.
	ExecutionNum int
}

// Merge adds up the outcomes of an event's handlers, given in config order,
// into the one answer the agent receives, as compact JSON with the fields
// in documented order. Notes are remarks for stderr: replaced overwrite
// keys, a refused continue.
func Merge(e schema.Event, outcomes []*Outcome, opts MergeOptions) (json.RawMessage, []string) {
	switch e {
	case schema.PreToolUse:
		return mergePreToolUse(outcomes, opts.OnError)
	case schema.SessionStart, schema.PreInvocation, schema.PostInvocation:
		return mergeInvocation(e, outcomes), nil
	case schema.Stop:
		return mergeStop(outcomes, opts)
	}
	return json.RawMessage("{}"), nil
}

// vote is what one outcome adds to a PreToolUse answer.
type vote struct {
	o        *Outcome
	decision schema.Decision
	reason   string
	ans      *answer
}

// preToolUseVote returns what an outcome adds to a PreToolUse answer, if
// anything.
func preToolUseVote(o *Outcome, on OnError) (vote, bool) {
	switch o.Kind {
	case Answered:
		a := o.parsed(schema.PreToolUse)
		if a == nil {
			return vote{}, false
		}
		return vote{o: o, decision: schema.Decision(a.decision), reason: a.reason, ans: a}, true
	case Blocked:
		return vote{o: o, decision: schema.Deny, reason: o.Reason}, true
	case Failed:
		d := on.decision()
		if d == "" {
			return vote{}, false
		}
		return vote{o: o, decision: d, reason: o.failureReason()}, true
	}
	return vote{}, false
}

// mergePreToolUse lets the strictest decision win; the answer carries the
// reasons, permission overrides and overwrites of the handlers that gave
// it, in config order.
func mergePreToolUse(outcomes []*Outcome, on OnError) (json.RawMessage, []string) {
	m := mergeVotes(outcomes, on)
	if m.answer == nil {
		return json.RawMessage(`{"decision":"ask"}`), nil
	}
	return encodeAnswer(schema.PreToolUse, m.answer), m.notes
}

// preToolUseMerge is a merged PreToolUse answer before it is encoded.
type preToolUseMerge struct {
	// answer is nil when nobody answered.
	answer *answer
	notes  []string
	// from names, for each key of the overwrite, the outcome that gave it.
	from map[string]string
}

// mergeVotes adds up the PreToolUse votes of the outcomes. A handler run
// again on overwritten arguments (Outcome.Again) that repeats the reason of
// its first run adds the decision, not the same line twice.
func mergeVotes(outcomes []*Outcome, on OnError) preToolUseMerge {
	var votes []vote
	win := schema.Decision("")
	for _, o := range outcomes {
		v, ok := preToolUseVote(o, on)
		if !ok {
			continue
		}
		votes = append(votes, v)
		if v.decision.Strictness() > win.Strictness() {
			win = v.decision
		}
	}
	if win == "" {
		return preToolUseMerge{}
	}
	merged := &answer{decision: string(win)}
	var reasons []string
	var notes []string
	type stepReason struct {
		step   *Step
		reason string
	}
	given := map[stepReason]bool{}
	from := map[string]string{}
	var tally brokenTally
	for _, v := range votes {
		if v.decision != win {
			continue
		}
		if v.reason != "" && tally.listed(v.o) {
			k := stepReason{v.o.Step, v.reason}
			if !v.o.Again || v.o.Step == nil || !given[k] {
				reasons = append(reasons, v.reason)
			}
			given[k] = true
		}
		if win == schema.Deny || v.ans == nil {
			continue
		}
		for _, p := range v.ans.overrides {
			if !contains(merged.overrides, p) {
				merged.overrides = append(merged.overrides, p)
			}
		}
		for _, kv := range v.ans.overwrite {
			old, had := lookup(merged.overwrite, kv.Key)
			merged.overwrite, _ = setKey(merged.overwrite, kv.Key, kv.Value)
			if had && !sameJSON(old, kv.Value) {
				notes = append(notes, fmt.Sprintf("%s: its overwrite of %q replaces the one from %s", v.o.Label(), kv.Key, from[kv.Key]))
			}
			from[kv.Key] = v.o.Label()
		}
	}
	merged.reason = strings.Join(append(reasons, tally.rest()...), "\n")
	return preToolUseMerge{answer: merged, notes: notes, from: from}
}

// mergeInvocation concatenates the injected steps and keeps the strongest
// termination behaviour.
func mergeInvocation(e schema.Event, outcomes []*Outcome) json.RawMessage {
	merged := &answer{}
	for _, o := range outcomes {
		a := o.parsed(e)
		if o.Kind != Answered || a == nil {
			continue
		}
		merged.steps = append(merged.steps, a.steps...)
		if e == schema.PostInvocation && terminationRank(a.termination) > terminationRank(merged.termination) {
			merged.termination = a.termination
		}
	}
	return encodeAnswer(e, merged)
}

// mergeStop continues when any handler continues, unless the loop guard
// refuses.
func mergeStop(outcomes []*Outcome, opts MergeOptions) (json.RawMessage, []string) {
	var reasons []string
	cont := false
	for _, o := range outcomes {
		switch o.Kind {
		case Answered:
			a := o.parsed(schema.Stop)
			if a == nil || a.decision != schema.Continue {
				continue
			}
			cont = true
			if a.reason != "" {
				reasons = append(reasons, a.reason)
			}
		case Blocked:
			cont = true
			if o.Reason != "" {
				reasons = append(reasons, o.Reason)
			}
		}
	}
	if !cont {
		return json.RawMessage(`{"decision":"allow"}`), nil
	}
	if opts.ExecutionNum > opts.MaxContinues {
		note := fmt.Sprintf("refusing to continue: executionNum %d exceeds --max-continues %d, so the agent stops (the loop guard)",
			opts.ExecutionNum, max(opts.MaxContinues, 0))
		return json.RawMessage(`{"decision":"allow"}`), []string{note}
	}
	return encodeAnswer(schema.Stop, &answer{decision: schema.Continue, reason: strings.Join(reasons, "\n")}), nil
}
