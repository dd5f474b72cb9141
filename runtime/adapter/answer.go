package adapter

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hookctl/hookctl/schema"
)

// Ending is how an adapted handler ended: what it printed and its exit
// status.
type Ending struct {
	Stdout, Stderr []byte
	// Exit is the exit status; a handler killed by a signal or that could
	// not start is failed by the caller, not read here.
	Exit int
}

// Answer is an adapted handler's answer in this format's terms: what
// hookctl adapt prints and its exit status.
type Answer struct {
	// Stdout is this format's answer, empty for none.
	Stdout []byte
	// Exit is 0, or ExitError for a handler that failed: the runtime then
	// reports a failure and hookctl run --on-error decides.
	Exit int
	// Failure says why the handler failed, "" when it did not.
	Failure string
	// Notes say what the answer held that has no equivalent here, and
	// what was done instead: never a changed decision.
	Notes []string
}

// read is the agent's answer as the table's rows read it.
type read struct {
	decision schema.AnswerEffect
	// decisionNote says why a decision became no opinion.
	decisionNote string
	reason       string
	context      []string
	rewrite      map[string]any
	notes        []string
}

// Answer reads what the handler printed by the agent's rules (the rows of
// schema.ForeignAnswers for its event) and writes it as this format's
// answer.
func (ad *Adapted) Answer(end Ending) Answer {
	if ad.Skip != "" {
		return Answer{}
	}
	r, failure := ad.read(end)
	if failure != "" {
		return Answer{Exit: ExitError, Failure: failure}
	}
	return ad.native(r)
}

// read applies the agent's rules of exit statuses and output.
func (ad *Adapted) read(end Ending) (*read, string) {
	a := ad.Agent
	r := &read{}
	stdout, stderr := bytes.TrimSpace(end.Stdout), bytes.TrimSpace(end.Stderr)
	text := stdout
	if a == schema.Gemini && len(text) == 0 {
		// Gemini CLI reads stderr when stdout is empty, as its answer.
		text = stderr
	}
	obj, isJSON := answerObject(text)
	switch {
	case end.Exit == 0 && isJSON:
		ad.fields(r, obj)
	case end.Exit == 0 && len(text) == 0:
	case end.Exit == 0:
		if a == schema.Codex && looksLikeJSON(text) {
			return nil, "it printed JSON that is not a valid answer, which Codex takes for a failed hook"
		}
		ad.pseudo(r, schema.AnswerPlainText, string(text))
	case a == schema.Gemini && isJSON:
		// Gemini CLI reads the JSON whatever the status.
		ad.fields(r, obj)
	case a == schema.Gemini && end.Exit != 1 && len(text) > 0:
		ad.pseudo(r, schema.AnswerExit2, string(text))
	case end.Exit == 2 && a != schema.Gemini:
		if len(stderr) == 0 && (a == schema.Codex) {
			return nil, "it exited with status 2 without a reason on stderr, which Codex takes for a failed hook"
		}
		ad.pseudo(r, schema.AnswerExit2, string(stderr))
	default:
		return nil, fmt.Sprintf("it exited with status %d, which %s takes for a failed hook", end.Exit, a.Title())
	}
	return r, ""
}

// answerObject reads text as a JSON object, and Gemini CLI's JSON string
// that holds one.
func answerObject(text []byte) (map[string]any, bool) {
	if len(text) == 0 {
		return nil, false
	}
	var v any
	d := json.NewDecoder(bytes.NewReader(text))
	d.UseNumber()
	if d.Decode(&v) != nil || d.More() {
		return nil, false
	}
	if s, ok := v.(string); ok {
		d = json.NewDecoder(strings.NewReader(s))
		d.UseNumber()
		if d.Decode(&v) != nil {
			return nil, false
		}
	}
	m, ok := v.(map[string]any)
	return m, ok
}

func looksLikeJSON(b []byte) bool {
	return len(b) > 0 && (b[0] == '{' || b[0] == '[')
}

