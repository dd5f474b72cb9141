package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/hookctl/hookctl/schema"
	"github.com/hookctl/hookctl/schema/scope"
)

// runUserGatesAgain runs the user file's PreToolUse handlers a second time
// when the merged overwrite of outs changes the tool's arguments, on the
// payload with that overwrite applied, and returns their outcomes (Again
// set) with the note that says why.
//
// The user's handlers judged the arguments as the agent sent them; the
// agent runs the tool with the overwrite applied. Without a second look, a
// workspace handler answering allow with an overwrite could turn any call
// into one the user's gate denies. They run once more, never until they
// agree: an overwrite a user handler gives on its second run is the user's
// own and is not judged a third time.
func (p *Plan) runUserGatesAgain(ctx context.Context, steps []*Step, outs []*Outcome) ([]*Outcome, string) {
	if p.Event != schema.PreToolUse {
		return nil, ""
	}
	var gates []*Step
	for _, s := range steps {
		if s.Source.Scope == scope.User && s.State == Run {
			gates = append(gates, s)
		}
	}
	if len(gates) == 0 {
		return nil, ""
	}
	m := mergeVotes(outs, p.opts.OnError)
	if m.answer == nil || m.answer.decision == string(schema.Deny) || len(m.answer.overwrite) == 0 {
		return nil, ""
	}
	changed := changedArgs(p.Payload.Raw, m.answer.overwrite)
	if len(changed) == 0 {
		return nil, "" // the user's gates already judged these arguments
	}
	var keys, by []string
	for _, k := range changed {
		keys = append(keys, strconv.Quote(k))
		if !contains(by, m.from[k]) {
			by = append(by, m.from[k])
		}
	}
	why := fmt.Sprintf("the overwrite of %s (from %s) changes the tool's arguments, so the user's PreToolUse hooks of %s ran again on the new arguments",
		joinAnd(keys), joinAnd(by), gates[0].Source.Path)

	var again []*Outcome
	payload, err := withOverwrite(p.Payload.Raw, m.answer.overwrite)
	if err != nil {
		// A gate that cannot see the new arguments cannot judge them: that
		// is a failure of each gate, and --on-error says what it adds.
		for _, s := range gates {
			again = append(again, &Outcome{Step: s, Hook: s.Hook, Kind: Failed, ExitCode: -1, Again: true,
				Cause: fmt.Sprintf("cannot apply the overwrite to the payload: %v", err)})
		}
		return again, why
	}
	again = p.runSteps(ctx, gates, payload)
	for _, o := range again {
		o.Again = true
	}
	return again, why
}

// changedArgs returns the keys of overwrite whose value differs from the
// one toolCall.args of raw holds, compared as JSON values: a key absent
// from the arguments counts as changed.
func changedArgs(raw []byte, overwrite []keyValue) []string {
	current := argsOf(raw)
	var changed []string
	for _, kv := range overwrite {
		if v, ok := current[kv.Key]; !ok || !sameJSON(v, kv.Value) {
			changed = append(changed, kv.Key)
		}
	}
	return changed
}

// argsOf returns the members of toolCall.args of a payload, the last of a
// repeated key counting, as the agent's decoder would; nil when there are
// none.
func argsOf(raw []byte) map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	root, _, serr := schema.ParseJSON(raw)
	if serr != nil {
		// A payload only encoding/json accepts (see ParsePayload).
		var top struct {
			ToolCall struct {
				Args map[string]json.RawMessage `json:"args"`
			} `json:"toolCall"`
		}
		if json.Unmarshal(raw, &top) == nil && top.ToolCall.Args != nil {
			return top.ToolCall.Args
		}
		return out
	}
	call := root.Get("toolCall")
	if call == nil {
		return out
	}
	args := call.Value.Get("args")
	if args == nil || args.Value.Kind != schema.Object {
		return out
	}
	for i := range args.Value.Members {
		m := &args.Value.Members[i]
		out[m.Key] = raw[m.Value.Span.Start.Offset:m.Value.Span.End.Offset]
	}
	return out
}

// sameJSON reports whether a and b hold the same JSON value, whatever the
// spacing and the order of keys. Numbers compare as written: 1 and 1.0
// differ, which at worst runs the user's gates once more than needed.
func sameJSON(a, b json.RawMessage) bool {
	if bytes.Equal(a, b) {
		return true
	}
	var va, vb any
	da, db := json.NewDecoder(bytes.NewReader(a)), json.NewDecoder(bytes.NewReader(b))
	da.UseNumber()
	db.UseNumber()
	if da.Decode(&va) != nil || db.Decode(&vb) != nil {
		return false
	}
	return reflect.DeepEqual(va, vb)
}

// lookup returns the value of key in kvs.
func lookup(kvs []keyValue, key string) (json.RawMessage, bool) {
	for _, kv := range kvs {
		if kv.Key == key {
			return kv.Value, true
		}
	}
	return nil, false
}

// joinAnd joins words as "a", "a and b", "a, b and c".
func joinAnd(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}