// fields applies the rows of the event to the fields of a JSON answer: the
// first row that matches a field decides what it does.
func (ad *Adapted) fields(r *read, obj map[string]any) {
	done := map[string]bool{}
	for _, row := range schema.AnswerRows(ad.Agent, ad.Foreign) {
		if row.Field == schema.AnswerExit2 || row.Field == schema.AnswerPlainText || done[row.Field] {
			continue
		}
		v, ok := lookupPath(obj, row.Field)
		if !ok || (row.Value != "" && valueText(v) != row.Value) {
			continue
		}
		done[row.Field] = true
		if row.Needs != "" {
			if _, has := lookupPath(obj, row.Needs); !has {
				ad.decide(r, schema.AnswerNoOpinion, row.Note)
				continue
			}
		}
		ad.apply(r, row, v)
	}
}

// pseudo applies the row of an exit status 2 or of plain text.
func (ad *Adapted) pseudo(r *read, field, text string) {
	for _, row := range schema.AnswerRows(ad.Agent, ad.Foreign) {
		if row.Field == field {
			ad.apply(r, row, text)
			if row.Effect == schema.AnswerDeny || row.Effect == schema.AnswerContinue {
				r.reason = strings.TrimSpace(text)
			}
			return
		}
	}
}

// apply does what one row says of a value.
func (ad *Adapted) apply(r *read, row schema.ForeignAnswer, v any) {
	switch row.Effect {
	case schema.AnswerAllow, schema.AnswerDeny, schema.AnswerAsk, schema.AnswerNoOpinion, schema.AnswerStop:
		ad.decide(r, row.Effect, row.Note)
	case schema.AnswerContinue:
		ad.decide(r, row.Effect, "")
		if s, ok := v.(string); ok && row.Field != "decision" && r.reason == "" {
			// Cursor's followup_message is the reason itself.
			r.reason = s
		}
	case schema.AnswerReason:
		if s, ok := v.(string); ok && r.reason == "" {
			r.reason = s
		}
	case schema.AnswerContext:
		if s, ok := v.(string); ok && strings.TrimSpace(s) != "" {
			r.context = append(r.context, strings.TrimSpace(s))
		}
	case schema.AnswerRewrite:
		if m, ok := v.(map[string]any); ok {
			r.rewrite = m
		}
	case schema.AnswerLost:
		what := row.Field
		if s, ok := v.(string); ok && row.Field != schema.AnswerExit2 && row.Field != schema.AnswerPlainText {
			what = fmt.Sprintf("%s %q", what, firstLine(s))
		} else if !ok {
			what = fmt.Sprintf("%s %s", what, firstLine(valueText(v)))
		}
		r.notes = append(r.notes, fmt.Sprintf("%s's %s has no equivalent here (%s): left out", ad.Agent.Title(), what, row.Note))
	}
}

// decide keeps the first decision the answer gives.
func (ad *Adapted) decide(r *read, e schema.AnswerEffect, note string) {
	if r.decision != "" {
		return
	}
	r.decision = e
	if e == schema.AnswerNoOpinion {
		r.decisionNote = note
	}
}

// lookupPath finds a dotted path in a JSON object.
func lookupPath(obj map[string]any, path string) (any, bool) {
	var cur any = obj
	for _, part := range strings.Split(path, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[part]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// valueText is a value as a row's Value names it: a string as it is, other
// values as JSON ("false").
func valueText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return string(encode(v))
}

// native writes what was read as this format's answer to the event.
func (ad *Adapted) native(r *read) Answer {
	out := Answer{Notes: r.notes}
	a := ad.Agent.Title()
	if r.decisionNote != "" {
		out.Notes = append(out.Notes, fmt.Sprintf("no decision: %s", r.decisionNote))
	}
	switch ad.Event {
	case schema.PreToolUse:
		ans := map[string]any{}
		switch r.decision {
		case schema.AnswerAllow:
			ans["decision"] = schema.Allow
		case schema.AnswerDeny:
			ans["decision"] = schema.Deny
			if r.reason == "" {
				r.reason = fmt.Sprintf("denied by a %s hook", a)
			}
		case schema.AnswerAsk:
			ans["decision"] = schema.ForceAsk
		}
		if r.rewrite != nil && r.decision != schema.AnswerDeny {
			ow, lost := ad.overwrite(r.rewrite)
			switch {
			case lost != "":
				out.Notes = append(out.Notes, lost)
				if r.decision == schema.AnswerAllow {
					out.Notes = append(out.Notes, "the allow is withdrawn, since it was given for the rewritten input: the call is left to the user's own settings")
					delete(ans, "decision")
				}
			case len(ow) > 0:
				ans["overwrite"] = ow
				if _, has := ans["decision"]; !has {
					ans["decision"] = schema.Ask
				}
			}
		}
		if _, has := ans["decision"]; !has {
			return out
		}
		if r.reason != "" {
			ans["reason"] = r.reason
		}
		out.Stdout = append(encode(ans), '\n')
	case schema.Stop:
		if r.decision == schema.AnswerContinue {
			if r.reason == "" {
				r.reason = fmt.Sprintf("a %s Stop hook asked to keep going", a)
			}
			out.Stdout = append(encode(map[string]any{"decision": schema.Continue, "reason": r.reason}), '\n')
		}
	case schema.PreInvocation, schema.SessionStart:
		if len(r.context) > 0 {
			msg := strings.Join(r.context, "\n")
			out.Stdout = append(encode(map[string]any{"injectSteps": []schema.Step{{EphemeralMessage: &msg}}}), '\n')
		}
	}
	return out
}

// overwrite turns the agent's rewritten tool input (its whole input) into
// this format's overwrite: the arguments that changed, in this format's
// names. lost says why it cannot be told, "" when it can.
func (ad *Adapted) overwrite(input map[string]any) (map[string]any, string) {
	if ad.call == nil {
		return nil, ""
	}
	if ad.toolName == "apply_patch" || ad.Foreign == "beforeShellExecution" || ad.Foreign == "beforeReadFile" || ad.Foreign == "beforeMCPExecution" {
		return nil, fmt.Sprintf("the rewritten input of %s's %s cannot be told as this format's %s arguments: it is left out", ad.Agent.Title(), ad.toolName, ad.call.Name)
	}
	var args []schema.ForeignArg
	if ad.tool != nil {
		args = ad.tool.Args
	}
	next := forward(args, input)
	ow := map[string]any{}
	for k, v := range next {
		if old, had := ad.call.Args[k]; !had || !sameJSONValue(old, v) {
			ow[k] = v
		}
	}
	for _, a := range args {
		if a.Format != "" {
			if _, set := ow[a.To]; set {
				return nil, fmt.Sprintf("the rewritten %s of %s's %s cannot be told as this format's %s: it is left out", a.From, ad.Agent.Title(), ad.toolName, a.To)
			}
		}
	}
	return ow, ""
}

// Literal reads an answer a handler prints whatever its payload (an echo
// of fixed text) by the agent's rules for its event, and returns this
// format's answer and what had no equivalent. ok is false when it cannot
// be told without the call it answers (a rewritten input) or the event is
// none of the agent's with an equivalent here.
func Literal(a schema.Agent, event string, stdout []byte) (native []byte, notes []string, ok bool) {
	fe, found := schema.LookupAgentEvent(a, event)
	if !found || fe.Event == "" {
		return nil, nil, false
	}
	ad := &Adapted{Agent: a, Foreign: fe.Name, Event: fe.Event}
	r, failure := ad.read(Ending{Stdout: stdout})
	if failure != "" || r.rewrite != nil {
		return nil, nil, false
	}
	ans := ad.native(r)
	return ans.Stdout, ans.Notes, true
}
